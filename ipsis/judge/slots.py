"""A claim word standing where the passage has another word, between the same neighbours (issue 25).

:func:`ipsis.judge.structure.swap_cues` catches ``estado de alarma`` / ``estado de excepción``, the
``N de X`` shape. People and models swap a word in any slot: the actor before the verb (``As empresas
privadas asseguram`` / ``O Estado assegura``), the agent after it (``relaxada pela autoridade
policial`` / ``pela autoridade judiciária``), the owner of a right (``la huelga de los empresarios`` /
``de los trabajadores``), a qualifier (``interés particular`` / ``interés general``, ``igualdad y
regresividad`` / ``igualdad y progresividad``). The reading is the same in every case: a content word
of the claim that the passage does not have, whose neighbouring content words in the claim are
neighbours in the passage of a word the claim does not have. Both neighbours must agree where the
claim has two (a sentence edge stands for a missing one), so a reworded phrase is not read as a swap.

Two more slots are read the same way: the subject that opens the claim before the verb the passage
has too (:func:`subject_cues`: ``O titular ... será responsabilizado`` / ``Os agentes de tratamento
... serão responsabilizados``, ``As empresas privadas asseguram`` / ``O Estado assegura``), and a noun
of the other gender (:func:`gender_cues`: ``aos presidiários`` / ``às presidiárias``), another person.

A synonym in the same slot (``ficar com os filhos`` / ``permanecer com seus filhos``) looks the same
to this rule; that is why the cue is soft: it lowers the support score (the verdict is not
``supported``) and names the two words, it never makes the answer ``contradicts``.

>>> from ipsis.judge.analysis import Analysis
>>> p = Analysis("a prisão ilegal será imediatamente relaxada pela autoridade judiciária;", "pt")
>>> slot_cues(Analysis("A prisão ilegal será imediatamente relaxada pela autoridade policial.", "pt"), p)
[('words: claim: autoridade policial; section: autoridade judiciária', 0.35, False)]
>>> slot_cues(Analysis("A autoridade judiciária relaxa de imediato a prisão ilegal.", "pt"), p)
[]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ipsis.judge.align import participles, rewording
from ipsis.judge.text import fold
from ipsis.lexicon import NEGATIVE_PREFIXES, NEGATORS, SYNONYMS, words

if TYPE_CHECKING:
    from ipsis.judge.analysis import Analysis

Cue = tuple[str, float, bool]
ALL_NEGATORS = NEGATORS["pt"] | NEGATORS["es"] | NEGATORS["en"]
OF = words("de do da dos das del of")
OPPOSITE = 0.1
"""Support factor of a word whose negative-prefixed form the passage has in its slot (a hard cue)."""
SLOT_SWAP = 0.35
"""Support factor of a swapped word (the same as :data:`ipsis.judge.structure.SLOT_SWAP`)."""
REACH = 3
"""Tokens a neighbouring content word may lie away (articles and prepositions between)."""
GLUE = words(
    "o a os as um uma el la los las un una lo the an de do da dos das del al of pelo pela pelos pelas por by"
    " e y and is are é são es son"
)
"""What may stand inside a noun phrase between two of its words."""
NOT_SLOTS = words("""possa possam pueda puedan could might would once after before when while certo certa certos certas
    seguinte seguintes cierto cierta ciertos ciertas siguiente siguientes certain following such""")
"""Modal verbs and determiner-like words: the word after ``possa`` is a verb, ``certas``/``seguintes``
pick out the same things in other words."""
VERB_ENDINGS = ("ar", "er", "ir", "am", "em", "an", "en")
ADVERB_ENDINGS = ("mente", "ly")
"""Endings of infinitives and third-person plurals (pt/es): two verbs in one slot are most often
synonyms or another tense (``causar``/``acarretar``, ``tiverem``/``tenham``), not a swapped role."""


def _neighbour(a: Analysis, k: int, step: int, tight: bool = False) -> int | None:
    """The nearest content token before (``step`` -1) or after (+1) token ``k`` in its sentence,
    within :data:`REACH` tokens; None at a sentence edge or past a number. ``tight``: only
    articles, ``de``/``of``, ``pelo``/``by`` and ``e``/``y``/``and`` may stand between (a noun
    phrase: ``autoridade policial``, ``huelga de los empresarios``, ``igualdad y progresividad``),
    not a verb, a modal or a negation (``possa causar``, ``não são admitidas``)."""
    m = k + step
    while 0 <= m < len(a.low) and abs(m - k) <= REACH and a.sent[m] == a.sent[k]:
        if a.stems[m]:
            return m
        if a.low[m].isdigit() or (tight and a.low[m] not in GLUE):
            return None
        m += step
    return None


def _through_of(a: Analysis, i: int, j: int) -> bool:
    """A ``de``/``of`` between tokens ``i`` < ``j``: ``issuer of the JWT``, not ``requieren una ley``."""
    return any(a.low[q] in OF for q in range(i + 1, j))


def _prefixed(x: str, y: str) -> bool:
    """One word is the other with a negative prefix, up to its ending: ``depende`` /
    ``independentemente``, ``progresividad`` / ``regresividad`` is not (no prefix)."""
    fx, fy = fold(x), fold(y)
    for a, b in ((fx, fy), (fy, fx)):
        if any(b.startswith(p) and len(a) >= 5 and b[len(p) :].startswith(a[:5]) for p in NEGATIVE_PREFIXES):
            return True
    return False


def _related(x: str, y: str) -> bool:
    """Two stems of one word (inflection, spelling): ``judici``/``judiciá``, ``asseguram``/``assegura``."""
    fx, fy = fold(x), fold(y)
    return fx[:5] == fy[:5] or fx.startswith(fy) or fy.startswith(fx)


def _same_slot_word(x: str, y: str, lang: str) -> bool:
    """Two verbs (``causar``/``acarretar``), two adverbs (``nomeadamente``/``designadamente``) or
    two words of one :data:`ipsis.lexicon.SYNONYMS` group: another wording, not a swap."""
    if x.endswith(VERB_ENDINGS) and y.endswith(VERB_ENDINGS):
        return True
    if x.endswith(ADVERB_ENDINGS) and y.endswith(ADVERB_ENDINGS):
        return True
    return _synonyms(x, y) or rewording(x, y, lang)


def _synonyms(x: str, y: str) -> bool:
    return any(x in g and y in g for g in SYNONYMS)


def _new_word(claim: Analysis, passage: Analysis, k: int) -> bool:
    """Claim token ``k`` is a content word the passage does not have in any form."""
    s = claim.stems[k]
    if not s or not claim.toks[k].text.isalpha() or len(claim.low[k]) < 3 or claim.low[k] in NOT_SLOTS:
        return False
    return s not in passage.stem_set and not any(_related(s, ps) for ps in passage.stem_set)


def slot_cues(claim: Analysis, passage: Analysis) -> list[Cue]:
    """The first claim word that stands in a passage word's slot (see the module docstring)."""
    for k in range(len(claim.low)):
        if not _new_word(claim, passage, k):
            continue
        left, right = _neighbour(claim, k, -1), _neighbour(claim, k, +1)
        for anchor, step in ((left, +1), (right, -1)):
            if anchor is None or claim.low[anchor] in NOT_SLOTS or _neighbour(claim, anchor, step, tight=True) != k:
                continue
            other = right if step == +1 else left
            for m, ps in enumerate(passage.stems):
                if ps != claim.stems[anchor]:
                    continue
                w = _neighbour(passage, m, step, tight=True)
                if w is None or not passage.toks[w].text.isalpha() or passage.stems[w] in claim.stem_set:
                    continue
                if step == -1 and not (_through_of(claim, k, anchor) and _through_of(passage, w, m)):
                    continue  # a word before its noun is most often a verb ("requieren una ley")
                if _prefixed(claim.low[k], passage.low[w]):
                    if any(claim.low[q] in ALL_NEGATORS for q in range(max(0, k - 2), k)) or any(
                        passage.low[q] in ALL_NEGATORS for q in range(max(0, w - 3), w)
                    ):
                        break  # "não depende de autorização" says "independentemente de autorização"
                    said, shown = claim.toks[k].text, passage.toks[w].text
                    return [(f"opposite: claim: {said}; section: {shown}", OPPOSITE, True)]
                if _related(passage.stems[w], claim.stems[k]) or passage.low[w] in NOT_SLOTS:
                    continue
                if _same_slot_word(passage.low[w], claim.low[k], passage.lang) or participles(claim, k, passage, w):
                    continue
                beyond = _neighbour(passage, w, step)
                if other is None or (beyond is not None and passage.stems[beyond] == claim.stems[other]):
                    lo, hi = sorted((anchor, k))
                    plo, phi = sorted((m, w))
                    return [
                        (
                            f"words: claim: {claim._span(lo, hi + 1)}; section: {passage._span(plo, phi + 1)}",
                            SLOT_SWAP,
                            False,
                        )
                    ]
    return []


DETERMINERS = words("o a os as um uma el la los las un una the an each every cada todo toda")
SUBJECT_SPAN = 6
"""Tokens between an opening subject and its verb."""
GENDERED = (("os", "as"), ("o", "a"))
ARTICLES = DETERMINERS | words("aos às ao à do da dos das del al")
"""Articles, alone or joined to a preposition, before a noun whose gender they show."""
"""Endings of the two genders of one Portuguese/Spanish noun (``presidiários``/``presidiárias``)."""


def _opening_subject(a: Analysis, k: int) -> int | None:
    """The noun that opens the sentence of token ``k`` after its articles, or None."""
    start = k
    while start > 0 and a.sent[start - 1] == a.sent[k]:
        start -= 1
    m = start
    while m < len(a.low) and a.sent[m] == a.sent[k] and (a.low[m] in DETERMINERS or not a.toks[m].text.isalpha()):
        m += 1
    if m < len(a.low) and a.sent[m] == a.sent[k] and a.stems[m] and a.low[m] not in DETERMINERS and m > start:
        return m
    return None


def subject_cues(claim: Analysis, passage: Analysis) -> list[Cue]:
    """The claim's opening subject where every sentence of the passage with the same verb opens
    with another subject the claim does not name. For claims without a modal verb (with one,
    :func:`ipsis.judge.structure.actor_cues` reads the actor); the word right after the subject
    is its modifier (``partidos políticos``), not its verb."""
    x = _opening_subject(claim, 0) if claim.low and not claim.modals else None
    if x is None:
        return []
    for k in range(x + 2, min(len(claim.low), x + 1 + SUBJECT_SPAN)):
        p = claim.stems[k]
        if not p or p not in passage.stem_set or claim.low[k - 1] in OF:
            continue
        seen = None
        for m, ps in enumerate(passage.stems):
            if ps != p:
                continue
            y = _opening_subject(passage, m)
            if y is None or not 0 < m - y <= SUBJECT_SPAN or passage.stems[y] in claim.stem_set:
                return []  # a sentence of the passage with this verb and no other subject
            if any(passage.stems[q] == claim.stems[x] for q in range(y, m)) or _synonyms(claim.low[x], passage.low[y]):
                return []
            seen = seen or (y, m)
        if seen is None:
            return []
        y, m = seen
        said, shown = f"{claim.toks[x].text} … {claim.toks[k].text}", f"{passage.toks[y].text} … {passage.toks[m].text}"
        return [(f"actor: claim: {said}; section: {shown}", SLOT_SWAP, False)]
    return []


def _other_gender(x: str, y: str) -> bool:
    fx, fy = fold(x), fold(y)
    if len(fx) < 6 or fx == fy:
        return False
    return any(
        (fx.endswith(a) and fy.endswith(b) and fx[: -len(a)] == fy[: -len(b)])
        or (fx.endswith(b) and fy.endswith(a) and fx[: -len(b)] == fy[: -len(a)])
        for a, b in GENDERED
    )


def gender_cues(claim: Analysis, passage: Analysis) -> list[Cue]:
    """A noun after an article in the claim whose other-gender form, after an article, is what the
    passage has (and not this form): ``aos presidiários`` / ``às presidiárias``."""
    have = set(passage.low)
    for k, w in enumerate(claim.low):
        if w in have or k == 0 or claim.low[k - 1] not in ARTICLES:
            continue
        for m, v in enumerate(passage.low):
            if m and _other_gender(w, v) and passage.low[m - 1] in ARTICLES:
                return [(f"words: claim: {claim.toks[k].text}; section: {passage.toks[m].text}", SLOT_SWAP, False)]
    return []

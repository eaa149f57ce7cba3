"""The claim aligned with the quote's own sentence, content word by content word (issue 25).

A careful reader lays the claim over the sentence it cites: each content word of the claim meets
the same word in the sentence, another form of it (``exercer``/``exercício``, ``naturalizado``/
``naturalização``), a word of its :data:`ipsis.lexicon.SYNONYMS` group, or nothing. The two
sequences of content words are aligned (longest common subsequence, :mod:`difflib`); what is left
is one of three things:

- a claim word **in place of** a sentence word, between words both share (``presume inocente até``
  / ``presume culpado até``, ``statements about the subject`` / ``about the issuer``): the claim
  says something else in that slot. The cue names both words; it is soft (it lowers the support
  score below the auto-accept line, never ``contradicts``), since a synonym the table lacks looks
  the same. A claim word the section uses elsewhere in another role (``issuer`` in a section on
  ``iss``) weighs more than a word the section lacks;
- a claim word **added** where the sentence has none: a paraphrase's own wording, read by the
  coverage share only;
- a sentence word the claim **drops**: a summary's right, unless it is a limiter (the limiter cues).

Verbs in one slot (two infinitives or two finite forms of pt/es, ``-ing``/``-s`` forms of en)
and adverbs are read as rewording, not as a swap; so are words of one synonym group. Hard cues
come from the same alignment: a claim word whose opposite (:data:`ipsis.lexicon.ANTONYMS`) holds
its slot (``culpado``/``inocente``), two words that trade slots (``civilmente ... criminal`` /
``criminalmente ... civil``), and the quote's ``sem X`` against the claim's plain ``X``
(:func:`privative_cues`). :func:`prep_slot_cues` reads one more slot: the role after the same verb
and the same kind of preposition (``recae sobre el afectado`` / ``recaerá sobre el responsable``).

>>> from ipsis.judge.analysis import Analysis
>>> q = Analysis("a pena será cumprida em estabelecimentos distintos, de acordo com a natureza do delito, "
...     "a idade e o sexo do apenado", "pt")
>>> substitution_cues(Analysis("A pena será cumprida em estabelecimentos distintos, de acordo com a renda do "
...     "apenado.", "pt"), q, q)
[('words: claim: renda; section: natureza delito idade sexo', 0.4, False)]
>>> q = Analysis("Todo o arguido se presume inocente até ao trânsito em julgado da sentença", "pt")
>>> substitution_cues(Analysis("O arguido presume-se culpado até ao trânsito em julgado da sentença.", "pt"), q, q)
[('opposite: claim: culpado; section: inocente', 0.1, True)]
>>> substitution_cues(Analysis("O arguido presume-se inocente até ao trânsito em julgado.", "pt"), q, q)
[]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher
from typing import TYPE_CHECKING

from ipsis.judge.text import fold
from ipsis.lexicon import ANTONYMS, NEGATORS, SYNONYMS, words

if TYPE_CHECKING:
    from ipsis.judge.analysis import Analysis

Cue = tuple[str, float, bool]
NEGATORS_ALL = frozenset().union(*NEGATORS.values())

SWAPPED_ABSENT = 0.4
"""Support factor of a claim word in a sentence word's slot that the section does not have."""
SWAPPED_ELSEWHERE = 0.3
"""Support factor of a claim word in a sentence word's slot that the section uses elsewhere."""
OPPOSITE = 0.1
"""Support factor of a word whose opposite the sentence has in its slot (a hard cue)."""
ROLES_TRADED = 0.15
"""Support factor of two words that trade their slots (a hard cue)."""
MAX_BLOCK = 2
MAX_LIST = 4
"""A claim's noun phrase may stand for a short list of the sentence (``de acordo com a renda`` / ``de
acordo com a natureza do delito, a idade e o sexo``)."""
NOUN_LEFT = words("""o a os as um uma de do da dos das no na nos nas ao aos à às el la los las un una del al
    lo the an of with com con para por pelo pela in on at for from em en sobre about""")
"""Words before a noun phrase (an article, a preposition): what stands after them is not a verb."""
SWAPPED_AT_EDGE = 0.55
"""Support factor of a swapped word held by shared words on one side only (the claim's last words)."""
"""Content words on each side of a replaced block: longer blocks are a rewording, not a slot."""
VERB_ENDINGS = ("ar", "er", "ir", "por", "am", "em", "an", "en", "rse", "ando", "endo", "indo", "ou", "rão", "rá")
"""Endings of pt/es infinitives and finite forms (``causar``, ``dispor``, ``causou``, ``requieren``,
``casarse``, ``prestará``): a verb in a slot is most often another verb for the same act."""
NOT_VERBS = words("""titular titulares particular particulares militar militares familiar familiares popular populares
    regular regulares singular escolar escolares similar nuclear lugar mar poder poderes dever deveres mulher
    mulheres prazer ordem orden homem origem origen imagem imagen margem margen crime crimen régimen regime
    exame examen bem bens""")
"""Nouns and adjectives with a verb's ending (``titular``, ``ordem``): in a slot they are read as words."""
PARTICIPLES = ("ado", "ido", "ada", "ida", "ados", "idos", "adas", "idas")
EN_VERB_ENDINGS = ("ing", "ed", "es", "s")
ROMAN = re.compile(r"[IVXLCDM]+")
"""An inciso's number (``XIII``): a label, never a word in a slot."""
ADVERB_ENDINGS = ("mente", "ly")
NOT_SLOTS = words("""possa possam pueda puedan could might would once after before when while certo certa certos
    certas seguinte seguintes cierto cierta ciertos ciertas siguiente siguientes certain following such cada
    pessoa persona person caso casos hipótese hipóteses supuesto supuestos case cases forma modo manera way
    nela nele nelas neles dela dele delas deles both either ambos ambas tanto tanta quanto cuanto asimismo
    igualmente también também also""")
"""Words that stand for the same things in other words (``certas``/``seguintes``, ``cada``, ``pessoa``)."""


def related(x: str, y: str) -> bool:
    """Two stems of one word (inflection, derivation, spelling): ``exerce``/``exercí``, ``morai``/``moral``,
    ``sub``/``subjec``."""
    fx, fy = fold(x), fold(y)
    if fx[:4] == fy[:4] and min(len(fx), len(fy)) >= 4:
        return True
    return fx == fy or (len(fy) >= 3 and fx.startswith(fy)) or (len(fx) >= 3 and fy.startswith(fx))


def _synonyms(x: str, y: str) -> bool:
    return any(x in g and y in g for g in SYNONYMS)


def rewording(a: str, b: str, lang: str, verbs: bool = True) -> bool:
    """Two words in one slot that are most often another wording: two verbs (unless ``verbs`` is
    False: both stand after an article or a preposition), two adverbs, synonyms."""
    if _synonyms(a, b) or a in NOT_SLOTS or b in NOT_SLOTS:
        return True
    if not verbs:
        return a.endswith(ADVERB_ENDINGS) and b.endswith(ADVERB_ENDINGS)
    a, b = fold(a), fold(b)  # "elegirán" ends as "elegiran" does
    if a.endswith(ADVERB_ENDINGS) and b.endswith(ADVERB_ENDINGS):
        return True
    if lang == "en":
        return a.endswith(EN_VERB_ENDINGS) and b.endswith(EN_VERB_ENDINGS)
    verbish = [w.endswith(VERB_ENDINGS) and w not in NOT_VERBS and not w.endswith(("gem", "gen")) for w in (a, b)]
    return any(verbish)


ADVERBS = words("also still then only always never ainda também también sempre siempre nunca já ya")
VERB_LEFT = words("to can will would does do did not se lhe lhes le les lo la nos may must shall should")
"""Words after which a word is a verb (``to keep``, ``se aplica``)."""
NEGATIVE_PREFIXES = ("in", "im", "ir", "i", "des", "dis", "un", "non")


def _after_noun_left(a: Analysis, k: int) -> bool:
    """Token ``k`` follows an article or a preposition (the Spanish ``o`` is "or", no article)."""
    return k > 0 and a.low[k - 1] in NOUN_LEFT and not (a.lang == "es" and a.low[k - 1] == "o")


def participles(claim: Analysis, k: int, near: Analysis, t: int) -> bool:
    """Two participles in one slot, neither after an article or a preposition (``crime comum
    cometido`` / ``praticado``): one act in other words; ``economía de mercado`` is a noun."""
    both = claim.low[k].endswith(PARTICIPLES) and near.low[t].endswith(PARTICIPLES)
    return both and not _after_noun_left(claim, k) and not _after_noun_left(near, t)


def _verbal(a: Analysis, k: int) -> bool:
    """Token ``k`` stands where a verb stands: after a modal phrase, ``to``, a clitic (one adverb
    may stand between: ``should also carry``)."""
    for m in (k - 1, k - 2):
        if m < 0 or (m == k - 2 and a.low[k - 1] not in ADVERBS and not a.low[k - 1].endswith(ADVERB_ENDINGS)):
            continue
        if a.low[m] in VERB_LEFT or any(site.j == m + 1 for site in a.modals):
            return True
    return False


def _negated_twin(claim: Analysis, k: int, near: Analysis, theirs: list[int]) -> bool:
    """The claim negates a word whose negative-prefixed form the quote has in its slot."""
    if not any(claim.low[q] in NEGATORS_ALL or q in claim.consumed for q in range(max(0, k - 4), k)):
        return False
    w = fold(claim.low[k])
    return any(
        fold(near.low[t]).startswith(p) and fold(near.low[t])[len(p) : len(p) + 5] == w[:5]
        for t in theirs
        for p in NEGATIVE_PREFIXES
    )


def _content(a: Analysis) -> list[int]:
    """Content words, without inciso numbers and number words (the number cues read those)."""
    nums = [(q.start, q.end) for q in a.quantities]
    return [
        k
        for k, s in enumerate(a.stems)
        if s
        and a.toks[k].text.isalpha()
        and not ROMAN.fullmatch(a.toks[k].text)
        and not a.hyphenated(k)
        and not any(lo <= a.toks[k].start < hi for lo, hi in nums)
    ]


def _keys(claim: Analysis, near: Analysis, cidx: list[int], qidx: list[int]) -> list[str]:
    """Each claim content word as the sentence stem it stands for (itself, another form, a synonym)."""
    have = {near.stems[m]: near.low[m] for m in qidx}
    out = []
    for k in cidx:
        s = claim.stems[k]
        if s in have:
            out.append(s)
            continue
        twin = next((q for q, w in have.items() if related(s, q) or _synonyms(claim.low[k], w)), None)
        out.append(twin or f"+{s}")
    return out


def _opposites() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for a, b in ANTONYMS:
        out.setdefault(fold(a), set()).add(fold(b))
        out.setdefault(fold(b), set()).add(fold(a))
    return out


_OPPOSITES = _opposites()


def _opposite_in_slot(claim: Analysis, near: Analysis, mine: list[int], theirs: list[int]) -> list[Cue]:
    """A claim word whose opposite (:data:`ipsis.lexicon.ANTONYMS`) the sentence has in the same
    slot, even when the sentence uses the claim's word elsewhere (``um menor ... cuando sea menor``
    / ``un menor ... cuando sea mayor``): a hard cue."""
    for k in mine:
        for m in theirs:
            if fold(near.low[m]) in _OPPOSITES.get(fold(claim.low[k]), ()):
                said, shown = claim.toks[k].text, near.toks[m].text
                return [(f"opposite: claim: {said}; section: {shown}", OPPOSITE, True)]
    return []


def _names_traded(claim: Analysis, near: Analysis) -> tuple[str, str] | None:
    """Two hyphenated names that stand in the other order in the quote, each once, with the same
    words between them (``the no-store directive SHOULD also contain the must-understand`` /
    ``the must-understand directive SHOULD also contain the no-store``)."""
    mine, theirs = _names(claim), _names(near)
    keys, their_keys = [n for n, _ in mine], [n for n, _ in theirs]
    if len(keys) != 2 or len(set(keys)) != 2 or their_keys != keys[::-1]:
        return None
    (x, y) = (n for n, _ in mine)
    between_c = {claim.stems[k] for k in range(mine[0][1][1], mine[1][1][0]) if claim.stems[k]}
    between_q = {near.stems[k] for k in range(theirs[0][1][1], theirs[1][1][0]) if near.stems[k]}
    return (x, y) if between_c and between_c == between_q else None


def _names(a: Analysis) -> list[tuple[str, tuple[int, int]]]:
    """Hyphenated names (casefolded) with their ``[first, last + 1)`` token ranges, in order."""
    return [(key, span) for span, key in _compounds(a)]


def _compounds(a: Analysis) -> list[tuple[tuple[int, int], str]]:
    out = []
    k = 0
    while k < len(a.toks):
        if a.text[a.toks[k].end : a.toks[k].end + 1] == "-" and k + 1 < len(a.toks):
            j = k
            while j + 1 < len(a.toks) and a.toks[j + 1].start == a.toks[j].end + 1 and a.text[a.toks[j].end] == "-":
                j += 1
            if j > k:
                out.append(((k, j + 1), a.text[a.toks[k].start : a.toks[j].end].casefold()))
                k = j + 1
                continue
        k += 1
    return out


def _mirrored(
    ops: Sequence[tuple[str, int, int, int, int]], ckeys: list[str], qkeys: list[str]
) -> tuple[int, int] | None:
    """Two one-word slots that trade their words (``civilmente identificado ... identificação
    criminal`` / ``criminalmente identificado ... identificação civil``): the claim positions."""
    singles = [(i1, j1) for tag, i1, i2, j1, j2 in ops if tag == "replace" and i2 - i1 == 1 and j2 - j1 == 1]
    for a, (i, j) in enumerate(singles):
        for i2, j2 in singles[a + 1 :]:
            if ckeys[i] == qkeys[j2] and ckeys[i2] == qkeys[j]:
                return i, i2
    return None


def substitution_cues(claim: Analysis, near: Analysis, section: Analysis) -> list[Cue]:
    """The first claim word that takes a sentence word's slot (see the module docstring)."""
    cidx, qidx = _content(claim), _content(near)
    if not cidx or not qidx:
        return []
    ckeys = _keys(claim, near, cidx, qidx)
    qkeys = [near.stems[m] for m in qidx]
    ops = SequenceMatcher(None, ckeys, qkeys, autojunk=False).get_opcodes()
    # names traded too ("no-store ... must-understand" / "must-understand ... no-store")
    swap = _mirrored(ops, ckeys, qkeys)
    if swap is not None:
        x, y = (claim.toks[cidx[i]].text for i in swap)
        return [(f"roles: claim: {x} … {y}; section: {y} … {x} (traded places)", ROLES_TRADED, True)]
    traded = _names_traded(claim, near)
    if traded is not None:
        x, y = traded
        return [(f"roles: claim: {x} … {y}; section: {y} … {x} (traded places)", ROLES_TRADED, True)]
    for n, (tag, i1, i2, j1, j2) in enumerate(ops):
        if tag != "replace" or i2 - i1 > MAX_BLOCK or j2 - j1 > MAX_LIST:
            continue
        if j2 - j1 > MAX_BLOCK and claim.low[cidx[i1] - 1 : cidx[i1]] and claim.low[cidx[i1] - 1] not in NOUN_LEFT:
            continue  # a list of the sentence stands for a noun phrase of the claim ("a renda"), not a verb
        before = n > 0 and ops[n - 1][0] == "equal"
        after = n + 1 < len(ops) and ops[n + 1][0] == "equal"
        if not (before and after) and not (before and i2 == len(ckeys)) and not (after and i1 == 0):
            continue  # the slot must be held between shared words (or a shared word and the edge)
        edge = not (before and after)
        opposite = _opposite_in_slot(claim, near, [cidx[i] for i in range(i1, i2)], [qidx[j] for j in range(j1, j2)])
        if opposite:
            return opposite
        mine = [cidx[i] for i in range(i1, i2) if ckeys[i].startswith("+")]
        theirs = [qidx[j] for j in range(j1, j2) if qkeys[j] not in ckeys and near.stems[qidx[j]] not in claim.stem_set]
        if not mine or not theirs:
            continue
        k = mine[0]
        nouns = _after_noun_left(claim, k) and all(_after_noun_left(near, t) for t in theirs[:1])
        if any(rewording(claim.low[k], near.low[t], near.lang, verbs=not nouns) for t in theirs):
            continue  # "in milliseconds" / "in seconds" are two nouns, "claim names" / "claim identifies" two verbs
        if any(participles(claim, k, near, t) for t in theirs):
            continue  # "comum, cometido" / "comum, praticado"; "economía de mercado" is a noun
        if _verbal(claim, k) and any(_verbal(near, t) for t in theirs):
            continue  # "MAY allow" / "MAY provide", "to keep" / "to prevent": two verbs
        if _negated_twin(claim, k, near, theirs):
            continue  # "não pode ser violada" / "inviolável"
        said = " ".join(claim.toks[i].text for i in mine)
        shown = " ".join(near.toks[j].text for j in theirs)
        factor = SWAPPED_ELSEWHERE if claim.stems[k] in section.stem_set else SWAPPED_ABSENT
        return [(f"words: claim: {said}; section: {shown}", SWAPPED_AT_EDGE if edge else factor, False)]
    return prep_slot_cues(claim, near, cidx) + privative_cues(claim, near)


PREPOSITIONS = {
    "agent": words("por pelo pela pelos pelas by"),
    "on": words("sobre on upon"),
    "before": words("perante ante before"),
    "against": words("contra against"),
}
"""Prepositions that open a role after a verb: the agent (``dado pelos pais``), the one a burden
falls on (``recae sobre el responsable``), the one before whom or against whom."""
_PREP_CLASS = {w: cls for cls, ws in PREPOSITIONS.items() for w in ws}


def _role_after(a: Analysis, k: int) -> int | None:
    """The content word after the preposition at token ``k`` (articles and ``próprio``, ``pelo
    menos um dos`` between), in its sentence."""
    return next(iter(_role_words(a, k, 1)), None)


def _role_words(a: Analysis, k: int, n: int) -> list[int]:
    """Up to ``n`` content words after token ``k`` within six tokens, in its sentence."""
    out = []
    for m in range(k + 1, min(len(a.low), k + 7)):
        if a.sent[m] != a.sent[k] or a.low[m] in NEGATORS_ALL or m in a.consumed:
            break  # "pelo titular não podem": the role ends at the verb
        if a.stems[m] and a.low[m] not in NOT_SLOTS and a.toks[m].text.isalpha():
            out.append(m)
    return out[:n]


def prep_slot_cues(claim: Analysis, near: Analysis, cidx: list[int]) -> list[Cue]:
    """The same verb with the same kind of preposition and another role after it: ``recae sobre
    el afectado`` / ``recaerá sobre el responsable``, ``dado pela própria criança`` / ``dado por
    pelo menos um dos pais``."""
    for k in range(1, len(claim.low)):
        cls = _PREP_CLASS.get(claim.low[k])
        verb = k - 1 if claim.stems[k - 1] else None
        if cls is None or verb is None:
            continue
        mine = _role_words(claim, k, 2)
        if not mine:
            continue
        x = mine[-1]
        roles = []
        for v in range(len(near.low) - 1):
            if not near.stems[v] or not related(near.stems[v], claim.stems[verb]):
                continue
            p = next((q for q in range(v + 1, min(len(near.low), v + 3)) if _PREP_CLASS.get(near.low[q]) == cls), None)
            ys = _role_words(near, p, 3) if p is not None else []
            if ys:
                roles.append((v, ys))
        if not roles or any(all(_fills(claim, c, near, ys) for c in mine) for _, ys in roles):
            continue  # no such role in the quote, or one that the claim names
        v, ys = roles[0]
        y = ys[0]
        return [(f"actor: claim: {claim._span(verb, x + 1)}; section: {near._span(v, y + 1)}", SWAPPED_ABSENT, False)]
    return []


def _fills(claim: Analysis, k: int, near: Analysis, ys: list[int]) -> bool:
    """Claim token ``k`` is one of the quote's role words ``ys`` (a form or a synonym of it)."""
    return any(related(near.stems[y], claim.stems[k]) or _synonyms(claim.low[k], near.low[y]) for y in ys)


PRIVATIVE = words("sem sin without")
WITH = words("com con with")


def privative_cues(claim: Analysis, near: Analysis) -> list[Cue]:
    """``sem armas`` in the quote, ``armados`` in the claim with nothing that denies it: the claim
    says the opposite of the quote's ``without``."""
    have = set(near.low)
    for k, w in enumerate(near.low):
        if w not in PRIVATIVE or k in near.consumed:  # "sem prejuízo de" is a limiter
            continue
        n = _role_after(near, k)
        if n is None:
            continue
        for m, s in enumerate(claim.stems):
            with_ = any(claim.low[q] in WITH for q in range(max(0, m - 3), m))  # "mesmo com o devido processo"
            if not s or not related(s, near.stems[n]) or len(s) < 4 or (claim.low[m] in have and not with_):
                continue  # the quote's own word ("sem o assentimento" / "o assentimento") is read elsewhere
            if any(claim.low[q] in PRIVATIVE or claim.low[q] in NEGATORS_ALL for q in range(max(0, m - 4), m)):
                continue
            if claim.negated_near((s,)) or any(site.cls == "prohibition" for site in claim.modals):
                continue
            shown = near._span(k, n + 1)
            return [(f"negation: section: {shown}; claim: {claim.toks[m].text} (no negation)", OPPOSITE, True)]
    return []

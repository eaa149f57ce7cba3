"""Cues from the parts of a claim, aligned with the passage it cites (issue 25).

The lexical cues of :mod:`ipsis.judge.cues` compare numbers, negation and modal verbs. A careful
reader also checks *who* must act, *on what*, *how much* and *with which exceptions*. Each
function here takes the claim's and the passage's :class:`~ipsis.judge.analysis.Analysis` and returns
cues ``(evidence, factor, hard)`` in the same form, so :class:`~ipsis.judge.cues.CueJudge` only
multiplies them in:

- :func:`absolute_cues`: the claim denies any exception (``sem nenhuma exceção``, ``nunca``, ``en
  ningún caso``, ``always``) while the passage has one (``salvo ...``): a limiter conflict;
- :func:`widening_cues`: the claim drops a condition the passage sets (``mesmo sem risco`` against
  ``que possa acarretar risco``) or quantifies universally a noun the passage restricts
  (``qualquer incidente`` against ``incidente ... que possa``);
- :func:`narrowing_cues`: the claim restricts (``solo``, ``apenas``, ``only``) to one item of a
  pair the passage coordinates (``diligencias policiales y judiciales``);
- :func:`bound_cues`: the same number under another bound (``plazo mínimo`` / ``plazo máximo``,
  ``pelo menos`` / ``no máximo``);
- :func:`bound_word_cues`: a bound word before the same words in another sense, with or without a
  number the reader parses (``no máximo um terço`` / ``pelo menos, um terço``);
- :func:`exception_added_cues`: an exception the passage does not make (its own exception or a
  condition it states without a marker, in other words, is not added);
- actors and roles (:mod:`ipsis.judge.roles`), scope (:mod:`ipsis.judge.scope`) and word slots
  (:mod:`ipsis.judge.slots`) are read from :func:`structure_cues` too;
- :func:`swap_cues`: a claim word absent from the passage stands where the passage has another
  word after the same word (``estado de alarma`` / ``estado de excepción``).

Each rule names the words it saw. Hard cues (limiter conflicts, bounds, actors the passage names
otherwise) make the answer ``contradicts``; soft ones (a word the passage does not have) lower the
support score so that the verdict is not ``supported``.

>>> from ipsis.judge.analysis import Analysis
>>> p = Analysis("Se garantiza la asistencia de abogado al detenido en las diligencias policiales y judiciales.")
>>> narrowing_cues(Analysis("La asistencia de abogado solo se garantiza en las diligencias judiciales.", "es"), p)
[('scope: claim: solo ... judiciales; section: policiales y judiciales', 0.15, True)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ipsis.judge.align import related
from ipsis.judge.bounds import bound_word, bound_word_cues
from ipsis.judge.restrict import generic_rule
from ipsis.judge.roles import _synonym, actor_cues, role_cues
from ipsis.judge.scope import scope_cues
from ipsis.judge.slots import gender_cues, slot_cues, subject_cues
from ipsis.judge.text import fold
from ipsis.lexicon import (
    ABSOLUTES,
    ANTONYMS,
    CONDITIONS,
    LIMITERS,
    NEGATIVE_PREFIXES,
    NEGATORS,
    RESTRICTIVE,
    RESTRICTORS,
    UNIVERSALS,
    WIDENERS,
)

if TYPE_CHECKING:
    from ipsis.judge.analysis import Analysis

Cue = tuple[str, float, bool]

LIMITER_CONFLICT = 0.15
"""An exception or condition the claim denies or drops (absolute, widened or narrowed)."""
SLOT_SWAP = 0.35
NEGATION_FACTOR = 0.1
EXCEPTION_ABSENT = 0.3
OF = frozenset(["de", "do", "da", "dos", "das", "del", "of"])
_NEGATORS = frozenset().union(*NEGATORS.values())
COORDINATORS = frozenset({"e", "y", "and", "ou", "o", "or", ","})


def _tuples(table: dict[str, tuple[str, ...]]) -> list[tuple[str, ...]]:
    return sorted({tuple(p.split()) for ps in table.values() for p in ps}, key=len, reverse=True)


_ABSOLUTES = _tuples(ABSOLUTES)
_WIDENERS = _tuples(WIDENERS)
_RESTRICTORS = _tuples(RESTRICTORS)
_LIMITERS = _tuples(LIMITERS)
_CONDITIONS = _tuples(CONDITIONS)
_UNIVERSALS = frozenset().union(*UNIVERSALS.values())


def _find(low: list[str], phrases: list[tuple[str, ...]]) -> list[tuple[int, int]]:
    """Non-overlapping ``[i, j)`` token ranges of ``phrases`` in ``low``, longest first."""
    out: list[tuple[int, int]] = []
    k = 0
    while k < len(low):
        for ph in phrases:
            if tuple(low[k : k + len(ph)]) == ph:
                out.append((k, k + len(ph)))
                k += len(ph)
                break
        else:
            k += 1
    return out


def _absolutes(a: Analysis) -> list[tuple[int, int]]:
    # "sempre que" / "siempre que" is a condition (a limiter), not "always"
    # "may never" / "must never" is a modal verb (a prohibition), compared as one
    found = _find(a.low, _ABSOLUTES)
    return [
        (i, j) for i, j in found if not (j < len(a.low) and a.low[j] == "que" and j - i == 1) and i not in a.consumed
    ]


def _stems_after(a: Analysis, j: int, n: int = 4) -> list[str]:
    sid = a.sent[j - 1] if j else 0
    out = []
    for k in range(j, min(len(a.low), j + 3 * n)):
        if a.sent[k] != sid:
            break
        if a.stems[k]:
            out.append(a.stems[k])
    return out[:n]


def _limiters(a: Analysis, aligned: set[int]) -> list[tuple[int, int]]:
    return [(i, j) for i, j in _find(a.low, _LIMITERS) if i in aligned]


def absolute_cues(claim: Analysis, passage: Analysis, aligned: set[int]) -> list[Cue]:
    """``sem nenhuma exceção`` / ``en ningún caso`` in the claim, an exception in the passage."""
    claims = _absolutes(claim)
    if not claims:
        return []
    if any(i in aligned for i, _ in _absolutes(passage)):
        return []  # the passage is categorical too ("em caso algum", "sin que, en ningún caso")
    i, j = claims[0]
    if claim._span(i, j).casefold() in _LIMITLESS:  # "sem limite" against "de até 2%"
        for k in aligned:
            if bound_word(passage, k) == "upper":
                shown = passage._span(k, min(len(passage.toks), k + 4))
                return [(f"limiter: claim: {claim._span(i, j)}; section: {shown}", LIMITER_CONFLICT, True)]
    for li, lj in _limiters(passage, aligned) + [r for r in _find(passage.low, _CONDITIONS) if r[0] in aligned]:
        if _carried(claim, passage, lj):
            continue  # the claim keeps the condition ("só pode ... nos casos previstos na lei e nunca ...")
        clause = passage._span(li, min(len(passage.toks), lj + 6))
        return [(f"limiter: claim: {claim._span(i, j)}; section: {clause}", LIMITER_CONFLICT, True)]
    return []


def _carried(claim: Analysis, passage: Analysis, j: int) -> bool:
    """The claim has most content words of the passage's limiter clause after token ``j``."""
    clause = _stems_after(passage, j, 4)
    return len(clause) >= 2 and sum(1 for c in clause if c in claim.stem_set) * 3 >= len(clause) * 2


def widening_cues(claim: Analysis, passage: Analysis, aligned: set[int]) -> list[Cue]:
    """``mesmo sem X`` where the passage conditions on X; ``qualquer N`` where it restricts N."""
    out: list[Cue] = []
    own = {tuple(passage.low[i:j]) for i, j in _find(passage.low, _WIDENERS)}
    for i, j in _find(claim.low, _WIDENERS):
        if tuple(claim.low[i:j]) in own:
            continue  # the passage says "even if" too
        # "mesmo que tenha adotado" / "ao deixar de adotar": one verb in two forms
        dropped = [s for s in _stems_after(claim, j, 3) if s in passage.stem_set or _form_of(s, passage.stem_set)]
        dropped = [next((p for p in passage.stem_set if _form_of(s, {p})), s) if s not in passage.stem_set else s
                   for s in dropped]
        if dropped and _both_negated(claim, j, passage, passage.stems.index(dropped[0])):
            dropped = []  # "aunque el terrorismo no se considera" / "no considerándose ... el terrorismo"
        if dropped and _widened(passage, passage.stems.index(dropped[0])):
            dropped = []  # "sem precisar de autorização" / "independentemente de autorização": both drop it
        if dropped:
            k = passage.stems.index(dropped[0])
            shown = passage._span(max(0, k - 3), min(len(passage.toks), k + 2))
            out.append((f"limiter: claim: {claim._span(i, j)} {dropped[0]}…; section: {shown}", LIMITER_CONFLICT, True))
    for k, w in enumerate(claim.low):
        if w not in _UNIVERSALS:
            continue
        noun = next((claim.stems[m] for m in range(k + 1, min(len(claim.low), k + 3)) if claim.stems[m]), "")
        if not noun:
            continue
        rule = generic_rule(claim, k, passage)  # "every recipient" / "A recipient MUST": that sentence only
        for m, s in enumerate(passage.stems):
            if s != noun or m not in aligned or any(passage.low[q] in _UNIVERSALS for q in range(max(0, m - 2), m)):
                continue
            if rule is not None and passage.sent[m] != rule:
                continue
            window = passage.low[m + 1 : m + 5]
            if any(x in RESTRICTIVE for x in window):
                shown = passage._span(m, min(len(passage.toks), m + 6))
                out.append((f"limiter: claim: {w} {claim.toks[k + 1].text}…; section: {shown}", LIMITER_CONFLICT, True))
                return out
    return out


def _widened(passage: Analysis, k: int) -> bool:
    """The passage's token ``k`` follows a concessive phrase within four words (``independentemente
    de autorização``, ``sem necessidade de qualquer autorização``): the passage drops that condition
    too. (A bare ``sem`` is no such phrase: ``não poderão ser repassados sem o consentimento``
    restricts.)"""
    return any(max(0, k - 4) <= i < k for i, _ in _find(passage.low, _WIDENERS))


def _both_negated(claim: Analysis, j: int, passage: Analysis, k: int) -> bool:
    """A negator in the claim's clause after token ``j`` and one near the passage's token ``k``."""
    mine = any(w in _NEGATORS for w in claim.low[j : j + 6])
    theirs = any(w in _NEGATORS for w in passage.low[max(0, k - 6) : k + 4])
    return mine and theirs


def _form_of(st: str, stems: set[str]) -> bool:
    """``st`` shares its first five letters with one of ``stems`` (``adotad``/``adotar``)."""
    return len(st) >= 5 and any(len(p) >= 5 and fold(p)[:5] == fold(st)[:5] for p in stems)


def narrowing_cues(claim: Analysis, passage: Analysis, aligned: set[int] | None = None) -> list[Cue]:
    """``solo ... judiciales`` against ``policiales y judiciales``: a restriction to one of a pair."""
    spans = _find(passage.low, _RESTRICTORS)
    own = {tuple(fold(w) for w in passage.low[i:j]) for i, j in spans}
    restricted = {passage.stems[k] for _, j in spans for k in range(j, min(len(passage.low), j + 3))}
    for i, j in _find(claim.low, _RESTRICTORS):
        if tuple(fold(w) for w in claim.low[i:j]) in own:
            continue
        for s in _clause_stems(claim, j, 5):
            for m, ps in enumerate(passage.stems):
                if ps != s or (aligned is not None and m not in aligned) or ps in restricted:
                    continue  # "sólo individualmente": the passage restricts to it too
                pair = _coordinated(passage, m)
                if pair is not None and (pair[0] not in claim.stem_set or _denied(claim, pair[0])):
                    _, lo, hi = pair
                    shown = passage._span(lo, hi)
                    said = f"{claim._span(i, j)} ... {claim.toks[claim.stems.index(s)].text}"
                    return [(f"scope: claim: {said}; section: {shown}", LIMITER_CONFLICT, True)]
    return []


def _clause_stems(a: Analysis, j: int, n: int) -> list[str]:
    """Up to ``n`` content stems after token ``j`` in its clause: a comma or a limiter ends it
    (``únicamente a los españoles, salvo ... el sufragio``: the restriction reaches ``españoles``)."""
    out = []
    limiters = {s.i for s in a.limiters}
    for k in range(j, min(len(a.low), j + 3 * n)):
        if k > j and ("," in a.text[a.toks[k - 1].end : a.toks[k].start] or k in limiters):
            break
        if a.sent[k] != a.sent[j - 1 if j else 0]:
            break
        if a.stems[k]:
            out.append(a.stems[k])
    return out[:n]


def _denied(a: Analysis, st: str) -> bool:
    """The claim names ``st`` after a negator, to exclude it (``apenas a de crença, não a de consciência``)."""
    hits = [k for k in range(len(a.low)) if a.stems[k] == st]
    return any(a.low[q] in _NEGATORS for k in hits for q in range(max(0, k - 4), k))


def _coordinated(a: Analysis, m: int) -> tuple[str, int, int] | None:
    """A content stem coordinated with token ``m`` in its clause (``policiales y judiciales``,
    ``juiz competente e à família``, ``controlador e o operador``, ``su residencia y a circular``)
    and the span of the pair; articles, prepositions and one modifier may stand in between."""
    sid = a.sent[m]

    def glue(k: int) -> bool:  # "o" is the Portuguese article as well as the Spanish "or"
        word = a.low[k] if 0 <= k < len(a.low) else ""
        if word in _NEGATORS or k in a.consumed:
            return False  # "públicas e não podem ser dissolvidas": two clauses, not a pair
        return bool(word) and a.sent[k] == sid and not a.stems[k] and (word not in COORDINATORS or word == "o")

    # after: X [modifier] [glue] (e|y|and|ou|,) [glue] Y
    k = m + 1
    if k < len(a.low) and a.sent[k] == sid and a.stems[k] and a.low[k + 1 : k + 2] and a.low[k + 1] in COORDINATORS:
        k += 1  # one modifier: "juiz competente e ..."
    while glue(k) and a.low[k] not in COORDINATORS:
        k += 1
    if k < len(a.low) and a.sent[k] == sid and a.low[k] in COORDINATORS:
        j = k + 1
        while glue(j):
            j += 1
        if j < len(a.low) and a.sent[j] == sid and a.stems[j]:
            return a.stems[j], m, j + 1
    # before: Y [glue] (e|y|and|ou|,) [glue] X
    k = m - 1
    while glue(k) and a.low[k] not in COORDINATORS:
        k -= 1
    if k > 0 and a.low[k] == "o" and a.low[k - 1] in COORDINATORS - {"o"}:
        k -= 1  # "a idade e o sexo": the article after the conjunction
    if k >= 0 and a.sent[k] == sid and a.low[k] in COORDINATORS:
        j = k - 1
        while glue(j):
            j -= 1
        if j >= 0 and a.sent[j] == sid and a.stems[j]:
            return a.stems[j], j, m + 1
    # a list: Y, [glue] X ("os mandantes, os executores")
    if k >= 0 and a.sent[k] == sid and a.stems[k] and "," in a.text[a.toks[k].end : a.toks[k + 1].start]:
        return a.stems[k], k, m + 1
    return None


_LIMITLESS = frozenset(
    p for ps in ABSOLUTES.values() for p in ps if p.split()[-1] in {"limite", "limites", "límite", "limit", "total"}
) | frozenset({"ilimitado", "ilimitada", "unlimited", "indefinidamente", "indefinitely"})
"""Absolutes that deny a bound: against ``até``, ``no máximo``, ``up to`` a limiter conflict."""


def swap_cues(claim: Analysis, passage: Analysis) -> list[Cue]:
    """A noun phrase ``N de X`` whose ``X`` the passage lacks, where the passage has ``N de Y``
    with a ``Y`` the claim lacks: ``estado de alarma`` / ``estado de excepción``. Only the ``de``
    pattern: a synonym verb (``causar`` / ``acarretar``) is no swap."""
    for k, s in enumerate(claim.stems):
        if not s or s in passage.stem_set or k < 2 or claim.low[k - 1] not in OF or not claim.stems[k - 2]:
            continue
        head = claim.stems[k - 2]
        for m in range(len(passage.stems) - 2):
            if passage.stems[m] != head or passage.low[m + 1] not in OF:
                continue
            theirs = passage.stems[m + 2]
            if theirs and theirs not in claim.stem_set and fold(theirs)[:4] != fold(s)[:4] and not _synonym(
                claim.low[k], passage.low[m + 2]
            ):
                said = claim._span(k - 2, k + 1)
                shown = passage._span(m, m + 3)
                return [(f"words: claim: {said}; section: {shown}", SLOT_SWAP, False)]
    return []


def _opposites() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for a, b in ANTONYMS:
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return out


_OPPOSITES = _opposites()


def _prefixed(a: str, b: str) -> bool:
    """``b`` is ``a`` with a negative prefix (``involuntário``/``voluntário``)."""
    return len(a) >= 5 and any(b == p + a for p in NEGATIVE_PREFIXES)


def _negated_word(a: Analysis, w: str) -> bool:
    """Some occurrence of ``w`` has a negator up to three words before it."""
    return any(a.low[q] in _NEGATORS for k, x in enumerate(a.low) if x == w for q in range(max(0, k - 3), k))


def polarity_cues(claim: Analysis, passage: Analysis) -> list[Cue]:
    """A claim word whose opposite the passage has instead (``last``/``first``,
    ``case-insensitive``/``case-sensitive``, ``involuntário``/``voluntário``)."""
    have = set(passage.low)
    for k, w in enumerate(claim.low):
        if w in have or not claim.toks[k].text.isalpha():
            continue
        theirs = next((o for o in _OPPOSITES.get(w, ()) if o in have), None)
        if theirs is None:
            theirs = next((o for o in have if _prefixed(o, w) or _prefixed(w, o)), None)
        if theirs is not None and theirs not in claim.low:
            if _negated_word(passage, theirs) or _negated_word(claim, w):
                continue  # "not case sensitive" says "case-insensitive"
            return [(f"opposite: claim: {claim.toks[k].text}; section: {theirs}", NEGATION_FACTOR, True)]
    return []


def exception_added_cues(claim: Analysis, passage: Analysis, aligned: set[int]) -> list[Cue]:
    """An exception or condition in the claim (``salvo em período eleitoral``) that the passage
    does not make: against a categorical passage a conflict, otherwise no support for it."""
    theirs = [set(site.cls.split()) for site in passage.limiters]
    # a marker whose own clause is cut short ("salvo, no caso ...") is read over the passage's words
    markers = {passage._span(site.i, site.j).casefold() for site in passage.limiters if len(site.cls.split()) < 2}
    for i, j in _find(claim.low, _LIMITERS):
        clause = [s for s in _stems_after(claim, j, 3) if s]
        if claim._span(i, j).casefold() in markers and sum(c in passage.stem_set for c in clause) * 2 >= len(clause):
            continue  # the same exception word over the passage's words ("salvo, no último caso" / "salvo, no caso")
        if not clause or any(sum(any(related(c, x) for x in t) for c in clause) * 2 >= len(clause) for t in theirs):
            continue  # the passage makes this exception too ("salvo em caso de flagrante delito")
        marker = claim._span(i, j).casefold()
        before = {claim.stems[k] for k in range(max(0, i - 8), i) if claim.stems[k]}
        own = [
            (site.i, site.j)
            for site in passage.limiters
            if site.i in aligned and passage._span(site.i, site.j).casefold() == marker and set(site.anchors) & before
        ]
        after_own = {k for _, lj in own for k in range(lj, min(len(passage.low), lj + 10))}
        if own and _restated(clause, passage, after_own):
            continue  # the passage's own exception in other words ("salvo como aprendizes a partir de quatorze")
        if marker in PROVISOS and not _limiters(passage, aligned) and _restated(clause, passage, aligned):
            continue  # a condition the passage states without a marker ("desde que atenda" / "atendidas")
        said = claim._span(i, min(len(claim.toks), j + 4))
        if any(r[0] in aligned for r in _absolutes(passage)) or not _limiters(passage, aligned):
            return [(f"limiter: claim: {said}; section: (no such exception)", LIMITER_CONFLICT, True)]
        return [(f"limiter: claim: {said}; section: another exception", EXCEPTION_ABSENT, False)]
    return []


PROVISOS = frozenset({"desde que", "siempre que", "provided that", "as long as"})
"""Limiter markers that set a condition rather than an exception: a passage may state the same
condition without a marker (a participle, a list item)."""


def _restated(clause: list[str], passage: Analysis, aligned: set[int]) -> bool:
    """Most words of a claim's exception or condition clause (one form or another) are in the
    sentences of the passage closest to the claim: it restates what the passage says there
    (``desde que atenda às qualificações`` / ``atendidas as qualificações``, ``desde que usados uma
    única vez`` / ``utilizados uma única vez``)."""
    near = {passage.stems[k] for k in aligned if passage.stems[k]}
    found = sum(1 for c in clause if c in near or any(related(c, p) for p in near))
    return len(clause) >= 2 and found * 3 >= len(clause) * 2


def structure_cues(claim: Analysis, passage: Analysis, core: Analysis, aligned: set[int]) -> list[Cue]:
    """Every cue of this module: exceptions and scope against the section (``passage``, with
    its sentences closest to the claim ``aligned``); actors and words against ``core``, the
    quote's own sentences when they hold the claim."""
    core_all = set(range(len(core.low)))
    out = absolute_cues(claim, passage, aligned) + widening_cues(claim, passage, aligned)
    out += narrowing_cues(claim, core, core_all) or narrowing_cues(claim, passage, aligned)
    out += actor_cues(claim, core, passage) or subject_cues(claim, core)
    out += (swap_cues(claim, core) or slot_cues(claim, core) or gender_cues(claim, core)) + role_cues(claim, core)
    out += polarity_cues(claim, core) + exception_added_cues(claim, passage, aligned)
    out += [] if any(text.startswith("bound:") for text, _, _ in out) else bound_word_cues(claim, core)
    return out + scope_cues(claim, passage, core, aligned)

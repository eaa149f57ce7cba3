"""Scope cues a careful reader adds to :mod:`ipsis.judge.structure` (issue 25, fourth round).

- :func:`bounded_universal_cues`: the claim quantifies a noun universally (``todo o seu patrimônio``,
  ``all of its``) that the passage bounds (``até o limite do valor do patrimônio``, ``up to``);
- :func:`restricted_widener_cues`: the claim restricts (``only intermediaries that implement a
  cache``) what the passage says regardless of that condition (``regardless of whether it
  implements a cache``, ``independentemente de``);
- :func:`without_cues`: the claim does ``sem licença`` / ``sin autorización`` / ``without consent``
  what the passage does ``mediante licença`` / ``con autorización`` / ``with consent``;
- :func:`both_either_cues`: ``both X and Y`` against the passage's ``either X or Y`` (one of them is
  enough) and the other way round.

Each cue names its words and is hard (the answer is ``contradicts``).

>>> from ipsis.judge.analysis import Analysis
>>> p = Analysis("The JWT MUST conform to either the [JWS] or [JWE] specification.", "en")
>>> both_either_cues(Analysis("The JWT MUST conform to both the JWS and the JWE specifications.", "en"), p)
[('scope: claim: both; section: either … or', 0.15, True)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ipsis.lexicon import ABSOLUTES, HEDGES, INSISTERS, NEGATORS, RESTRICTORS, UNIVERSALS, WIDENERS, words

if TYPE_CHECKING:
    from ipsis.judge.analysis import Analysis

Cue = tuple[str, float, bool]
SCOPE_CONFLICT = 0.15
"""Support factor of a scope conflict (the same as :data:`ipsis.judge.structure.LIMITER_CONFLICT`)."""
_UNIVERSALS = frozenset().union(*UNIVERSALS.values())
NEGATORS_ALL = frozenset().union(*NEGATORS.values())
_UPPER = sorted({tuple(p.split()) for p in words("limite límite limit máximo máxima maximum")}, key=len, reverse=True)
_RESTRICTORS = sorted({tuple(p.split()) for ps in RESTRICTORS.values() for p in ps}, key=len, reverse=True)
_HEDGES = sorted({tuple(p.split()) for ps in HEDGES.values() for p in ps}, key=len, reverse=True)
_ABSOLUTE_WORDS = frozenset(p for ps in ABSOLUTES.values() for p in ps if " " not in p) | INSISTERS
HEDGE_DROPPED = 0.6
"""Support factor of a hedge of the quote's sentence (``normalmente``) that the claim drops."""
_WIDENERS = sorted({tuple(p.split()) for ps in WIDENERS.values() for p in ps}, key=len, reverse=True)
BOTH = words("both ambos ambas")
EITHER = words("either")


def _at(low: list[str], k: int, phrases: list[tuple[str, ...]]) -> tuple[str, ...] | None:
    return next((ph for ph in phrases if tuple(low[k : k + len(ph)]) == ph), None)


def _noun_after(a: Analysis, k: int, reach: int = 3) -> int | None:
    """The first content word after token ``k`` within ``reach`` tokens."""
    return next((m for m in range(k + 1, min(len(a.low), k + 1 + reach)) if a.stems[m]), None)


def bounded_universal_cues(claim: Analysis, passage: Analysis) -> list[Cue]:
    """``com todo o seu patrimônio`` against ``até o limite do valor do patrimônio transferido``."""
    for k, w in enumerate(claim.low):
        if w not in _UNIVERSALS:
            continue
        n = _noun_after(claim, k)
        if n is None:
            continue
        for m, s in enumerate(passage.stems):
            if s != claim.stems[n] or any(passage.low[q] in _UNIVERSALS for q in range(max(0, m - 3), m)):
                continue  # "todas aquelas propostas": the passage quantifies it too
            for b in range(max(0, m - 6), m):
                ph = _at(passage.low, b, _UPPER)
                if ph is not None and b + len(ph) <= m:
                    shown = passage._span(b, m + 1)
                    return [(f"scope: claim: {w} … {claim.toks[n].text}; section: {shown}", SCOPE_CONFLICT, True)]
    return []


def restricted_widener_cues(claim: Analysis, passage: Analysis, aligned: set[int]) -> list[Cue]:
    """``Only intermediaries that implement a cache`` against ``regardless of whether it implements a cache``."""
    for i in range(len(claim.low)):
        ph = _at(claim.low, i, _RESTRICTORS)
        if ph is None:
            continue
        mine = {claim.stems[m] for m in range(i + len(ph), min(len(claim.low), i + len(ph) + 8)) if claim.stems[m]}
        for b in range(len(passage.low)):
            wide = _at(passage.low, b, _WIDENERS)
            if wide is None or b not in aligned:
                continue
            after = range(b + len(wide), min(len(passage.low), b + len(wide) + 6))
            theirs = [m for m in after if passage.stems[m] and passage.stems[m] in mine]
            if theirs:
                shown = passage._span(b, theirs[-1] + 1)
                return [(f"scope: claim: {claim._span(i, i + len(ph))} …; section: {shown}", SCOPE_CONFLICT, True)]
    return []


def _denied_either(a: Analysis) -> bool:
    """Every ``either`` of the passage follows a negation or a prohibition in its sentence: ``MUST
    NOT store any part of either the request or the response`` denies both."""
    negative = [s.i for s in a.negations] + [s.i for s in a.modals if s.cls in ("prohibition", "discouraged")]
    eithers = [k for k, w in enumerate(a.low) if w in EITHER]
    return all(any(n < k and a.sent[n] == a.sent[k] for n in negative) for k in eithers)


ALTERNATIVE_JOINERS = words("or ou o")


def dropped_alternative_cues(claim: Analysis, passage: Analysis) -> list[Cue]:
    """``The JWT MUST conform to the JWS specification`` against ``MUST conform to either the JWS
    or JWE specification``: the claim keeps one of two explicit alternatives and drops the other."""
    if set(claim.low) & (ALTERNATIVE_JOINERS | EITHER) or _denied_either(passage):
        return []  # under "MUST NOT ... either X or Y" each of X and Y is denied
    for k, w in enumerate(passage.low):
        if w not in EITHER:  # "ou"/"o" are articles too: only "either" opens two alternatives for sure
            continue
        ahead = range(k + 1, min(len(passage.low), k + 14))
        join = next((q for q in ahead if passage.low[q] in ALTERNATIVE_JOINERS), None)
        if join is None or passage.sent[join] != passage.sent[k]:
            continue
        first = [passage.stems[q] for q in range(k + 1, join) if passage.stems[q]]
        second = [passage.stems[q] for q in range(join + 1, min(len(passage.low), join + 1 + len(first) + 2))
                  if passage.stems[q]]
        kept = [s for s in first if s in claim.stem_set and s not in second]
        lost = [s for s in second if s not in claim.stem_set and s not in first]
        if not (kept and lost) and not (lost := [s for s in first if s not in claim.stem_set and s not in second]):
            continue
        if not kept and not any(s in claim.stem_set and s not in first for s in second):
            continue
        shown = passage._span(k, min(len(passage.low), join + 1 + len(first)))
        return [(f"scope: claim: one alternative; section: {shown}", SCOPE_CONFLICT, True)]
    return []


def both_either_cues(claim: Analysis, passage: Analysis) -> list[Cue]:
    """``both … and`` in the claim where the passage says ``either … or`` (or the reverse)."""
    c, p = set(claim.low), set(passage.low)
    if c & BOTH and p & EITHER and not c & EITHER and not _denied_either(passage):
        return [("scope: claim: both; section: either … or", SCOPE_CONFLICT, True)]
    if c & EITHER and p & {"both"} and not c & BOTH and "or" not in p:
        return [("scope: claim: either … or; section: both", SCOPE_CONFLICT, True)]
    return []


def _hedges(a: Analysis) -> list[tuple[int, int]]:
    out = []
    for k in range(len(a.low)):
        ph = _at(a.low, k, _HEDGES)
        if ph is not None:
            out.append((k, k + len(ph)))
    return out


def hedge_cues(claim: Analysis, passage: Analysis) -> list[Cue]:
    """The quote's sentence holds its rule as a rule (``preferencialmente aos domingos``,
    ``in certain circumstances``); the claim says it always holds (``obrigatoriamente``,
    ``always``: a conflict) or drops the hedge (soft)."""
    theirs = _hedges(passage)
    if not theirs or _hedges(claim):
        return []
    i, j = theirs[0]
    shown = passage._span(i, j)
    strong = next((claim.toks[k].text for k, w in enumerate(claim.low) if w in _ABSOLUTE_WORDS), None)
    if strong is not None:
        return [(f"limiter: claim: {strong}; section: {shown}", SCOPE_CONFLICT, True)]
    return [(f"limiter: section: {shown}; claim: (absent)", HEDGE_DROPPED, False)]


WITHOUT = words("sem sin without")
WITH = words("mediante com con with através by upon quando cuando when if where onde donde")
"""Words that require the noun after them (``mediante requisição``, ``cuando existan razones``)."""
FILLERS = words("necessidade necesidad need exigência exigencia qualquer cualquier any nenhuma ninguna prévia previa")
"""Words between ``sem`` and the noun it denies: ``sem necessidade de requisição`` denies ``requisição``."""


def without_cues(claim: Analysis, passage: Analysis) -> list[Cue]:
    """``sem licença`` in the claim where the passage requires ``mediante licença`` and never says
    ``sem licença`` itself (``sem armas`` / ``sem armas`` agree)."""
    for k, w in enumerate(claim.low):
        if w not in WITHOUT:
            continue
        n = _noun_after(claim, k, 2)
        while n is not None and claim.low[n] in FILLERS:
            n = _noun_after(claim, n, 3)
        if n is None:
            continue
        hits = [m for m, s in enumerate(passage.stems) if s == claim.stems[n]]
        if any(passage.low[q] in WITHOUT for m in hits for q in range(max(0, m - 3), m)):
            continue
        for m in hits:
            q = next((q for q in range(m - 1, max(-1, m - 4), -1) if passage.low[q] in WITH), None)
            if q is not None and any(w in NEGATORS_ALL for w in passage.low[m + 1 : m + 6]):
                continue  # "when an explicit time is not specified" is "without an explicit time"
            if q is not None:
                shown = passage._span(q, m + 1)
                return [(f"limiter: claim: {w} {claim.toks[n].text}; section: {shown}", SCOPE_CONFLICT, True)]
    return []


def scope_cues(claim: Analysis, passage: Analysis, core: Analysis, aligned: set[int]) -> list[Cue]:
    """Every cue of this module: universals and widened conditions against the quote's sentences
    (``core``), the restriction against the section's sentences closest to the claim."""
    return (
        bounded_universal_cues(claim, core)
        + restricted_widener_cues(claim, passage, aligned)
        + both_either_cues(claim, core)
        + dropped_alternative_cues(claim, core)
        + without_cues(claim, core)
    )

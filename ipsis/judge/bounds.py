"""Bounds on quantities: ``no máximo`` / ``pelo menos``, ``plazo mínimo`` / ``plazo máximo``,
``up to`` / ``more than`` (split from :mod:`ipsis.judge.structure`).

The same number under another bound is another rule; a bound word before the same words in
another sense, with or without a number the reader parses, is too (``no máximo um terço a mais``
/ ``pelo menos, um terço a mais``). A negated bound (``não superior a``, ``no más de``) is an upper
bound, and ``más de`` / ``superior a`` a lower one.

>>> from ipsis.judge.analysis import Analysis
>>> c, p = Analysis("El plazo es de más de 72 horas.", "es"), Analysis("El plazo es de no más de 72 horas.", "es")
>>> bound_cues(c, p, bound_pairs(c, p))
[('bound: claim: lower 72 horas; section: upper 72 horas', 0.1, True)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ipsis.lexicon import BOUNDS

if TYPE_CHECKING:
    from ipsis.judge.analysis import Analysis
    from ipsis.judge.numbers import Quantity

Cue = tuple[str, float, bool]

BOUND_CONFLICT = 0.1
_BOUNDS = {kind: sorted({tuple(p.split()) for p in ps}, key=len, reverse=True) for kind, ps in BOUNDS.items()}


def bound_word(a: Analysis, k: int) -> str | None:
    """``upper``/``lower``/``exact`` when a bound phrase starts at token ``k`` (and none that
    starts before it covers it: ``more than`` inside ``no more than`` is no bound of its own)."""
    if any(k - b >= 0 and tuple(a.low[k - b : k - b + len(ph)]) == ph and len(ph) > b
           for ps in _BOUNDS.values() for ph in ps for b in (1, 2)):
        return None
    for kind, phrases in _BOUNDS.items():
        if any(tuple(a.low[k : k + len(ph)]) == ph for ph in phrases):
            return kind
    return None


def bound_of(a: Analysis, q: Quantity) -> str | None:
    """``upper``, ``lower`` or ``exact`` when words right before quantity ``q`` bound it."""
    before = [k for k, t in enumerate(a.toks) if t.end <= q.start][-5:]
    if not before:
        return None
    low = [a.low[k] for k in before]
    for kind, phrases in _BOUNDS.items():
        for ph in phrases:
            n = len(ph)
            for s in range(len(low) - n + 1):
                if tuple(low[s : s + n]) == ph:
                    return kind
    return None


def bound_word_cues(claim: Analysis, passage: Analysis) -> list[Cue]:
    """A bound before the same words in another sense, numbers or not: ``no máximo um terço a
    mais`` / ``pelo menos, um terço a mais``."""
    for i in range(len(claim.low)):
        kind = bound_word(claim, i)
        if kind is None:
            continue
        ph = next(ph for ph in _BOUNDS[kind] if tuple(claim.low[i : i + len(ph)]) == ph)
        after = claim.low[i + len(ph) : i + len(ph) + 2]
        for m in range(len(passage.low)):
            theirs = bound_word(passage, m)
            if theirs is None or theirs == kind:
                continue
            pp = next(p for p in _BOUNDS[theirs] if tuple(passage.low[m : m + len(p)]) == p)
            if len(after) == 2 and passage.low[m + len(pp) : m + len(pp) + 2] == after:
                shown = passage._span(m, m + len(pp) + 2)
                return [(f"bound: claim: {claim._span(i, i + len(ph) + 2)}; section: {shown}", BOUND_CONFLICT, True)]
    return []


def bound_cues(claim: Analysis, passage: Analysis, pairs: list[tuple[Quantity, Quantity]]) -> list[Cue]:
    """For each claim number matched to an equal passage number: the bounds must agree."""
    out: list[Cue] = []
    for q, p in pairs:
        bq, bp = bound_of(claim, q), bound_of(passage, p)
        if bq and bp and bq != bp:
            out.append((f"bound: claim: {bq} {q.surface}; section: {bp} {p.surface}", BOUND_CONFLICT, True))
    return out


def bound_pairs(claim: Analysis, passage: Analysis) -> list[tuple[Quantity, Quantity]]:
    """Each claim quantity with an equal passage quantity (the first in order)."""
    from ipsis.judge.numbers import same_quantity

    out = []
    for q in claim.quantities:
        p = next((p for p in passage.quantities if same_quantity(q, p)), None)
        if p is not None:
            out.append((q, p))
    return out

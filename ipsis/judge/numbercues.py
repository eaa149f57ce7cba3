"""Numbers compared between a claim and its section: the number in the same slot must be the same.

:func:`number_cues`: each claim number must be in the passage, and the one whose surrounding words
agree with it (its slot: ``prazo de 48 horas`` / ``prazo de 72 horas``) must be equal;
:func:`quote_number_cues`: a claim number of a kind the quote itself states must be one of the
quote's. The quantities are :mod:`ipsis.judge.numbers`'; the cues are :mod:`ipsis.judge.cues`'.

>>> from ipsis.judge.analysis import Analysis
>>> number_cues(Analysis("O prazo é de 72 horas.", "pt"), Analysis("O prazo é de 48 horas.", "pt"))
[('number: claim: 72 horas; section: 48 horas', 0.08, True)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ipsis.judge.numbers import Quantity, comparable, same_quantity
from ipsis.judge.text import stem

if TYPE_CHECKING:
    from ipsis.judge.analysis import Analysis

NUMBER_CONFLICT, NUMBER_ABSENT = 0.08, 0.45
"""Support factors: another number in the same slot (hard); a number the section lacks (soft)."""
MIN_SLOT = 2
"""Words around a number that must agree before two numbers are taken to fill the same slot."""


def _context(a: Analysis, q: Quantity) -> tuple[list[str], list[str]]:
    """Up to 5 words before (nearest first) and after a quantity, casefolded."""
    before = [t.low for t in a.toks if t.end <= q.start][-5:][::-1]
    after = [t.low for t in a.toks if t.start >= q.end][:5]
    return before, after


def _run(x: list[str], y: list[str]) -> int:
    n = 0
    for u, v in zip(x, y, strict=False):
        if u != v and stem(u) != stem(v):
            break
        n += 1
    return n


def _slot_match(x: tuple[list[str], list[str]], y: tuple[list[str], list[str]]) -> int:
    """How many words around two quantities agree, outward from each (their shared slot)."""
    return _run(x[0], y[0]) + _run(x[1], y[1])


def number_cues(claim: Analysis, passage: Analysis) -> list[tuple[str, float, bool]]:
    """Each claim number must be in the passage; the one in the same slot must be equal."""
    out: list[tuple[str, float, bool]] = []
    slots = [(_context(passage, p), p) for p in passage.quantities]
    for q in claim.quantities:
        qs = _context(claim, q)
        scored = [(_slot_match(qs, ps), p) for ps, p in slots]
        best = max((sc for sc, _ in scored), default=0)
        if best >= MIN_SLOT:
            peers = [p for sc, p in scored if sc == best]
            if any(same_quantity(q, p) for p in peers):
                continue
            rivals = [p for p in peers if comparable(q, p) or (q.unit is None and p.unit is None)]
        else:
            if any(same_quantity(q, p) for p in passage.quantities):
                continue
            rivals = [p for p in passage.quantities if comparable(q, p)]
        if rivals:
            shown = "; ".join(dict.fromkeys(p.surface for p in rivals[:3]))
            out.append((f"number: claim: {q.surface}; section: {shown}", NUMBER_CONFLICT, True))
        else:
            out.append((f"number: claim: {q.surface}; section: no such number", NUMBER_ABSENT, False))
    return out


def _noun_after_number(a: Analysis, q: Quantity) -> str:
    """The stem of the word right after a unitless number (``dos Senadores``), else ``""``."""
    if q.unit is not None:
        return ""
    return next((a.stems[k] for k, t in enumerate(a.toks) if t.start >= q.end), "")


def quote_number_cues(claim: Analysis, quote: Analysis) -> list[tuple[str, float, bool]]:
    """The quote's own numbers: a claim number of a kind the quote states (``anos``, a period, a
    percentage) that equals none of the quote's numbers of that kind is another number, whatever
    the rest of the section says (``dezoito anos para Vereador`` / ``vinte e um anos``, in an
    article that gives ``vinte e um anos`` for another office)."""
    for q in claim.quantities:
        noun = _noun_after_number(claim, q)
        theirs = [p for p in quote.quantities if comparable(q, p) or (noun and noun == _noun_after_number(quote, p))]
        if any(p.value == q.value for p in quote.quantities):
            continue  # "menores de dezoito": the quote's unit is implied
        if theirs and not any(same_quantity(q, p) for p in theirs) and not any(
            same_quantity(x, p) for x in claim.quantities for p in theirs
        ):
            shown = "; ".join(dict.fromkeys(p.surface for p in theirs[:3]))
            return [(f"number: claim: {q.surface}; quote: {shown}", NUMBER_CONFLICT, True)]
    return []


__all__ = ["MIN_SLOT", "NUMBER_ABSENT", "NUMBER_CONFLICT", "number_cues", "quote_number_cues"]

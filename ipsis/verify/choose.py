"""Choosing among the places of a quote: the W3C context first, then scores, then a position.

A W3C TextQuoteSelector's prefix/suffix keeps the places whose text around them agrees. When
none agrees, the literal W3C reading (:attr:`Policy.strict_context`) selects nothing; any other
policy keeps the places whose context is most alike, scored as the Hypothesis client's
match-quote.ts does (:func:`~ipsis.verify.match.candidate_score`), and says so in a
``context_not_found`` warning. A position hint that is where one place starts chooses it.

>>> v = "we had everything before us, we had nothing before us"
>>> typo = "we had every-thing"
>>> places, warning = by_context(v, [(18, 27), (44, 53)], Context(typo), typo, "", Policy())
>>> places, warning["kind"]
([(18, 27)], 'context_not_found')
>>> by_context(v, [(18, 27), (44, 53)], Context("nothing"), "nothing", "", Policy())
([(44, 53)], None)
"""

from __future__ import annotations

from typing import Any

from ipsis.ingest.normalize import Normalized
from ipsis.verify.match import Context, candidate_score, context_similarity, prefix_score, suffix_score
from ipsis.verify.policy import Policy


def by_context(
    vt: str, hits: list[tuple[int, int]], context: Context, prefix: str, suffix: str, policy: Policy
) -> tuple[list[tuple[int, int]], dict[str, Any] | None]:
    """The places whose text around them is the given prefix/suffix (W3C), and a warning when
    none is: under the strict policy no place is left; otherwise the places whose context is
    most similar (:func:`~ipsis.verify.match.candidate_score`) stay, and the warning names the
    context that was not found."""
    literal = policy.max_tier == "exact"
    scored = []
    for s, e in hits:
        ps, ss = prefix_score(vt, s, context.prefix, literal), suffix_score(vt, e, context.suffix, literal)
        if ps is not None and ss is not None:
            scored.append((ps + ss, (s, e)))
    if scored:
        best = max(score for score, _ in scored)
        return [h for score, h in scored if score == best], None
    side = " and ".join(
        f"{name} {given!r}"
        for name, given, missing in (
            ("prefix", prefix, any(prefix_score(vt, s, context.prefix, literal) is None for s, _ in hits)),
            ("suffix", suffix, any(suffix_score(vt, e, context.suffix, literal) is None for _, e in hits)),
        )
        if given and missing
    )
    where = "the place" if len(hits) == 1 else f"any of the {len(hits)} places"
    warning: dict[str, Any] = {"kind": "context_not_found", "message": f"the given {side} is not around {where}"}
    if prefix:
        warning["prefix"] = prefix
    if suffix:
        warning["suffix"] = suffix
    if policy.strict_context:
        return [], warning
    if len(hits) == 1:
        return hits, warning
    ctx = Context(context.prefix, context.suffix)
    alike = [] if _context_of_elsewhere(vt, ctx) else [h for h in hits if _context_alike(vt, h, ctx)]
    if not alike:  # a context of somewhere else, not a mistyped one: it picks no place
        warning["message"] += "; no place's context is alike enough, so none was chosen"
        return hits, warning
    scores = [(round(candidate_score(vt, s, e, 0.0, ctx, None), 6), (s, e)) for s, e in alike]
    top = max(score for score, _ in scores)
    chosen = [h for score, h in scores if score == top]
    if len(chosen) == 1:
        warning["message"] += f"; the place whose context is most alike was chosen (score {top:.2f})"
    return chosen, warning


CONTEXT_ALIKE = 0.5
"""A place's context must be at least this similar to each given side (prefix, suffix) to be
chosen when no place's context agrees: a mistyped context (``every-thing`` for ``everything``,
``we had nout`` for ``we had nothing``) still picks its place; a context like none of them
picks none (every place is kept, so the quote is ``ambiguous``, not ``located`` by a coin toss)."""
ELSEWHERE_MIN = 12
"""A given side at least this long (spaces trimmed) that is text of the source, though around
none of the places, is the context of somewhere else: it contradicts every place, so it
chooses none however alike (``n de la provincia interesada;`` is printed in another article)."""


def _context_of_elsewhere(vt: str, context: Context) -> bool:
    sides = (context.prefix.strip(), context.suffix.strip())
    return any(len(side) >= ELSEWHERE_MIN and side in vt for side in sides)


def _context_alike(vt: str, hit: tuple[int, int], context: Context) -> bool:
    ps, ss = context_similarity(vt, hit[0], hit[1], context)
    return ps >= CONTEXT_ALIKE and ss >= CONTEXT_ALIKE


def by_position(
    view: Normalized, candidates: list[tuple[int, int]], position: int, policy: Policy
) -> tuple[list[tuple[int, int]], str | None]:
    """A position hint that is where one of the places starts (a TextPositionSelector checked
    against the quote) chooses it; with ``position_breaks_ties`` the nearest place does."""
    starts = [(view.offsets.to_source(s), (s, e)) for s, e in candidates]
    at = [h for start, h in starts if start == position]
    if len(at) == 1:
        return at, f"the position hint {position} is where one place starts"
    if not policy.position_breaks_ties:
        return candidates, None
    dist = sorted((abs(start - position), h) for start, h in starts)
    if dist[0][0] < dist[1][0]:
        return [dist[0][1]], f"tie broken by the position hint {position}"
    return candidates, None

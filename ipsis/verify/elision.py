"""Quotes with inner ellipses, and located quotes that stop right before a limiter clause.

An inner ``...``, ``…``, ``[...]`` or ``(...)`` splits a quote into fragments. Each fragment
is found on its own; a reading is a chain of one occurrence per fragment, in order, each gap
at most ``policy.elision_max_gap`` characters of source text, all in the same top-level
section (article, RFC section) when the document has sections. Among the readings, the one
that elides the least text is taken (ties are ``ambiguous``). The reading is refused
(``not_found``) when its elided text holds a negation or a limiter (``elided_negation``,
``elided_limiter``), or, within one sentence, a number or a condition (``elided_number``,
``elided_condition``: :func:`elided_meaning`): "É vedado [...] o tratamento" must not stand
for "É vedado, salvo ..., o tratamento". Otherwise ``fragments_out_of_order`` /
``fragments_far_apart`` / ``fragments_different_sections`` say why no reading exists.

>>> split_fragments("Todos são iguais [...] sem distinção de qualquer natureza")
['Todos são iguais', 'sem distinção de qualquer natureza']
>>> split_fragments("os dados pessoais") is None
True
"""

from __future__ import annotations

import itertools
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import Any

from ipsis.document import Document
from ipsis.ingest.normalize import Normalized
from ipsis.lazy import LazyPattern
from ipsis.spans import Span
from ipsis.verify.match import find_all, quote_view
from ipsis.verify.policy import Policy
from ipsis.verify.reasons import document_language, has_condition, has_negation_or_limiter, starts_with_limiter

_STOP = LazyPattern("regex", r"[.;!?](?:\s|$)")
"""The end of a sentence (:func:`truncated_before_limiter`)."""
_INNER = LazyPattern("regex", r"\s*(?:\[\s*(?:\.{3}|…)\s*\]|\(\s*(?:\.{3}|…)\s*\)|\.{3}|…)\s*")
MAX_HITS = 2000
"""A fragment found more often than this is too common to anchor a reading on its own."""


def split_fragments(quote: str) -> list[str] | None:
    """The fragments of a quote with inner ellipses, or None when there is no inner ellipsis."""
    parts = [p.strip() for p in _INNER.split(quote)]
    parts = [p for p in parts if p]
    return parts if len(parts) >= 2 else None


@dataclass(slots=True)
class Elision:
    """The outcome for a quote with inner ellipses: ``readings`` hold source spans (one per
    fragment); ``located`` has exactly one reading."""

    status: str
    message: str
    readings: list[list[Span]] = field(default_factory=list)
    nearest: dict[str, Any] | None = None

    def gaps(self, doc: Document) -> list[dict[str, Any]]:
        spans = self.readings[0] if self.readings else []
        return [
            {"start": a.end, "end": b.start, "text": doc.text[a.end : b.start]} for a, b in itertools.pairwise(spans)
        ]


def _top(doc: Document, offset: int) -> str | None:
    finder = getattr(doc.sections, "innermost_at", None)
    if finder is None:
        return None
    sec = finder(offset)
    return None if sec is None else str(sec.id).split("/")[0]


def _chains(hits: list[list[Span]], gap: int) -> list[list[Span]]:
    """Every in-order chain with gaps of at most ``gap`` (bounded, smallest total gap first)."""
    chains: list[list[Span]] = [[h] for h in hits[0]]
    for nxt in hits[1:]:
        starts = [h.start for h in nxt]
        grown = []
        for c in chains:
            end = c[-1].end
            lo, hi = bisect_left(starts, end), bisect_right(starts, end + gap)
            grown += [[*c, h] for h in nxt[lo:hi]]
        grown.sort(key=lambda c: c[-1].end - c[0].start)
        chains = grown[:MAX_HITS]
    return chains


def _cover(spans: list[Span], doc: Document, reasons: list[dict[str, Any]]) -> dict[str, Any]:
    s, e = min(x.start for x in spans), max(x.end for x in spans)
    return {"start": s, "end": e, "text": doc.text[s:e], "reason": reasons[0]["flag"], "reasons": reasons}


def locate_elided(doc: Document, view: Normalized, fragments: list[str], policy: Policy) -> Elision:
    """Find the reading of an elided quote (see the module docstring)."""
    tier, dis = policy.max_tier, policy.disabled_steps
    hits: list[list[Span]] = []
    for i, frag in enumerate(fragments):
        fv = quote_view(frag, tier, dis).text
        found = find_all(view.text, fv, boundaries=policy.boundaries, limit=MAX_HITS)
        if not found:
            return Elision(
                "not_found", f"not found; fragment {i + 1} of {len(fragments)} ({frag[:60]!r}) is not in the source"
            )
        hits.append([view.offsets.span_to_source(Span(h, h + len(fv))) for h in found])
    total = sum(len(quote_view(f, tier, dis).text) for f in fragments)
    chains = _chains(hits, policy.elision_max_gap)
    if not chains:
        return _no_reading(doc, hits, fragments, policy)
    if doc.sections is not None:
        same = [c for c in chains if len({_top(doc, x.start) for x in c}) == 1]
        if not same:
            diff = {"flag": "fragments_different_sections", "quote": fragments, "source": []}
            msg = "not found; the fragments are in different sections of the source"
            return Elision("not_found", msg, nearest=_cover(chains[0], doc, [diff]))
        chains = same
    best = chains[0][-1].end - chains[0][0].start
    tied = [c for c in chains if c[-1].end - c[0].start == best]
    lang = document_language(doc, doc.text)
    gaps = [[doc.text[a.end : b.start] for a, b in itertools.pairwise(c)] for c in tied]
    hidden = [[h for g in gs for h in elided_meaning(g, lang)] for gs in gaps]
    clean = [c for c, w in zip(tied, hidden, strict=True) if not w]
    if not clean:
        flag = hidden[0][0][0]
        words = [w for _, w in hidden[0]]
        reasons = [{"flag": flag, "quote": [], "source": words}]
        msg = (
            f"not found as quoted; the elided text holds {', '.join(repr(w) for w in words)}, which changes the meaning"
        )
        return Elision("not_found", msg, nearest=_cover(tied[0], doc, reasons))
    if len(clean) > 1:
        return Elision("ambiguous", f"{len(clean)} readings of the elided quote are as close", readings=clean)
    if policy.min_length and total < policy.min_length:
        msg = f"found once, but its fragments total {total} characters, below the minimum of {policy.min_length}"
        return Elision("too_short", msg, readings=clean)
    elided = sum(b.start - a.end for a, b in zip(clean[0], clean[0][1:], strict=False))
    msg = f"located once in {len(fragments)} fragments, in order, eliding {elided} characters"
    return Elision("located", msg, readings=clean)


_NUMBER = LazyPattern("regex", r"\d+(?:[.,]\d+)*[ºª°]?")
_SENTENCE_END = LazyPattern("regex", r"[.;:!?](?:\s|$)|\n\s*\n")


def elided_meaning(gap: str, lang: str) -> list[tuple[str, str]]:
    """What the text left out at an ellipsis holds that changes the quote's meaning, as
    ``(flag, words)``: a negation or a limiter anywhere (``elided_negation``,
    ``elided_limiter``); within one sentence (no sentence end in the gap: the quote reads on
    as if the gap's place were filled) also a number (``no prazo de [...] dias``,
    ``Section [...] of``: ``elided_number``) and a condition (``…, y [...] pasa`` for ``y si lo
    confirma …, pasa``: ``elided_condition``).

    >>> elided_meaning(" 30 ", "pt"), elided_meaning(", si lo confirma por mayoría,", "es")
    ([('elided_number', '30')], [('elided_condition', 'si')])
    >>> elided_meaning("os da lei. Art. 5º Todos", "pt")
    []
    """
    out = []
    for w in has_negation_or_limiter(gap, lang):
        out.append(("elided_limiter" if starts_with_limiter(w, lang) else "elided_negation", w))
    if _SENTENCE_END.search(gap) is None:
        out += [("elided_number", m.group()) for m in _NUMBER.finditer(gap)]
        out += [("elided_condition", w) for w in has_condition(gap, lang)]
    order = ("elided_negation", "elided_limiter", "elided_number", "elided_condition")
    return sorted(out, key=lambda h: order.index(h[0]))


def _no_reading(doc: Document, hits: list[list[Span]], fragments: list[str], policy: Policy) -> Elision:
    """Why no chain exists: out of order (a close reading in another order) or far apart."""
    gap = policy.elision_max_gap
    for i in range(len(hits) - 1):
        ends = [b.end for b in hits[i + 1]]
        for a in hits[i]:
            for b in hits[i + 1][bisect_left(ends, a.start - gap) : bisect_right(ends, a.start)]:
                if b.end <= a.start:
                    reasons = [
                        {"flag": "fragments_out_of_order", "quote": [fragments[i], fragments[i + 1]], "source": []}
                    ]
                    msg = f"not found as quoted; fragments {i + 1} and {i + 2} are in the source in the other order"
                    return Elision("not_found", msg, nearest=_cover([b, a], doc, reasons))
    first = [hits[0][0]]
    for h in hits[1:]:
        later = [x for x in h if x.start >= first[-1].end]
        first.append(later[0] if later else h[0])
    far = max(b.start - a.end for a, b in itertools.pairwise(first))
    reasons = [{"flag": "fragments_far_apart", "quote": fragments, "source": []}]
    msg = f"not found as quoted; the fragments are {abs(far)} characters apart (the bound is {gap})"
    return Elision("not_found", msg, nearest=_cover(first, doc, reasons))


def truncated_before_limiter(doc: Document, view: Normalized, view_end: int) -> dict[str, Any] | None:
    """A warning when a located quote stops right before a limiter clause of its sentence.

    >>> from ipsis.verify.match import document_view
    >>> doc = Document("d", "É vedado o tratamento de dados pessoais sensíveis, salvo nas hipóteses legais. Fim.")
    >>> w = truncated_before_limiter(doc, document_view(doc, "typography"), 49)
    >>> w["omitted"], doc.text[w["start"]:w["end"]] == w["omitted"]
    ('salvo nas hipóteses legais', True)
    """
    vt = view.text
    if view_end <= 0 or vt[view_end - 1] in ".;:!?":
        return None
    after = vt[view_end : view_end + 400]
    lim = starts_with_limiter(after)
    if lim is None:
        return None
    s = view_end + after.casefold().find(lim.split()[0])
    stop = _STOP.search(vt[s : s + 400])
    e = s + (stop.start() if stop else min(400, len(vt) - s))
    span = view.offsets.span_to_source(Span(s, e))
    omitted = doc.text[span.start : span.end]
    return {
        "kind": "truncated_before_limiter",
        "message": f"the quote stops right before a limiting clause of the same sentence: {omitted[:160]!r}",
        "limiter": lim,
        "omitted": omitted,
        "start": span.start,
        "end": span.end,
    }


def _seed_places(view: str, seed: str) -> list[int] | None:
    """Every place of ``seed`` in ``view`` (one scan), or None past :data:`_PREFIX_PLACES`."""
    places: list[int] = []
    at = view.find(seed)
    while at != -1:
        if len(places) == _PREFIX_PLACES:
            return None
        places.append(at)
        at = view.find(seed, at + 1)
    return places


def _longest_prefix(view: str, q: str, minimum: int, places: list[int] | None = None) -> int:
    """Length of the longest prefix of ``q`` that occurs in ``view`` (0 below ``minimum``):
    every longer prefix starts where ``q[:minimum]`` does (``places``, from
    :func:`_seed_places`), so a comparison at each (halving on slices, in C) replaces a
    whole-text scan per halving step.

    >>> v = "a cat sat; a cab ran"
    >>> _longest_prefix(v, "a cab sat", 3, _seed_places(v, "a c"))
    6
    """
    if places is not None:
        return max(minimum, *(_common_prefix(view, at, q) for at in places)) if places else 0
    if q[:minimum] not in view:
        return 0
    lo, hi = minimum, len(q)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if q[:mid] in view:
            lo = mid
        else:
            hi = mid - 1
    return lo


_PREFIX_PLACES = 64
"""Above this many places of the seed, :func:`_longest_prefix` halves on whole-text scans."""


def _common_prefix(view: str, at: int, q: str) -> int:
    """How many leading characters of ``q`` agree with ``view`` from ``at`` (halving on slices)."""
    n = min(len(q), len(view) - at)
    if view.startswith(q[:n], at):
        return n
    lo, hi = 0, n - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if view.startswith(q[:mid], at):
            lo = mid
        else:
            hi = mid - 1
    return lo


def omission(view: str, q: str, max_gap: int, minimum: int = 12) -> list[tuple[int, int, int, int]]:
    """Places where ``q`` is the source with one run of text left out, unmarked: the quote's
    head and tail are there exactly, in order, the tail at most ``max_gap`` characters after
    the head. Returns ``(start, gap_start, gap_end, end)`` view positions, smallest gap first
    (only the smallest; several are a tie).

    >>> v = "Ninguém pode ser perguntado, salvo para fins estatísticos, nem ser prejudicado."
    >>> omission(v, "Ninguém pode ser perguntado, nem ser prejudicado.", 500)
    [(0, 29, 59, 79)]
    """
    places = _seed_places(view, q[:minimum])
    head = _longest_prefix(view, q, minimum, places)
    if head == 0 or len(q) - head < minimum:
        return []
    while head > minimum and head < len(q) and q[head - 1].isalnum() and q[head].isalnum():
        head -= 1  # the omitted run starts at a word
    tail = q[head:]
    found: list[tuple[int, int, int, int]] = []
    lead = q[:head]
    # the places of the head are among those of the seed (head >= minimum): no second scan
    heads = iter([at for at in places if view.startswith(lead, at)]) if places is not None else None
    h = next(heads, -1) if heads is not None else view.find(lead)
    while h != -1 and len(found) < MAX_HITS:
        if h == 0 or not view[h - 1].isalnum():
            t = view.find(tail, h + head + 1, h + head + max_gap + len(tail))
            if t != -1:
                found.append((h, h + head, t, t + len(tail)))
        h = next(heads, -1) if heads is not None else view.find(lead, h + 1)
    if not found:
        return []
    best = min(g - s for _, s, g, _ in found)
    return [f for f in found if f[2] - f[1] == best]

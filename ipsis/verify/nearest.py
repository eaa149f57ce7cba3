"""The nearest passage to a quote that is not found: bounded edit distance, never acceptance.

Search runs on the policy's view of the document (page furniture and footnote calls already
left out, so they never count as differences) with edlib's bit-parallel Myers algorithm in
infix (``HW``) mode, bounded by ``k`` edits. edlib wants bytes: the view is copied once per
document into one byte per code point (Latin-1 as is, other characters given spare byte
values), so offsets stay the same and a 1 MB pass costs a few milliseconds. Each pass returns
the places at the best distance; they are masked and the pass repeats, so every local minimum
within the budget is kept (up to :data:`MAX_CANDIDATES`), best first, with ties reported; on a
long text the repeated passes run only on the chunks where something is within the budget
(:func:`search`), so the whole search costs about one pass.

>>> from ipsis.document import Document
>>> doc = Document("d", "Art. 9. O prazo de resposta é de 30 dias, salvo motivo justo.")
>>> n = nearest_passage(doc, "O prazo de resposta é de 60 dias, salvo motivo justo.", Policy())
>>> n["text"], n["distance"], [r["flag"] for r in n["reasons"]]
('O prazo de resposta é de 30 dias, salvo motivo justo.', 1, ['number_changed'])
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

import edlib

from ipsis.document import Document
from ipsis.ingest.normalize import Normalized
from ipsis.spans import Span
from ipsis.verify import batch
from ipsis.verify.elision import omission
from ipsis.verify.grams import Grams, grams_of
from ipsis.verify.match import Context, candidate_score, document_view, is_word_char, quote_view
from ipsis.verify.policy import Policy
from ipsis.verify.reasons import Token, classify, document_language, starts_with_limiter, tokens, word_diff

MAX_CANDIDATES = 8
"""Most local minima kept."""

CHUNK = 32768
"""Bytes per chunk of the first look (whether anything is within the budget there); the chunks
that have something are looked at again in pieces of 1/16 of that."""

SHORT_QUOTE = 60
"""Below this many characters the error budget shrinks in proportion (a 7-character quote
may not differ at all: ``30 dias`` is never "near" ``60 dias``; that is a different quote)."""

_SENTENCE_END = ".;!?"


def budget(length: int, max_error_rate: float, explicit: bool = False) -> int:
    """Edits allowed for a quote of ``length`` characters: the default rate shrinks below
    :data:`SHORT_QUOTE` characters; a rate the user gave is the budget at every length.

    >>> budget(200, 0.2), budget(30, 0.2), budget(7, 0.2), budget(7, 0.2, explicit=True)
    (40, 3, 0, 1)
    """
    scale = 1.0 if explicit else min(1.0, length / SHORT_QUOTE)
    return int(max_error_rate * length * scale + 1e-9)


class _Encoded:
    """A view as bytes (one per code point) and the table for encoding quotes alike."""

    __slots__ = ("_codes", "data", "mask", "table", "unknown")

    def __init__(self, text: str) -> None:
        self.table: dict[int, int] = {}
        try:
            self.data = text.encode("latin-1")
            used = set(self.data)
        except UnicodeEncodeError:
            used = {ord(c) for c in set(text) if ord(c) < 256}
            extra = sorted({c for c in set(text) if ord(c) >= 256})
            spare = [b for b in range(1, 256) if b not in used]
            for i, c in enumerate(extra):
                b = spare[2 + i % max(1, len(spare) - 2)] if len(spare) > 2 else 0x1A
                self.table[ord(c)] = b
            self.data = text.translate(self.table).encode("latin-1", "replace")
            used = set(self.data)
        spare = [b for b in range(1, 256) if b not in used] or [0]
        self.mask = spare[0]
        self.unknown = spare[1] if len(spare) > 1 else spare[0]
        self._codes = _Codes(self.unknown)
        self._codes.update({i: i for i in range(256)})
        self._codes.update(self.table)

    def encode(self, quote: str) -> bytes:
        """The quote's bytes: Latin-1 as is, the view's other characters as their spare byte,
        any other character as ``unknown`` (one ``str.translate``, no loop in Python)."""
        return quote.translate(self._codes).encode("latin-1")


class _Codes(dict[int, int]):
    """Code point -> byte for ``str.translate``; a character the view lacks gets ``unknown``."""

    def __init__(self, unknown: int) -> None:
        super().__init__()
        self.unknown = unknown

    def __missing__(self, key: int) -> int:
        return self.unknown


def _encoded(doc: Document, view: Normalized, key: Any) -> _Encoded:
    ck = ("bytes", key)
    enc = doc.cache.get(ck)
    if enc is None:
        enc = _Encoded(view.text)
        doc.cache[ck] = enc
    return enc


def search(
    data: bytes, query: bytes, k: int, mask: int, limit: int = MAX_CANDIDATES, grams: Grams | None = None
) -> list[tuple[int, int, int]]:
    """``(start, end, distance)`` of every local minimum within ``k`` edits, best first.

    A long text is first cut into chunks that overlap by the longest alignment within ``k``
    (``len(query) + k``), each searched once for *whether* anything is within ``k``; then
    :func:`search_passes` (a pass per distance, masking what each found) runs only on the
    chunks that have something, with as much real text around them as an alignment can reach.
    Every alignment within ``k`` lies inside such a chunk, so the places, distances and ties
    are exactly those of :func:`search_passes` on the whole text, in about one pass. With the
    text's ``grams``, the first look is their filter (:meth:`Grams.live`) instead of edlib over
    every chunk: well under one pass.

    >>> search(b"the cat sat; the bat sat; a dog", b"the hat sat", 2, 0)
    [(0, 11, 1), (13, 24, 1)]
    """
    width = len(query) + k
    sizes: tuple[int, ...] = (max(CHUNK, 16 * width), max(CHUNK // 16, 4 * width))
    if len(data) <= 2 * sizes[0] or batch.reference.on:
        return search_passes(data, query, k, mask, limit)
    owned = [(0, len(data))]
    first = grams.live(query, k, len(data)) if grams is not None else None
    if first is not None:  # the q-gram filter's ranges: edlib looks again only in their pieces
        owned, sizes = first, sizes[1:]
    for size in sizes:
        live = []
        for a, b in owned:
            for o in range(a, b, size):
                e = min(b, o + size)
                if (
                    edlib.align(query, data[max(0, o - width) : e], mode="HW", task="distance", k=k)["editDistance"]
                    >= 0
                ):
                    live.append((o, e))
        owned = live
        if not owned:
            return []
    segments: list[list[int]] = []  # [start, end) in the text: live chunks with their reach on both sides
    for o, e in owned:
        a, b = max(0, o - 2 * width), min(len(data), e + width)
        if segments and a <= segments[-1][1]:
            segments[-1][1] = max(segments[-1][1], b)
        else:
            segments.append([a, b])
    gap = bytes([mask]) * (width + 1)  # no alignment within k can reach across it
    starts, pos, parts = [], 0, []
    for a, b in segments:
        starts.append(pos)
        parts.append(data[a:b])
        pos += b - a + len(gap)
    found = search_passes(gap.join(parts), query, k, mask, limit)
    out = []
    for s, e, d in found:
        i = bisect_right(starts, s) - 1
        shift = segments[i][0] - starts[i]
        out.append((s + shift, e + shift, d))
    return out


def search_passes(
    data: bytes, query: bytes, k: int, mask: int, limit: int = MAX_CANDIDATES
) -> list[tuple[int, int, int]]:
    """:func:`search` over the whole text: one edlib pass per distance; the places at the best
    distance are masked and the pass repeats until nothing is within ``k`` (or ``limit``)."""
    found: list[tuple[int, int, int]] = []
    buf = data  # always bytes: edlib converts a bytearray element by element (~15x slower)
    for _ in range(limit):
        r = edlib.align(query, buf, mode="HW", task="locations", k=k)
        d = r["editDistance"]
        if d < 0:
            break
        spans: list[tuple[int, int]] = []
        # edlib leaves the start out (None) when the budget reaches the query's length
        ends = [(max(0, e + 1 - len(query)) if s is None else s, e) for s, e in r["locations"]]
        for s, e in sorted(ends):
            if spans and s <= spans[-1][1]:
                continue  # another end of the same place
            spans.append((s, e + 1))
        masked = bytearray(buf)
        for s, e in spans:
            found.append((s, e, d))
            masked[s:e] = bytes([mask]) * (e - s)
        buf = bytes(masked)
        if len(found) >= limit:
            break
    return found[:limit]


def _snap(view: str, s: int, e: int, qb: bytes, enc: _Encoded, k: int) -> tuple[int, int]:
    """Widen ``[s, e)`` to whole words and trim outer spaces, unless whole words cost more
    than the budget ``k`` (a quote inside one long token: ``barbar...zogbar...`` keeps the
    window edlib found instead of the whole token)."""
    s0, e0 = s, e
    while 0 < s < len(view) and is_word_char(view[s - 1]) and is_word_char(view[s]):
        s -= 1
    while 0 < e < len(view) and is_word_char(view[e - 1]) and is_word_char(view[e]):
        e += 1
    if (s, e) != (s0, e0) and edlib.align(qb, enc.data[s:e], mode="NW", task="distance")["editDistance"] > k:
        s, e = s0, e0
    while s < e and view[s] == " ":
        s += 1
    while e > s and view[e - 1] == " ":
        e -= 1
    return s, e


def _stop_at_sentence_end(view: str, qtext: str, s: int, e: int, enc: _Encoded) -> int:
    """A quote that ends a sentence is not near the words after the source's sentence end
    ("... perante a lei.\n2." is cut back to "... perante a lei.") when cutting costs no more
    edits than the characters it drops."""
    if not qtext or qtext[-1] not in _SENTENCE_END:
        return e
    p = view.rfind(qtext[-1], s, e - 1)
    if p < s or not view[p + 1 : e].strip() or e - (p + 1) > 12:
        return e
    qb = enc.encode(qtext)
    before = edlib.align(qb, enc.data[s:e], mode="NW", task="distance")["editDistance"]
    after = edlib.align(qb, enc.data[s : p + 1], mode="NW", task="distance")["editDistance"]
    return p + 1 if after - before < len(view[p + 1 : e].strip()) else e


def _agree(a: str, b: str) -> tuple[int, int]:
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    return head, tail


def _edges(q: list[Token], src: list[Token], view: str, e: int, lang: str) -> list[dict[str, Any]]:
    """``truncated`` (a word cut at an edge, or a sentence that goes on) and a limiter clause
    cut off after a quote that ends as if the sentence ended (``limiter_dropped``)."""
    out: list[dict[str, Any]] = []
    if not q or not src:
        return out
    qf, sf, ql, sl = q[0].text, src[0].text, q[-1].text, src[-1].text
    if qf != sf and len(qf) < len(sf) and sf.endswith(qf) and qf[0].isalnum():
        out.append({"flag": "truncated", "quote": [qf], "source": [sf]})
    if ql != sl and len(ql) < len(sl) and sl.startswith(ql) and ql[0].isalnum():
        out.append({"flag": "truncated", "quote": [ql], "source": [sl]})
    if ql in _SENTENCE_END and sl != ql:
        after = view[e : e + 400]
        stop = min((i for i in (after.find(c) for c in _SENTENCE_END) if i >= 0), default=len(after))
        clause = (sl if sl in ",;:" else "") + after[: stop + 1]
        lim = starts_with_limiter(clause)
        words = [t.text for t in tokens(clause) if t.text[0].isalnum()]
        if lim:
            out.append({"flag": "limiter_dropped", "quote": [], "source": words})
        elif words and sl not in _SENTENCE_END:
            out.append({"flag": "truncated", "quote": [ql], "source": words})
    return out


def _diff(
    doc: Document, view: Normalized, q: list[Token], src: list[Token], base: int, opcodes: Any
) -> list[dict[str, Any]]:
    """The word-level changes (``opcodes`` of ``q`` and ``src``), each with the source's own
    words and their offsets."""
    out: list[dict[str, Any]] = []
    for op, i1, i2, j1, j2 in opcodes:
        if op == "equal":
            continue
        if j1 < j2:
            span = view.offsets.span_to_source(Span(base + src[j1].start, base + src[j2 - 1].end))
        else:
            at = base + (src[j1].start if j1 < len(src) else (src[-1].end if src else 0))
            span = view.offsets.span_to_source(Span(at, at))
        out.append(
            {
                "op": {"replace": "replace", "delete": "missing_in_source", "insert": "missing_in_quote"}[op],
                "quote": " ".join(t.text for t in q[i1:i2]),
                "source": doc.text[span.start : span.end],
                "start": span.start,
                "end": span.end,
            }
        )
    return out


def _candidate(doc: Document, view: Normalized, qtext: str, s: int, e: int, enc: _Encoded) -> dict[str, Any]:
    qb = enc.encode(qtext)
    d = edlib.align(qb, enc.data[s:e], mode="NW", task="distance")["editDistance"]
    span = view.offsets.span_to_source(Span(s, e))
    head, tail = _agree(qtext, view.text[s:e])
    return {
        "start": span.start,
        "end": span.end,
        "text": doc.text[span.start : span.end],
        "similarity": round(1 - d / max(len(qtext), e - s, 1), 4),
        "distance": d,
        "prefix_agreement": head,
        "suffix_agreement": tail,
        "_view": (s, e),
    }


def nearest_passage(doc: Document, quote: str, policy: Policy, context: Context | None = None) -> dict[str, Any] | None:
    """The nearest passage(s) to ``quote`` within the policy's error budget, or None.

    The record: ``start``/``end``/``text`` (the source's own words, ``== doc.text[start:end]``),
    ``similarity`` (1 - edits / length), ``distance``, ``diff`` (word level, source offsets),
    ``reasons`` (flags with the words involved), ``ties`` (how many places are this near) and
    ``candidates`` (every local minimum within the budget, best first). With a ``context``
    (the citation's prefix, suffix, position), the places are ranked by
    :func:`~ipsis.verify.match.candidate_score` (quote similarity, then context similarity,
    then distance to the position), and ``ties`` counts the places that score alike.
    """
    view = document_view(doc, policy.max_tier, policy.disabled_steps)
    qtext = quote_view(quote, policy.max_tier, policy.disabled_steps).text
    k = budget(len(qtext), policy.error_rate, explicit=policy.max_error_rate is not None)
    if k < 1 or not qtext or not view.text:
        return None  # an empty source has no nearest passage (edlib gives a location with no end)
    key = (policy.max_tier, tuple(sorted(policy.disabled_steps)))
    enc = _encoded(doc, view, key)
    qb = enc.encode(qtext)
    long = len(enc.data) > 2 * CHUNK and not batch.reference.on
    raw = search(enc.data, qb, k, enc.mask, grams=grams_of(doc, enc.data, key) if long else None)
    if not raw:
        return _omitted(doc, view, qtext, policy, enc)
    cands: dict[tuple[int, int], dict[str, Any]] = {}
    for s, e, _ in raw:
        s2, e2 = _snap(view.text, s, e, qb, enc, k)
        e2 = _stop_at_sentence_end(view.text, qtext, s2, e2, enc)
        if (s2, e2) not in cands and e2 > s2:
            cands[(s2, e2)] = _candidate(doc, view, qtext, s2, e2, enc)
    if not cands:
        return None
    ranked = [c for c in cands.values() if c["distance"] <= k] or sorted(cands.values(), key=_plain_rank)[:1]
    ranked = _rank(view, qtext, ranked, context)
    best = ranked[0]
    s, e = best.pop("_view")
    for c in ranked[1:]:
        c.pop("_view")
    q_tokens, src_tokens = tokens(qtext), tokens(view.text[s:e])
    opcodes = word_diff(q_tokens, src_tokens)
    if sum(op != "equal" for op, *_ in opcodes) > 1:
        # scattered changes: one run of omitted words elsewhere is the simpler explanation
        om = _omitted(doc, view, qtext, policy, enc)
        if om is not None:
            om["candidates"] += [best, *ranked[1:]]
            return om
    return _explain(doc, view, qtext, best, s, e, k, ranked, (q_tokens, src_tokens, opcodes))


def _plain_rank(c: dict[str, Any]) -> tuple[int, int, int]:
    """Fewest edits, then most characters agreeing at the edges, then the first place."""
    return c["distance"], -(c["prefix_agreement"] + c["suffix_agreement"]), c["start"]


def _rank(view: Normalized, qtext: str, cands: list[dict[str, Any]], context: Context | None) -> list[dict[str, Any]]:
    """Candidates best first: without context by :func:`_plain_rank`; with a prefix, suffix or
    position by :func:`candidate_score` (each candidate gets its ``score``), then the plain rank."""
    if context is None or context.empty:
        return sorted(cands, key=_plain_rank)
    for c in cands:
        s, e = c["_view"]
        hint = None if context.position is None else abs(c["start"] - context.position) / max(1, len(view.text))
        c["score"] = round(candidate_score(view.text, s, e, c["distance"] / max(1, len(qtext)), context, hint), 6)
    return sorted(cands, key=lambda c: (-c["score"], *_plain_rank(c)))


def _omitted(doc: Document, view: Normalized, qtext: str, policy: Policy, enc: _Encoded) -> dict[str, Any] | None:
    """Beyond the budget: the quote may still be the source with one run of words left out
    (an unmarked elision), explained whatever the run's length (up to ``elision_max_gap``)."""
    places = omission(view.text, qtext, policy.elision_max_gap)
    if not places:
        return None
    ranked = []
    for s, _, _, e in places:
        c = _candidate(doc, view, qtext, s, e, enc)
        c.pop("_view")
        ranked.append(c)
    s, gs, ge, e = places[0]
    gap = view.offsets.span_to_source(Span(gs, ge))
    out = _explain(doc, view, qtext, ranked[0], s, e, 0, ranked)
    out["omitted"] = {"start": gap.start, "end": gap.end, "text": doc.text[gap.start : gap.end]}
    return out


def _explain(
    doc: Document,
    view: Normalized,
    qtext: str,
    best: dict[str, Any],
    s: int,
    e: int,
    k: int,
    ranked: list[Any],
    diffed: tuple[list[Token], list[Token], Any] | None = None,
) -> dict[str, Any]:
    """The nearest record for the best candidate (view span ``[s, e)``): diff and reasons
    (``diffed``: the tokens of the quote and of ``[s, e)`` and their word diff, when known)."""
    q_tokens, src_tokens, opcodes = diffed or (tokens(qtext), tokens(view.text[s:e]), None)
    if opcodes is None:
        opcodes = word_diff(q_tokens, src_tokens)
    lang = document_language(doc, view.text)
    reasons = _edges(q_tokens, src_tokens, view.text, e, lang)
    cut = {w for r in reasons if r["flag"] == "truncated" for w in r["quote"] + r["source"][:1]}
    inner_q = [t for t in q_tokens if t.text not in cut]
    inner_s = [t for t in src_tokens if t.text not in cut]
    same = len(inner_q) == len(q_tokens) and len(inner_s) == len(src_tokens)  # nothing cut: the same diff
    for r in classify(inner_q, inner_s, lang, opcodes if same else None):
        if not any(x["flag"] == r["flag"] for x in reasons):
            reasons.append(r)
    if len(reasons) > 1:
        reasons = [r for r in reasons if r["flag"] != "punctuation_changed"]
    order = {f: i for i, f in enumerate(_FLAG_ORDER)}
    reasons.sort(key=lambda r: order.get(r["flag"], len(order)))
    ties = sum(1 for c in ranked if c["distance"] == best["distance"] and c.get("score") == best.get("score"))
    return {
        **best,
        "diff": _diff(doc, view, q_tokens, src_tokens, s, opcodes),
        "reasons": reasons,
        "reason": reasons[0]["flag"] if reasons else "near_miss",
        "language": lang,
        "budget": k,
        "ties": ties,
        "candidates": ranked[1:],
    }


_FLAG_ORDER = (
    "number_changed",
    "negation_changed",
    "limiter_dropped",
    "limiter_changed",
    "modality_changed",
    "truncated",
    "ocr_noise",
    "words_changed",
    "punctuation_changed",
)


def describe_nearest(n: dict[str, Any]) -> str:
    """One line for ``Result.message``.

    >>> describe_nearest({"start": 5, "similarity": 0.97, "ties": 1,
    ...     "reasons": [{"flag": "number_changed", "quote": ["60"], "source": ["30"]}]})
    'not found; nearest passage at offset 5 (similarity 0.97): number_changed (quote 60, source 30)'
    """
    parts = []
    for r in n["reasons"]:
        q, s = " ".join(r["quote"]), " ".join(r["source"])
        words = ", ".join(x for x in (f"quote {q}" if q else "", f"source {s}" if s else "") if x)
        parts.append(r["flag"] + (f" ({words[:120]})" if words else ""))
    ties = f"; {n['ties']} places are as near" if n["ties"] > 1 else ""
    why = "; ".join(parts) or "near miss"
    return f"not found; nearest passage at offset {n['start']} (similarity {n['similarity']:.2f}): {why}{ties}"


def tier_reasons(quote: str, source: str, tier: str) -> list[dict[str, Any]]:
    """The flag of a quote found only in a lossy tier, with the words that differ.

    >>> tier_reasons("the claim MUST be", "the claim must be", "case")
    [{'flag': 'case_only', 'quote': ['MUST'], 'source': ['must']}]
    """
    q, s = tokens(quote), tokens(source)
    qw: list[str] = []
    sw: list[str] = []
    for op, i1, i2, j1, j2 in word_diff(q, s):
        if op != "equal":
            qw += [t.text for t in q[i1:i2]]
            sw += [t.text for t in s[j1:j2]]
    return [{"flag": "ocr_noise" if tier == "ocr" else f"{tier}_only", "quote": qw, "source": sw}]


def token_reasons(text: str, start: int, end: int) -> list[dict[str, Any]]:
    """A quote found only inside longer tokens: a changed number (``0 days`` in ``30 days``)
    or a cut-off word (``unpaid`` for ``paid``: the quote is a truncated piece).

    >>> token_reasons("within 30 days", 8, 14)
    [{'flag': 'number_changed', 'quote': ['0'], 'source': ['30']}]
    """
    out: list[dict[str, Any]] = []
    ws = start
    while ws > 0 and (is_word_char(text[ws - 1]) or (text[ws - 1] in ".,-" and ws > 1 and text[ws - 2].isdigit())):
        ws -= 1
    we = end
    n = len(text)
    while we < n and (is_word_char(text[we]) or (text[we] in ".,-" and we + 1 < n and text[we + 1].isalnum())):
        we += 1
    for a, b, qa, qb in ((ws, start, start, end), (end, we, start, end)):
        if a == b:
            continue
        cut = text[a:b]
        word = text[ws:end] if a < start else text[start:we]
        edge = tokens(text[qa:qb])
        part = (edge[0] if a < start else edge[-1]).text if edge else ""
        flag = "number_changed" if any(c.isdigit() for c in cut + part) else "truncated"
        full = [t.text for t in tokens(word)]
        out.append({"flag": flag, "quote": [part], "source": [full[0] if a < start else full[-1]]})
    return out

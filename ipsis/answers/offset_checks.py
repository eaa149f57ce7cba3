"""Do a provider's offsets point at the text they claim?

Answer-side offsets (Cohere ``start``/``end``, Gemini segments, OpenAI url_citation) are checked
against the text the provider says is there; source-side offsets (Anthropic locations) against
where ``locate`` found the cited text. The documented unit is tried first; when another unit
fits, the finding says which one, and when the text is elsewhere it says where.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ipsis.answers.model import Citation, Finding, Unit
from ipsis.answers.offsets import to_code_points
from ipsis.spans import Span

if TYPE_CHECKING:
    from ipsis.answers.sources import Source
    from ipsis.verify import Result

UNIT_WORDS: dict[str, str] = {
    "code_point": "code points",
    "utf8": "UTF-8 bytes",
    "utf16": "UTF-16 code units",
}


def same_text(a: str, b: str) -> bool:
    """Equal up to surrounding and repeated whitespace (the Anthropic trailing-space quirk).

    >>> same_text("meals up to €50 per day. ", "meals up to €50  per day.")
    True
    """
    return " ".join(a.split()) == " ".join(b.split())


def _convert(text: str, start: int, end: int, unit: Unit, base: int) -> Span | None:
    part = text[base:]
    s, e = to_code_points(part, start, unit), to_code_points(part, end, unit)
    if s is None or e is None or s > e:
        return None
    return Span(base + s, base + e)


def _short(s: str, n: int = 60) -> str:
    return repr(s if len(s) <= n else s[: n - 3] + "...")


def answer_offsets(text: str, c: Citation) -> tuple[Finding | None, Span | None]:
    """A finding when ``c.offsets`` miss their expected text, and the best answer span."""
    o = c.offsets
    assert o is not None
    if o.expected is None:
        return None, c.answer_span
    documented = _convert(text, o.start, o.end, o.unit, o.base)
    if documented is not None and same_text(documented.slice(text), o.expected):
        return None, documented
    shown = f"[{o.start}, {o.end})"
    got = _short(documented.slice(text)) if documented is not None else "nothing (out of range)"
    head = f"offsets {shown} in {UNIT_WORDS[o.unit]} point at {got}, not at {_short(o.expected)}"
    for unit in ("code_point", "utf16", "utf8"):
        if unit == o.unit:
            continue
        span = _convert(text, o.start, o.end, unit, o.base)
        if span is not None and same_text(span.slice(text), o.expected):
            msg = f"{head}; they fit if read as {UNIT_WORDS[unit]}"
            return Finding("offset_mismatch", msg, span, None, None, c.citation_id, (("unit", unit),)), span
    hits: list[Span] = []
    i = text.find(o.expected)
    while i != -1 and len(hits) < 5:
        hits.append(Span(i, i + len(o.expected)))
        i = text.find(o.expected, i + 1)
    if len(hits) == 1:
        msg = f"{head}; that text is at [{hits[0].start}, {hits[0].end})"
        extra = (("expected_span", list(hits[0])),)
        return Finding("offset_mismatch", msg, hits[0], None, None, c.citation_id, extra), hits[0]
    where = f"it occurs {len(hits)} times" if hits else "it is not in the answer"
    return Finding("offset_mismatch", f"{head}; {where}", documented, None, None, c.citation_id), documented


def block_spans(src: Source) -> list[Span]:
    """Spans of the source's content blocks in its text (found in order)."""
    out: list[Span] = []
    pos = 0
    for b in src.blocks:
        i = src.text.find(b, pos)
        if i == -1:
            return []
        out.append(Span(i, i + len(b)))
        pos = i + len(b)
    return out


def source_offsets(src: Source | None, c: Citation, result: Result | None) -> tuple[bool, str]:
    """``(ok, message)`` for source-side offsets; with no result, a note on what they point at."""
    o = c.offsets
    assert o is not None
    if src is None:
        return True, ""
    text = src.text
    if o.kind == "chars":
        documented = _convert(text, o.start, o.end, o.unit, 0)
        pointed = documented.slice(text) if documented is not None else None
        if result is None or not result.matches:
            return (
                False,
                f"; the offsets [{o.start}, {o.end}) point at {_short(pointed or '')}" if pointed else "",
            )
        m = result.matches[0]
        if pointed is not None and (same_text(pointed, m.text) or (o.expected and same_text(pointed, o.expected))):
            return True, ""
        head = (
            f"offsets [{o.start}, {o.end}) point at {_short(pointed) if pointed is not None else 'nothing (out of range)'}; "  # noqa: E501
            f"the cited text is at [{m.start}, {m.end})"
        )
        for unit in ("utf16", "utf8"):
            span = _convert(text, o.start, o.end, unit, 0)
            if span is not None and same_text(span.slice(text), m.text):
                return False, f"{head}; they fit if read as {UNIT_WORDS[unit]}"
        return False, head
    if o.kind == "blocks":
        spans = block_spans(src)
        if not spans or result is None or not result.matches:
            return True, ""
        if not 0 <= o.start < o.end <= len(spans):
            return False, f"blocks [{o.start}, {o.end}) are out of range ({len(spans)} blocks)"
        m = result.matches[0]
        if spans[o.start].start <= m.start and m.end <= spans[o.end - 1].end:
            return True, ""
        return (
            False,
            f"blocks [{o.start}, {o.end}) do not hold the cited text (it is at [{m.start}, {m.end}))",
        )
    # pages: only checkable when the source knows its pages
    if result is None or not result.matches or not src.document.page_starts:
        return True, ""
    page = result.matches[0].page
    if page is not None and o.start <= page < o.end:
        return True, ""
    return False, f"pages [{o.start}, {o.end}) do not hold the cited text (it is on page {page})"

"""Citations written into the answer text: plain text and Markdown.

Markers: ``[2]``, ``[1, 3]``, ``[1-3]`` (expanded), ``【2】``, ``[^1]`` with a footnote
definition line, superscripts ``¹`` with a definition line, ``(Source 3)`` / ``(Fonte 3)`` /
``(Fuente 3)``, Markdown links (the URL names the source) and ``<cite id="...">…</cite>``.
A passage in quotation marks inside a cited sentence is a quote of the marker that follows it
in that sentence (or, if none follows, the one before it); a definition line may carry one too.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

from ipsis.answers.model import Citation, Ref
from ipsis.answers.sentences import split_sentences
from ipsis.spans import Span

SUPERSCRIPTS = "¹²³⁴⁵⁶⁷⁸⁹⁰"
_SUP_TO_DIGIT = str.maketrans(SUPERSCRIPTS, "1234567890")
MAX_RANGE = 100

FOOTNOTE_DEF = re.compile(r"^[ \t]*\[\^([^\]\s]+)\]:[ \t]*(.*)$", re.MULTILINE)
SUPERSCRIPT_DEF = re.compile(rf"^[ \t]*([{SUPERSCRIPTS}]+)[ \t]*(.*)$", re.MULTILINE)
FOOTNOTE_REF = re.compile(r"\[\^([^\]\s]+)\](?!:)")
SUPERSCRIPT_REF = re.compile(rf"[{SUPERSCRIPTS}]+")
_NUMS = r"\d+(?:\s*[-–]\s*\d+)?(?:\s*[,;]\s*\d+(?:\s*[-–]\s*\d+)?)*"
BRACKET = re.compile(
    rf"\[\s*(?:(?:sources?|fontes?|fuentes?|docs?|documents?|documentos?|ref)\.?\s*)?({_NUMS})\s*\](?![(:])",
    re.IGNORECASE,
)
LENTICULAR = re.compile(r"【\s*(\d+)(?:[:†][^】]*)?\s*】")
PAREN_SOURCE = re.compile(
    r"\(\s*(?:sources?|fontes?|fuentes?|documents?|documentos?)\s*:?\s*"
    r"(\d+(?:\s*(?:,|;|and|e|y|&)\s*\d+)*)\s*\)",
    re.IGNORECASE,
)
LINK = re.compile(r"(?<!!)\[([^\]\n]+)\]\((\S+?)(?:\s+\"[^\"]*\")?\)")
CITE = re.compile(r"<cite\b([^>]*)>(.*?)</cite\s*>", re.DOTALL | re.IGNORECASE)
CITE_ATTR = re.compile(r"""(id|index|source|ref)\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)
QUOTED = re.compile(r'"([^"\n]+)"|“([^”\n]+)”|«([^»\n]+)»|„([^“”\n]+)[“”]')


def expand_numbers(spec: str) -> list[int]:
    """Numbers of a marker list: ``1, 3`` -> [1, 3]; ``1-3`` -> [1, 2, 3].

    >>> expand_numbers("1, 3-4")
    [1, 3, 4]
    """
    out: list[int] = []
    for part in re.split(r"\s*(?:[,;&]|\band\b|\be\b|\by\b)\s*", spec.strip()):
        if not part:
            continue
        a, _, b = part.replace("–", "-").partition("-")
        lo = int(a)
        hi = int(b) if b else lo
        if hi < lo or hi - lo > MAX_RANGE:
            out.append(-1)  # an inverted or absurd range names no source
            continue
        out.extend(range(lo, hi + 1))
    return out


@dataclass(frozen=True, slots=True)
class _Marker:
    span: Span
    refs: tuple[Ref, ...]
    origin: str
    quote: str | None = None
    quote_span: Span | None = None
    claim_span: Span | None = None
    note: str = ""


def _number_refs(spec: str, label: str) -> tuple[Ref, ...]:
    return tuple(Ref("number", n, label) for n in expand_numbers(spec))


def _definition(body: str, start: int) -> tuple[tuple[Ref, ...], str | None, Span | None]:
    """Refs and quote of a definition line's text (``Travel Policy: "quote"``)."""
    q = QUOTED.search(body)
    designation = body[: q.start()] if q else body
    designation = designation.strip().rstrip(":,;-—–").strip()
    link = LINK.search(designation)
    refs: tuple[Ref, ...]
    if link:
        refs = (Ref("url", link.group(2), link.group(0)),)
    else:
        refs = (Ref("label", designation, designation or "(empty definition)"),)
    if not q:
        return refs, None, None
    gi = next(i for i in range(1, 5) if q.group(i) is not None)
    return refs, q.group(gi), Span(start + q.start(gi), start + q.end(gi))


def parse_markers(text: str, *, links: bool = True, first_id: int = 1) -> tuple[list[Citation], list[Span]]:
    """Citations written in ``text`` and the spans of definition lines (not prose).

    >>> cits, _ = parse_markers('Receipts "are required above €25" [1, 3]. Hotels [2-3].')
    >>> [(c.answer_span, [r.value for r in c.refs], c.quote) for c in cits]
    [(Span(start=34, end=40), [1, 3], 'are required above €25'),
     (Span(start=49, end=54), [2, 3], None)]
    """
    defs: dict[str, tuple[tuple[Ref, ...], str | None, Span | None, Span]] = {}
    excluded: list[Span] = []
    for m in FOOTNOTE_DEF.finditer(text):
        defs["^" + m.group(1)] = (*_definition(m.group(2), m.start(2)), Span(m.start(), m.end()))
        excluded.append(Span(m.start(), m.end()))
    for m in SUPERSCRIPT_DEF.finditer(text):
        defs[m.group(1)] = (*_definition(m.group(2), m.start(2)), Span(m.start(), m.end()))
        excluded.append(Span(m.start(), m.end()))

    def outside(span: Span) -> bool:
        return not any(span.overlaps(x) for x in excluded)

    markers: list[_Marker] = []
    taken = bytearray(len(text) + 1)  # positions already claimed by a marker

    def add(marker: _Marker) -> None:
        s, e = marker.span
        if (not excluded or outside(marker.span)) and not any(taken[s:e]):
            markers.append(marker)
            taken[s:e] = b"\x01" * (e - s)

    for m in CITE.finditer(text):
        attrs = {a.group(1).lower(): a.group(2) or a.group(3) or "" for a in CITE_ATTR.finditer(m.group(1))}
        value = attrs.get("id") or attrs.get("source") or attrs.get("ref") or attrs.get("index", "")
        label = m.group(0)[: m.start(2) - m.start()]
        refs: tuple[Ref, ...]
        if re.fullmatch(r"\d+(?:-\d+)?(?:,\s*\d+(?:-\d+)?)*", value) and "index" in attrs and not attrs.get("id"):
            refs = tuple(Ref("number", int(v.split("-")[0]), label) for v in value.split(","))
        elif value.isdigit():
            refs = (Ref("number", int(value), label),)
        else:
            refs = (Ref("id", value, label),)
        add(_Marker(Span(m.start(), m.start(2)), refs, "cite", claim_span=Span(m.start(2), m.end(2))))
    for m in FOOTNOTE_REF.finditer(text):
        key = "^" + m.group(1)
        if key in defs:
            refs_, quote, qspan, _ = defs[key]
            add(_Marker(Span(m.start(), m.end()), refs_, "footnote", quote, qspan))
        else:
            note = f"footnote {m.group(0)} has no definition line"
            add(
                _Marker(
                    Span(m.start(), m.end()),
                    (Ref("label", m.group(0), m.group(0)),),
                    "footnote",
                    note=note,
                )
            )
    for m in SUPERSCRIPT_REF.finditer(text):
        if m.group(0) in defs and m.start() > 0 and not text[m.start() - 1].isspace():
            refs_, quote, qspan, _ = defs[m.group(0)]
            add(_Marker(Span(m.start(), m.end()), refs_, "superscript", quote, qspan))
    for m in BRACKET.finditer(text):
        add(_Marker(Span(m.start(), m.end()), _number_refs(m.group(1), m.group(0)), "bracket"))
    for m in LENTICULAR.finditer(text):
        add(_Marker(Span(m.start(), m.end()), _number_refs(m.group(1), m.group(0)), "bracket"))
    for m in PAREN_SOURCE.finditer(text):
        add(_Marker(Span(m.start(), m.end()), _number_refs(m.group(1), m.group(0)), "source_label"))
    if links:
        for m in LINK.finditer(text):
            if not m.group(1).startswith("^"):
                add(_Marker(Span(m.start(), m.end()), (Ref("url", m.group(2), m.group(0)),), "link"))
    markers.sort(key=lambda k: k.span.start)
    return _with_quotes(text, markers, excluded, first_id), excluded


def _with_quotes(text: str, markers: list[_Marker], excluded: list[Span], first_id: int) -> list[Citation]:
    """Attach each quoted passage of a sentence to that sentence's markers."""
    extra: dict[int, list[tuple[str, Span]]] = {}
    marker_spans = [mk.span for mk in markers]
    starts = [s.start for s in marker_spans]
    for sent in split_sentences(text):
        lo, hi = bisect_left(starts, sent.start), bisect_left(starts, sent.end)
        if lo == hi or any(sent.overlaps(x) for x in excluded):
            continue
        inside = range(lo, hi)
        for q in QUOTED.finditer(text, sent.start, sent.end):
            qs = Span(q.start(), q.end())
            if any(qs.overlaps(marker_spans[i]) for i in inside):
                continue  # a quoted title inside a link or a cite tag
            gi = next(i for i in range(1, 5) if q.group(i) is not None)
            after = [i for i in inside if marker_spans[i].start >= q.end()]
            owner = after[0] if after else inside[-1]
            extra.setdefault(owner, []).append((q.group(gi), Span(q.start(gi), q.end(gi))))
    out: list[Citation] = []
    for i, mk in enumerate(markers):
        quotes: list[tuple[str | None, Span | None]] = list(extra.get(i, []))
        if mk.quote is not None:
            quotes.insert(0, (mk.quote, mk.quote_span))
        if not quotes:
            quotes = [(None, None)]
        for quote, qspan in quotes:
            cid = f"c{first_id + len(out)}"
            out.append(
                Citation(
                    cid,
                    mk.refs,
                    mk.span,
                    mk.claim_span,
                    quote,
                    qspan,
                    origin=mk.origin,
                    note=mk.note,
                )
            )
    return out

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
from ipsis.answers.tags import paired
from ipsis.spans import Span

SUPERSCRIPTS = "¹²³⁴⁵⁶⁷⁸⁹⁰"
_SUP_TO_DIGIT = str.maketrans(SUPERSCRIPTS, "1234567890")
MAX_RANGE = 100

# Every pattern runs in time linear in the text (tests/test_answers_linear.py): quantifiers are
# bounded, and a run that could reach the next opening mark stops at it instead (``[^\[\]]``,
# ``[^“”]``), so no start position rescans what the one before it read.
FOOTNOTE_DEF = re.compile(r"^[ \t]{0,12}\[\^([^\[\]\s]{1,100})\]:[ \t]{0,12}(.*)$", re.MULTILINE)
SUPERSCRIPT_DEF = re.compile(rf"^[ \t]{{0,12}}([{SUPERSCRIPTS}]{{1,6}})[ \t]{{0,12}}(.*)$", re.MULTILINE)
FOOTNOTE_REF = re.compile(r"\[\^([^\[\]\s]{1,100})\](?!:)")
SUPERSCRIPT_REF = re.compile(rf"[{SUPERSCRIPTS}]{{1,6}}")
_N = r"\d{1,6}"
_S = r"\s{0,3}"
_NUMS = rf"{_N}(?:{_S}[-–]{_S}{_N})?(?:{_S}[,;]{_S}{_N}(?:{_S}[-–]{_S}{_N})?){{0,100}}"
BRACKET = re.compile(
    rf"\[{_S}(?:(?:sources?|fontes?|fuentes?|docs?|documents?|documentos?|ref)\.?{_S})?({_NUMS}){_S}\](?![(:])",
    re.IGNORECASE,
)
LENTICULAR = re.compile(rf"【{_S}({_N})(?:[:†][^【】\n]{{0,200}})?{_S}】")
PAREN_SOURCE = re.compile(
    rf"\({_S}(?:sources?|fontes?|fuentes?|documents?|documentos?){_S}(?::{_S})?"
    rf"({_N}(?:{_S}(?:,|;|and|e|y|&){_S}{_N}){{0,100}}){_S}\)",
    re.IGNORECASE,
)
# [text](url "title"); a URL may hold one balanced pair of parentheses (Wikipedia's "XAI_(company)")
LINK = re.compile(
    r"(?<!!)\[([^\[\]\n]{1,1000})\]\(([^\s()]{1,2048}(?:\([^\s()]{0,2048}\)[^\s()]{0,2048})?)"
    r"(?:[ \t]{1,10}\"[^\"\n]{0,300}\")?\)"
)
CITE_ATTR = re.compile(r"""(?<![\w-])(id|index|source|ref)\s{0,10}=\s{0,10}(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)
QUOTED = re.compile(r'"([^"\n]{1,5000})"|“([^“”\n]{1,5000})”|«([^«»\n]{1,5000})»|„([^„“”\n]{1,5000})[“”]')


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

    fenced = bytearray(len(text) + 1)  # positions inside a definition line
    for x in excluded:
        fenced[x.start : x.end] = b"\x01" * (x.end - x.start)

    def outside(span: Span) -> bool:
        return not any(fenced[span.start : span.end])

    markers: list[_Marker] = []
    taken = bytearray(len(text) + 1)  # positions already claimed by a marker

    def add(marker: _Marker) -> None:
        s, e = marker.span
        if (not excluded or outside(marker.span)) and not any(taken[s:e]):
            markers.append(marker)
            taken[s:e] = b"\x01" * (e - s)

    for tag in paired(text, "cite"):
        attrs = {a.group(1).lower(): a.group(2) or a.group(3) or "" for a in CITE_ATTR.finditer(tag.attrs)}
        value = attrs.get("id") or attrs.get("source") or attrs.get("ref") or attrs.get("index", "")
        label = text[tag.start : tag.inner_start]
        refs: tuple[Ref, ...]
        if re.fullmatch(r"\d+(?:-\d+)?(?:,\s*\d+(?:-\d+)?)*", value) and "index" in attrs and not attrs.get("id"):
            refs = tuple(Ref("number", int(v.split("-")[0]), label) for v in value.split(","))
        elif value.isdigit():
            refs = (Ref("number", int(value), label),)
        else:
            refs = (Ref("id", value, label),)
        add(_Marker(Span(tag.start, tag.inner_start), refs, "cite", claim_span=Span(tag.inner_start, tag.inner_end)))
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
    return _with_quotes(text, markers, fenced, first_id), excluded


def _with_quotes(text: str, markers: list[_Marker], fenced: bytearray, first_id: int) -> list[Citation]:
    """Attach each quoted passage of a sentence to that sentence's markers (the first marker
    after it in the sentence, else the last one before it). Markers never overlap, so the one a
    quote could overlap is found by bisection: linear in the text, however many markers."""
    extra: dict[int, list[tuple[str, Span]]] = {}
    marker_spans = [mk.span for mk in markers]
    starts = [s.start for s in marker_spans]
    for sent in split_sentences(text):
        lo, hi = bisect_left(starts, sent.start), bisect_left(starts, sent.end)
        if lo == hi or any(fenced[sent.start : sent.end]):
            continue
        for q in QUOTED.finditer(text, sent.start, sent.end):
            nxt = bisect_left(starts, q.end(), lo, hi)  # first marker starting at or after the quote's end
            if nxt > lo and marker_spans[nxt - 1].end > q.start():
                continue  # a quoted title inside a link or a cite tag
            gi = next(i for i in range(1, 5) if q.group(i) is not None)
            owner = nxt if nxt < hi else hi - 1
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

"""Where a span of a PDF's document text is printed: rectangles in PDF user space (issue 23).

PDFium gives every character of a page a box (``FPDFText_GetCharBox``). The document text of a
PDF is PDFium's page text with a few deliberate changes (line-end hyphens made soft hyphens, the
``\\n\\f`` between pages, form-field text appended by the reader), so :func:`char_map` aligns each
page of the document text with PDFium's own text character by character (equal characters
advance both; a character only one side has is skipped; after a longer disagreement both sides
resynchronise on the next common run). :func:`boxes_for` then gives one rectangle per line run
of a span, ``{page, x0, y0, x1, y1}`` (points, origin bottom left, as PDF annotations and
``viewrect`` fragments use), on every page the span touches.

Only characters PDFium has a box for count: spaces, line breaks and characters the reader
added have none.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ipsis.document import Document

RESYNC = 6
"""Characters that must agree again before an alignment resumes after a disagreement."""
SKIPPED = frozenset({"furniture", "footnote_call"})
"""Marks whose characters a span may cross but that are not part of what it quotes (a running
header between the two halves of a sentence across a page break gets no box), unless the span
lies inside one (a running header quoted by itself)."""
MAX_SKIP = 400
"""How far ahead a resynchronisation looks on either side."""


@dataclass(slots=True)
class PageBoxes:
    """One page: document offset -> PDFium character box, for the characters that align."""

    page: int
    boxes: dict[int, tuple[float, float, float, float]] = field(default_factory=dict)
    height: float = 0.0


def _align(ours: str, theirs: str) -> list[tuple[int, int]]:
    """Pairs ``(i, j)`` of equal characters ``ours[i] == theirs[j]``, in order."""
    out: list[tuple[int, int]] = []
    i = j = 0
    while i < len(ours) and j < len(theirs):
        if ours[i] == theirs[j]:
            out.append((i, j))
            i, j = i + 1, j + 1
            continue
        if ours[i] in "\xad\n\f\r " and (j >= len(theirs) or theirs[j] != ours[i]):
            if theirs[j] in "\ufffe\r\n \x02" or theirs[j].isspace():
                j += 1
            else:
                i += 1
            continue
        if theirs[j] in "\ufffe\r\x02" or theirs[j].isspace():
            j += 1
            continue
        probe = ours[i : i + RESYNC]
        at = theirs.find(probe, j, j + MAX_SKIP) if len(probe) == RESYNC else -1
        back = ours.find(theirs[j : j + RESYNC], i, i + MAX_SKIP) if len(theirs) - j >= RESYNC else -1
        if at != -1 and (back == -1 or at - j <= back - i):
            j = at
        elif back != -1:
            i = back
        else:
            i, j = i + 1, j + 1
    return out


def char_map(doc: Document, pdf: Any, pages: list[int]) -> dict[int, PageBoxes]:
    """Boxes for the document offsets of ``pages`` (1-based) of the open PDFium document ``pdf``."""
    out: dict[int, PageBoxes] = {}
    starts = list(doc.page_starts) or [0]
    for p in pages:
        if not 1 <= p <= len(starts) or p > len(pdf):
            continue
        lo = starts[p - 1]
        hi = starts[p] if p < len(starts) else len(doc.text)
        page = pdf[p - 1]
        textpage = page.get_textpage()
        try:
            n = textpage.count_chars()
            theirs = textpage.get_text_range() if n else ""
            # get_text_range may expand or drop a few characters; keep the index of each one
            index = [k for k in range(n)] if len(theirs) == n else None
            pb = PageBoxes(p, height=float(page.get_height()))
            ours = doc.text[lo:hi]
            for i, j in _align(ours, theirs):
                if ours[i].isspace():
                    continue
                k = j if index is None else index[j]
                if k >= n:
                    continue
                box = textpage.get_charbox(k, loose=True)
                if box and box[2] > box[0] and box[3] > box[1]:
                    pb.boxes[lo + i] = (float(box[0]), float(box[1]), float(box[2]), float(box[3]))
            out[p] = pb
        finally:
            textpage.close()
            page.close()
    return out


def _runs(chars: list[tuple[float, float, float, float]]) -> list[tuple[float, float, float, float]]:
    """Consecutive character boxes merged into one rectangle per line run."""
    runs: list[list[float]] = []
    for x0, y0, x1, y1 in chars:
        if runs:
            r = runs[-1]
            mid, height = (y0 + y1) / 2, max(1.0, r[3] - r[1])
            # same line, and no wide gap (dot leaders of a table of contents, another column)
            if r[1] - height * 0.5 <= mid <= r[3] + height * 0.5 and r[0] - height <= x0 <= r[2] + 2 * height:
                r[0], r[1], r[2], r[3] = min(r[0], x0), min(r[1], y0), max(r[2], x1), max(r[3], y1)
                continue
        runs.append([x0, y0, x1, y1])
    return [(r[0], r[1], r[2], r[3]) for r in runs]


def boxes_for(doc: Document, pdf: Any, start: int, end: int, cache: dict[int, PageBoxes] | None = None
              ) -> list[dict[str, Any]]:  # fmt: skip
    """One ``{page, x0, y0, x1, y1}`` per line run of ``doc.text[start:end]`` (pages 1-based)."""
    first, last = doc.page_of(start) or 1, doc.page_of(max(start, end - 1)) or 1
    pages = list(range(first, last + 1))
    cache = cache if cache is not None else {}
    missing = [p for p in pages if p not in cache]
    if missing:
        cache.update(char_map(doc, pdf, missing))
    skip = [(m.start, m.end) for m in doc.marks if m.kind in SKIPPED and m.start < end and m.end > start]
    text = doc.text[start:end]
    s, e = start + len(text) - len(text.lstrip()), end - len(text) + len(text.rstrip())
    if any(a <= s and e <= b for a, b in skip):  # a running header quoted by itself: it is what is boxed
        skip = []
    out: list[dict[str, Any]] = []
    for p in pages:
        pb = cache.get(p)
        if pb is None:
            continue
        chars = [pb.boxes[k] for k in range(start, end) if k in pb.boxes and not any(a <= k < b for a, b in skip)]
        for x0, y0, x1, y1 in _runs(chars):
            out.append({"page": p, "x0": round(x0, 2), "y0": round(y0, 2), "x1": round(x1, 2), "y1": round(y1, 2),
                        "page_height": round(pb.height, 2)})  # fmt: skip
    return out


class PdfSource:
    """The original PDF of a document, opened once, with its aligned page boxes cached."""

    def __init__(self, doc: Document, data: bytes) -> None:
        import pypdfium2 as pdfium

        self.doc = doc
        self.pdf = pdfium.PdfDocument(data)
        self.cache: dict[int, PageBoxes] = {}

    def boxes(self, start: int, end: int) -> list[dict[str, Any]]:
        return boxes_for(self.doc, self.pdf, start, end, self.cache)

    def close(self) -> None:
        self.pdf.close()


def pdf_bytes(doc: Document, store: Any = None) -> bytes | None:
    """The original bytes of a PDF document: its stored blob, else the file it was read from."""
    if doc.meta.get("format") != "pdf" and doc.meta.get("media_type") != "application/pdf":
        return None
    sha = doc.meta.get("sha256")
    blobs = getattr(getattr(store, "backend", None), "blobs", None)
    if store is not None and sha and blobs is not None:
        try:
            return bytes(blobs.read(sha))
        except OSError:
            pass
    path = doc.meta.get("path")
    if path:
        try:
            with open(path, "rb") as fh:
                return fh.read()
        except OSError:
            return None
    return None


def viewrect(box: dict[str, Any]) -> str:
    """The RFC 8118 fragment of a box: ``page=N&viewrect=left,top,width,height`` (points from the
    page's top left, as the PDF open parameters count them)."""
    top = box.get("page_height", 0.0) - box["y1"]
    w, h = box["x1"] - box["x0"], box["y1"] - box["y0"]
    return f"page={box['page']}&viewrect={box['x0']:.2f},{top:.2f},{w:.2f},{h:.2f}"


def attach_boxes(results: Any, documents: Any, store: Any = None, user: str | None = None) -> Any:
    """Each result's matches, ambiguous candidates and nearest passage in a PDF source get
    ``boxes``; found-elsewhere places in a PDF too (the store's original bytes, never changed)."""
    sources: dict[str, PdfSource | None] = {}

    def source(sid: str | None) -> PdfSource | None:
        if sid is None:
            return None
        if sid not in sources:
            doc = documents.get(sid) if documents is not None else None
            if doc is None and store is not None:  # a found-elsewhere place in another stored source
                doc = store.document(sid, user)
            data = pdf_bytes(doc, store) if doc is not None else None
            sources[sid] = PdfSource(doc, data) if doc is not None and data else None
        return sources[sid]

    try:
        for r in results:
            src = source(r.source_id)
            if src is not None:
                for m in r.matches:
                    m.boxes = src.boxes(m.start, m.end)
                near = r.nearest if isinstance(r.nearest, dict) else None
                if near and "start" in near and "end" in near:
                    near["boxes"] = src.boxes(int(near["start"]), int(near["end"]))
            for place in r.found_elsewhere or []:
                other = source(place.get("source_id")) if isinstance(place, dict) else None
                if other is not None and "start" in place:
                    place["boxes"] = other.boxes(int(place["start"]), int(place["end"]))
            yield r
    finally:
        for s in sources.values():
            if s is not None:
                s.close()


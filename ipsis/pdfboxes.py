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
added have none. On a page whose text ipsis's OCR read (:mod:`ipsis.ingest.ocr`), the words'
boxes stand in for PDFium's (each character a share of its word); an OCR text layer of another
tool is PDFium text like any other.

The aligned boxes of every page are computed once, at ingest, and kept in the store with the
version (:func:`pack_pages` / :func:`unpack_pages`, kind ``boxes`` of :mod:`ipsis.store.derived`);
the store provides them as ``doc.cache[STORED]`` (read on first use), and :func:`attach_boxes`
then reads neither the original bytes nor PDFium. Without stored boxes (a file, or a version
stored by an older ipsis) they are computed from the original PDF when a run needs them.
"""

from __future__ import annotations

import struct
from array import array
from dataclasses import dataclass, field
from typing import Any

from ipsis.document import Document
from ipsis.packing import check_consumed, read_columns, to_le

RESYNC = 6
"""Characters that must agree again before an alignment resumes after a disagreement."""
SKIPPED = frozenset({"furniture", "footnote_call"})
"""Marks whose characters a span may cross but that are not part of what it quotes (a running
header between the two halves of a sentence across a page break gets no box), unless the span
lies inside one (a running header quoted by itself)."""
MAX_SKIP = 400
"""How far ahead a resynchronisation looks on either side."""
FORMAT = 4
"""Version of what :func:`pack_pages` writes *and* of the alignment that computed it: bump it when
either changes, so boxes stored by an older ipsis are recomputed, never used stale."""
STORED = ("derived", "boxes")
"""``doc.cache`` key of the pages' boxes stored with the version (provided by the store)."""


@dataclass(slots=True)
class PageBoxes:
    """One page: document offset -> PDFium character box, for the characters that align."""

    page: int
    boxes: dict[int, tuple[float, float, float, float]] = field(default_factory=dict)
    height: float = 0.0
    #: the visible page (its crop box) in the boxes' user space: left, bottom, right, top; the
    #: origin is not always 0, 0 (a media box may start anywhere); None: ``(0, 0, width?, height)``
    view: tuple[float, float, float, float] | None = None
    #: the page's /Rotate, clockwise degrees (0, 90, 180, 270): how it is displayed
    rotation: int = 0

    def frame(self) -> tuple[float, float, float, float]:
        """The visible page: ``view``, or the page of ``height`` from the origin."""
        return self.view if self.view is not None else (0.0, 0.0, 0.0, self.height)


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
    """Boxes for the document offsets of ``pages`` (1-based) of the open PDFium document ``pdf``;
    a page PDFium cannot load, or a character it has no box for, gets none."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    out: dict[int, PageBoxes] = {}
    starts = list(doc.page_starts) or [0]
    ocr_words = _tesseract_words(doc)
    rect = pdfium_c.FS_RECTF()
    loose_box, ref = pdfium_c.FPDFText_GetLooseCharBox, ctypes.byref(rect)
    for p in pages:
        if not 1 <= p <= len(starts) or p > len(pdf):
            continue
        lo = starts[p - 1]
        hi = starts[p] if p < len(starts) else len(doc.text)
        try:
            page = pdf[p - 1]
        except pdfium.PdfiumError:
            continue
        try:
            textpage = page.get_textpage()
        except pdfium.PdfiumError:
            page.close()
            continue
        try:
            n = textpage.count_chars()
            theirs = textpage.get_text_range() if n else ""
            pb = PageBoxes(p, height=float(page.get_height()), view=_view(page), rotation=page.get_rotation() % 360)
            ours = doc.text[lo:hi]
            raw, boxes = textpage.raw, pb.boxes
            for i, j in _align(ours, theirs):
                if j >= n or ours[i].isspace() or not loose_box(raw, j, ref):
                    continue
                x0, y0, x1, y1 = rect.left, rect.bottom, rect.right, rect.top
                if x1 > x0 and y1 > y0:
                    boxes[lo + i] = (x0, y0, x1, y1)
            ocr = ocr_words.get(p)
            if ocr is not None:  # the page's text is ipsis's OCR: its words' boxes, not PDFium's text
                pb.boxes = _word_boxes(doc, ocr, pb.frame(), pb.rotation, lo, hi)
            out[p] = pb
        finally:
            textpage.close()
            page.close()
    return out


def _view(page: Any) -> tuple[float, float, float, float]:
    """The page's crop box as ``(left, bottom, right, top)``, corners in order (some files give
    them swapped), rounded to float32 like the stored payload."""
    a, b, c, d = (float(v) for v in page.get_cropbox())
    box = array("f", (min(a, c), min(b, d), max(a, c), max(b, d))).tolist()
    return (box[0], box[1], box[2], box[3])


def _tesseract_words(doc: Document) -> dict[int, list[Any]]:
    """The words of each page whose text ipsis's OCR read (``meta["ocr"]``), by page number."""
    pages = (doc.meta.get("ocr") or {}).get("pages") or []
    return {int(r["page"]): list(r.get("words") or []) for r in pages if r.get("source") == "tesseract"}


def _word_boxes(doc: Document, words: list[Any], frame: tuple[float, float, float, float], rotation: int,
                lo: int, hi: int) -> dict[int, tuple[float, float, float, float]]:  # fmt: skip
    """Character boxes from OCR words (points from the rendered page's top left: the crop box as
    displayed, turned by its /Rotate): each character of a word gets its share of the word's
    width, in PDF user space, rounded to float32 like PDFium's (so stored and computed boxes are
    the same numbers)."""
    out: dict[int, tuple[float, float, float, float]] = {}
    for w in words:
        start, end, x0, y0, x1, y1 = int(w[0]), int(w[1]), *(float(v) for v in w[2:6])
        n = max(1, end - start)
        for k in range(max(start, lo), min(end, hi)):
            if doc.text[k].isspace():
                continue
            a, b = x0 + (x1 - x0) * (k - start) / n, x0 + (x1 - x0) * (k - start + 1) / n
            box = array("f", from_displayed((a, y0, b, y1), frame, rotation)).tolist()
            out[k] = (box[0], box[1], box[2], box[3])
    return out


def all_pages(doc: Document, data: bytes, password: str | None = None) -> dict[int, PageBoxes] | None:
    """The aligned boxes of every page of the PDF ``data`` (what ingest stores); None when PDFium
    cannot open it."""
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data, password=password)
    except pdfium.PdfiumError:
        return None
    try:
        return char_map(doc, pdf, list(range(1, len(doc.page_starts or [0]) + 1)))
    finally:
        pdf.close()


_PAGE = struct.Struct("<Id4fHI")  # page number, height, the visible page's box, rotation, number of boxes


def pack_pages(pages: dict[int, PageBoxes]) -> bytes:
    """The pages' boxes as bytes: per page its number, height, visible box and count, then the offsets (deltas,
    uint32) and x0, y0, x1, y1 (float32: PDFium's loose boxes are float32, so nothing is lost).

    >>> pb = PageBoxes(2, {10: (1.5, 2.0, 3.25, 4.0), 12: (4.0, 2.0, 5.0, 4.0)}, 310.0, (0.0, 482.0, 361.0, 792.0), 90)
    >>> unpack_pages(pack_pages({2: pb}))[2] == pb
    True
    """
    out = [struct.pack("<I", len(pages))]
    for p, pb in sorted(pages.items()):
        offsets = list(pb.boxes)
        cols: list[array[Any]] = [array("I", [b - a for a, b in zip([0, *offsets], offsets, strict=False)])]
        cols.extend(array("f", [b[k] for b in pb.boxes.values()]) for k in range(4))
        out.append(_PAGE.pack(p, pb.height, *pb.frame(), pb.rotation, len(offsets)))
        out.extend(to_le(c) for c in cols)
    return b"".join(out)


def unpack_pages(data: bytes) -> dict[int, PageBoxes]:
    """The pages :func:`pack_pages` wrote (ValueError when the bytes are not such a payload)."""
    try:
        (count,) = struct.unpack_from("<I", data, 0)
        pos, out = 4, {}
        for _ in range(count):
            p, height, left, bottom, right, top, rotation, n = _PAGE.unpack_from(data, pos)
            pos += _PAGE.size
            cols, pos = read_columns(data, pos, "Iffff", n)
            offset, boxes = 0, {}
            for d, x0, y0, x1, y1 in zip(*cols, strict=True):
                offset += d
                boxes[offset] = (x0, y0, x1, y1)
            out[p] = PageBoxes(p, boxes, height, (left, bottom, right, top), rotation)
    except struct.error as exc:
        msg = f"not a boxes payload ({exc})"
        raise ValueError(msg) from None
    check_consumed(data, pos, "boxes")
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
    if missing and pdf is not None:  # stored boxes cover every page the PDF has
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
        frame, turn = pb.frame(), pb.rotation
        chars = [pb.boxes[k] for k in range(start, end) if k in pb.boxes and not any(a <= k < b for a, b in skip)]
        # lines are runs on the page as displayed (a rotated page's lines run up or down in user space)
        for run in _runs([displayed(c, frame, turn) for c in chars]):
            x0, y0, x1, y1 = from_displayed(run, frame, turn)
            box = {"page": p, "x0": round(x0, 2), "y0": round(y0, 2), "x1": round(x1, 2), "y1": round(y1, 2),
                   "page_height": round(pb.height, 2), "page_box": [round(v, 2) for v in frame]}  # fmt: skip
            if turn:
                box["rotation"] = turn
            out.append(box)
    return out


class PdfSource:
    """The original PDF of a document, opened once, with its aligned page boxes cached; or, with
    ``pages`` (the boxes stored at ingest), no PDF at all."""

    def __init__(self, doc: Document, data: bytes | None, pages: dict[int, PageBoxes] | None = None) -> None:
        self.doc = doc
        self.cache: dict[int, PageBoxes] = dict(pages or {})
        self.pdf: Any = None
        if pages is None:
            import pypdfium2 as pdfium

            self.pdf = pdfium.PdfDocument(data)

    def boxes(self, start: int, end: int) -> list[dict[str, Any]]:
        return boxes_for(self.doc, self.pdf, start, end, self.cache)

    def close(self) -> None:
        if self.pdf is not None:
            self.pdf.close()


def stored_pages(doc: Document) -> dict[int, PageBoxes] | None:
    """The boxes stored with ``doc``'s version, or None (not a stored PDF, stored by an older
    ipsis, or stale: then they are computed from the original)."""
    pages: dict[int, PageBoxes] | None = doc.cache.get(STORED)
    return pages


def open_source(doc: Document, store: Any = None) -> PdfSource | None:
    """Boxes for ``doc``: from the store when it kept them, else from the original PDF."""
    pages = stored_pages(doc)
    if pages is not None:
        return PdfSource(doc, None, pages)
    data = pdf_bytes(doc, store)
    if not data:  # not a PDF (PDFium is not even imported)
        return None
    import pypdfium2 as pdfium

    try:
        return PdfSource(doc, data)
    except pdfium.PdfiumError:  # encrypted (the password is not kept), or not a PDF PDFium reads
        return None


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
    visible page's top left, as the PDF open parameters count them; ``page_box`` is that page in
    the boxes' user space, whose origin is not always 0, 0).

    >>> viewrect({"page": 2, "x0": 72.0, "y0": 760.0, "x1": 300.0, "y1": 772.0, "page_height": 310.0,
    ...           "page_box": [0.0, 482.0, 361.0, 792.0]})
    'page=2&viewrect=72.00,20.00,228.00,12.00'
    """
    x0, top, x1, bottom = from_top_left(box)
    return f"page={box['page']}&viewrect={x0:.2f},{top:.2f},{x1 - x0:.2f},{bottom - top:.2f}"


def displayed(
    b: tuple[float, float, float, float], frame: tuple[float, float, float, float], rotation: int
) -> tuple[float, float, float, float]:
    """A user-space box ``(x0, y0, x1, y1)`` as ``(left, top, right, bottom)`` in points from the
    top left of the page as displayed: its ``frame`` (crop box) turned by its /Rotate, clockwise.

    >>> displayed((90.0, 72.0, 104.0, 343.0), (0.0, 0.0, 612.0, 792.0), 90)
    (72.0, 90.0, 343.0, 104.0)
    """
    left, bottom, right, top = frame
    x0, y0, x1, y1 = b
    if rotation == 90:
        return (y0 - bottom, x0 - left, y1 - bottom, x1 - left)
    if rotation == 180:
        return (right - x1, y0 - bottom, right - x0, y1 - bottom)
    if rotation == 270:
        return (top - y1, right - x1, top - y0, right - x0)
    return (x0 - left, top - y1, x1 - left, top - y0)


def from_displayed(
    d: tuple[float, float, float, float], frame: tuple[float, float, float, float], rotation: int
) -> tuple[float, float, float, float]:
    """The inverse of :func:`displayed`: a displayed box back in user space.

    >>> from_displayed(displayed((1.0, 2.0, 3.0, 5.0), (0.0, 0.0, 612.0, 792.0), 270), (0.0, 0.0, 612.0, 792.0), 270)
    (1.0, 2.0, 3.0, 5.0)
    """
    left, bottom, right, top = frame
    a, b, c, d2 = d
    if rotation == 90:
        return (b + left, a + bottom, d2 + left, c + bottom)
    if rotation == 180:
        return (right - c, b + bottom, right - a, d2 + bottom)
    if rotation == 270:
        return (right - d2, top - c, right - b, top - a)
    return (a + left, top - d2, c + left, top - b)


def _frame(box: dict[str, Any]) -> tuple[float, float, float, float]:
    """The visible page in the box's user space (``page_box``; boxes of an older ipsis give only
    ``page_height``: a page of that height at the origin)."""
    frame = box.get("page_box")
    if isinstance(frame, list | tuple) and len(frame) == 4:
        return (float(frame[0]), float(frame[1]), float(frame[2]), float(frame[3]))
    return (0.0, 0.0, 0.0, float(box.get("page_height", 0.0)))


def from_top_left(box: dict[str, Any]) -> tuple[float, float, float, float]:
    """A box as ``(x0, y0, x1, y1)`` in points from the displayed page's top left (y down), the
    frame of the rendered page (:mod:`ipsis.report.scan`); a rotated page (``rotation``) is
    counted as it is displayed."""
    coords = (box["x0"], box["y0"], box["x1"], box["y1"])
    return displayed(coords, _frame(box), int(box.get("rotation", 0)))


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
            sources[sid] = open_source(doc, store) if doc is not None else None
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

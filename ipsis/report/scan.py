"""The page image behind a match, for the HTML report: a person checks the scan or the printed page.

For a match on a page that is OCR text (``ocr`` marks; :mod:`ipsis.ingest.ocr`), the part of
the page around the quote's words is rendered by PDFium (grey, :data:`CROP_DPI`) from the
original PDF, embedded as a PNG ``data:`` URI (the report's Content-Security-Policy allows
``img-src data:``, so it works from ``file://``), and each of the quote's word boxes is drawn
over it as an outlined ``<span>`` (the box Tesseract or the OCR text layer gave; a word read
with low confidence gets its own class and its confidence as a tooltip).

The original bytes come from the file the document was read from (``meta["path"]``, checked
against ``meta["sha256"]``) or, for a stored source, from the store's blob (a loader the store
puts in ``doc.cache[ORIGINAL]``). Without them, or without word boxes, there is no crop. A match on
a PDF's own text layer is cropped the same way around its line boxes (:mod:`ipsis.pdfboxes`).
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from base64 import b64encode
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ipsis.document import Document
from ipsis.ingest.ocr import LOW_CONFIDENCE, word_confidences
from ipsis.report.html_text import esc

CROP_DPI = 110
PAD = 14.0  # points of page around the quote's words
ORIGINAL = ("original_bytes",)
"""``doc.cache`` key of a zero-argument callable returning the document's original bytes."""


def png_gray(width: int, height: int, rows: bytes) -> bytes:
    """An 8-bit greyscale PNG of ``rows`` (``width * height`` bytes, top row first).

    >>> png_gray(2, 1, b"\\x00\\xff")[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + rows[y * width : (y + 1) * width] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")


def _original(doc: Document) -> bytes | None:
    loader: Callable[[], bytes] | None = doc.cache.get(ORIGINAL)
    if loader is not None:
        try:
            return loader()
        except OSError:
            return None
    path = doc.meta.get("path")
    if not path or not Path(path).is_file():
        return None
    data = Path(path).read_bytes()
    sha = doc.meta.get("sha256")
    return data if not sha or hashlib.sha256(data).hexdigest() == sha else None


def _on_ocr_page(doc: Document, start: int, end: int) -> bool:
    return any(m.kind == "ocr" and m.start <= start and end <= m.end + 1 for m in doc.marks)


def _printed_words(doc: Document, boxes: Any) -> list[dict[str, Any]]:
    """The line boxes of a match on a PDF's own text layer (:mod:`ipsis.pdfboxes`, PDF user space,
    origin bottom left) as word-like boxes from the page's top left, like the OCR words."""
    from ipsis.pdfboxes import from_top_left

    out = []
    for b in boxes or []:
        try:
            out.append({"page": int(b["page"]), "box": from_top_left(b), "confidence": -1, "start": 0, "end": 0})
        except (KeyError, TypeError, ValueError):
            return []
    return out


def crop(doc: Document, start: int, end: int, boxes: Any = None) -> dict[str, Any] | None:
    """The crop behind ``doc.text[start:end]``: ``{png, width, height, page, boxes}`` with
    boxes as fractions of the crop (``x, y, w, h, confidence, text``), or None. On OCR text the
    boxes are the OCR words; on a PDF's own text layer, the match's line ``boxes`` (one mechanism
    for both: what a person checks is the page as printed)."""
    words = word_confidences(doc.meta, start, end)
    if not words or not _on_ocr_page(doc, start, end):
        words = _printed_words(doc, boxes)
    if not words:
        return None
    page_no = words[0]["page"]
    words = [w for w in words if w["page"] == page_no]
    data = _original(doc)
    if data is None:
        return None
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError:
        return None
    try:
        page = pdf[page_no - 1]
        pw, ph = page.get_size()
        x0 = max(0.0, min(w["box"][0] for w in words) - PAD)
        y0 = max(0.0, min(w["box"][1] for w in words) - PAD)
        x1 = min(pw, max(w["box"][2] for w in words) + PAD)
        y1 = min(ph, max(w["box"][3] for w in words) + PAD)
        # PDFium's crop is what is cut off each side (left, bottom, right, top), in points
        bitmap = page.render(scale=CROP_DPI / 72, grayscale=True, crop=(x0, ph - y1, pw - x1, y0))
        try:
            width, height, stride = bitmap.width, bitmap.height, bitmap.stride
            buf = bytes(bitmap.buffer)
        finally:
            bitmap.close()
        page.close()
    finally:
        pdf.close()
    rows = b"".join(buf[y * stride : y * stride + width] for y in range(height))
    cw, ch = x1 - x0, y1 - y0
    boxes = [
        {
            "x": (w["box"][0] - x0) / cw,
            "y": (w["box"][1] - y0) / ch,
            "w": (w["box"][2] - w["box"][0]) / cw,
            "h": (w["box"][3] - w["box"][1]) / ch,
            "confidence": w["confidence"],
            "text": doc.text[w["start"] : w["end"]],
        }
        for w in words
    ]
    return {"png": png_gray(width, height, rows), "width": width, "height": height, "page": page_no, "boxes": boxes}


def crop_html(doc: Document | None, match: Mapping[str, Any], caption: str) -> str:
    """The ``<figure>`` with the page crop and the quote's word boxes, or ``""``."""
    if doc is None or not isinstance(match.get("start"), int) or not isinstance(match.get("end"), int):
        return ""
    c = crop(doc, match["start"], match["end"], match.get("boxes"))
    if c is None:
        return ""
    spans = []
    for b in c["boxes"]:
        low = 0 <= b["confidence"] < LOW_CONFIDENCE
        tip = b["text"] + (f" ({b['confidence']:g})" if b["confidence"] >= 0 else "")
        style = f"left:{b['x']:.2%};top:{b['y']:.2%};width:{b['w']:.2%};height:{b['h']:.2%}"
        spans.append(f'<span class="ocrbox{" low" if low else ""}" style="{style}" title="{esc(tip)}"></span>')
    uri = "data:image/png;base64," + b64encode(c["png"]).decode("ascii")
    return (
        f'<figure class="scan" data-page="{c["page"]}"><div class="scanwrap">'
        f'<img src="{uri}" width="{c["width"]}" height="{c["height"]}" alt="{esc(caption)}">'
        f"{''.join(spans)}</div><figcaption>{esc(caption)}</figcaption></figure>"
    )

"""OCR of scanned PDF pages with Tesseract, and OCR text layers made by other tools.

Two kinds of pages are *OCR text*, and both are marked so the matcher knows their text may
carry OCR noise (:mod:`ipsis.verify.ocr`):

- pages ipsis OCRs itself: image-only pages and pages whose text layer is unusable (mostly
  U+FFFD, private-use or control characters) with ``mode="auto"``, every page with
  ``"always"``. Each page is rendered by PDFium to an 8-bit grey bitmap at a resolution chosen
  for the page (:func:`choose_dpi`) and read by the ``tesseract`` binary (Debian's
  ``tesseract-ocr``, with ``-por``, ``-spa``, ``-eng`` data) through its hOCR output, which
  gives every word with its box and confidence.
- pages whose text layer is an OCR layer from another tool (ocrmypdf, Tesseract's own PDF
  output, scanners' software): invisible text (render mode 3) laid over the page image
  (:func:`invisible_text`). Their words get boxes from PDFium's character boxes.

Every OCR page becomes a ``Mark("ocr", ...)`` over its text, and ``Document.meta["ocr"]``
keeps the engine and its version, the languages, and per page its resolution, size (points),
mean confidence and words as ``[start, end, x0, y0, x1, y1, confidence]`` (document offsets;
boxes in points from the page's top-left corner; confidence -1 when the text layer gives none).
The OCR text is the document text: it is what the store keeps and hashes, with the engine and
version in ``extractor_version``, so a later run reads exactly the same text.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import regex

from ipsis.document import Mark
from ipsis.errors import OcrUnavailableError
from ipsis.ingest.tesseract import (
    DEFAULT_LANGS,
    DEFAULT_OCR,
    INSTALL,
    LOW_CONFIDENCE,
    MODES,
    Engine,
    OcrOptions,
    OcrPage,
    engine,
    parse_hocr,
    run_tesseract,
)
from ipsis.limits import Deadline

__all__ = [
    "DEFAULT_LANGS",
    "DEFAULT_OCR",
    "INSTALL",
    "LOW_CONFIDENCE",
    "MODES",
    "Engine",
    "OcrOptions",
    "OcrPage",
    "OcrRun",
    "choose_dpi",
    "engine",
    "invisible_text",
    "low_characters",
    "ocr_pdf",
    "parse_hocr",
    "render_gray",
    "run_tesseract",
    "usable",
    "word_confidences",
]

TARGET_DPI = 300  # Tesseract reads body text best at about 300 dpi
MIN_DPI = 150
MAX_DPI = 400
MAX_PIXELS = 6000  # longest side of a rendered page: large-format pages get a lower resolution

_BAD = regex.compile(r"[\ufffd\p{Co}\p{Cn}\p{Cs}\x00-\x08\x0e-\x1f]")
_ALNUM = regex.compile(r"[\p{L}\p{N}]")
_SPACE = regex.compile(r"\s")


def usable(text: str) -> bool:
    """False for a page whose text layer is empty or garbage: mostly U+FFFD, private-use,
    unassigned or control characters (fonts without a Unicode map), or hardly any letters.

    >>> usable("Art. 5º Todos são iguais perante a lei"), usable("\\ufffd\\ufffd\\ufffd a \\ufffd"), usable(" \\n")
    (True, False, False)
    """
    n = len(text) - len(_SPACE.findall(text))
    if n <= 0:
        return False
    if not _BAD.search(text) and len(_ALNUM.findall(text, 0, 4000)) >= 0.3 * min(n, 4000):
        return True  # the common case, decided in C
    return len(_BAD.findall(text)) <= 0.3 * n and len(_ALNUM.findall(text)) >= 0.3 * n


def invisible_text(textpage: Any, samples: int = 32) -> bool:
    """True when the page's text is invisible (render mode 3): the text layer OCR tools lay over
    a page image. A few characters spread over the page are sampled (cheap on every page)."""
    import pypdfium2.raw as pdfium_c

    n = textpage.count_chars()
    if n <= 0:
        return False
    modes = []
    for i in range(0, n, max(1, n // samples)):
        obj = pdfium_c.FPDFText_GetTextObject(textpage.raw, i)
        if obj:
            modes.append(pdfium_c.FPDFTextObj_GetTextRenderMode(obj))
    return bool(modes) and sum(m == pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE for m in modes) >= 0.8 * len(modes)


def choose_dpi(page: Any, fixed: int | None = None) -> int:
    """The render resolution for a page: a page that is one scanned image is rendered at the
    scan's own resolution (upsampling a scan enlarges its specks and costs Tesseract accuracy:
    on the LGPD scans, 200 dpi read 90.6 mean word confidence against 81.1 at 300), within
    :data:`MIN_DPI`..:data:`MAX_DPI`; other pages at :data:`TARGET_DPI`. Never so high that the
    longest side passes :data:`MAX_PIXELS` pixels."""
    import pypdfium2.raw as pdfium_c

    width, height = page.get_size()
    dpi = float(fixed or TARGET_DPI)
    if fixed is None:
        native = 0.0
        for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=1):
            try:
                left, _, right, _ = obj.get_bounds()
                px_w, _ = obj.get_px_size()
            except Exception:  # an image PDFium cannot measure says nothing about resolution
                continue
            if right - left >= 0.5 * width and px_w:
                native = max(native, px_w * 72 / (right - left))
        if native:
            dpi = min(MAX_DPI, max(MIN_DPI, native))
    dpi = min(dpi, MAX_PIXELS * 72 / max(width, height, 1))
    return round(max(50, dpi))


def render_gray(page: Any, dpi: int) -> tuple[bytes, int, int]:
    """The page as a binary PGM (8-bit grey) at ``dpi``, with its pixel width and height."""
    bitmap = page.render(scale=dpi / 72, grayscale=True)
    try:
        w, h, stride = bitmap.width, bitmap.height, bitmap.stride
        buf = bytes(bitmap.buffer)
        rows = buf if stride == w else b"".join(buf[i * stride : i * stride + w] for i in range(h))
    finally:
        bitmap.close()
    return b"P5\n%d %d\n255\n" % (w, h) + rows, w, h


def layer_words(textpage: Any, raw: str, page_height: float) -> list[list[float]]:
    """Word boxes of a text layer, from PDFium's character boxes (``raw`` is the page's text as
    PDFium gives it; offsets are into it after CRLF becomes LF, as the document text has it)."""
    import re

    removed = [0] * (len(raw) + 1)
    n = 0
    for i, c in enumerate(raw):
        removed[i] = n
        if c == "\r" and raw[i + 1 : i + 2] == "\n":
            n += 1
    removed[len(raw)] = n
    words: list[list[float]] = []
    count = textpage.count_chars()
    page_top = page_height
    for m in re.finditer(r"\S+", raw):
        boxes = []
        for i in range(m.start(), min(m.end(), count)):
            left, bottom, right, top = textpage.get_charbox(i)
            if right > left:
                boxes.append((left, bottom, right, top))
        if not boxes:
            continue
        x0 = min(b[0] for b in boxes)
        x1 = max(b[2] for b in boxes)
        y0 = page_top - max(b[3] for b in boxes)
        y1 = page_top - min(b[1] for b in boxes)
        s, e = m.start() - removed[m.start()], m.end() - removed[m.end()]
        words.append([s, e, round(x0, 1), round(y0, 1), round(x1, 1), round(y1, 1), -1.0])
    return words


@dataclass(slots=True)
class OcrRun:
    """What OCR did to a PDF: per OCR page (0-based index) its :class:`OcrPage`."""

    pages: dict[int, OcrPage] = field(default_factory=dict)
    engine: str = ""
    lang: str = ""
    mode: str = "auto"
    skipped: list[int] = field(default_factory=list)
    skip_reason: str = ""
    seconds: float = 0.0

    def marks_and_meta(self, text: str, starts: Sequence[int]) -> tuple[list[Mark], dict[str, Any]]:
        """``ocr`` marks over each OCR page and the ``meta["ocr"]`` record (document offsets)."""
        marks: list[Mark] = []
        pages: list[dict[str, Any]] = []
        for i in sorted(self.pages):
            p = self.pages[i]
            start = starts[i]
            end = start + len(p.text.rstrip("\n"))
            conf = p.confidence()
            if p.source == "tesseract":
                note = f"OCR by {self.engine} ({self.lang}, {p.dpi} dpi), page {i + 1}"
                note += f", mean word confidence {conf:g}" if conf is not None else ""
            else:
                note = f"OCR text layer (invisible text over the page image), page {i + 1}"
            marks.append(Mark("ocr", start, max(start, end), note))
            words = [[int(w[0]) + start, int(w[1]) + start, *w[2:]] for w in p.words]
            record: dict[str, Any] = {"page": i + 1, "source": p.source, "width": p.width, "height": p.height}
            if p.dpi:
                record["dpi"] = p.dpi
            if conf is not None:
                record["confidence"] = conf
            record["words"] = words
            if p.low_chars:
                record["low_chars"] = [[int(c[0]) + start, c[1]] for c in p.low_chars]
            pages.append(record)
        meta: dict[str, Any] = {"mode": self.mode, "pages": pages}
        if self.engine:
            meta.update(engine=self.engine, lang=self.lang, seconds=round(self.seconds, 2))
            meta["text_sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
        if self.skipped:
            meta["pages_not_ocred"] = [i + 1 for i in self.skipped]
        return marks, meta


def ocr_pdf(
    data: bytes,
    name: str,
    password: str | None,
    texts: list[str],
    layers: Sequence[bool] | None,
    images: Sequence[bool],
    options: OcrOptions,
    deadline: Deadline,
    progress: Callable[[int, int], None] | None = None,
) -> OcrRun:
    """OCR the pages of a PDF that need it (``texts`` is updated in place) and collect the OCR
    text layers already there (``layers[i]``: page ``i`` has invisible text; None: PDFium is
    asked here, for the engines that do not read pages with it)."""
    run = OcrRun(mode=options.mode)
    if options.mode == "always":
        todo = list(range(len(texts)))
    elif options.mode == "auto":
        todo = [i for i, t in enumerate(texts) if not usable(t) and (images[i] or t.strip())]
    else:
        todo = []
    if layers is None:
        layers = _invisible_pages(data, password, texts)
    layer_pages = [i for i, flag in enumerate(layers) if flag and i not in todo and texts[i].strip()]
    if not todo and not layer_pages:
        return run
    eng: Engine | None = None
    lang = ""
    if todo:
        why = f"{name}: pages {_ranges([i + 1 for i in todo])} need OCR (no usable text layer)"
        if options.mode == "always":
            why = f"{name}: --ocr always"
        try:
            eng, lang = engine(options, why)
        except OcrUnavailableError:
            if options.mode == "always" or not any(usable(t) for t in texts):
                raise
            run.skipped = todo  # other pages have text: they are read, these stay empty (logged)
            run.skip_reason = "Tesseract is not installed (tesseract-ocr)"
            todo = []
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data, password=password)
    except pdfium.PdfiumError:  # another engine read the file; PDFium cannot render it
        run.skipped, run.skip_reason = todo, "PDFium cannot open the file to render them for OCR"
        return run
    if len(pdf) != len(texts):  # another engine read a different page tree: page i is not PDFium's
        run.skipped, todo, layer_pages = todo, [], []
        run.skip_reason = f"PDFium counts {len(pdf)} pages, the {len(texts)} read do not correspond to render them"

    t0 = time.monotonic()
    try:
        for done, i in enumerate(todo, start=1):
            deadline.check(f"OCR of page {i + 1}")
            page = _page(pdf, i)
            if page is None:  # another engine read the file; PDFium cannot render this page
                run.skipped.append(i)
                run.skip_reason = "PDFium cannot load them to render them for OCR"
                continue
            try:
                dpi = choose_dpi(page, options.dpi)
                image, _, _ = render_gray(page, dpi)
                left = deadline.end - time.monotonic()
                assert eng is not None
                hocr = run_tesseract(eng, image, dpi, lang, None if left == float("inf") else max(left, 1.0),
                                    f"{name}: page {i + 1}")  # fmt: skip
                p = parse_hocr(hocr, dpi)
                p.width, p.height = (round(v, 1) for v in page.get_size())
            finally:
                page.close()
            if p.text.strip() or not texts[i].strip():  # OCR that reads nothing keeps a garbage layer
                texts[i] = p.text
                run.pages[i] = p
            if progress:
                progress(done, len(todo))
        for i in layer_pages:
            page = _page(pdf, i)
            if page is None:
                continue
            textpage = page.get_textpage()
            try:
                raw = textpage.get_text_range()
                from ipsis.ingest.pages import resolve_soft_hyphens

                w, h = page.get_size()
                # boxes only when the page text is PDFium's own (other engines' offsets differ)
                words = layer_words(textpage, raw, h) if resolve_soft_hyphens(raw) == raw == texts[i] else []
            finally:
                textpage.close()
                page.close()
            run.pages[i] = OcrPage(texts[i], words, source="text layer", width=round(w, 1), height=round(h, 1))
    finally:
        pdf.close()
    run.seconds = time.monotonic() - t0
    if eng is not None and todo:
        run.engine, run.lang = eng.name, lang
    return run


def _invisible_pages(data: bytes, password: str | None, texts: Sequence[str]) -> list[bool]:
    import pypdfium2 as pdfium

    out = [False] * len(texts)
    try:
        pdf = pdfium.PdfDocument(data, password=password)
    except pdfium.PdfiumError:  # the engine that read the file copes with it; PDFium does not
        return out
    try:
        if len(pdf) != len(texts):  # the pages do not correspond: PDFium's page i is another page
            return out
        for i in range(len(texts)):
            if not texts[i].strip():
                continue
            page = _page(pdf, i)
            if page is None:
                continue
            textpage = page.get_textpage()
            out[i] = invisible_text(textpage)
            textpage.close()
            page.close()
    finally:
        pdf.close()
    return out


def _page(pdf: Any, index: int) -> Any:
    """Page ``index`` of an open ``pypdfium2.PdfDocument``, or None when PDFium cannot load it
    (the engine that read the file, pypdf or pdfplumber, may have read a page PDFium refuses)."""
    import pypdfium2 as pdfium

    try:
        return pdf[index]
    except pdfium.PdfiumError:
        return None


def _ranges(pages: Sequence[int]) -> str:
    from ipsis.ingest.pdf import _page_ranges

    return _page_ranges(pages)


def low_characters(meta: dict[str, Any], start: int, end: int) -> list[tuple[int, float]]:
    """``(offset, confidence)`` of the characters in ``[start, end)`` that Tesseract read with
    low confidence (:data:`~ipsis.ingest.tesseract.LOW_CHAR_CONFIDENCE`; ipsis's own OCR only)."""
    out: list[tuple[int, float]] = []
    for page in (meta.get("ocr") or {}).get("pages", []):
        out += [(int(o), float(c)) for o, c in page.get("low_chars") or [] if start <= o < end]
    return out


def word_confidences(meta: dict[str, Any], start: int, end: int) -> list[dict[str, Any]]:
    """The OCR words of ``meta["ocr"]`` overlapping ``[start, end)``, each with its page, box
    and confidence (for the report's page crop and the result's low-confidence note)."""
    out: list[dict[str, Any]] = []
    for page in (meta.get("ocr") or {}).get("pages", []):
        words = page.get("words") or []
        if not words or words[0][0] >= end or words[-1][1] <= start:
            continue
        for w in words:
            if w[0] < end and start < w[1]:
                out.append({"start": w[0], "end": w[1], "page": page["page"], "box": w[2:6], "confidence": w[6]})
    return out

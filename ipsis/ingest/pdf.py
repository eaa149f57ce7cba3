"""PDF reader: PDFium (pypdfium2) by default, pypdf as the pure-Python fallback, pdfplumber
where character boxes are needed.

The engine was chosen by measurement (``DESIGN.md``, Performance notes): PDFium is about ten
times faster than pypdf here, keeps two-column pages in column order and marks line-end
hyphens (U+FFFE), which :func:`ipsis.ingest.pages.resolve_soft_hyphens` turns into a soft
hyphen (a hyphenation point) or a real ``-``. The document text is the extracted text of every
page, pages separated by ``\\n\\f``; running headers/footers, page numbers, footnote calls and
unmapped glyphs are *marked*, never deleted.

The ``pdfplumber`` engine (:mod:`ipsis.ingest.plumber`) builds the text from word boxes: pages
with two columns are read column by column and furniture is found by position; it is slow.
``position_furniture=True`` keeps the PDFium text and drops the repetition-based furniture marks
that pdfplumber's positions do not put in the top or bottom band of their page.

OCR (:mod:`ipsis.ingest.ocr`): with ``ocr.mode="auto"`` pages without a usable text layer are
read by Tesseract; pages whose text is an invisible OCR layer are marked as OCR text. A PDF
whose pages all stay empty raises :class:`NoTextLayerError`.
"""

from __future__ import annotations

import io
import logging
import warnings
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ipsis.document import Document, Mark
from ipsis.errors import EncryptedDocumentError, ExtractionError, InputError, NoTextLayerError, require_extra
from ipsis.ingest.ocr import DEFAULT_OCR, OcrOptions, invisible_text, ocr_pdf
from ipsis.ingest.pages import (
    assemble,
    find_footnotes,
    find_furniture,
    find_unmapped,
    resolve_soft_hyphens,
)
from ipsis.ingest.pdfscan import check_streams
from ipsis.limits import DEFAULT_LIMITS, Deadline, Limits

log = logging.getLogger(__name__)

ENGINES = ("pdfium", "pypdf", "pdfplumber")
Progress = Callable[[int, int], None]
"""Called as ``progress(done_pages, total_pages)`` after each page."""


def _page_ranges(pages: Sequence[int]) -> str:
    """``[1, 2, 3, 7]`` -> ``'1-3, 7'``.

    >>> _page_ranges([1, 2, 3, 7, 9, 10])
    '1-3, 7, 9-10'
    """
    out: list[str] = []
    run: list[int] = []
    for p in pages:
        if run and p == run[-1] + 1:
            run.append(p)
            continue
        if run:
            out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [p]
    if run:
        out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
    return ", ".join(out)


@contextmanager
def _quiet_pypdf() -> Iterator[None]:
    """pypdf logs every repair of a damaged file ("EOF marker not found"); ipsis reports the
    outcome in its error instead."""
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        logger.setLevel(level)


def _diagnose(data: bytes, name: str, password: str | None, cause: Exception) -> ExtractionError:
    """Why PDFium could not open the file, in words the user can act on."""
    with _quiet_pypdf():
        return _diagnose_quietly(data, name, password, cause)


def _diagnose_quietly(data: bytes, name: str, password: str | None, cause: Exception) -> ExtractionError:
    from pypdf import PdfReader

    if not data.lstrip().startswith(b"%PDF"):
        return ExtractionError(f"{name} is not a PDF (no %PDF header); pass a PDF or set the input format")
    try:
        with _quiet_pypdf():
            reader = PdfReader(io.BytesIO(data), strict=False)
            if reader.is_encrypted and not reader.decrypt(password or ""):
                return _encrypted(name, password)
            count = len(reader.pages)
    except Exception as exc:  # pypdf raises many types on damaged files
        detail = f"{type(exc).__name__}: {exc}"
        count = -1
    else:
        detail = str(cause)
    if count == 0:
        return ExtractionError(f"{name} is a PDF with 0 pages; there is no text to read")
    tail = data[-2048:]
    if b"%%EOF" not in tail:
        return ExtractionError(
            f"{name} looks truncated or damaged (no %%EOF at the end; {detail}); download the file again"
        )
    return ExtractionError(f"{name} is a damaged PDF ({detail}); try --engine pypdf or repair it")


def _encrypted(name: str, password: str | None) -> EncryptedDocumentError:
    if password:
        return EncryptedDocumentError(f"{name} is encrypted and the password given is wrong; check --password")
    return EncryptedDocumentError(f"{name} is encrypted and cannot be opened without a password; pass --password")


def _pdfium_pages(
    data: bytes,
    name: str,
    password: str | None,
    progress: Progress | None,
    limits: Limits,
    deadline: Deadline,
    layers: list[bool] | None = None,
) -> tuple[list[str], list[bool]]:
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    try:
        pdf = pdfium.PdfDocument(data, password=password)
    except pdfium.PdfiumError as exc:
        if getattr(exc, "err_code", None) == pdfium_c.FPDF_ERR_PASSWORD and b"/Encrypt" in data:
            raise _encrypted(name, password) from exc
        raise _diagnose(data, name, password, exc) from exc
    texts: list[str] = []
    images: list[bool] = []
    try:
        total = len(pdf)
        if total == 0:
            msg = f"{name} is a PDF with 0 pages; there is no text to read"
            raise ExtractionError(msg)
        limits.check_pages(total, name)
        chars = 0
        for i in range(total):
            deadline.check(f"page {i + 1} of {total}")
            try:
                page = pdf[i]
            except pdfium.PdfiumError as exc:
                msg = (
                    f"{name}: page {i + 1} of {total} cannot be loaded ({exc}; a damaged page tree?); "
                    "try --engine pypdf or repair the file (e.g. qpdf)"
                )
                raise ExtractionError(msg) from exc
            textpage = page.get_textpage()
            text = textpage.get_text_range() if textpage.count_chars() else ""
            if layers is not None:  # OCR: is this text an invisible OCR layer?
                layers.append(bool(text.strip()) and invisible_text(textpage))
            textpage.close()
            if not text.strip():
                images.append(any(True for _ in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE])))
            else:
                images.append(False)
            page.close()
            texts.append(resolve_soft_hyphens(text))
            chars += len(text)
            limits.check_text(chars, len(data), name, f"page {i + 1} of {total}")
            if progress:
                progress(i + 1, total)
    finally:
        pdf.close()
    return texts, images


def _pypdf_pages(
    data: bytes, name: str, password: str | None, progress: Progress | None, limits: Limits, deadline: Deadline
) -> tuple[list[str], list[bool]]:
    from pypdf import PdfReader

    try:
        with _quiet_pypdf():
            reader = PdfReader(io.BytesIO(data), strict=False)
            if reader.is_encrypted and not reader.decrypt(password or ""):
                raise _encrypted(name, password)
            total = len(reader.pages)
            if total == 0:
                msg = f"{name} is a PDF with 0 pages; there is no text to read"
                raise ExtractionError(msg)
            limits.check_pages(total, name)
            texts: list[str] = []
            images: list[bool] = []
            chars = 0
            for i, page in enumerate(reader.pages):
                deadline.check(f"page {i + 1} of {total}")
                text = page.extract_text() or ""
                texts.append(text)
                chars += len(text)
                limits.check_text(chars, len(data), name, f"page {i + 1} of {total}")
                images.append(not text.strip() and bool(_page_images(page)))
                if progress:
                    progress(i + 1, total)
    except (ExtractionError, InputError):
        raise
    except Exception as exc:  # pypdf raises many types (AttributeError, RecursionError) on damaged files
        raise _diagnose(data, name, password, exc) from exc
    return texts, images


def _plumber(
    data: bytes, name: str, password: str | None, progress: Progress | None
) -> tuple[list[str], list[bool], list[Mark]]:
    """Texts, image flags and furniture marks by position (pdfplumber engine)."""
    from pdfminer.pdfdocument import PDFPasswordIncorrect

    from ipsis.ingest.layout import position_furniture
    from ipsis.ingest.plumber import placed_lines, plumber_pages

    def on_error(exc: Exception) -> ExtractionError:
        if isinstance(exc, PDFPasswordIncorrect):
            return _encrypted(name, password)
        return _diagnose(data, name, password, exc)

    texts, images, layouts, heights = plumber_pages(data, name, password, progress, on_error)
    text, starts = assemble(texts)
    return texts, images, position_furniture(text, placed_lines(layouts, heights, starts))


def _page_images(page: Any) -> int:
    try:
        return len(page.images)
    except Exception:  # an image pypdf cannot decode still counts as "has images"
        return 1


def read_pdf(
    data: bytes,
    doc_id: str,
    name: str = "input",
    *,
    engine: str = "pdfium",
    password: str | None = None,
    progress: Progress | None = None,
    position_furniture: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    deadline: Deadline | None = None,
    ocr: OcrOptions = DEFAULT_OCR,
) -> Document:
    """A :class:`Document` from PDF bytes, with page starts and furniture/footnote marks.

    ``engine`` is one of :data:`ENGINES`; ``position_furniture`` (PDFium and pypdf engines)
    confirms the furniture found by repetition with pdfplumber's character positions. ``ocr``
    says which pages Tesseract reads (:mod:`ipsis.ingest.ocr`); a ``progress`` callback with an
    ``ocr`` attribute gets ``ocr(done, total)`` after each OCR page.
    """
    if engine not in ENGINES:
        msg = f"unknown PDF engine {engine!r}; choose one of {', '.join(ENGINES)}"
        raise InputError(msg)
    if engine == "pdfplumber" or position_furniture:
        what = "--engine pdfplumber" if engine == "pdfplumber" else "--position-furniture"
        require_extra("pdfplumber", "pdfplumber", f"{what} (layout by character position)")
    if engine == "pypdf":  # without fontTools, pypdf misreads the encoding of CFF fonts
        require_extra("fontTools", "pypdf", "--engine pypdf (the encodings of CFF fonts)")
    check_streams(data, name, limits)
    deadline = deadline or limits.deadline(name)
    by_position: list[Mark] | None = None
    layers: list[bool] = []
    if engine == "pdfium":
        texts, images = _pdfium_pages(data, name, password, progress, limits, deadline, layers)
        import pypdfium2 as pdfium

        version = f"pypdfium2 {pdfium.version.PYPDFIUM_INFO} (PDFium {pdfium.version.PDFIUM_INFO.build})"
        extractor = "pypdfium2"
    elif engine == "pdfplumber":
        import pdfplumber

        texts, images, by_position = _plumber(data, name, password, progress)
        version = f"pdfplumber {pdfplumber.__version__}"
        extractor = "pdfplumber"
    else:
        import pypdf

        texts, images = _pypdf_pages(data, name, password, progress, limits, deadline)
        version = f"pypdf {pypdf.__version__}"
        extractor = "pypdf"
    # --- OCR (ipsis.ingest.ocr, issue 20): pages without usable text, and OCR text layers ---
    found = layers if engine == "pdfium" else None  # other engines: ocr_pdf asks PDFium itself
    ocr_run = ocr_pdf(data, name, password, texts, found, images, ocr, deadline, getattr(progress, "ocr", None))
    if ocr_run.engine:
        version += f" + {ocr_run.engine} ({ocr_run.lang})"
    # --- end OCR ---
    empty = [i + 1 for i, t in enumerate(texts) if not t.strip()]
    if len(empty) == len(texts):
        what = "page has" if len(texts) == 1 else f"pages ({_page_ranges(empty)}) have"
        if ocr.mode == "never":
            how = "OCR is off (--ocr never): pass --ocr auto to read them with Tesseract"
        elif ocr_run.engine:
            how = "OCR found no text on them either (blank pages?)"
        else:
            how = "they hold no images to OCR either (blank, or vector drawings: try --ocr always)"
        msg = f"{name}: no text layer: the {what} no extractable text (scanned images?); {how}"
        raise NoTextLayerError(msg, empty)
    text, starts = assemble(texts)
    furniture = by_position if by_position is not None else find_furniture(text, starts)
    dropped: list[Mark] = []
    if position_furniture and by_position is None and furniture:
        from ipsis.ingest.plumber import confirm_furniture

        def page_of(offset: int) -> int:
            return bisect_right(starts, offset)

        furniture, dropped = confirm_furniture(data, text, furniture, page_of, password)
    marks = [*furniture, *find_footnotes(text, starts, furniture), *find_unmapped(text, starts)]
    ocr_marks, ocr_meta = ocr_run.marks_and_meta(text, starts) if ocr_run.pages else ([], None)
    marks += ocr_marks
    marks.sort(key=lambda m: (m.start, m.end))
    meta: dict[str, Any] = {
        "encoding": None,
        "extractor": extractor,
        "extractor_version": version,
        "media_type": "application/pdf",
        "page_count": len(texts),
    }
    if empty:
        meta["pages_without_text"] = empty
    if by_position is not None:
        meta["furniture_by"] = "position (pdfplumber)"
    elif position_furniture:
        meta["furniture_by"] = "repetition, confirmed by position (pdfplumber)"
        meta["furniture_unconfirmed"] = [m.to_json() for m in dropped]
    if ocr_meta is not None:
        meta["ocr"] = ocr_meta
    scanned = [i + 1 for i, (t, img) in enumerate(zip(texts, images, strict=True)) if img and not t.strip()]
    if scanned:
        why = "OCR is off (--ocr never)" if ocr.mode == "never" else "Tesseract is not installed (tesseract-ocr)"
        log.warning("%s: pages %s have images but no text layer (%s)", name, _page_ranges(scanned), why)
        meta["pages_without_text_layer"] = scanned
    return Document(doc_id, text, page_starts=starts, marks=tuple(marks), meta=meta)

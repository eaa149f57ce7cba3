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

OCR is out of scope: pages without a text layer raise :class:`NoTextLayerError`.
"""

from __future__ import annotations

import io
import logging
import threading
import warnings
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ipsis.document import Document, Mark
from ipsis.errors import EncryptedDocumentError, ExtractionError, InputError, NoTextLayerError, require_extra
from ipsis.ingest.detect import ENGINES
from ipsis.ingest.ocr import DEFAULT_OCR, OcrOptions, ocr_pdf
from ipsis.ingest.pages import (
    assemble,
    compose_accents,
    find_footnotes,
    find_furniture,
    find_unmapped,
)
from ipsis.ingest.pdfium import PageRead
from ipsis.ingest.pdfrepair import from_header as _from_header
from ipsis.ingest.pdfrepair import loop_pages, page_tree
from ipsis.ingest.pdfscan import check_streams
from ipsis.ingest.textcheck import garbage_warning
from ipsis.limits import DEFAULT_LIMITS, Deadline, Limits

log = logging.getLogger(__name__)

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


def _diagnose(
    data: bytes, name: str, password: str | None, cause: Exception, engine: str = "pdfium"
) -> ExtractionError:
    """Why PDFium could not open the file, in words the user can act on."""
    with _quiet_pypdf():
        return _diagnose_quietly(data, name, password, cause, engine)


def _diagnose_quietly(data: bytes, name: str, password: str | None, cause: Exception, engine: str) -> ExtractionError:
    from pypdf import PdfReader

    if b"%PDF" not in data[:1024]:
        return ExtractionError(f"{name} is not a PDF (no %PDF header); pass a PDF or set the input format")
    try:
        with _quiet_pypdf():
            reader = PdfReader(io.BytesIO(_from_header(data)), strict=False)
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
        other = suggest_engine(data, engine, password, name)
        also = f", or {other}" if other.startswith("--engine") else ""
        return ExtractionError(
            f"{name} looks truncated or damaged (no %%EOF at the end; {detail}); download the file again{also}"
        )
    return ExtractionError(f"{name} is a damaged PDF ({detail}); {suggest_engine(data, engine, password, name)}")


_probing = threading.local()
_PROBED = ("pdfium", "pypdf")
"""Engines tried before one is suggested: pdfplumber is not (pdfminer can recurse for minutes on
a hostile file, and no deadline reaches inside a page)."""


def suggest_engine(
    data: bytes, engine: str, password: str | None, name: str, pages: Sequence[int] | None = None
) -> str:
    """What to try instead of ``engine``: another engine only when it was just tried and reads
    the file (or the given 1-based ``pages``) with text, else a repair tool."""
    fallback = "repair the file (e.g. qpdf --replace-input FILE) and try again"
    if getattr(_probing, "on", False):
        return fallback
    _probing.on = True
    try:
        for other in _PROBED:
            if other == engine:
                continue
            try:
                read = _ENGINE_PAGES[other](data, name, password, None, DEFAULT_LIMITS, DEFAULT_LIMITS.deadline(name))
            except Exception:  # any failure means this engine does not read it either
                continue
            wanted = pages or range(1, len(read) + 1)
            good = [k for k in wanted if k <= len(read) and not read[k - 1].error and read[k - 1].text.strip()]
            if good and len(good) == len(wanted):
                what = "these pages" if pages else "the file"
                return f"--engine {other} reads {what}"
        return fallback
    finally:
        _probing.on = False


def _encrypted(name: str, password: str | None) -> EncryptedDocumentError:
    if password:
        return EncryptedDocumentError(f"{name} is encrypted and the password given is wrong; check --password")
    return EncryptedDocumentError(f"{name} is encrypted and cannot be opened without a password; pass --password")


def _pdfium_pages(
    data: bytes, name: str, password: str | None, progress: Progress | None, limits: Limits, deadline: Deadline
) -> list[PageRead]:
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    from ipsis.ingest.pdfium import may_have_annotations, read_page

    try:
        pdf = pdfium.PdfDocument(data, password=password)
    except pdfium.PdfiumError as exc:
        if getattr(exc, "err_code", None) == pdfium_c.FPDF_ERR_PASSWORD and b"/Encrypt" in data:
            raise _encrypted(name, password) from exc
        raise _diagnose(data, name, password, exc) from exc
    pages: list[PageRead] = []
    annotations = may_have_annotations(data)
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
                pages.append(read_page(pdf, i, annotations))
            except pdfium.PdfiumError as exc:
                pages.append(PageRead("", error=f"PDFium: {exc}"))
            chars += len(pages[-1].text)
            limits.check_text(chars, len(data), name, f"page {i + 1} of {total}")
            if progress:
                progress(i + 1, total)
    finally:
        pdf.close()
    return pages


def _pypdf_pages(
    data: bytes, name: str, password: str | None, progress: Progress | None, limits: Limits, deadline: Deadline
) -> list[PageRead]:
    from pypdf import PdfReader

    pages: list[PageRead] = []
    try:
        with _quiet_pypdf():
            reader = PdfReader(io.BytesIO(_from_header(data)), strict=False)
            if reader.is_encrypted and not reader.decrypt(password or ""):
                raise _encrypted(name, password)
            try:
                tree: list[Any] = list(reader.pages)
            except Exception as exc:  # a page tree that loops: read the pages it does reach
                if "cyclic" not in str(exc):
                    raise
                tree = page_tree(reader)
            total = len(tree)
            if total == 0:
                msg = f"{name} is a PDF with 0 pages; there is no text to read"
                raise ExtractionError(msg)
            limits.check_pages(total, name)
            chars = 0
            for i in range(total):
                deadline.check(f"page {i + 1} of {total}")
                if isinstance(tree[i], PageRead):  # no page there (a loop in the page tree)
                    pages.append(tree[i])
                    continue
                try:
                    page = tree[i]
                    text = page.extract_text() or ""
                except (ExtractionError, InputError):
                    raise
                except Exception as exc:  # one damaged page (content stream, font) spoils only itself
                    pages.append(PageRead("", error=f"pypdf: {type(exc).__name__}: {exc}"))
                else:
                    pages.append(PageRead(text, has_images=not text.strip() and bool(_page_images(page))))
                chars += len(pages[-1].text)
                limits.check_text(chars, len(data), name, f"page {i + 1} of {total}")
                if progress:
                    progress(i + 1, total)
    except (ExtractionError, InputError):
        raise
    except Exception as exc:  # pypdf raises many types (AttributeError, RecursionError) on damaged files
        raise _diagnose(data, name, password, exc, "pypdf") from exc
    return pages


def _plumber(
    data: bytes, name: str, password: str | None, progress: Progress | None, limits: Limits, deadline: Deadline
) -> tuple[list[PageRead], list[Mark]]:
    """Pages and furniture marks by position (pdfplumber engine)."""
    from ipsis.ingest.layout import position_furniture
    from ipsis.ingest.plumber import placed_lines, plumber_pages

    def on_error(exc: Exception) -> ExtractionError:
        if type(exc).__name__ == "PDFPasswordIncorrect":
            return _encrypted(name, password)
        return _diagnose(data, name, password, exc, "pdfplumber")

    pages, layouts, heights = plumber_pages(data, name, password, progress, on_error, limits, deadline)
    text, starts = assemble([p.text for p in pages])
    return pages, position_furniture(text, placed_lines(layouts, heights, starts))


def _plumber_pages(
    data: bytes, name: str, password: str | None, progress: Progress | None, limits: Limits, deadline: Deadline
) -> list[PageRead]:
    return _plumber(data, name, password, progress, limits, deadline)[0]


_ENGINE_PAGES: dict[str, Callable[..., list[PageRead]]] = {
    "pdfium": _pdfium_pages,
    "pypdf": _pypdf_pages,
    "pdfplumber": _plumber_pages,
}


def _page_images(page: Any) -> int:
    try:
        return len(page.images)
    except Exception:  # an image pypdf cannot decode still counts as "has images"
        return 1


def _engine_version(extractor: str) -> str:
    if extractor == "pdfplumber":
        from ipsis.ingest.plumber import plumber_version

        return plumber_version()
    import pypdf

    return f"pypdf {pypdf.__version__}"


def _without_text_fallback(
    data: bytes, name: str, password: str | None, limits: Limits, deadline: Deadline
) -> tuple[list[PageRead], str] | None:
    """When PDFium reads no text at all, pypdf sometimes does (fonts PDFium cannot map): its
    pages, or None when it finds no text either (then the file really has no text layer)."""
    try:
        pages = _pypdf_pages(data, name, password, None, limits, deadline)
    except (EncryptedDocumentError, InputError):
        raise
    except ExtractionError:
        return None
    if any(p.text.strip() for p in pages):
        return pages, "pypdf"
    return None


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
    confirms the furniture found by repetition with pdfplumber's character positions. Pages that
    cannot be loaded are left empty and named in ``meta["pages_unreadable"]`` and in a document
    warning (``meta["warnings"]``), unless no page can be read at all. ``ocr`` says which pages
    Tesseract reads (:mod:`ipsis.ingest.ocr`); a ``progress`` callback with an ``ocr`` attribute
    gets ``ocr(done, total)`` after each OCR page.
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
    if engine == "pdfium":
        pages = _pdfium_pages(data, name, password, progress, limits, deadline)
        import pypdfium2 as pdfium

        version = f"pypdfium2 {pdfium.version.PYPDFIUM_INFO} (PDFium {pdfium.version.PDFIUM_INFO.build})"
        extractor = "pypdfium2"
    elif engine == "pdfplumber":
        from ipsis.ingest.plumber import plumber_version

        pages, by_position = _plumber(data, name, password, progress, limits, deadline)
        version = plumber_version()
        extractor = "pdfplumber"
    else:
        import pypdf

        pages = _pypdf_pages(data, name, password, progress, limits, deadline)
        version = f"pypdf {pypdf.__version__}"
        extractor = "pypdf"
    fallback = None
    if engine == "pdfium" and not any(p.text.strip() for p in pages):
        fallback = _without_text_fallback(data, name, password, limits, deadline)
        if fallback is not None:
            pages, extractor = fallback
            version = _engine_version(extractor)
    pages = [p.rewritten(compose_accents) for p in pages]
    texts = [p.text for p in pages]
    # --- OCR (ipsis.ingest.ocr, issue 20): pages without usable text, and OCR text layers ---
    images = [p.has_images for p in pages]
    # PDFium read the pages: it said then which hold an OCR text layer (None: asked in ocr_pdf)
    layers = [bool(p.invisible) for p in pages] if all(p.invisible is not None or p.error for p in pages) else None
    ocr_run = ocr_pdf(data, name, password, texts, layers, images, ocr, deadline, getattr(progress, "ocr", None))
    if ocr_run.engine:
        version += f" + {ocr_run.engine} ({ocr_run.lang})"
    for i, t in enumerate(texts):  # an OCR'd page's text replaces what was read there, marks too
        if t != pages[i].text:
            pages[i] = PageRead(t, [], pages[i].has_images, None)
    # --- end OCR ---
    broken = [i + 1 for i, p in enumerate(pages) if p.error]
    if len(broken) == len(pages):
        msg = f"{name}: no page can be loaded ({pages[0].error}); " + suggest_engine(data, engine, password, name)
        raise ExtractionError(msg)
    empty = [i + 1 for i, t in enumerate(texts) if not t.strip() and not pages[i].error]
    if len(empty) + len(broken) == len(texts):
        other = suggest_engine(data, engine, password, name) if engine != "pdfium" else ""
        if other.startswith("--engine"):  # this engine's "no text" is not the file's
            msg = f"{name}: the {engine} engine finds no text in this file, but {other}"
            raise ExtractionError(msg)
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
    read_marks = [
        Mark(kind, start + s, start + e, f"{note}, page {k + 1}")
        for k, (p, start) in enumerate(zip(pages, starts, strict=True))
        for kind, s, e, note in p.marks
    ]
    furniture = by_position if by_position is not None else find_furniture(text, starts)
    dropped: list[Mark] = []
    if position_furniture and by_position is None and furniture:
        from ipsis.ingest.plumber import confirm_furniture

        def page_of(offset: int) -> int:
            return bisect_right(starts, offset)

        furniture, dropped = confirm_furniture(data, text, furniture, page_of, password)
    marks = [*furniture, *find_footnotes(text, starts, furniture), *find_unmapped(text, starts), *read_marks]
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
    warnings_: list[dict[str, Any]] = []
    if broken:
        meta["pages_unreadable"] = broken
        detail = "; ".join(f"page {k}: {pages[k - 1].error}" for k in broken[:3])
        several = len(broken) > 1
        where = f"page{'s' if several else ''} {_page_ranges(broken)} of {len(pages)}"
        if set(broken) <= loop_pages(data, password):  # no page there to read, nothing to repair
            message = (
                f"{name}: {where} {'are' if several else 'is'} not in the file: the page tree loops back on "
                f"itself where {'they' if several else 'it'} should be (its page count includes "
                f"{'them' if several else 'it'}); the text of the other pages is read"
            )
        else:
            message = (
                f"{name}: {where} cannot be loaded ({detail}); the text of the other pages is read, "
                f"{'these are' if several else 'this one is'} missing; "
                f"{suggest_engine(data, engine, password, name, broken)}"
            )
        warnings_.append({"kind": "pages_unreadable", "message": message})
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
        if ocr.mode == "never":
            why = "OCR is off (--ocr never)"
        elif any(i - 1 in ocr_run.skipped for i in scanned):
            why = ocr_run.skip_reason
        else:
            why = "OCR read no text there"
        log.warning("%s: pages %s have images but no text layer (%s)", name, _page_ranges(scanned), why)
        meta["pages_without_text_layer"] = scanned
    if fallback is not None:
        warnings_.append(
            {
                "kind": "engine_fallback",
                "message": f"{name}: PDFium finds no text in this file; it was read with {extractor}",
            }
        )
    from ipsis.ingest.pdfium import declared_language

    raw = [(t, p.raw_letters) for t, p in zip(texts, pages, strict=True)]
    garbage = garbage_warning(text, name, raw, declared_language(data, password))
    if garbage:
        warnings_.append(garbage)
    if warnings_:
        meta["warnings"] = warnings_
    return Document(doc_id, text, page_starts=starts, marks=tuple(marks), meta=meta)

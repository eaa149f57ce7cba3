"""pdfplumber (pdfminer.six) I/O: word boxes for layout analysis and furniture by position.

The ``pdfplumber`` engine reads each page's words with their boxes and hands them to
:mod:`ipsis.ingest.layout`: two-column pages are read column by column, and running
headers/footers and page numbers are marked by where they sit on the page. It is about ten to
fifty times slower than PDFium (pdfminer interprets every content stream in Python and builds
one object per glyph), so it is an opt-in engine; :func:`band_lines` serves the default PDFium
path when ``position_furniture`` asks it to confirm its repetition-based marks.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ipsis.document import Mark
from ipsis.errors import ExtractionError, InputError
from ipsis.ingest.layout import BAND, Box, Line, PlacedLine, confirms, reading_order
from ipsis.limits import DEFAULT_LIMITS, Deadline, Limits

if TYPE_CHECKING:
    from ipsis.ingest.pdfium import PageRead

log = logging.getLogger(__name__)

Progress = Callable[[int, int], None]
ErrorFactory = Callable[[Exception], ExtractionError]


MISSING = (
    "the pdfplumber engine needs pdfplumber, which is not installed; "
    "pip install pdfplumber (or use the default engine, pdfium)"
)


def _import() -> Any:
    try:
        import pdfplumber
    except ImportError as exc:
        raise InputError(MISSING) from exc
    return pdfplumber


def plumber_version() -> str:
    return f"pdfplumber {_import().__version__}"


def _open(data: bytes, password: str | None, on_error: ErrorFactory) -> Any:
    pdfplumber = _import()
    try:
        pdf = pdfplumber.open(io.BytesIO(data), password=password or "")
        _ = pdf.pages  # forces the page tree to be read
    except Exception as exc:  # pdfminer raises many types on damaged files (and PDFPasswordIncorrect)
        raise on_error(exc) from exc
    if not pdf.pages:
        rewritten = _rewritten(data, password)
        if rewritten is not None:
            pdf.close()
            return _open(rewritten, None, on_error)
    return pdf


def _rewritten(data: bytes, password: str | None) -> bytes | None:
    """The file written again by pypdf, when pypdf finds pages where pdfminer finds none (a page
    tree pdfminer cannot walk, e.g. ``prefilled_f1040.pdf``); None when that does not help."""
    from pypdf import PdfReader, PdfWriter

    from ipsis.ingest.pdf import _quiet_pypdf

    try:
        with _quiet_pypdf():
            reader = PdfReader(io.BytesIO(data), strict=False)
            if reader.is_encrypted and not reader.decrypt(password or ""):
                return None
            if not reader.pages:
                return None
            writer = PdfWriter(clone_from=reader)
            out = io.BytesIO()
            writer.write(out)
    except Exception:  # pypdf cannot read it either: keep pdfminer's answer
        return None
    return out.getvalue()


_CID = re.compile(r"\(cid:\d+\)")
"""pdfminer's text for a glyph without a Unicode map (``(cid:12)eld`` for the ligature of
``field``): read as U+FFFD, as PDFium and pypdf give it, so that it is marked ``unmapped_glyph``
and counts as unmapped for the ``garbage_text`` warning."""


def _boxes(page: Any) -> list[Box]:
    """The page's upright words with their boxes, measured from the visible page's top left. A
    word whose box lies wholly outside the page's box is not shown by a viewer and is left out
    (``issue1350.pdf`` draws its whole first page on pages 2 and 3, each with a smaller media
    box), unless every word of the page does: then pdfminer has misplaced them (an upside-down
    ``/MediaBox [0 792 612 0]``, ``xfa_filled_imm1344e.pdf``) and the page is read as is."""
    words = page.extract_words(keep_blank_chars=False, use_text_flow=False, x_tolerance_ratio=0.15)
    left, top, right, bottom = (float(v) for v in page.bbox)
    boxes = [
        (w, left <= w["x1"] and w["x0"] <= right and top <= w["bottom"] and w["top"] <= bottom)
        for w in words
        if w.get("upright", True)
    ]
    if not any(shown for _, shown in boxes):  # pdfminer's geometry is off: every word stays
        boxes = [(w, True) for w, _ in boxes]
        left = top = 0.0
    return [
        Box(_CID.sub("\ufffd", w["text"]), w["x0"] - left, w["x1"] - left, w["top"] - top, w["bottom"] - top)
        for w, shown in boxes
        if shown
    ]


def plumber_pages(
    data: bytes,
    name: str,
    password: str | None,
    progress: Progress | None,
    on_error: ErrorFactory,
    limits: Limits = DEFAULT_LIMITS,
    deadline: Deadline | None = None,
) -> tuple[list[PageRead], list[list[Line]], list[float]]:
    """Per page: the page read (text in reading order, image flag, error), its lines, its height."""
    from ipsis.ingest.pdfium import PageRead

    deadline = deadline or limits.deadline(name)
    pdf = _open(data, password, on_error)
    pages: list[PageRead] = []
    layouts: list[list[Line]] = []
    heights: list[float] = []
    try:
        total = len(pdf.pages)
        if total == 0:
            msg = f"{name} is a PDF with 0 pages; there is no text to read"
            raise ExtractionError(msg)
        limits.check_pages(total, name)
        for i, page in enumerate(pdf.pages):
            deadline.check(f"page {i + 1} of {total}")
            try:
                lines = reading_order(_boxes(page), float(page.width), float(page.height))
                has_images = bool(page.images)
                height = float(page.height)
            except (ExtractionError, InputError):
                raise
            except Exception as exc:  # one damaged page (content stream, font) spoils only itself
                pages.append(PageRead("", error=f"pdfplumber: {type(exc).__name__}: {exc}"))
                lines, height = [], 0.0
            else:
                pages.append(PageRead("".join(line.text + "\n" for line in lines), has_images=has_images and not lines))
            layouts.append(lines)
            heights.append(height)
            page.close()
            if progress:
                progress(i + 1, total)
    finally:
        pdf.close()
    return pages, layouts, heights


def placed_lines(
    layouts: Sequence[Sequence[Line]], heights: Sequence[float], page_starts: Sequence[int]
) -> list[PlacedLine]:
    """Each line's span in the document text (pages joined by :func:`pages.assemble`)."""
    out: list[PlacedLine] = []
    for k, (lines, height, start) in enumerate(zip(layouts, heights, page_starts, strict=True)):
        pos = start
        first = min(range(len(lines)), key=lambda i: lines[i].top, default=-1)
        last = max(range(len(lines)), key=lambda i: lines[i].bottom, default=-1)
        for i, line in enumerate(lines):
            edge = "head" if i == first else "tail" if i == last else None
            out.append(PlacedLine(k + 1, pos, pos + len(line.text), line.top, line.bottom, height, edge))
            pos += len(line.text) + 1
    return out


def band_lines(data: bytes, pages: Sequence[int], password: str | None) -> dict[int, list[str]]:
    """The text of the lines in the top and bottom bands of the given pages (1-based)."""

    def fail(exc: Exception) -> ExtractionError:
        return ExtractionError(str(exc))

    pdf = _open(data, password, fail)
    out: dict[int, list[str]] = {}
    try:
        for number in pages:
            page = pdf.pages[number - 1]
            h = float(page.height)
            boxes = _boxes(page)
            lines = reading_order(boxes, float(page.width), h)
            first = min(lines, key=lambda line: line.top, default=None)
            last = max(lines, key=lambda line: line.bottom, default=None)
            out[number] = [
                line.text
                for line in lines
                if line.top < BAND * h or line.bottom > (1 - BAND) * h or line in (first, last)
            ]
            page.close()
    finally:
        pdf.close()
    return out


def confirm_furniture(
    data: bytes, text: str, marks: Sequence[Mark], page_of: Callable[[int], int | None], password: str | None
) -> tuple[list[Mark], list[Mark]]:
    """Split repetition-based furniture marks into (confirmed, dropped) by pdfplumber positions:
    a mark is confirmed when a line in the top or bottom band of its page holds its text."""
    pages = sorted({p for m in marks if (p := page_of(m.start)) is not None})
    try:
        bands = band_lines(data, pages, password)
    except ExtractionError as exc:
        log.warning("position check of page furniture skipped: pdfplumber could not read the file (%s)", exc)
        return list(marks), []
    kept: list[Mark] = []
    dropped: list[Mark] = []
    for m in marks:
        page = page_of(m.start)
        if page is not None and confirms(text[m.start : m.end], bands.get(page, [])):
            kept.append(m)
        else:
            dropped.append(m)
    return kept, dropped

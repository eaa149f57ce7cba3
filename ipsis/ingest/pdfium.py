"""PDFium (pypdfium2) page reading: the text a person sees on each page, with marked regions.

Per page, on top of PDFium's text:

- **form fields and annotations**: the page is flattened (``FPDFPage_Flatten``, normal display:
  hidden annotations stay out), which appends the appearance of every visible widget and
  free-text/stamp annotation to the page content; the text PDFium then reads past the page's own
  text is marked ``form_field`` (widgets) or ``annotation`` (the rest), by the annotation rectangle
  each character falls in;
- **off-page and clipped text**: characters whose box lies outside the page's own crop box (or
  media box), or outside the region the clip paths of their text object leave
  (:mod:`ipsis.ingest.pdfclip`), are not shown by a viewer and are left out of the page text;
- **superscripts**: runs of raised small digits and note symbols are marked ``superscript`` (the
  matcher skips them like footnote calls) and the line break PDFium puts before or after one is
  dropped, so ``Ermäßigte²`` reads ``Ermäßigte2`` on its line.

- **scripts**: a raised or lowered letter or sign that PDFium set apart by a line break
  (``R\\nn``, ``3\\nème``) is read on its line and marked ``script``;
- **word gaps**: a gap wider than a tenth of an em beyond the letter spacing after glued
  punctuation is a space (``law.The`` -> ``law. The``), and a space character drawn over the
  glyph before it with no gap on the page is not (``identifi cação`` -> ``identificação``).

Character boxes are read (:mod:`ipsis.ingest.pdfchars`) for every character only on pages that
need them (annotations, text outside the crop box, text drawn twice); elsewhere only where the
text says a rule may apply (:mod:`ipsis.ingest.pdfsparse`).
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any

from ipsis.ingest.ocr import invisible_text
from ipsis.ingest.pages import _CLITICS
from ipsis.ingest.pdfchars import (
    GLUED,
    GLUED_AFTER,
    NEAR,
    Char,
    font_sizes,
    inline_scripts,
    near_candidates,
    outside,
    page_chars,
    raw_code_letters,
    script_runs,
    superscripts,
    word_gap,
)
from ipsis.ingest.pdfclip import clipped_objects
from ipsis.ingest.pdfspaces import drawn_over, drawn_under, line_start_gap
from ipsis.ingest.pdfsparse import KEEP, _joins, _text_length, resolve_fffe, sparse_superscripts

WIDGET = 20  # FPDF_ANNOT_WIDGET
POPUP = 16  # FPDF_ANNOT_POPUP: its text is only shown on demand
LINK = 2  # FPDF_ANNOT_LINK: an area, no text of its own
Rect = tuple[float, float, float, float]  # left, bottom, right, top


@dataclass(slots=True)
class PageRead:
    """One page as read: its text, marks ``(kind, start, end, note)`` into it, image flag, error."""

    text: str
    marks: list[tuple[str, int, int, str]] = field(default_factory=list)
    has_images: bool = False
    error: str | None = None
    invisible: bool | None = None
    """The page's own text is invisible (an OCR text layer, :func:`ipsis.ingest.ocr.invisible_text`);
    None: not asked (the engine does not read pages with PDFium)."""
    raw_letters: str = ""
    """The letters PDFium read as raw font codes (no Unicode map: :func:`~ipsis.ingest.pdfchars.raw_code_letters`)."""

    def rewritten(self, fix: Callable[[str], str]) -> PageRead:
        """The page with ``fix`` applied to its text piece by piece between mark boundaries, so
        that the marks still cover the same characters."""
        if not self.marks:
            return replace(self, text=fix(self.text))
        cuts = sorted({0, len(self.text), *(s for _, s, _, _ in self.marks), *(e for _, _, e, _ in self.marks)})
        moved: dict[int, int] = {0: 0}
        out: list[str] = []
        pos = 0
        for a, b in pairwise(cuts):
            piece = fix(self.text[a:b])
            out.append(piece)
            pos += len(piece)
            moved[b] = pos
        marks = [(k, moved[s], moved[e], note) for k, s, e, note in self.marks]
        return replace(self, text="".join(out), marks=marks)


def _own_box(page: Any) -> Rect | None:
    """The visible area written in the page's own dictionary: its crop box cut to its media box.
    None when the page inherits or lacks them (PDFium's default could then be wrong), or when
    the boxes are empty or do not meet (viewers then fall back to a default)."""
    import pypdfium2.raw as c

    boxes: list[Rect] = []
    for getter in (c.FPDFPage_GetCropBox, c.FPDFPage_GetMediaBox):
        vals = [ctypes.c_float() for _ in range(4)]
        if getter(page.raw, *vals):
            left, bottom, right, top = (v.value for v in vals)
            left, right = sorted((left, right))
            bottom, top = sorted((bottom, top))
            boxes.append((left, bottom, right, top))
    if not boxes:
        return None
    left = max(b[0] for b in boxes)
    bottom = max(b[1] for b in boxes)
    right = min(b[2] for b in boxes)
    top = min(b[3] for b in boxes)
    if right - left <= 1 or top - bottom <= 1:
        return None
    return (left, bottom, right, top)


def _annotations(page: Any) -> list[tuple[str, Rect]]:
    """``(kind, rect)`` of the page's annotations that can show text."""
    import pypdfium2.raw as c

    out: list[tuple[str, Rect]] = []
    rect = c.FS_RECTF()
    for i in range(c.FPDFPage_GetAnnotCount(page.raw)):
        annot = c.FPDFPage_GetAnnot(page.raw, i)
        if not annot:
            continue
        try:
            subtype = c.FPDFAnnot_GetSubtype(annot)
            if subtype not in (POPUP, LINK) and c.FPDFAnnot_GetRect(annot, rect):
                box = (min(rect.left, rect.right), min(rect.bottom, rect.top))
                box2 = (max(rect.left, rect.right), max(rect.bottom, rect.top))
                out.append(("form_field" if subtype == WIDGET else "annotation", (*box, *box2)))
        finally:
            c.FPDFPage_CloseAnnot(annot)
    return out


def _text_off_box(textpage: Any, box: Rect) -> bool:
    """Some of the page's text lies outside ``box``, judged on PDFium's text rectangles (one per
    run of characters on a line: far fewer calls than one per character or per object)."""
    import pypdfium2.raw as c

    left, bottom, right, top = box
    vals = [ctypes.c_double() for _ in range(4)]
    for i in range(c.FPDFText_CountRects(textpage.raw, 0, -1)):
        if c.FPDFText_GetRect(textpage.raw, i, *vals):
            x0, y1, x1, y0 = (v.value for v in vals)  # left, top, right, bottom
            x0, x1 = sorted((x0, x1))
            y0, y1 = sorted((y0, y1))
            if x0 < left - 1 or x1 > right + 1 or y0 < bottom - 1 or y1 > top + 1:
                return True
    return False


def _has_images(page: Any) -> bool:
    import pypdfium2.raw as c

    raw = page.raw
    kinds = (c.FPDFPageObj_GetType(c.FPDFPage_GetObject(raw, i)) for i in range(c.FPDFPage_CountObjects(raw)))
    return any(kind == c.FPDF_PAGEOBJ_IMAGE for kind in kinds)


def declared_language(data: bytes, password: str | None = None) -> str | None:
    """The document's declared language (the catalog's ``/Lang``, e.g. ``pt-BR``), or None."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as c

    try:
        pdf = pdfium.PdfDocument(data, password=password)
    except pdfium.PdfiumError:
        return None
    try:
        size = c.FPDFCatalog_GetLanguage(pdf.raw, None, 0)
        if size <= 2:
            return None
        buf = (ctypes.c_ushort * (size // 2))()
        c.FPDFCatalog_GetLanguage(pdf.raw, buf, size)
        return bytes(buf).decode("utf-16-le", "replace").rstrip("\0").strip() or None
    finally:
        pdf.close()


def may_have_annotations(data: bytes) -> bool:
    """False when no page of the file can have annotations: no ``/Annots`` key in the bytes and
    no object streams (which could hide one). Saves asking PDFium page by page.

    >>> may_have_annotations(b"%PDF-1.4 ... /Type /Page /Contents 4 0 R"), may_have_annotations(b"/ObjStm")
    (False, True)
    """
    return b"/Annots" in data or b"/ObjStm" in data


def read_page(pdf: Any, index: int, annotations: bool = True) -> PageRead:
    """Page ``index`` (0-based) of an open ``pypdfium2.PdfDocument``; raises ``PdfiumError``
    when the page cannot be loaded. ``annotations=False`` skips looking for annotations."""
    import pypdfium2.raw as c

    page = pdf[index]
    textpage = flat_textpage = None
    try:
        textpage = page.get_textpage()
        own = textpage.count_chars()
        text = textpage.get_text_range() if own else ""
        raw_letters = raw_code_letters(textpage, text)
        box = _own_box(page)
        off = box is not None and bool(text) and _text_off_box(textpage, box)
        chars: list[Char] | None = None
        sparse: list[tuple[str, int, int, str]] = []
        twice = _repeats(text)
        fonts: list[float] | None = None
        clipped = clipped_objects(page, box) if text else {}
        if off or twice or clipped:
            chars = page_chars(textpage, text, clipped=clipped)
            fonts = font_sizes(textpage, text)  # a tenth of the cost of the boxes just read
        else:
            text, sparse = sparse_superscripts(textpage, text)
        images = not text.strip() and _has_images(page)
        invisible = bool(text.strip()) and invisible_text(textpage)  # asked here, not on a second load
        annots = _annotations(page) if annotations else []
        tail: list[Char] = []
        if annots and chars is None:  # the annotations' builder redoes the superscripts
            text0 = textpage.get_text_range() if own else ""
            chars = page_chars(textpage, text0, wanted=near_candidates(text0))
        if annots and c.FPDFPage_Flatten(page.raw, c.FLAT_NORMALDISPLAY) == c.FLATTEN_SUCCESS:
            # the page's own text is taken from before flattening (a flattened page may lose
            # its fonts' Unicode maps); what flattening appended is the annotations' text
            textpage.close()
            textpage = None
            page.close()
            page = pdf[index]
            flat_textpage = page.get_textpage()
            flat = flat_textpage.get_text_range() if flat_textpage.count_chars() else ""
            tail = page_chars(flat_textpage, flat, start=_text_length(flat, own))
        if chars is None:
            blank = images and not text.strip()
            return PageRead(text if sparse else resolve_fffe(text), sparse, blank, None, invisible, raw_letters)
        if tail:
            chars = [*chars, Char("\n", 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, True), *tail]
        text, marks = build_text(chars, len(chars) - len(tail), annots, box if off else None, twice, fonts)
        return PageRead(text, marks, images and not text.strip(), None, invisible, raw_letters)
    finally:
        for tp in (textpage, flat_textpage):
            if tp is not None:
                tp.close()
        page.close()


def _kind_at(ch: Char, annots: list[tuple[str, Rect]]) -> str | None:
    cx, cy = (ch.x0 + ch.x1) / 2, (ch.y0 + ch.y1) / 2
    for kind, (left, bottom, right, top) in annots:
        if left - 1 <= cx <= right + 1 and bottom - 1 <= cy <= top + 1:
            return kind
    return None


def _repeats(text: str) -> bool:
    """A line of 15 characters or more occurs twice in the page text (text drawn twice?)."""
    seen: set[str] = set()
    for line in text.splitlines():
        line = line.strip()
        if len(line) >= 15:
            if line in seen:
                return True
            seen.add(line)
    return False


def build_text(
    chars: list[Char],
    own: int,
    annots: list[tuple[str, Rect]],
    box: Rect | None,
    dedupe: bool = False,
    fonts: list[float] | None = None,
) -> tuple[str, list[tuple[str, int, int, str]]]:
    """The page text from its characters and its marks: characters past ``own`` come from the
    flattened annotations; characters outside ``box`` or flagged ``clipped`` are dropped; superscripts are marked;
    with ``dedupe``, a character drawn again with the same glyph at the same place (text
    printed twice over itself) is read once; with ``fonts`` (the font size of each of the
    first characters), scripts set on their line are marked too."""
    drop = outside(chars, box) if box is not None else [False] * len(chars)
    drop = [d or ch.clipped for d, ch in zip(drop, chars, strict=True)]
    if dedupe:
        # a ligature's letters share its box: ``ff`` right after its twin is one glyph, not a copy
        seen: dict[tuple[str, float, float], int] = {}
        prev = -1
        for i, ch in enumerate(chars[:own]):
            if ch.blank:
                continue
            key = (ch.text, round(ch.x0, 1), round(ch.y0, 1))
            if seen.get(key, prev) != prev:
                drop[i] = True
            else:
                seen[key] = i
            prev = i
    for i in range(1, len(chars) - 1):  # a space drawn over the glyph before or after it is no word space
        if chars[i].text == " " and (drawn_over(chars, i) or drawn_under(chars, i)):
            drop[i] = True
    sup = superscripts(chars)
    scripts = script_runs(chars)
    if fonts:
        inline = inline_scripts(chars[: len(fonts)], fonts)
        scripts = [a or (i < len(inline) and inline[i]) for i, a in enumerate(scripts)]
    gaps = {
        i
        for i in range(1, len(chars))
        if chars[i - 1].text in GLUED_AFTER
        and GLUED.fullmatch(chars[i - 1].text + chars[i].text)
        and word_gap(chars[i - 1], chars[i], chars[i - 2] if i > 1 else None)
    }
    gaps |= {  # a one-letter word at the start of a line glued to the next (``acommercial``)
        i
        for i in range(1, len(chars))
        if (i == 1 or chars[i - 2].text in "\r\n")
        and (chars[i - 1].text + chars[i].text).isalpha()
        and line_start_gap(chars[i - 1], chars[i], chars[i + 1] if i + 1 < len(chars) else None)
    }
    kinds: list[str | None] = [None] * len(chars)
    last: str | None = None
    for i in range(own, len(chars)):
        if not chars[i].blank:
            last = _kind_at(chars[i], annots) or last or "annotation"
        kinds[i] = last
    out: list[str] = []
    tags: list[str | None] = []
    n = len(chars)
    for i, ch in enumerate(chars):
        if drop[i]:
            continue
        t = ch.text
        if (t in "\r\n" and ch.generated) or t == "\r\n":
            t = "\n"
        if t == "\r":
            continue
        if t == "\n" and (not out or out[-1] == "\n"):
            continue
        if t == "\n" and (how := _joins(chars, sup, drop, i)) != KEEP:
            if how and out[-1] != how:
                out.append(how)
                tags.append(kinds[i])
            continue
        if t == "\ufffe":
            word = _next_word(chars, i + 1)
            real = not word or word[0].isupper() or word.casefold() in _CLITICS
            out.append("-" if real else "\u00ad")
            tags.append(kinds[i])
            if _next_kept(chars, drop, i + 1) not in ("\n", "\r"):
                out.append("\n")
                tags.append(kinds[i])
            continue
        if i in gaps:
            out.append(" ")
            tags.append(kinds[i])
        out.append(t)
        tags.append("superscript" if sup[i] else "script" if scripts[i] else kinds[i])
    text = "".join(out)
    return text, _runs(text, tags, n)


def _next_word(chars: list[Char], i: int) -> str:
    stop = i + NEAR
    while i < min(len(chars), stop) and chars[i].blank:
        i += 1
    word = []
    while i < len(chars) and (chars[i].text.isalpha() and not chars[i].generated):
        word.append(chars[i].text)
        i += 1
    return "".join(word)


def _next_kept(chars: list[Char], drop: list[bool], i: int) -> str:
    while i < len(chars) and drop[i]:
        i += 1
    return chars[i].text if i < len(chars) else "\n"


def _runs(text: str, tags: list[str | None], _n: int) -> list[tuple[str, int, int, str]]:
    """Marks for the runs of equal tags, trimmed of surrounding whitespace."""
    marks: list[tuple[str, int, int, str]] = []
    i = 0
    while i < len(tags):
        tag = tags[i]
        j = i
        while j < len(tags) and tags[j] == tag:
            j += 1
        if tag is not None:
            s, e = i, j
            while s < e and text[s].isspace():
                s += 1
            while e > s and text[e - 1].isspace():
                e -= 1
            if e > s:
                marks.append((tag, s, e, tag.replace("_", " ")))
        i = j
    return marks

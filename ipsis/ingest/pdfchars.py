"""PDFium's characters with their boxes, and what the boxes tell about them.

:func:`page_chars` reads every character of a PDFium text page with its box, origin and font
size (PDF points, ``y`` up), one ``Char`` per PDFium character index (generated line breaks and
spaces included, flagged ``generated``). The pure functions below work on such lists:

- :func:`outside` — characters whose box centre lies outside the page's crop box: a viewer does
  not show them, so they are not on the page;
- :func:`superscripts` — runs of digits and footnote symbols set smaller and raised above the
  character before them (``Ermäßigte²``, ``R²``) or after them (a note's number, ``¹The current``);
- :func:`word_gap` — a gap on the line wide enough to be a word space where the text has none
  (PDFium's own threshold follows the font's space width, so a narrow sentence gap after a
  period can read ``law.The``; poppler's follows the font size, as here);
- :mod:`ipsis.ingest.pdfspaces` — space characters drawn over the glyph before or after them,
  with no gap on the page (``identifi cação``, ``judiciá ria``): not word spaces;
- :func:`thin_join` — a line break PDFium puts next to a thin glyph (a hyphen, a period) that
  the line goes on after (``(5\\r\\n-(Feniltio)`` where the page shows ``(5-(Feniltio)``).

Reading the boxes costs a few ctypes calls per character (about ten times plain text extraction),
so the PDF reader calls :func:`page_chars` only on pages that need it (see ``ipsis.ingest.pdfium``).
"""

from __future__ import annotations

import ctypes
import re
from bisect import bisect_left
from collections.abc import Sequence
from typing import Any, NamedTuple

SUPER_SIZE = 0.85  # a superscript is set at most this share of the size of its base ...
SUPER_RISE = 0.18  # ... with its baseline raised by at least this share of the base size
WORD_GAP = 0.09  # of the loose box height (about 1.13 em): a gap of 0.1 em beyond the letter spacing is a space
NEAR = 8  # characters: how far to look for the neighbour of a candidate superscript
GLUED_AFTER = frozenset(".,;:!?)]}\u201d\u00bb")
GLUED = re.compile(r"[.,;:!?)\]}\u201d\u00bb](?:[^\W\d_]|[(\[\u201c\u00ab])")
"""Punctuation glued to a letter or an opening bracket or quote (``law.The``): where a word space
may be missing from the text (see :func:`word_gap`)."""
_SUPER_CHARS = frozenset("0123456789*†‡§¶,-–()[]¹²³⁴⁵⁶⁷⁸⁹⁰")


class Char(NamedTuple):
    """One PDFium character: its text and box (``x0 < x1``, ``y0 < y1``, ``y`` up)."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float  # height of the loose box, which follows the font size (0 for generated characters)
    origin_y: float  # bottom of the loose box, which follows the baseline
    generated: bool  # inserted by PDFium (line breaks, word spaces)
    font: float = 0.0  # the font size in points, read next to line breaks (else 0): loose boxes differ between fonts
    clipped: bool = False  # drawn outside the region its clip paths leave visible (:mod:`ipsis.ingest.pdfclip`)
    advance: float | None = None  # a space of the text: how far past its origin the next glyph's starts (points)

    @property
    def blank(self) -> bool:
        return self.generated or not self.text.strip()


_NO_BOX = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


def page_chars(
    textpage: Any,
    text: str,
    start: int = 0,
    wanted: Sequence[bool] | None = None,
    first_index: int | None = None,
    end: int | None = None,
    clipped: dict[int, tuple[float, float, float, float]] | None = None,
) -> list[Char]:
    """One :class:`Char` per character of ``text[start:end]`` (``text`` is
    ``textpage.get_text_range()``), with its loose box (the font's ascent to descent: its height
    follows the font size, its bottom the baseline). PDFium counts a character outside the BMP as
    two indices, ``text`` as one (``first_index``, when known, is PDFium's index of
    ``text[start]``). With ``wanted`` (per character of ``text``), only those characters get a
    box (reading a box is the costly part); the others get an empty one. With ``clipped`` (from
    :func:`ipsis.ingest.pdfclip.clipped_objects`), a character of one of those objects that lies
    outside its visible region is flagged ``clipped``."""
    import pypdfium2.raw as c

    from ipsis.ingest.pdfclip import outside_clip

    raw = textpage.raw
    rect = c.FS_RECTF()
    loose = c.FPDFText_GetLooseCharBox
    font_size = c.FPDFText_GetFontSize
    out: list[Char] = []
    if first_index is None:
        first_index = start + sum(1 for ch in text[:start] if ord(ch) > 0xFFFF)
    index = first_index
    for k in range(start, len(text) if end is None else end):
        ch = text[k]
        if ch in "\r\n":
            out.append(Char(ch, *_NO_BOX, True))
        elif wanted is not None and not wanted[k]:
            out.append(Char(ch, *_NO_BOX, ch == " "))
        elif loose(raw, index, rect):
            left, right, bottom, top = rect.left, rect.right, rect.bottom, rect.top
            x0, x1 = (left, right) if left <= right else (right, left)
            y0, y1 = (bottom, top) if bottom <= top else (top, bottom)
            # the font size only next to a line break (where :func:`script_join` compares two)
            by_break = text[k - 1 : k] in ("\r", "\n") or text[k + 1 : k + 2] in ("\r", "\n")
            font = font_size(raw, index) if by_break else 0.0
            hidden = outside_clip(textpage, index, clipped, (x0, y0, x1, y1)) if clipped else False
            generated = ch == " " and x1 - x0 < 0.01
            step = space_advance(textpage, index) if ch == " " and not generated else None
            out.append(Char(ch, x0, y0, x1, y1, y1 - y0, y0, generated, font, hidden, step))
        else:
            out.append(Char(ch, *_NO_BOX, True))
        index += 1 if ch < "\U00010000" else 2
    return out


def space_advance(textpage: Any, index: int) -> float:
    """How far past the origin of the character at PDFium's ``index`` (a space) the next
    character's origin lies, in points (two ctypes calls)."""
    import pypdfium2.raw as c

    x, y, nx = ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    c.FPDFText_GetCharOrigin(textpage.raw, index, x, y)
    c.FPDFText_GetCharOrigin(textpage.raw, index + 1, nx, y)
    return nx.value - x.value


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
RAW_STRIDE = 16  # characters: one in this many is asked first whether PDFium read it as a raw code


def raw_code_letters(textpage: Any, text: str) -> str:
    """The letters of ``text`` (``textpage.get_text_range()``) that PDFium read as raw character
    codes because their font gives no Unicode for them (``FPDFText_HasUnicodeMapError``), for
    :func:`ipsis.ingest.textcheck.raw_code_reason`. One character in :data:`RAW_STRIDE` is asked
    first; only a page where one of those is a raw code is asked in full."""
    import pypdfium2.raw as c

    raw, err = textpage.raw, c.FPDFText_HasUnicodeMapError
    astral = [m.start() for m in _ASTRAL.finditer(text)]  # PDFium counts each of these twice

    def index(k: int) -> int:
        return k + bisect_left(astral, k) if astral else k

    if not any(text[k].isalpha() and err(raw, index(k)) == 1 for k in range(0, len(text), RAW_STRIDE)):
        return ""
    out: list[str] = []
    at = 0
    for ch in text:
        if ch.isalpha() and err(raw, at) == 1:
            out.append(ch)
        at += 1 if ch < "\U00010000" else 2
    return "".join(out)


def near_candidates(text: str) -> list[bool]:
    """Per character: within :data:`NEAR` characters of a possible superscript (a digit or a
    note symbol), so that :func:`superscripts` has the boxes it looks at.

    >>> "".join("x" if w else "." for w in near_candidates("a" * 12 + "1" + "b" * 12))
    '....xxxxxxxxxxxxxxxxx....'
    """
    wanted = [False] * len(text)
    for k, ch in enumerate(text):
        if ch.isdigit() or ch in "*†‡§¶":
            for j in range(max(0, k - NEAR), min(len(text), k + NEAR + 1)):
                wanted[j] = True
    for m in GLUED.finditer(text):  # and the three characters :func:`word_gap` looks at
        for j in range(max(0, m.start() - 1), m.end()):
            wanted[j] = True
    return wanted


def outside(chars: Sequence[Char], box: tuple[float, float, float, float]) -> list[bool]:
    """Per character: True when its box centre is outside ``box`` (left, bottom, right, top).

    >>> a = Char("a", 10, 10, 15, 20, 10, 10, False)
    >>> outside([a, a._replace(y0=800, y1=810)], (0, 0, 612, 492))
    [False, True]
    """
    left, bottom, right, top = box
    out = []
    for ch in chars:
        if ch.generated or ch.text.isspace():  # PDFium's generated word spaces have no real box
            out.append(False)
            continue
        cx, cy = (ch.x0 + ch.x1) / 2, (ch.y0 + ch.y1) / 2
        out.append(not (left - 1 <= cx <= right + 1 and bottom - 1 <= cy <= top + 1))
    return out


def _smaller(small: Char, base: Char) -> bool:
    """``small`` is set at most :data:`SUPER_SIZE` of ``base``'s size (font sizes when known:
    loose boxes follow each font's ascent and descent, so a math font's are shorter)."""
    if small.font > 0 and base.font > 0:
        return small.font <= SUPER_SIZE * base.font
    return small.size <= SUPER_SIZE * base.size


def _raised(small: Char, base: Char) -> bool:
    """``small`` is set smaller than ``base`` and raised above its baseline, on its line."""
    if base.size <= 0 or small.size > SUPER_SIZE * base.size:
        return False
    rise = small.origin_y - base.origin_y
    return SUPER_RISE * base.size <= rise <= base.size


def _lowered(small: Char, base: Char) -> bool:
    """``small`` is set smaller than ``base`` and lowered below its line (a subscript)."""
    if base.size <= 0 or not _smaller(small, base):
        return False
    return small.y1 <= base.y1 - 0.25 * base.size and small.y0 >= base.y0 - 0.6 * base.size


def _script(small: Char, base: Char) -> bool:
    """``small`` is a raised or lowered script of ``base``, judged by font size (a math font's
    loose box is shorter than a text font's of the same size)."""
    if base.size <= 0 or not _smaller(small, base):
        return False
    rise = small.origin_y - base.origin_y
    return SUPER_RISE * base.size <= rise <= base.size or _lowered(small, base)


def script_join(before: Char, after: Char) -> str | None:
    """How to read a line break PDFium puts between ``before`` and ``after`` when one of them is
    a raised or lowered script of the other on the same visual line (``R`` and ``ⁿ``, ``3`` and
    ``ème``, ``x`` and ``₀``, or back to the line after one): ``""`` (glued), ``" "`` (a word
    gap between them), or None (a real line break).

    >>> r = Char("R", 72, 700, 80, 713.5, 13.5, 700, False)
    >>> n = Char("n", 80.2, 706, 84, 715.5, 9.5, 706, False)
    >>> script_join(r, n), script_join(n, r._replace(x0=87, x1=95)), script_join(r, r._replace(x0=72, y0=686))
    ('', ' ', None)
    """
    if before.blank or after.blank or not before.x1 - 1 <= after.x0 <= before.x1 + max(before.size, after.size):
        return None
    if _script(after, before) or _script(before, after):
        return " " if word_gap(before, after._replace(origin_y=before.origin_y)) else ""
    return None


THIN_GAP = 0.6
"""Of the loose box height: the widest gap :func:`thin_join` reads as a word space on the line;
a wider one (a table's next cell) keeps PDFium's line break."""


def thin_break(before: str, after: str) -> bool:
    """A line break between ``before`` and ``after`` may be one :func:`thin_join` mends: one of
    them is neither a letter nor a digit (a hyphen, a dash, a period, a bracket, a quote).

    >>> thin_break("5", "-"), thin_break(")", "-"), thin_break("a", "b"), thin_break("-", " ")
    (True, True, False, False)
    """
    if not before.strip() or not after.strip():
        return False
    return not (before.isalnum() and after.isalnum())


def thin_join(before: Char, after: Char) -> str | None:
    """How to read a line break PDFium generates between ``before`` and ``after`` (nearest
    glyphs, one of them thin: :func:`thin_break`) when the page sets both on one line, the
    second going on to the right of the first: ``""`` (glued), ``" "`` (a word gap between
    them, :func:`word_gap`, up to :data:`THIN_GAP`), or None (a real line break, or a wider gap).

    PDFium ends a line where a text object's box does not overlap the previous one's vertically
    enough; a text object holding only a hyphen or a period has a box a fraction of the line
    high, so a producer that sets such a glyph as its own object (Word through Acrobat
    PDFWriter positions glyphs one by one) gets line breaks inside ``(5-(Feniltio)-1H``. The
    loose boxes used here follow the font's ascent and descent, so both glyphs share a
    baseline and a height.

    >>> five = Char("5", 166.5, 541.9, 170.9, 552.2, 10.3, 541.9, False)
    >>> dash = Char("-", 171.4, 541.9, 173.6, 552.2, 10.3, 541.9, False)
    >>> thin_join(five, dash), thin_join(five, dash._replace(x0=173.0, x1=175.2))
    ('', ' ')
    >>> thin_join(dash, five._replace(x0=79.5, x1=84.0, y0=530.6, origin_y=530.6))  # the next line
    >>> thin_join(five, dash._replace(x0=260.0, x1=262.2))  # a table's next cell
    """
    if before.blank or after.blank or before.size <= 0 or after.size <= 0:
        return None
    size = max(before.size, after.size)
    if abs(before.size - after.size) > 0.15 * size or abs(before.origin_y - after.origin_y) > 0.1 * size:
        return None
    gap = after.x0 - before.x1
    if gap < -0.1 * size or gap > THIN_GAP * size:
        return None
    return " " if word_gap(before, after) else ""


def script_runs(chars: Sequence[Char]) -> list[bool]:
    """Per character: True inside a raised or lowered script that PDFium set apart by a line
    break (:func:`script_join`): the characters on the script's side of the break that share
    its size and baseline, up to a blank (``n`` in ``R\\nn und``, ``ème`` in ``3\\nème``).

    >>> r = Char("R", 72, 700, 80, 713.5, 13.5, 700, False)
    >>> n = Char("n", 80.2, 706, 84, 715.5, 9.5, 706, False)
    >>> br = Char("\\n", 0, 0, 0, 0, 0, 0, True)
    >>> script_runs([r, br, n, n._replace(x0=84, x1=88), br._replace(text=" "), r._replace(x0=92, x1=100)])
    [False, False, True, True, False, False]
    """
    flags = [False] * len(chars)
    for i, ch in enumerate(chars):
        if ch.text not in "\r\n" or not ch.generated:
            continue
        b, a = _neighbour_at(chars, i, -1), _neighbour_at(chars, i, +1)
        if b is None or a is None or script_join(chars[b], chars[a]) is None:
            continue
        start, step = (a, +1) if _script(chars[a], chars[b]) else (b, -1)
        first = chars[start]
        k = start
        while 0 <= k < len(chars) and not chars[k].blank and _same_script(chars[k], first):
            flags[k] = True
            k += step
    return flags


def _same_script(ch: Char, first: Char) -> bool:
    tol = 0.2 * max(first.size, 1.0)
    return abs(ch.origin_y - first.origin_y) <= tol and abs(ch.size - first.size) <= tol


def _neighbour_at(chars: Sequence[Char], i: int, step: int) -> int | None:
    """The index of the nearest non-blank character before or after ``i`` (within :data:`NEAR`)."""
    k = i + step
    for _ in range(NEAR):
        if not 0 <= k < len(chars):
            return None
        if not chars[k].blank:
            return k
        k += step
    return None


def superscripts(chars: Sequence[Char]) -> list[bool]:
    """Per character: True inside a run of raised small digits or footnote symbols.

    >>> big = [Char(ch, 10 * i, 100, 10 * i + 9, 112, 12, 100, False) for i, ch in enumerate("Lei")]
    >>> sup = Char("2", 31, 106, 35, 113, 7, 106, False)
    >>> superscripts([*big, sup, big[0]._replace(x0=40, x1=49)])
    [False, False, False, True, False]
    """
    n = len(chars)
    flags = [False] * n
    i = 0
    while i < n:
        ch = chars[i]
        if ch.blank or ch.text not in _SUPER_CHARS:
            i += 1
            continue
        j = i + 1
        while j < n and not chars[j].blank and chars[j].text in _SUPER_CHARS and chars[j].size <= ch.size * 1.05:
            j += 1
        base = _neighbour(chars, i, -1)
        after = _neighbour(chars, j - 1, +1)
        run = chars[i:j]
        if any(c.text.isdigit() or c.text in "*†‡§¶" for c in run) and (
            (base is not None and base.x1 - 1 <= ch.x0 <= base.x1 + base.size and _raised(ch, base))
            or (
                after is not None
                and (base is None or ch.x0 < base.x0 or base_is_line_start(chars, i))
                and _raised(ch, after)
                and after.x0 >= ch.x0
            )
        ):
            for k in range(i, j):
                flags[k] = True
        i = j
    return flags


def _neighbour(chars: Sequence[Char], i: int, step: int) -> Char | None:
    """The nearest non-blank character before (``step=-1``) or after (``+1``) index ``i``."""
    k = _neighbour_at(chars, i, step)
    return None if k is None else chars[k]


def base_is_line_start(chars: Sequence[Char], i: int) -> bool:
    """Index ``i`` starts a line: nothing but blanks since the last line break (or the start)."""
    k = i - 1
    while k >= 0 and k > i - NEAR and chars[k].blank:
        if chars[k].text in "\r\n":
            return True
        k -= 1
    return k < 0


def _same_line(a: Char, b: Char) -> bool:
    size = max(a.size, b.size)
    return size > 0 and abs(a.origin_y - b.origin_y) <= 0.3 * size and b.x0 >= a.x0


def word_gap(before: Char, after: Char, reference: Char | None = None) -> bool:
    """The page shows a word space between ``before`` and ``after`` (adjacent in the text, no
    space between them): they are on one line and the gap between their boxes is wider than
    :data:`WORD_GAP` of the font size beyond the letter spacing (the gap between ``reference``,
    the character before ``before``, and ``before``; tracked text has wide gaps everywhere).

    >>> a = Char(".", 89.3, 697, 92.3, 710.5, 13.5, 697, False)
    >>> word_gap(a, a._replace(text="T", x0=92.3, x1=99.7)), word_gap(a, a._replace(text="T", x0=94.3, x1=101.7))
    (False, True)
    """
    if before.blank or after.blank or not _same_line(before, after):
        return False
    spacing = 0.0
    if reference is not None and not reference.blank and _same_line(reference, before):
        spacing = max(0.0, before.x0 - reference.x1)
    return after.x0 - before.x1 > WORD_GAP * max(before.size, after.size) + spacing


FORMULA = re.compile(r"[\u2190-\u2211\u2213-\u22ff\u27e8-\u27ef±×÷]")
"""A sign that a page sets formulas (arrows, mathematical operators but the minus sign, which
some producers print for a hyphen, angle brackets, ± × ÷):
where a raised or lowered script may sit on its line without a line break, so the reader reads
the font size of every character (see :func:`inline_scripts`). Greek letters and letters glued
to digits (``HS256``) are not enough: Greek prose and technical prose would pay for it (the
font sizes of every character cost up to half the page's reading time)."""


def font_sizes(textpage: Any, text: str, start: int = 0, end: int | None = None) -> list[float]:
    """PDFium's font size (points) of each character of ``text[start:end]``, 0 for blanks."""
    import pypdfium2.raw as c

    raw = textpage.raw
    size = c.FPDFText_GetFontSize
    index = start + sum(1 for ch in text[:start] if ord(ch) > 0xFFFF)
    out: list[float] = []
    for ch in text[start:end]:
        out.append(0.0 if ch.isspace() else size(raw, index))
        index += 1 if ch < "\U00010000" else 2
    return out


def script_edges(fonts: Sequence[float]) -> list[int]:
    """Indices ``i`` where ``fonts[i - 1]`` and ``fonts[i]`` are both known and one is at most
    :data:`SUPER_SIZE` of the other: where a script set on its line may begin or end.

    >>> script_edges([10.0, 7.0, 7.0, 10.0, 0.0, 7.0, 10.0, 9.5])
    [1, 3, 6]
    """
    return [
        i
        for i in range(1, len(fonts))
        if fonts[i] > 0 and fonts[i - 1] > 0 and min(fonts[i], fonts[i - 1]) <= SUPER_SIZE * max(fonts[i], fonts[i - 1])
    ]


def inline_scripts(chars: Sequence[Char], fonts: Sequence[float]) -> list[bool]:
    """Per character: True inside a raised or lowered script set on its line with no break
    (``C`` in X\u1d9c, ``s`` in T\u209bS, ``2\u03c0it`` in e\u00b2\u1d56\u2071\u1d57): the characters
    next to a glyph of a font at least :data:`SUPER_SIZE` larger, raised or lowered from it, up
    to a blank or a change of size or baseline. ``fonts`` are the characters' font sizes.

    >>> x = Char("X", 72, 700, 80, 713.5, 13.5, 700, False)
    >>> sup = Char("C", 80.2, 706, 85, 715.5, 9.5, 706, False)
    >>> inline_scripts([x, sup, x._replace(x0=86, x1=94)], [12.0, 8.0, 12.0])
    [False, True, False]
    >>> inline_scripts([x, sup._replace(y0=700, origin_y=700)], [12.0, 8.0])  # small, not raised
    [False, False]
    """
    n = len(chars)
    flags = [False] * n
    for i in script_edges(fonts):
        a, b = chars[i - 1], chars[i]
        if a.blank or b.blank:
            continue
        start, step, base, other = (i, 1, a, i - 1) if fonts[i] < fonts[i - 1] else (i - 1, -1, b, i)
        small = chars[start]
        if not _script(small._replace(font=fonts[start]), base._replace(font=fonts[other])):
            continue
        k = start
        while 0 <= k < n and not chars[k].blank and _same_script(chars[k], small) and fonts[k] == fonts[start]:
            flags[k] = True
            k += step
    return flags

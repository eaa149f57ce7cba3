"""PDFium's characters with their boxes, and what the boxes tell about them.

:func:`page_chars` reads every character of a PDFium text page with its box, origin and font
size (PDF points, ``y`` up), one ``Char`` per PDFium character index (generated line breaks and
spaces included, flagged ``generated``). The pure functions below work on such lists:

- :func:`outside` — characters whose box centre lies outside the page's crop box: a viewer does
  not show them, so they are not on the page;
- :func:`superscripts` — runs of digits and footnote symbols set smaller and raised above the
  character before them (``Ermäßigte²``, ``R²``) or after them (a note's number, ``¹The current``).

Reading the boxes costs a few ctypes calls per character (about ten times plain text extraction),
so the PDF reader calls :func:`page_chars` only on pages that need it (see ``ipsis.ingest.pdfium``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

SUPER_SIZE = 0.85  # a superscript is set at most this share of the size of its base ...
SUPER_RISE = 0.18  # ... with its baseline raised by at least this share of the base size
NEAR = 8  # characters: how far to look for the neighbour of a candidate superscript
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
) -> list[Char]:
    """One :class:`Char` per character of ``text[start:end]`` (``text`` is
    ``textpage.get_text_range()``), with its loose box (the font's ascent to descent: its height
    follows the font size, its bottom the baseline). PDFium counts a character outside the BMP as
    two indices, ``text`` as one (``first_index``, when known, is PDFium's index of
    ``text[start]``). With ``wanted`` (per character of ``text``), only those characters get a
    box (reading a box is the costly part); the others get an empty one."""
    import pypdfium2.raw as c

    raw = textpage.raw
    rect = c.FS_RECTF()
    loose = c.FPDFText_GetLooseCharBox
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
            x0, x1 = sorted((rect.left, rect.right))
            y0, y1 = sorted((rect.bottom, rect.top))
            out.append(Char(ch, x0, y0, x1, y1, y1 - y0, y0, ch == " " and x1 - x0 < 0.01))
        else:
            out.append(Char(ch, *_NO_BOX, True))
        index += 1 if ch < "\U00010000" else 2
    return out


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


def _raised(small: Char, base: Char) -> bool:
    """``small`` is set smaller than ``base`` and raised above its baseline, on its line."""
    if base.size <= 0 or small.size > SUPER_SIZE * base.size:
        return False
    rise = small.origin_y - base.origin_y
    return SUPER_RISE * base.size <= rise <= base.size


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
    k = i + step
    for _ in range(NEAR):
        if not 0 <= k < len(chars):
            return None
        if not chars[k].blank:
            return chars[k]
        k += step
    return None


def base_is_line_start(chars: Sequence[Char], i: int) -> bool:
    """Index ``i`` starts a line: nothing but blanks since the last line break (or the start)."""
    k = i - 1
    while k >= 0 and k > i - NEAR and chars[k].blank:
        if chars[k].text in "\r\n":
            return True
        k -= 1
    return k < 0

"""Space characters of a PDF's text that the page does not show as word spaces: drawn over
the glyph before them (:func:`drawn_over`, ``identifi cação``) or under the glyph after them
(:func:`drawn_under`, ``judiciá ria``), with no gap on the page between the two glyphs. Pure
functions on :class:`~ipsis.ingest.pdfchars.Char` lists (see :mod:`ipsis.ingest.pdfchars`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from ipsis.ingest.pdfchars import WORD_GAP, Char, _same_line, word_gap


def drawn_over(chars: Sequence[Char], i: int) -> bool:
    """``chars[i]``, a space character of the text (not generated), is drawn over the glyph
    before it and shows no gap on the page: at least half of its box lies inside the box of the
    glyph before, it ends at most :data:`WORD_GAP` of the font size past it, and the glyph after
    follows with no word gap (:func:`word_gap`). Some producers emit such a space after a
    ligature (``identifi cação`` where the page shows ``identificação``); a real word space
    starts where the glyph before it ends and leaves a gap. Only where the boxes are the
    glyphs' advances (the neighbouring letters' boxes abut within a tenth of an em, a ligature's
    letters sharing one): a script font's boxes overlap each other by a third of a glyph, and a
    space between two of them is real (``pj_non-embedded-NuptialScript.pdf``).

    >>> i = Char("i", 160.66, 261.1, 163.72, 272.4, 11.3, 261.1, False)
    >>> f = Char("f", 163.72, 261.1, 169.83, 272.4, 11.3, 261.1, False)
    >>> sp, c = f._replace(text=" ", x0=166.77), f._replace(text="c", x0=169.83, x1=175.33)
    >>> a = c._replace(text="a", x0=175.33, x1=180.83)
    >>> drawn_over([i, f, f._replace(text="i"), sp, c, a], 3)
    True
    >>> drawn_over([i, f, f._replace(text="i"), sp._replace(x0=169.83, x1=172.9), c._replace(x0=172.9, x1=178.4), a], 3)
    False
    >>> drawn_over([i._replace(x1=165.0), f, f._replace(text="i"), sp, c, a], 3)  # overlapping boxes: a script font
    False
    """
    if not 0 < i < len(chars) - 1 or not space_inside(chars[i - 1], chars[i], chars[i + 1]):
        return False
    return _no_gap(chars, i)


def space_inside(before: Char, space: Char, after: Char) -> bool:
    """The first test of :func:`drawn_over`, on three boxes: ``space`` lies at least half inside
    ``before``'s box and ends at most :data:`WORD_GAP` of the font size past it, on the line of
    ``before`` and ``after``."""
    if before.blank or after.blank or space.text != " " or space.generated or not _same_line(before, after):
        return False
    width = space.x1 - space.x0
    size = max(before.size, after.size)
    inside = min(space.x1, before.x1) - max(space.x0, before.x0)
    if width <= 0 or inside < width / 2 or space.x1 > before.x1 + WORD_GAP * size:
        return False
    return abs(space.origin_y - before.origin_y) <= 0.3 * size


NEAR_BOXES = 6
"""Characters on each side of a space whose boxes :func:`drawn_over` and :func:`drawn_under` read."""


UNDER_ADVANCE = (-0.01, 0.1)
"""Of a space's width: how far it may advance and still be drawn under the glyph after it (a
glyph drawn back further than the space's origin, over the glyph before, is a font whose
metrics are not the page's: ``pj_issue6127.pdf``'s shifted boxes)."""


def drawn_under(chars: Sequence[Char], i: int) -> bool:
    """``chars[i]``, a space character of the text (not generated), is drawn under the glyph
    after it and shows no gap on the page: the glyph after starts where the space starts (its
    origin within :data:`UNDER_ADVANCE` of the space's width of the space's, read in
    ``Char.advance``), at least half of the space's box lies inside its box, and it follows the
    glyph before with no word gap (:func:`word_gap`). Some producers emit a space inside a word
    and move back over it (``judiciá ria`` where the page shows ``judiciária``); a real word
    space advances its own width. The same guard as :func:`drawn_over`: only where the boxes are
    the glyphs' advances. An italic letter's box reaching back over the space before it (``Case
    for`` in italics) is no such space: the letter's origin lies past the space's.

    >>> a = Char("á", 83.6, 220.1, 89.1, 231.3, 11.2, 220.1, False)
    >>> i, c = a._replace(text="i", x0=80.54, x1=83.6), a._replace(text="c", x0=75.04, x1=80.54)
    >>> sp, r = a._replace(text=" ", x0=89.1, x1=92.16, advance=0.0), a._replace(text="r", x0=89.1, x1=92.76)
    >>> tail = [r._replace(text="i", x0=92.76, x1=95.82), r._replace(text="a", x0=95.82, x1=101.32)]
    >>> drawn_under([c, i, a, sp, r, *tail], 3)
    True
    >>> drawn_under([c, i, a, sp._replace(advance=3.06), r._replace(x0=92.16, x1=95.82), *tail], 3)
    False
    """
    if not 0 < i < len(chars) - 1:
        return False
    before, space, after = chars[i - 1], chars[i], chars[i + 1]
    if space.text != " " or space.generated or space.advance is None or before.blank or after.blank:
        return False
    width = space.x1 - space.x0
    if width <= 0 or after.x1 <= after.x0 or before.x1 <= before.x0 or not _same_line(before, after):
        return False
    low, high = UNDER_ADVANCE
    if not low * width <= space.advance <= high * width or abs(space.origin_y - after.origin_y) > 0.3 * after.size:
        return False
    if min(space.x1, after.x1) - max(space.x0, after.x0) < width / 2:
        return False
    return _no_gap(chars, i)


def _no_gap(chars: Sequence[Char], i: int) -> bool:
    """No word gap between the glyphs on each side of the space ``chars[i]`` (beyond the letter
    spacing before them), where the neighbouring letters' boxes are the glyphs' advances: they
    abut within a tenth of an em, a ligature's letters sharing one box (a script font's boxes
    overlap each other by a third of a glyph, and a space between two of them is real)."""
    before, after = chars[i - 1], chars[i + 1]
    size = max(before.size, after.size)
    k = i - 2  # the glyph before ``before`` that is not a letter of the same ligature
    while k >= 0 and i - k <= 4 and (chars[k].x0, chars[k].x1) == (before.x0, before.x1):
        k -= 1
    ref = chars[k] if k >= 0 and not chars[k].blank and _same_line(chars[k], before) else None
    # neighbouring letters on the line within :data:`NEAR_BOXES` (not the space's own pair)
    near = [
        (a, b)
        for a, b in pairwise(chars[max(0, i - NEAR_BOXES) : i + NEAR_BOXES + 1])
        if not a.blank and not b.blank and (a.x0, a.x1) != (b.x0, b.x1) and _same_line(a, b)
    ]
    tol = 0.1 * size  # kerning overlaps letters a little; a script font's boxes by a third of a glyph
    if not near or any(b.x0 < a.x1 - tol for a, b in near):
        return False
    return not word_gap(before, after, ref)


LINE_START = re.compile(r"(?:^|\n)([^\W\d_])(?=[^\W\d_])")
"""A line of the text starting with two letters: where PDFium may glue a one-letter word to
the next across the page's word gap (``acommercial`` for ``a commercial``)."""
WIDEST_GAP = 1.0  # of the loose box height: wider than any word space (boxes of another line, of no glyph)


def line_start_gap(first: Char, second: Char, third: Char | None) -> bool:
    """The page shows a word space between the first two glyphs of a line, ``first`` and
    ``second``, which PDFium's text glues (seen only there, after a one-letter word:
    ``acommercial``, ``Icould`` in ``pj_freeculture.pdf``, where other gaps of the same width
    read as spaces): both have a box on one line, and the gap between them is wider than
    :data:`WORD_GAP` of the font size beyond the letter spacing (from ``second`` to ``third``,
    as in :func:`word_gap`) and no wider than :data:`WIDEST_GAP`.

    >>> a = Char("a", 96.0, 110.6, 100.48, 121.2, 10.6, 110.6, False)
    >>> c, o = a._replace(text="c", x0=103.9, x1=108.21), a._replace(text="o", x0=108.21, x1=113.44)
    >>> line_start_gap(a, c, o), line_start_gap(a, c._replace(x0=100.5, x1=104.8), o._replace(x0=104.8, x1=110.0))
    (True, False)
    """
    if first.blank or second.blank or first.x1 <= first.x0 or second.x1 <= second.x0:
        return False
    if not _same_line(first, second):
        return False
    spacing = 0.0  # the letter spacing, read after the pair
    if third is not None and not third.blank and third.x1 > third.x0 and _same_line(second, third):
        spacing = max(0.0, third.x0 - second.x1)
    size = max(first.size, second.size)
    gap = second.x0 - first.x1
    return WORD_GAP * size + spacing < gap <= WIDEST_GAP * size

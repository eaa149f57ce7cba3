"""Pure layout analysis over word boxes: reading order and page furniture by position.

A position-aware PDF engine (:mod:`ipsis.ingest.plumber`) hands over the words of each page
with their boxes (PDF points, ``top`` measured from the top of the page). This module

- groups words into rows and finds a column gutter: an x position, in the middle half of the
  page, where many rows have a wide gap with text on both sides. Runs of rows that do not cross
  the gutter are read column by column (left column, then right); rows that cross it (titles,
  full-width paragraphs) are read in place;
- marks running headers/footers and page numbers *by position*: lines in the top or bottom band
  of the page whose text (digits aside) recurs at the same height on other pages, and numbers
  in the band that follow the page count (``1471``, ``Página 4``, ``[Page 4]``).

>>> words = [Box("Art.", 50, 68, 100, 110), Box("1º", 71, 80, 100, 110), Box("Esta", 84, 100, 112, 122)]
>>> [line.text for line in reading_order(words, 595)]
['Art. 1º', 'Esta']
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from statistics import median
from typing import NamedTuple

from ipsis.document import Mark

BAND = 0.16  # share of the page height, at the top and at the bottom, where furniture lives
MIN_GUTTER = 7.0  # points: narrower gaps are word spaces, even in justified text
TALL = 2.5  # times the median word height: a box this tall spans several lines (a brace)
BLOCK_GAP = 1.5  # of a row's height: a wider gap between two words separates two blocks of text ...
RECENT_BLOCKS = 32  # blocks a piece of a row may go on: those added to last (older ones ended above)
ALIGNED = 0.06  # ... unless both stand on one baseline (to this share of the height): a table row
SAME_HEIGHT = 3.0  # points: a running header sits at the same height on every page
MIN_PAGES = 2  # with positions, two pages are enough to call a line running furniture ...
MIN_SHARE = 0.25  # ... when they are at least this share of the pages with text
_DIGITS = re.compile(r"\d+")
_PAGE_TOKEN = re.compile(r"^[\[(\-–—]*(\d{1,4})[\])\-–—]*$")  # not "4." (a list item, "Artículo 4.")
_SPACES = re.compile(r"\s+")


class Box(NamedTuple):
    """A word and its box, in PDF points (``top``/``bottom`` from the top of the page)."""

    text: str
    x0: float
    x1: float
    top: float
    bottom: float


@dataclass(frozen=True, slots=True)
class Line:
    """A line of a page as read, with its box and its place in the page text (set later)."""

    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    column: str = "full"  # "full", "left" or "right"


def _rows(boxes: Sequence[Box]) -> list[list[Box]]:
    """Words grouped into rows (boxes that overlap the row's first box by half their height,
    so a bigger page number sits on its header's row), each row sorted left to right. A narrow
    box more than :data:`TALL` times the median height (a brace or bracket drawn over several
    lines; not a title's big word) is a row of its own, so that it does not pull the lines
    beside it into one row.

    >>> lines = [Box(w, 30, 60, 10 + 12 * k, 20 + 12 * k) for k, w in enumerate(["one", "two", "three"])]
    >>> [[b.text for b in r] for r in _rows([Box("{", 20, 28, 8, 46), *lines])]
    [['{'], ['one'], ['two'], ['three']]
    """
    heights = sorted(b.bottom - b.top for b in boxes)
    limit = TALL * heights[len(heights) // 2] if heights else 0.0
    tall = [b for b in boxes if b.bottom - b.top > limit > 0 and b.x1 - b.x0 < 0.5 * (b.bottom - b.top)]
    if tall and len(tall) < len(boxes):
        rest = [b for b in boxes if b not in tall]
        return sorted([*_rows(rest), *([b] for b in tall)], key=lambda r: (r[0].top, r[0].x0))
    rows: list[list[Box]] = []
    top = bottom = 0.0
    for b in sorted(boxes, key=lambda b: (b.top, b.x0)):
        overlap = min(bottom, b.bottom) - max(top, b.top)
        if rows and overlap >= 0.5 * min(bottom - top, b.bottom - b.top):
            rows[-1].append(b)
        else:
            rows.append([b])
            top, bottom = b.top, b.bottom
    return [sorted(r, key=lambda b: b.x0) for r in rows]


def find_gutter(rows: Sequence[Sequence[Box]], width: float) -> float | None:
    """The x of a column gutter, or None for a single-column page.

    A gutter is where the most rows have a gap of at least :data:`MIN_GUTTER` points with words
    on both sides; it must be in the middle half of the page, be shared by at least three rows
    (and a fifth of the rows), and both sides must hold running text (three words a row on
    average), so that a two-column table of labels and values is not read as columns.

    >>> def column(x: int) -> list[Box]:
    ...     return [Box("w", x + 35 * i, x + 35 * i + 30, 100 + 12 * k, 109 + 12 * k)
    ...             for k in range(6) for i in range(3)]
    >>> left, right = column(50), column(300)
    >>> find_gutter(_rows(left + right), 595)
    225.0
    >>> find_gutter(_rows(left), 595) is None
    True
    """
    lo, hi = int(width * 0.25), int(width * 0.75)
    cover = [0] * (hi - lo + 1)
    for row in rows:
        hit = [False] * len(cover)
        for a, b in pairwise(row):
            if b.x0 - a.x1 < MIN_GUTTER:
                continue
            for x in range(max(lo, math.ceil(a.x1)), min(hi, math.floor(b.x0)) + 1):
                hit[x - lo] = True
        for i, h in enumerate(hit):
            cover[i] += h
    best = max(cover) if cover else 0
    if best < max(3, 0.2 * len(rows)):
        return None
    run = [lo + i for i, c in enumerate(cover) if c == best]
    # the longest contiguous run of best positions, its middle is the gutter
    runs: list[list[int]] = []
    for x in run:
        if runs and x == runs[-1][-1] + 1:
            runs[-1].append(x)
        else:
            runs.append([x])
    widest = max(runs, key=len)
    gutter = (widest[0] + widest[-1]) / 2
    split = [r for r in rows if _split(r, gutter)]
    left = sum(sum(b.x1 <= gutter for b in r) for r in split)
    right = sum(sum(b.x0 >= gutter for b in r) for r in split)
    if not split or min(left, right) < 3 * len(split):
        return None
    return gutter


def _split(row: Sequence[Box], gutter: float) -> bool:
    """The row has words on both sides of the gutter with a gutter-wide gap between them."""
    before = [b for b in row if b.x1 <= gutter]
    after = [b for b in row if b.x0 >= gutter]
    if not before or not after or len(before) + len(after) < len(row):
        return False
    return after[0].x0 - before[-1].x1 >= MIN_GUTTER


def _crosses(row: Sequence[Box], gutter: float) -> bool:
    """A full-width row: a word straddles the gutter, or words on both sides sit a space apart."""
    if any(b.x0 < gutter < b.x1 for b in row):
        return True
    before = [b for b in row if b.x1 <= gutter]
    after = [b for b in row if b.x0 >= gutter]
    return bool(before and after) and after[0].x0 - before[-1].x1 < MIN_GUTTER


def _line(boxes: Sequence[Box], column: str) -> Line:
    return Line(
        " ".join(b.text for b in boxes),
        min(b.x0 for b in boxes),
        max(b.x1 for b in boxes),
        min(b.top for b in boxes),
        max(b.bottom for b in boxes),
        column,
    )


def reading_order(boxes: Sequence[Box], width: float, height: float | None = None) -> list[Line]:
    """The lines of a page in reading order (column by column where the page has columns).

    The outermost row at the top and at the bottom of the page, when it lies in the furniture
    band (``height`` given), is always read in place so that a header is not pulled into a column.
    """
    rows = _rows(boxes)
    gutter = find_gutter(rows, width)
    if gutter is None:
        return blocks(rows)
    lines: list[Line] = []
    block: list[Box] = []

    def flush() -> None:
        for side, keep in (("left", lambda b: b.x1 <= gutter), ("right", lambda b: b.x0 >= gutter)):
            lines.extend(_line(r, side) for r in _rows([b for b in block if keep(b)]))
        block.clear()

    for k, row in enumerate(rows):
        edge = height is not None and (
            (k == 0 and row[0].top < BAND * height) or (k == len(rows) - 1 and row[0].bottom > (1 - BAND) * height)
        )
        if edge or _crosses(row, gutter):
            flush()
            lines.append(_line(row, "full"))
        else:
            block.extend(row)
    flush()
    return lines


def _segments(row: Sequence[Box]) -> list[list[Box]]:
    """A row cut where two words are more than :data:`BLOCK_GAP` of the row's height apart and
    do not stand on one baseline (within :data:`ALIGNED` of the height): two flows of text side
    by side, whose lines only happen to overlap. Cells of a table row share their baseline, and
    the row stays whole (a label reads with its value)."""
    height = max(b.bottom - b.top for b in row)
    out: list[list[Box]] = [[row[0]]]
    for a, b in pairwise(row):
        if b.x0 - a.x1 > BLOCK_GAP * height and abs(b.bottom - a.bottom) > ALIGNED * height:
            out.append([b])
        else:
            out[-1].append(b)
    return out


def _home(found: list[list[list[Box]]], recent: list[int], here: dict[int, list[Box]], piece: list[Box]) -> int | None:
    """The block ``piece`` goes on: of the :data:`RECENT_BLOCKS` blocks last added to (a
    scattered page does not cost blocks × rows), those whose line before this row overlaps it
    across and ends at most a line's height above it, the nearest above, then the one it
    overlaps most (not a line number in the margin that the piece happens to reach)."""
    x0, x1 = piece[0].x0, piece[-1].x1
    top = min(b.top for b in piece)
    height = max(b.bottom - b.top for b in piece)
    best: tuple[float, float] | None = None
    home = None
    for k in recent:
        lines = found[k][:-1] if k in here else found[k]
        if not lines:
            continue
        ref = lines[-1]
        across = min(x1, ref[-1].x1) - max(x0, ref[0].x0)
        below = top - max(b.bottom for b in ref)
        if across > 0 and -0.5 * height <= below <= height:
            key = (round(below, 1), -across)  # the nearest line above, then the widest overlap
            if best is None or key < best:
                best, home = key, k
    return home


def blocks(rows: Sequence[Sequence[Box]]) -> list[Line]:
    """The lines of a page without column gutter, read block by block: a row is cut at gaps
    wider than a word space between words on different baselines (:func:`_segments`), each
    piece goes on the block above it (the block's last line overlaps it across and ends at most
    a line's height above it) or starts a block, and the blocks are read in the order they
    start, top to bottom, then left to right. A form's title beside a box (``DEMANDE DE
    RATTACHEMENT ...`` next to ``VOLET 1``) then reads as two blocks, not as rows that
    interleave both; pieces of one row that go on one block stay one line.

    >>> rows = [[Box("Title", 100, 130, 10, 20), Box("BOX", 300, 320, 12, 22)],
    ...         [Box("goes", 100, 125, 22, 32), Box("on", 128, 140, 22, 32), Box("note", 300, 325, 24, 34)]]
    >>> [line.text for line in blocks(rows)]
    ['Title', 'goes on', 'BOX', 'note']
    """
    found: list[list[list[Box]]] = []  # each block: its lines (pieces), top to bottom
    recent: list[int] = []  # blocks, the one added to last at the end
    for row in rows:
        here: dict[int, list[Box]] = {}  # block -> its line on this row
        for piece in _segments(row):
            home = _home(found, recent, here, piece)
            if home is None:
                found.append([piece])
                home = len(found) - 1
                here[home] = piece
            elif home in here:
                here[home].extend(piece)  # the same row, the same block: one line
            else:
                found[home].append(piece)
                here[home] = piece
            if home in recent:
                recent.remove(home)
            recent.append(home)
            del recent[:-RECENT_BLOCKS]
    return [_line(piece, "full") for block in found for piece in block]


@dataclass(frozen=True, slots=True)
class PlacedLine:
    """A line of the document text (``start``/``end`` into it) and where it sat on its page."""

    page: int  # 1-based
    start: int
    end: int
    top: float
    bottom: float
    height: float  # of the page
    edge: str | None = None  # "head"/"tail" for the topmost/bottommost line of its page

    def band(self) -> str | None:
        """``head``/``tail`` for a line in the top/bottom band of its page or at its very top or
        bottom (the first page of an RFC has its footer higher than the others)."""
        if self.top < BAND * self.height:
            return "head"
        if self.bottom > (1 - BAND) * self.height:
            return "tail"
        return self.edge


def _page_number(text: str) -> int | None:
    """The page number a band line carries as its first or last word, if any.

    >>> _page_number("1472 ΕΦΗΜΕΡΙΣ ΤΗΣ ΚΥΒΕΡΝΗΣΕΩΣ"), _page_number("Página 4"), _page_number("Jones  [Page 4]")
    (1472, 4, 4)
    >>> _page_number("Lei no 13.709/2018") is None
    True
    """
    words = text.split()
    for word in {words[0], words[-1]} if words else set():
        m = _PAGE_TOKEN.match(word)
        if m:
            return int(m.group(1))
    return None


def position_furniture(text: str, lines: Iterable[PlacedLine]) -> list[Mark]:
    """Furniture marks from line positions: band lines whose text (digits aside) recurs at the
    same height on other pages, and band lines carrying a number that follows the page count.
    """
    pages_with_text = set()
    band: list[tuple[PlacedLine, str]] = []
    for line in lines:
        pages_with_text.add(line.page)
        where = line.band()
        if where:
            band.append((line, where))
    need = max(MIN_PAGES, math.ceil(MIN_SHARE * len(pages_with_text)))
    shifts: dict[str, Counter[int]] = {"head": Counter(), "tail": Counter()}
    numbered: dict[tuple[int, int], int] = {}
    groups: dict[tuple[str, str], list[PlacedLine]] = defaultdict(list)
    for line, where in band:
        s = text[line.start : line.end]
        n = _page_number(s)
        if n is not None:
            shifts[where][n - line.page] += 1
            numbered[(line.page, line.start)] = n - line.page
        key = _SPACES.sub(" ", _DIGITS.sub("", s)).strip().casefold()
        if sum(ch.isalpha() for ch in key) >= 2:
            groups[(where, key)].append(line)
    marks: dict[int, Mark] = {}
    for where, counter in shifts.items():
        shift, count = counter.most_common(1)[0] if counter else (0, 0)
        if count < need:
            continue
        for line, at in band:
            if at == where and numbered.get((line.page, line.start)) == shift:
                s = text[line.start : line.end]
                alone = _PAGE_TOKEN.match(s.strip()) is not None
                what = "page number" if alone else f"running {'header' if where == 'head' else 'footer'}"
                marks[line.start] = Mark("furniture", line.start, line.end, f"{what}, page {line.page} (position)")
    for (where, _), members in groups.items():
        height = median(m.top for m in members)
        same = [m for m in members if abs(m.top - height) <= SAME_HEIGHT]
        if len({m.page for m in same}) < need:
            continue
        numbers = {m.page: tuple(int(d) for d in _DIGITS.findall(text[m.start : m.end])) for m in same}
        if not _steady(numbers):
            continue
        for m in same:
            what = "header" if where == "head" else "footer"
            marks.setdefault(m.start, Mark("furniture", m.start, m.end, f"running {what}, page {m.page} (position)"))
    return sorted(marks.values(), key=lambda m: m.start)


def _steady(pages: dict[int, tuple[int, ...]]) -> bool:
    """Numbers in a repeated line stay the same or follow the page (see ``pages._running``)."""
    from ipsis.ingest.pages import _running

    return _running(pages)


def confirms(mark_text: str, band_texts: Iterable[str]) -> bool:
    """True when some band line holds every character of ``mark_text`` (spaces aside): the
    check is by characters, not order, because engines order glyphs differently
    (``Lei n 9 o 13.709/2018`` from PDFium is ``Lei nº 13.709/2018`` by position).

    >>> confirms("Lei n 9 o 13.709/2018", ["9 Lei no 13.709/2018"]), confirms("7", ["Art. 5º"])
    (True, False)
    """
    want = Counter(mark_text.replace(" ", ""))
    return any(not (want - Counter(t.replace(" ", ""))) for t in band_texts)

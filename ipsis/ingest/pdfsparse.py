"""PDFium pages read sparsely: superscripts, scripts and word gaps found from the page text,
reading character boxes only where the text says one may be (a digit or note symbol, a line
break next to a short token, punctuation glued to a letter, a space after ligature letters),
not for every character.

The same rules as on pages read character by character (:func:`ipsis.ingest.pdfium.build_text`),
from :mod:`ipsis.ingest.pdfchars`: :func:`~ipsis.ingest.pdfchars.superscripts`,
:func:`~ipsis.ingest.pdfchars.script_join`, :func:`~ipsis.ingest.pdfchars.word_gap`.
"""

from __future__ import annotations

import ctypes
import re
from typing import Any

from ipsis.ingest.pdfchars import (
    FORMULA,
    GLUED,
    NEAR,
    SUPER_SIZE,
    WORD_GAP,
    Char,
    font_sizes,
    inline_scripts,
    page_chars,
    script_edges,
    script_join,
    script_runs,
    superscripts,
    thin_break,
    thin_join,
    word_gap,
)
from ipsis.ingest.pdfspaces import (
    LINE_START,
    NEAR_BOXES,
    UNDER_ADVANCE,
    drawn_over,
    drawn_under,
    line_start_gap,
    space_inside,
)

KEEP = "-"  # _joins: leave the line break as it is


_CANDIDATE = re.compile(r"(?:[\[(]?[0-9*†‡§¶]+(?:[,–-][0-9]+)*[\])]?)+")  # 2, 10, [12][13], (3), 1,2, *
_OPEN, _CLOSE, _OPEN_SCRIPT = "\ufdd0", "\ufdd1", "\ufdd2"  # noncharacters: never in extracted text


def sparse_superscripts(textpage: Any, text: str) -> tuple[str, list[tuple[str, int, int, str]]]:
    """The page text (soft hyphens resolved, LF line ends) with its superscripts marked, reading
    boxes only around digit and note-symbol runs instead of every character of the page."""
    import pypdfium2.raw as c

    if _OPEN in text or _CLOSE in text or _OPEN_SCRIPT in text:
        return resolve_fffe(text), []
    wide = bool(text) and max(text) > "\uffff"  # a character outside the BMP (compared in C)
    spaces = _glued_gaps(textpage, text, wide) | _line_start_gaps(textpage, text, wide)
    runs: list[tuple[int, int]] = []
    drop: dict[int, str] = {}  # line breaks to replace: "" (glued) or " " (a gap follows)
    raw = textpage.raw
    rect = c.FS_RECTF()

    def height(k: int) -> float:
        if not c.FPDFText_GetLooseCharBox(raw, _index(text, k, wide), rect):
            return 0.0
        return abs(rect.top - rect.bottom)

    for m in _CANDIDATE.finditer(text):
        at = m.start() + (text[m.start()] in "[(")
        before = [k for k in range(at - 1, max(-1, at - NEAR), -1) if not text[k].isspace()][:2]
        after = [k for k in range(m.end(), min(len(text), m.end() + NEAR)) if not text[k].isspace()][:1]
        near = before + after
        mine = height(at)
        if not near or all(height(k) * SUPER_SIZE < mine for k in near):
            continue  # not set smaller than a neighbour: no superscript (a few calls, not twenty)
        lo, hi = max(0, m.start() - NEAR), min(len(text), m.end() + NEAR)
        window = page_chars(textpage, text, start=lo, first_index=_index(text, lo, wide), end=hi)
        flags = superscripts(window)
        first, last = m.start() - lo, m.end() - lo
        if not any(flags[first:last]):
            continue
        s = m.start() + next(k for k in range(first, last) if flags[k]) - first
        e = m.start() + max(k for k in range(first, last) if flags[k]) + 1 - first
        runs.append((s, e))
        sup = [lo + k in range(s, e) for k in range(len(window))]
        for k, ch in enumerate(window):
            if ch.text in "\r\n" and c.FPDFText_IsGenerated(raw, _index(text, lo + k, wide)) == 1:
                how = _joins(window, sup, [False] * len(window), k)
                if how != KEEP:
                    drop[lo + k] = how
    for k in _overdrawn_spaces(textpage, text, wide) + _underdrawn_spaces(textpage, text, wide):
        drop[k] = ""
    joins, scripts = _script_breaks(textpage, text, wide)
    scripts += _inline_scripts(textpage, text, wide, bool(scripts))
    for k, how in _thin_breaks(textpage, text, wide).items():
        joins.setdefault(k, how)
    for k, how in joins.items():
        drop.setdefault(k, how)
        drop.setdefault(k + 1, how)
    if not runs and not spaces and not drop and not scripts:
        return resolve_fffe(text), []
    taken = [range(s, e) for s, e in runs]
    kinds = {s: _OPEN for s, _ in runs}
    for s, e in scripts:  # a script is marked unless a superscript run (or another script) holds some of it
        if not any(s in r or e - 1 in r or r.start in range(s, e) for r in taken):
            runs.append((s, e))
            kinds[s] = _OPEN_SCRIPT
            taken.append(range(s, e))
    pieces: list[str] = []
    ends = {e for _, e in runs}
    for k, letter in enumerate(text):
        if k in ends:
            pieces.append(_CLOSE)
        if k in spaces:
            pieces.append(" ")
        if k in kinds:
            pieces.append(kinds[k])
        if k not in drop:
            pieces.append(letter)
        elif drop[k] and (not pieces or pieces[-1] != drop[k]):
            pieces.append(drop[k])
    if len(text) in ends:
        pieces.append(_CLOSE)
    marked = resolve_fffe("".join(pieces)).replace("\r\n", "\n").replace("\r", "\n")
    out: list[str] = []
    marks: list[tuple[str, int, int, str]] = []
    pos = 0
    open_at = 0
    kind = "superscript"
    for part in re.split(f"([{_OPEN}{_OPEN_SCRIPT}{_CLOSE}])", marked):
        if part in (_OPEN, _OPEN_SCRIPT):
            open_at, kind = pos, "superscript" if part == _OPEN else "script"
        elif part == _CLOSE:
            marks.append((kind, open_at, pos, kind))
        else:
            out.append(part)
            pos += len(part)
    return "".join(out), marks


def _script_breaks(textpage: Any, text: str, wide: bool) -> tuple[dict[int, str], list[tuple[int, int]]]:
    """The generated line breaks ``text[k:k + 2] == "\\r\\n"`` that PDFium puts before or after
    a raised or lowered script (:func:`~ipsis.ingest.pdfchars.script_join`), as ``{k: how}``,
    and the scripts' spans (:func:`~ipsis.ingest.pdfchars.script_runs`), reading two boxes only
    at breaks next to a token of at most three characters, and a few more at a script's break."""
    out: dict[int, str] = {}
    spans: list[tuple[int, int]] = []
    for m in _SHORT_BREAK.finditer(text):
        k = m.end(1) if m.group(1) else m.start()
        how = _script_break(textpage, text, k, wide)
        if how is None:
            continue
        out[k] = how
        lo, hi = max(0, k - NEAR), min(len(text), k + 2 + NEAR)
        window = page_chars(textpage, text, start=lo, first_index=_index(text, lo, wide), end=hi)
        flagged = [lo + i for i, f in enumerate(script_runs(window)) if f]
        if flagged and flagged[-1] - flagged[0] + 1 == len(flagged):
            spans.append((flagged[0], flagged[-1] + 1))
    return out, spans


def _inline_scripts(textpage: Any, text: str, wide: bool, raised: bool) -> list[tuple[int, int]]:
    """The spans of raised or lowered scripts set on their line without a break
    (:func:`~ipsis.ingest.pdfchars.inline_scripts`), on a page that sets formulas
    (:data:`~ipsis.ingest.pdfchars.FORMULA`) or has a script at a line break (``raised``): font
    sizes of every character, boxes only next to a change of size."""
    if not raised and not FORMULA.search(text):
        return []
    fonts = font_sizes(textpage, text)
    spans: list[tuple[int, int]] = []
    for lo, hi in _windows(script_edges(fonts), len(text)):
        window = page_chars(textpage, text, start=lo, first_index=_index(text, lo, wide), end=hi)
        flags = inline_scripts(window, fonts[lo:hi])
        k = 0
        while k < len(flags):
            if flags[k]:
                e = k
                while e < len(flags) and flags[e]:
                    e += 1
                spans.append((lo + k, lo + e))
                k = e
            else:
                k += 1
    return spans


def _windows(edges: list[int], n: int) -> list[tuple[int, int]]:
    """Windows of :data:`NEAR` characters around each edge, merged where they overlap.

    >>> _windows([10, 12, 40], 45)
    [(2, 20), (32, 45)]
    """
    out: list[tuple[int, int]] = []
    for i in edges:
        lo, hi = max(0, i - NEAR), min(n, i + NEAR)
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return out


_SHORT_BREAK = re.compile(r"(?<!\S)(\S{1,3})\r\n(?=\S)|(?<=\S)\r\n(?=\S{1,3}(?!\S))")
"""A line break between two non-blank characters, next to a token of at most three characters
(a script that PDFium set on a line of its own: ``R\\r\\nn und``, ``f\\r\\n−1\\r\\n(U)``)."""


def _script_break(textpage: Any, text: str, k: int, wide: bool) -> str | None:
    """:func:`~ipsis.ingest.pdfchars.script_join` for the line break at ``text[k:k + 2]``."""
    import pypdfium2.raw as c

    raw = textpage.raw
    i, j = _index(text, k - 1, wide), _index(text, k + 2, wide)
    if c.FPDFText_GetFontSize(raw, i) == c.FPDFText_GetFontSize(raw, j) or c.FPDFText_IsGenerated(raw, j - 2) != 1:
        return None
    (b,) = page_chars(textpage, text, start=k - 1, first_index=i, end=k)
    (a,) = page_chars(textpage, text, start=k + 2, first_index=j, end=k + 3)
    return script_join(b, a)


_THIN_BREAK = re.compile(r"(?<=\S)\r\n(?=\S)")


def _thin_breaks(textpage: Any, text: str, wide: bool) -> dict[int, str]:
    """The generated line breaks ``text[k:k + 2] == "\\r\\n"`` next to a thin glyph that the
    page sets on one line with the glyph after (:func:`~ipsis.ingest.pdfchars.thin_join`), as
    ``{k: how}``, reading two boxes per such break."""
    import pypdfium2.raw as c

    out: dict[int, str] = {}
    raw = textpage.raw
    x, y0, y1 = ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    for m in _THIN_BREAK.finditer(text):
        k = m.start()
        if not thin_break(text[k - 1], text[k + 2]):
            continue
        # most breaks start a line below: the two origins tell, before boxes are read
        c.FPDFText_GetCharOrigin(raw, _index(text, k - 1, wide), x, y0)
        c.FPDFText_GetCharOrigin(raw, _index(text, k + 2, wide), x, y1)
        if abs(y0.value - y1.value) > 1.0 or c.FPDFText_IsGenerated(raw, _index(text, k, wide)) != 1:
            continue
        (b,) = page_chars(textpage, text, start=k - 1, first_index=_index(text, k - 1, wide), end=k)
        (a,) = page_chars(textpage, text, start=k + 2, first_index=_index(text, k + 2, wide), end=k + 3)
        how = thin_join(b, a)
        if how is not None:
            out[k] = how
    return out


def _glued_gaps(textpage: Any, text: str, wide: bool) -> set[int]:
    """Positions of ``text`` before which the page shows a word space the text lacks
    (:func:`~ipsis.ingest.pdfchars.word_gap`), reading boxes only around glued punctuation."""
    out: set[int] = set()
    for m in GLUED.finditer(text):
        at = m.start()
        pair = page_chars(textpage, text, start=at, first_index=_index(text, at, wide), end=at + 2)
        if not word_gap(*pair):
            continue  # no wide gap at all (most glued punctuation: e.g., 1.5, x,y)
        if at > 0:  # and wider than the letter spacing before it
            (ref,) = page_chars(textpage, text, start=at - 1, first_index=_index(text, at - 1, wide), end=at)
            if not word_gap(pair[0], pair[1], ref):
                continue
        out.add(at + 1)
    return out


def _line_start_gaps(textpage: Any, text: str, wide: bool) -> set[int]:
    """Positions of ``text`` before which the page shows a word space the text lacks after the
    first glyph of a line (:func:`~ipsis.ingest.pdfspaces.line_start_gap`): two box edges per
    line that starts with two letters, three boxes where they leave a gap."""
    import pypdfium2.raw as c

    out: set[int] = set()
    raw, rect = textpage.raw, c.FS_RECTF()
    loose = c.FPDFText_GetLooseCharBox
    for m in LINE_START.finditer(text):
        at = m.start(1)
        i = _index(text, at, wide)
        if not loose(raw, i, rect):
            continue
        right, height = max(rect.left, rect.right), abs(rect.top - rect.bottom)
        if not loose(raw, i + 1, rect) or min(rect.left, rect.right) - right <= WORD_GAP * height:
            continue  # most lines: no gap after the first glyph
        three = page_chars(textpage, text, start=at, first_index=i, end=min(len(text), at + 3))
        if line_start_gap(three[0], three[1], three[2] if len(three) > 2 else None):
            out.add(at + 1)
    return out


_AFTER_LIGATURE = re.compile(r"(?:f[fijlt]|[\ufb00-\ufb06]) (?=\S)")
"""A space after letters a ligature glyph may hold (``fi``, ``fl``, ``ff``, ``ft``, ``fj``, or a
ligature character): where a producer may draw a space over the glyph (``identifi cação``)."""
_BETWEEN = re.compile(r"(?<=\S) (?=\S)")
SPACE_SAMPLE = 4  # spaces per page looked at anywhere: a hit there has every space of the page looked at


def _overdrawn_spaces(textpage: Any, text: str, wide: bool) -> list[int]:
    """Positions of the spaces of ``text`` drawn over the glyph before them with no gap on the
    page (:func:`~ipsis.ingest.pdfchars.drawn_over`), reading boxes for the spaces after
    ligature letters and for :data:`SPACE_SAMPLE` spaces spread over the page; when one of the
    sample is such a space, for every space of the page."""

    def over(k: int) -> bool:
        three = page_chars(textpage, text, start=k - 1, first_index=_index(text, k - 1, wide), end=k + 2)
        if not space_inside(*three):
            return False  # most spaces: three boxes, not thirteen
        lo = max(0, k - NEAR_BOXES)
        w = page_chars(
            textpage, text, start=lo, first_index=_index(text, lo, wide), end=min(len(text), k + NEAR_BOXES + 1)
        )
        return drawn_over(w, k - lo)

    found = [m.end() - 1 for m in _AFTER_LIGATURE.finditer(text) if over(m.end() - 1)]
    step = max(1, len(text) // SPACE_SAMPLE)
    sample = {m.start() for j in range(0, len(text), step) if (m := _BETWEEN.search(text, j))}
    if any(over(k) for k in sorted(sample) if k not in found):
        done = set(found)
        found += [m.start() for m in _BETWEEN.finditer(text) if m.start() not in done and over(m.start())]
    return found


def _underdrawn_spaces(textpage: Any, text: str, wide: bool) -> list[int]:
    """Positions of the spaces of ``text`` drawn under the glyph after them with no gap on the
    page (:func:`~ipsis.ingest.pdfspaces.drawn_under`): two origins per space (how far it
    advances), its box when it advances little, the boxes around it only when it advances
    within :data:`~ipsis.ingest.pdfspaces.UNDER_ADVANCE` of its width."""
    import pypdfium2.raw as c

    found: list[int] = []
    raw, rect = textpage.raw, c.FS_RECTF()
    origin, x, nx, y = c.FPDFText_GetCharOrigin, ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    low, high = UNDER_ADVANCE
    for m in _BETWEEN.finditer(text):
        k = m.start()
        at = _index(text, k, wide)
        origin(raw, at, x, y)
        origin(raw, at + 1, nx, y)
        step = nx.value - x.value  # :func:`~ipsis.ingest.pdfchars.space_advance`, without its allocations
        if step > UNDER_POINTS or not c.FPDFText_GetLooseCharBox(raw, at, rect):
            continue
        width = abs(rect.right - rect.left)
        if not low * width <= step <= high * width:
            continue
        lo = max(0, k - NEAR_BOXES)
        w = page_chars(
            textpage, text, start=lo, first_index=_index(text, lo, wide), end=min(len(text), k + NEAR_BOXES + 1)
        )
        if drawn_under(w, k - lo):
            found.append(k)
    return found


UNDER_POINTS = 3.0
"""Points: a space that advances more than this is no space drawn under the glyph after it
(a tenth of a 30 pt space): its box is not read."""


def _index(text: str, k: int, wide: bool) -> int:
    """PDFium's index of ``text[k]`` (characters outside the BMP count twice)."""
    return k + sum(1 for ch in text[:k] if ord(ch) > 0xFFFF) if wide else k


def _text_length(text: str, indices: int) -> int:
    """How many characters of ``text`` the first ``indices`` PDFium indices are."""
    n = 0
    for k, ch in enumerate(text):
        if n >= indices:
            return k
        n += 2 if ord(ch) > 0xFFFF else 1
    return len(text)


def resolve_fffe(text: str) -> str:
    from ipsis.ingest.pages import resolve_soft_hyphens

    return resolve_soft_hyphens(text)


def _joins(chars: list[Char], sup: list[bool], drop: list[bool], i: int) -> str:
    """How to replace a generated line break next to a superscript on the same visual line:
    ``"-"`` (keep it: not such a break), ``""`` (glue: ``R²``) or ``" "`` (a word gap follows)."""
    if not chars[i].generated:
        return KEEP
    lo, hi = max(-1, i - NEAR), min(len(chars), i + NEAR)
    before = next((k for k in range(i - 1, lo, -1) if not chars[k].blank and not drop[k]), None)
    after = next((k for k in range(i + 1, hi) if not chars[k].blank and not drop[k]), None)
    if before is None or after is None:
        return KEEP
    b, a = chars[before], chars[after]
    if sup[after] and not sup[before]:
        same = a.x0 >= b.x1 - 1 and abs(a.origin_y - b.origin_y) <= b.size
        return "" if same else KEEP
    if sup[before] and not sup[after]:
        near = range(before, max(-1, before - NEAR), -1)
        base = next((chars[k] for k in near if not chars[k].blank and not sup[k]), None)
        ref = base or a
        if a.x0 >= b.x1 - 1 and abs(a.origin_y - ref.origin_y) <= 0.3 * max(a.size, ref.size):
            return " " if a.x0 - b.x1 > 0.15 * max(a.size, 1.0) else ""
    how = script_join(b, a)  # a raised or lowered letter or sign (R^n, 3^ème, f^−1, x_0)
    only_break = all(chars[k].text in "\r\n" and chars[k].generated for k in range(before + 1, after))
    if how is None and only_break and thin_break(b.text, a.text):
        how = thin_join(b, a)  # a line break next to a thin glyph the line goes on after
    return KEEP if how is None else how

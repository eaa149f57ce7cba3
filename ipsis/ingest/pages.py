"""Pure functions over extracted page texts: assembly, page furniture, footnotes, glyph marks.

A PDF reader hands over one string per page; these functions join them into the document text
(pages separated by a newline and a form feed, as ``pdftotext`` does) and find what repeats
from page to page (running headers/footers, page numbers), footnote calls glued to words and
their notes at the page bottom, and runs of U+FFFD. Nothing is deleted: the marks tell the
matcher what to skip.

>>> text, starts = assemble(["Art. 1o Esta Lei", "dispõe sobre"])
>>> text, starts
('Art. 1o Esta Lei\\n\\x0cdispõe sobre\\n', (0, 18))
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

from ipsis.document import Mark

PAGE_BREAK = "\f"
EDGE_LINES = 3  # lines at the top and at the bottom of a page where headers/footers live ...
EDGE_MAX = 8  # ... or deeper, up to this line, under lines that are all furniture (a taller block)
MIN_REPEATS = 3  # a running header must repeat on at least this many pages ...
MIN_SHARE = 0.25  # ... and on at least this share of the pages with text

_DIGITS = re.compile(r"\d+")
_SPACES = re.compile(r"\s+")
_LETTERS = re.compile(r"[^\W\d_]")
_NUMBER_LINE = re.compile(r"^\s*(?:[-–—]\s*)?(\d{1,4})(?:\s*[-–—])?\s*$")
# Words that follow a real hyphen at a line end: Portuguese/Spanish clitics (``far-se-á``,
# ``cabendo-lhe``); a capital after the hyphen (``Procurador-Geral``) also means a real hyphen.
_CLITICS = frozenset(
    [
        "se",
        "lhe",
        "lhes",
        "o",
        "a",
        "os",
        "as",
        "me",
        "te",
        "nos",
        "vos",
        "lo",
        "la",
        "los",
        "las",
        "no",
        "na",
        "nas",
        "mo",
        "ma",
        "á",
        "ão",
        "ei",
        "ia",
    ]
)
_FFFE = re.compile(r"\ufffe(?:\r?\n)?")
# A footnote call: 1-3 digits glued to a word or to the punctuation right after a word
# (``Lei:1``, ``Art. 5a2``), followed by a space, punctuation or the line end.
_CALL = re.compile(r"(?<=[^\W\d_])[:;,.)”»]?(\d{1,3})(?=[\s,.;:]|$)", re.MULTILINE)
_NOTE_LINE = re.compile(r"^(\d{1,3}) +(?=[^\W\d_])", re.MULTILINE)
_UNMAPPED = re.compile("\ufffd+")


def resolve_soft_hyphens(page: str) -> str:
    """Turn PDFium's U+FFFE line-end hyphen into text, keeping the line break.

    A hyphenation point becomes U+00AD SOFT HYPHEN + newline (the matcher joins the word);
    a real hyphen that happens to end a line (``Procurador-Geral``, ``cabendo-lhe``) stays ``-``.

    >>> resolve_soft_hyphens("o for\\ufffenecimento de bens")
    'o for\\xad\\nnecimento de bens'
    >>> resolve_soft_hyphens("Procurador\\ufffeGeral e cabendo\\ufffelhe")
    'Procurador-\\nGeral e cabendo-\\nlhe'
    """
    if "\ufffe" not in page:
        return page

    def repl(m: re.Match[str]) -> str:
        nxt = re.match(r"[^\W\d_]+", page[m.end() :])
        word = nxt.group(0) if nxt else ""
        real = not word or word[0].isupper() or word.casefold() in _CLITICS
        return "-\n" if real else "\u00ad\n"

    return _FFFE.sub(repl, page)


_SPACING_ACCENTS = {
    "¨": "\u0308",
    "´": "\u0301",
    "`": "\u0300",
    "ˆ": "\u0302",
    "˜": "\u0303",
    "ˇ": "\u030c",
    "˚": "\u030a",
}
_ACCENT_BEFORE = re.compile("(?<=[^\\W\\d_])([¨´ˆ˜ˇ˚])([ıa-zA-Z])")


def compose_accents(page: str) -> str:
    """Put a spacing accent that a TeX font sets *before* its letter inside a word onto that letter
    (``na¨ıve`` -> ``naïve``; a dotless i under an accent is an i).

    >>> compose_accents("a na¨ıve strategy, Erd˝os and caf´e"), compose_accents("x ¨ y")
    ('a naïve strategy, Erd˝os and café', 'x ¨ y')
    """
    if not any(a in page for a in _SPACING_ACCENTS):
        return page

    def repl(m: re.Match[str]) -> str:
        base = "i" if m.group(2) == "ı" else m.group(2)
        return unicodedata.normalize("NFC", base + _SPACING_ACCENTS[m.group(1)])

    return _ACCENT_BEFORE.sub(repl, page)


def assemble(pages: Sequence[str]) -> tuple[str, tuple[int, ...]]:
    """Join page texts; every page ends with a newline and pages after the first start after a
    form feed. Returns ``(text, page_starts)``. CRLF and lone CR become LF."""
    parts: list[str] = []
    starts: list[int] = []
    pos = 0
    for k, page in enumerate(pages):
        page = page.replace("\r\n", "\n").replace("\r", "\n")
        if page and not page.endswith("\n"):
            page += "\n"
        if k:
            parts.append(PAGE_BREAK)
            pos += 1
        starts.append(pos)
        parts.append(page)
        pos += len(page)
    return "".join(parts), tuple(starts)


def _page_lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """``(start, end)`` of the non-blank lines of ``text[start:end]`` (ends exclude the newline)."""
    out: list[tuple[int, int]] = []
    for m in re.finditer(r"[^\n]+", text[start:end]):
        line = m.group(0)
        stripped = line.strip(" \t\f\r\xa0")
        if not stripped:
            continue
        lead = len(line) - len(line.lstrip(" \t\f\r\xa0"))
        s = start + m.start() + lead
        out.append((s, s + len(stripped)))
    return out


def _bounds(text: str, page_starts: Sequence[int]) -> list[tuple[int, int]]:
    ends = [*page_starts[1:], len(text)]
    return list(zip(page_starts, ends, strict=True))


def _key(line: str) -> str:
    return _DIGITS.sub("#", _SPACES.sub(" ", line)).casefold()


def _running(pages: dict[int, tuple[int, ...]]) -> bool:
    """A repeated line is running furniture when its numbers stay the same on every page
    (``Lei no 13.709/2018``) or one of them follows the page number (``[Page 4]``), not when
    they vary freely (``Artículo 4.``, ``Artículo 11.`` at the top of two pages).

    >>> _running({3: (7519, 2015), 4: (7519, 2015), 5: (7519, 2015)})
    True
    >>> _running({3: (4,), 9: (11,), 14: (17,)})
    False
    """
    values = list(pages.values())
    if all(v == values[0] for v in values):
        return True
    width = min(len(v) for v in values)
    for j in range(width):
        shifts = Counter(v[j] - page for page, v in pages.items())
        if shifts.most_common(1)[0][1] >= 0.8 * len(values):
            return True
    return False


def find_furniture(text: str, page_starts: Sequence[int]) -> list[Mark]:
    """Running headers/footers and page numbers: lines near the top or bottom of a page that
    repeat (digits aside) on many pages, and number-only lines that follow the page count.

    >>> words = ["Esta Lei dispõe", "O tratamento", "Os dados", "A autoridade", "O titular"]
    >>> pages = [f"Lei no 13.709/2018\\n{w} ...\\n{k + 7}" for k, w in enumerate(words)]
    >>> text, starts = assemble(pages)
    >>> [text[m.start:m.end] for m in find_furniture(text, starts)][:3]
    ['Lei no 13.709/2018', '7', 'Lei no 13.709/2018']
    """
    bounds = _bounds(text, page_starts)
    edges: list[list[tuple[str, int, int]]] = []
    seen_on: dict[tuple[str, str], dict[int, tuple[int, ...]]] = {}
    offsets: Counter[int] = Counter()
    page_lines: list[list[tuple[int, int]]] = []
    with_text = 0
    for number, (ps, pe) in enumerate(bounds, start=1):
        lines = _page_lines(text, ps, pe)
        page_lines.append(lines)
        with_text += bool(lines)
        zone: list[tuple[str, int, int]] = []
        for where, chosen in (("head", lines[:EDGE_LINES]), ("tail", lines[-EDGE_LINES:])):
            for s, e in chosen:
                if where == "tail" and (s, e) in lines[:EDGE_LINES]:
                    continue
                zone.append((where, s, e))
        for where, s, e in zone:
            line = text[s:e]
            num = _NUMBER_LINE.match(line)
            if num:
                offsets[int(num.group(1)) - number] += 1
            elif len(_LETTERS.findall(line)) >= 2:
                numbers = tuple(int(d) for d in _DIGITS.findall(line))
                seen_on.setdefault((where, _key(line)), {})[number] = numbers
        edges.append(zone)
    need = max(MIN_REPEATS, math.ceil(MIN_SHARE * with_text))
    repeated = {k for k, pages in seen_on.items() if len(pages) >= need and _running(pages)}
    shift, shift_count = offsets.most_common(1)[0] if offsets else (0, 0)
    marks: list[Mark] = []
    for number, zone in enumerate(edges, start=1):
        done: set[int] = set()
        for where, s, e in zone:
            if s in done:
                continue
            line = text[s:e]
            num = _NUMBER_LINE.match(line)
            if num and shift_count >= need and int(num.group(1)) - number == shift:
                marks.append(Mark("furniture", s, e, f"page number, page {number}"))
                done.add(s)
            elif not num and (where, _key(line)) in repeated:
                marks.append(
                    Mark(
                        "furniture",
                        s,
                        e,
                        f"running {'header' if where == 'head' else 'footer'}, page {number}",
                    )
                )
                done.add(s)
    marks.extend(_deeper(text, page_lines, marks, need, shift if shift_count >= need else None))
    marks.sort(key=lambda m: m.start)
    return marks


def _deeper(
    text: str, pages: Sequence[Sequence[tuple[int, int]]], marks: Sequence[Mark], need: int, shift: int | None
) -> list[Mark]:
    """A header or footer block taller than ``EDGE_LINES`` (the CPEUM's six lines: title,
    chamber, two offices, ``Última Reforma DOF …``, ``N de 387``): the line below (above, for a
    footer) a page's furniture is furniture too when, on enough pages, it is the next line under
    furniture lines only and repeats by the same rule. A line counts only where every line
    between it and the page's edge is furniture, so a formula that body text repeats near the
    bottom of many pages (a decree's promulgation clause) is never taken for a footer.

    >>> head = ["Constitución", "Cámara", "Secretaría", "Servicios", "Última Reforma"]
    >>> pages = ["\\n".join([*head, f"{k} de 9", f"Artículo {3 * k}. texto"]) for k in range(1, 10)]
    >>> text, starts = assemble(pages)
    >>> [text[m.start:m.end] for m in find_furniture(text, starts)][:7]
    ['Constitución', 'Cámara', 'Secretaría', 'Servicios', 'Última Reforma', '1 de 9', 'Constitución']
    """
    marked = {m.start for m in marks}
    found: list[Mark] = []
    for where in ("head", "tail"):
        for depth in range(EDGE_LINES, EDGE_MAX):
            seen: dict[str, dict[int, tuple[int, ...]]] = {}
            candidates: list[tuple[int, int, int, str | None]] = []
            for number, lines in enumerate(pages, start=1):
                order = lines if where == "head" else lines[::-1]
                if len(order) <= depth or any(s not in marked for s, _ in order[:depth]):
                    continue
                s, e = order[depth]
                if s in marked:
                    continue
                line = text[s:e]
                num = _NUMBER_LINE.match(line)
                if num:
                    if shift is not None and int(num.group(1)) - number == shift:
                        candidates.append((number, s, e, None))
                elif len(_LETTERS.findall(line)) >= 2:
                    seen.setdefault(_key(line), {})[number] = tuple(int(d) for d in _DIGITS.findall(line))
                    candidates.append((number, s, e, _key(line)))
            repeated = {k for k, on in seen.items() if len(on) >= need and _running(on)}
            new = [c for c in candidates if c[3] is None or c[3] in repeated]
            if not new:
                break
            for number, s, e, kind in new:
                what = "page number" if kind is None else f"running {'header' if where == 'head' else 'footer'}"
                found.append(Mark("furniture", s, e, f"{what}, page {number}"))
                marked.add(s)
    return found


def find_footnotes(text: str, page_starts: Sequence[int], furniture: Sequence[Mark] = ()) -> list[Mark]:
    """Footnote calls glued to words (``Lei:1``) that have their note at the bottom of the same
    page (a line starting with the same number), as ``footnote_call`` marks on the digits, and
    the notes themselves as ``note`` marks.

    >>> text, starts = assemble(["a seguinte Lei:1\\nArt. 1o Esta Lei\\n1 Nota do Editor: texto."])
    >>> [(m.kind, text[m.start:m.end]) for m in find_footnotes(text, starts)]
    [('footnote_call', '1'), ('note', '1 Nota do Editor: texto.')]
    """
    skip = sorted((m.start, m.end) for m in furniture)
    marks: list[Mark] = []
    for number, (ps, pe) in enumerate(_bounds(text, page_starts), start=1):
        page = text[ps:pe]
        notes = [(int(m.group(1)), ps + m.start()) for m in _NOTE_LINE.finditer(page)]
        if not notes:
            continue
        calls: list[Mark] = []
        note_starts: list[tuple[int, int]] = []
        for m in _CALL.finditer(page):
            n = int(m.group(1))
            at = ps + m.start(1)
            below = [s for k, s in notes if k == n and s > at]
            if below and not any(s <= at < e for s, e in skip):
                calls.append(Mark("footnote_call", at, ps + m.end(1), f"footnote {n}, page {number}"))
                note_starts.append((below[0], n))
        if not calls:
            continue
        marks.extend(calls)
        firsts = sorted(set(note_starts))
        page_end = pe
        for s, _ in skip:
            if ps <= s < pe and s > firsts[-1][0]:
                page_end = min(page_end, s)
        for i, (s, n) in enumerate(firsts):
            end = firsts[i + 1][0] if i + 1 < len(firsts) else page_end
            body = text[s:end].rstrip()
            marks.append(Mark("note", s, s + len(body), f"footnote {n}, page {number}"))
    marks.sort(key=lambda m: m.start)
    return marks


def find_unmapped(text: str, page_starts: Sequence[int] = ()) -> list[Mark]:
    """Runs of U+FFFD (glyphs without a Unicode mapping) with their page.

    >>> find_unmapped("Sumário \\ufffd\\ufffd\\ufffd 5")
    [Mark(kind='unmapped_glyph', start=8, end=11, note='3 unmapped glyphs')]
    """
    from bisect import bisect_right

    marks = []
    for m in _UNMAPPED.finditer(text):
        note = f"{m.end() - m.start()} unmapped glyphs"
        if page_starts:
            note += f", page {bisect_right(page_starts, m.start())}"
        marks.append(Mark("unmapped_glyph", m.start(), m.end(), note))
    return marks

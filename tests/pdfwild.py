"""The pdf-wild measurement: quotes that ``pdftotext`` reads, and whether ipsis locates them.

A *readable quote* is a line of ``pdftotext``'s text of a page (its default reading-order mode)
of 40 to 200 characters that occurs once in that page's text and holds no control, private-use,
unassigned or U+FFFD character (``pdftotext`` prints raw glyph codes when a font has no Unicode
map). A word broken by a line-end hyphen is not part of a natural quote, so its piece is cut off:
the last word of a line ending in ``-``, a soft hyphen or a minus sign after a letter (Greek),
and the first word of the line after it.

The expectation is what a person reading the page would get: a quote that is printed once in the
document (``pdftotext`` reads it once) is ``located`` on its page; one printed on several pages
is ``ambiguous`` with a place on its page (repetition is counted with runs of whitespace as one
space, since line breaks fall differently, and with spaces and hyphens ignored, since ``pdftotext``
splits words where a producer positions glyphs with a narrow gap, :func:`narrow_splits`, and drops
line-end hyphens, :func:`hyphen_seams`).
``tests/cases/pdf-wild/*.json`` pins, per file, the
quotes where ``pdftotext`` itself is wrong (checked against the rendered page), the text that
must be found and the text that must not (not visible on the page), and the warning or error.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

from ipsis.document import Document
from ipsis.verify.locate import locate

MIN_LEN, MAX_LEN = 40, 200
_BAD = frozenset({"Cc", "Co", "Cn", "Cs"})
_HYPHENS = ("-", "\u00ad")


def have_pdftotext() -> bool:
    return shutil.which("pdftotext") is not None


def pdftotext_pages(path: Path, raw: bool = False) -> list[str]:
    """The text of each page as ``pdftotext -enc UTF-8`` prints it (pages split at form feeds);
    with ``raw``, in the order of the content stream (``-raw``) instead of reading order."""
    mode = ["-raw"] if raw else []
    out = subprocess.run(
        ["pdftotext", "-q", *mode, "-enc", "UTF-8", str(path), "-"], capture_output=True, timeout=120, check=False
    ).stdout.decode("utf-8", "replace")
    pages = out.split("\f")
    if pages and not pages[-1].strip():
        pages.pop()
    return pages


_BLOCK = re.compile(r"<block [^>]*>(.*?)</block>", re.S)
_LINE = re.compile(r"<line [^>]*>(.*?)</line>", re.S)
_WORD = re.compile(r'<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">([^<]*)</word>')
Word = tuple[float, float, float, float, str]  # x0, y0, x1, y1 (y down), text


def pdftotext_layout(path: Path) -> list[list[list[list[Word]]]]:
    """``pdftotext -bbox-layout``: per page, its blocks, each a list of lines of words."""
    out = subprocess.run(
        ["pdftotext", "-q", "-bbox-layout", "-enc", "UTF-8", str(path), "-"],
        capture_output=True,
        timeout=120,
        check=False,
    ).stdout.decode("utf-8", "replace")
    return [
        [
            [
                [
                    (float(x0), float(y0), float(x1), float(y1), html.unescape(w))
                    for x0, y0, x1, y1, w in _WORD.findall(line)
                ]
                for line in _LINE.findall(block)
            ]
            for block in _BLOCK.findall(page)
        ]
        for page in out.split("<page ")[1:]
    ]


Misreadings = list[dict[str, str]]
"""Per page, what ``pdftotext`` prints where it misreads -> what the page shows."""


def narrow_splits(layout: list[list[list[list[Word]]]], share: float) -> Misreadings:
    """Per page, the pairs of words ``"w1 w2"`` that ``pdftotext`` separates on one line of its
    layout (:func:`pdftotext_layout`) although the gap between their boxes is less than ``share``
    of the box height: where it reads a narrow gap between two glyphs (a producer's per-glyph
    positions) as a word space (``país es`` where the page shows ``países``)."""
    return [
        {
            f"{a[4]} {b[4]}": a[4] + b[4]
            for block in page
            for line in block
            for a, b in pairwise(line)
            if b[0] - a[2] < share * (a[3] - a[1])
        }
        for page in layout
    ]


def hyphen_seams(layout: list[list[list[list[Word]]]], share: float) -> Misreadings:
    """Per page, the text ``pdftotext`` prints where it joins a line of a block that ends in a
    hyphen with the next line and drops the hyphen (its layout lists the ``-``), and the text
    with the hyphen: ``1,2benzotiazin`` for ``1,2-`` / ``benzotiazin``, ``3 08,`` for ``3 -`` /
    ``08,`` (``3-08,``: the hyphen a word of its own a gap narrower than ``share`` of the line
    height after the ``3``; ``Petroleros - excluye`` after a word gap)."""
    pages: Misreadings = []
    for page in layout:
        seams: dict[str, str] = {}
        for block in page:
            for k, (line, after) in enumerate(pairwise(block)):
                if not line or not after or not line[-1][4].endswith("-"):
                    continue
                last, head, shown = line[-1], after[0][4], after[0][4]
                j = k + 1  # a line of one word that ends in a hyphen is joined to the next one too
                while len(block[j]) == 1 and head.endswith("-") and j + 1 < len(block) and block[j + 1]:
                    j += 1
                    head, shown = head[:-1] + block[j][0][4], shown + block[j][0][4]
                if last[4] != "-":
                    seams[last[4][:-1] + head] = last[4] + shown
                elif len(line) > 1:
                    word = line[-2]
                    narrow = last[0] - word[2] < share * (word[3] - word[1])
                    seams[f"{word[4]} {head}"] = word[4] + ("-" if narrow else " - ") + shown
        pages.append(seams)
    return pages


def holds_words(text: str, words: str) -> bool:
    """``words`` occurs in ``text`` as whole words (space-separated tokens, as ``pdftotext``'s).

    >>> holds_words("la transmisión al aire", "l a"), holds_words("sus país es de", "país es")
    (False, True)
    """
    return _whole(words).search(text) is not None


def _whole(words: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\S)" + re.escape(words) + r"(?!\S)")


def as_printed(text: str, misreadings: dict[str, str]) -> str:
    """``text`` with each of the page's ``misreadings`` it holds (as whole words) replaced by
    what the page shows.

    >>> as_printed("sus país es de; el artículo 3 08, se", {"país es": "países", "3 08,": "3-08,"})
    'sus países de; el artículo 3-08, se'
    """
    for wrong, shown in misreadings.items():
        if wrong in text:
            text = _whole(wrong).sub(shown.replace("\\", "\\\\"), text)
    return text


def readable(line: str) -> bool:
    """No control, private-use, unassigned or surrogate characters, no U+FFFD.

    >>> readable("Art. 5º Todos são iguais perante a lei"), readable("\\x12\\x98ab")
    (True, False)
    """
    return "\ufffd" not in line and all(unicodedata.category(ch) not in _BAD for ch in line)


def _broken(line: str) -> bool:
    """``line`` ends in a word broken by a hyphen: ``-`` or a soft hyphen after a character of
    the word (a dash after a space, or on a line of its own, breaks no word), or a minus sign
    after a letter (Greek typesetting breaks words with U+2212: ``Βου−``).

    >>> _broken("Βου\\u2212"), _broken("x \\u2212"), _broken("fol\\xad"), _broken("Petroleros -"), _broken("-")
    (True, False, True, False, False)
    """
    if line.endswith(_HYPHENS):
        return bool(line[-2:-1].strip())
    return line.endswith("\u2212") and line[-2:-1].isalpha()


def _natural(line: str, after_hyphen: bool) -> str:
    """``line`` without the pieces of words broken at a line-end hyphen.

    >>> _natural("correctly fol\\xad", False), _natural("low the flow of text", True)
    ('correctly', 'the flow of text')
    """
    s = line.strip()
    if after_hyphen:
        s = s.split(" ", 1)[1] if " " in s else ""
    if _broken(s):
        s = s.rsplit(" ", 1)[0] if " " in s else ""
    return s.strip()


@dataclass(frozen=True, slots=True)
class Quote:
    page: int  # 1-based
    text: str
    repeated: bool  # printed more than once in the document


def _squeeze(text: str) -> str:
    """``text`` as compared for repetition: without spaces and hyphens (``pdftotext`` splits
    words at narrow gaps and drops line-end hyphens; a word broken at a line end is the same word).

    >>> _squeeze("DINAMO-\\nMAGNETOS, país es") == _squeeze("DINAMOMAGNETOS, países")
    True
    """
    return "".join(text.split()).replace("-", "").replace("\u00ad", "")


def readable_quotes(pages: list[str], also: list[str] | None = None) -> list[Quote]:
    """The readable quotes of ``pages``; a quote is ``repeated`` when it occurs more than once
    in them or in ``also``, another reading of the same pages (``pdftotext -raw``: a table's
    cell that reading order interleaves with the next column is whole there)."""
    whole = _squeeze("\f".join(pages))
    other = _squeeze("\f".join(also)) if also else ""
    out: list[Quote] = []
    after_hyphen = False  # a word broken at the end of a page goes on at the top of the next
    for k, page in enumerate(pages, start=1):
        for raw in page.split("\n"):
            s = _natural(raw, after_hyphen)
            if raw.strip():
                after_hyphen = _broken(raw.rstrip())
            if MIN_LEN <= len(s) <= MAX_LEN and page.count(s) == 1 and readable(s):
                key = _squeeze(s)
                out.append(Quote(k, s, whole.count(key) > 1 or other.count(key) > 1))
    return out


@dataclass(frozen=True, slots=True)
class Outcome:
    quote: Quote
    status: str
    pages: tuple[int | None, ...]
    spans_ok: bool  # every match's text is doc.text[start:end]

    @property
    def ok(self) -> bool:
        if not self.spans_ok:
            return False
        if self.quote.repeated:
            return self.status in ("located", "ambiguous") and self.quote.page in self.pages
        return self.status == "located" and self.pages == (self.quote.page,)


def check_quotes(doc: Document, quotes: list[Quote]) -> Iterator[Outcome]:
    for q in quotes:
        r = locate(doc, q.text)
        spans_ok = all(doc.text[m.start : m.end] == m.text for m in r.matches)
        yield Outcome(q, r.status, tuple(m.page for m in r.matches), spans_ok)

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
space, since line breaks fall differently). ``tests/cases/pdf-wild/*.json`` pins, per file, the
quotes where ``pdftotext`` itself is wrong (checked against the rendered page), the text that
must be found and the text that must not (not visible on the page), and the warning or error.
"""

from __future__ import annotations

import shutil
import subprocess
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ipsis.document import Document
from ipsis.verify.locate import locate

MIN_LEN, MAX_LEN = 40, 200
_BAD = frozenset({"Cc", "Co", "Cn", "Cs"})
_HYPHENS = ("-", "\u00ad")


def have_pdftotext() -> bool:
    return shutil.which("pdftotext") is not None


def pdftotext_pages(path: Path) -> list[str]:
    """The text of each page as ``pdftotext -enc UTF-8`` prints it (pages split at form feeds)."""
    out = subprocess.run(
        ["pdftotext", "-q", "-enc", "UTF-8", str(path), "-"], capture_output=True, timeout=120, check=False
    ).stdout.decode("utf-8", "replace")
    pages = out.split("\f")
    if pages and not pages[-1].strip():
        pages.pop()
    return pages


def readable(line: str) -> bool:
    """No control, private-use, unassigned or surrogate characters, no U+FFFD.

    >>> readable("Art. 5º Todos são iguais perante a lei"), readable("\\x12\\x98ab")
    (True, False)
    """
    return "\ufffd" not in line and all(unicodedata.category(ch) not in _BAD for ch in line)


def _broken(line: str) -> bool:
    """``line`` ends in a word broken by a hyphen: ``-``, a soft hyphen, or a minus sign after a
    letter (Greek typesetting breaks words with U+2212: ``Βου−``).

    >>> _broken("Βου\\u2212"), _broken("x \\u2212"), _broken("fol\\xad")
    (True, False, True)
    """
    return line.endswith(_HYPHENS) or (line.endswith("\u2212") and line[-2:-1].isalpha())


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
    return " ".join(text.split())


def readable_quotes(pages: list[str]) -> list[Quote]:
    whole = _squeeze("\f".join(pages))
    out: list[Quote] = []
    after_hyphen = False  # a word broken at the end of a page goes on at the top of the next
    for k, page in enumerate(pages, start=1):
        for raw in page.split("\n"):
            s = _natural(raw, after_hyphen)
            if raw.strip():
                after_hyphen = _broken(raw.rstrip())
            if MIN_LEN <= len(s) <= MAX_LEN and page.count(s) == 1 and readable(s):
                out.append(Quote(k, s, whole.count(_squeeze(s)) > 1))
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

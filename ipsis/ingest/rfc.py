"""Plain-text RFC reader: the decoded file, with its pagination and table of contents marked.

The document text of a ``.txt`` RFC is its decoded content (a BOM dropped), form feeds and all.
Paginated RFCs (up to about RFC 8650) end each page with a footer
``Jones, et al.  Standards Track  [Page 4]``, then a form feed and a header
``RFC 7519  JSON Web Token (JWT)  May 2015``, often in the middle of a paragraph: both are
``furniture`` marks, so the matcher skips them while offsets stay exact. Page starts follow the
form feeds. The table of contents is a ``toc`` mark.
"""

from __future__ import annotations

import re

from ipsis.document import Document, Mark
from ipsis.ingest.text import decode_text

_FOOTER = re.compile(r"^\S.*\[Page \d+\]$")
_HEADER = re.compile(r"^(?:RFC|Internet-Draft) ?\S*\s{2,}.*\S$")
_TOC_TITLE = re.compile(r"^Table of Contents\s*$", re.M)
_HEADING = re.compile(r"^(?:\d+\.|Appendix [A-Z]\.|[A-Z]\.\d)\S*\s+\S")


_LINE = re.compile(r"[^\n\f]*\S[^\n\f]*")


def _line_at(text: str, start: int, end: int, backwards: bool) -> tuple[int, int] | None:
    """The nearest non-blank line in ``text[start:end]`` (last one if ``backwards``), found from
    that end: a page of a long text is not split into all its lines to take one."""
    if backwards:
        last = start + len(text[start:end].rstrip()) - 1  # its last non-blank character
        if last < start:
            return None
        s = max(start, text.rfind("\n", start, last) + 1, text.rfind("\f", start, last) + 1)
        ends = [i for i in (text.find("\n", last, end), text.find("\f", last, end)) if i != -1]
        e = min(ends, default=end)
    else:
        m = _LINE.search(text, start, end)
        if m is None:
            return None
        s, e = m.span()
    line = text[s:e]
    return s + len(line) - len(line.lstrip()), e - (len(line) - len(line.rstrip()))


def find_rfc_furniture(text: str) -> tuple[list[Mark], tuple[int, ...]]:
    """Page footers/headers around each form feed, and the page starts.

    >>> page = "   claims.\\n\\nJones, et al.   Standards Track   [Page 4]\\n\\f\\n"
    >>> text = page + "RFC 7519   JSON Web Token (JWT)   May 2015\\n\\n   The JWT"
    >>> marks, starts = find_rfc_furniture(text)
    >>> [text[m.start:m.end] for m in marks]
    ['Jones, et al.   Standards Track   [Page 4]', 'RFC 7519   JSON Web Token (JWT)   May 2015']
    >>> starts
    (0, 56)
    """
    marks: list[Mark] = []
    feeds = [m.start() for m in re.finditer("\f", text)]
    starts = (0, *(f + 1 for f in feeds)) if feeds else ()
    if feeds and not text[feeds[-1] + 1 :].strip():
        starts = starts[:-1]  # a form feed that ends the file opens no page
    bounds = [0, *feeds, len(text)]
    for k, ff in enumerate(feeds):
        foot = _line_at(text, bounds[k], ff, backwards=True)
        if foot and _FOOTER.match(text[foot[0] : foot[1]]):
            marks.append(Mark("furniture", foot[0], foot[1], f"page footer, page {k + 1}"))
        head = _line_at(text, ff + 1, bounds[k + 2], backwards=False)
        if head and _HEADER.match(text[head[0] : head[1]]):
            marks.append(Mark("furniture", head[0], head[1], f"page header, page {k + 2}"))
    last = _line_at(text, bounds[-2], len(text), backwards=True)
    if feeds and last and _FOOTER.match(text[last[0] : last[1]]):
        marks.append(Mark("furniture", last[0], last[1], f"page footer, page {len(feeds) + 1}"))
    return marks, starts


def find_toc(text: str, furniture: list[Mark]) -> Mark | None:
    """The table of contents: from its title to the last indented entry before the first
    heading at column 0 (page furniture inside it is allowed).

    >>> toc = "Table of Contents\\n\\n   1.  Introduction . . . 4\\n\\n1.  Introduction\\n"
    >>> m = find_toc(toc, []); toc[m.start:m.end]
    'Table of Contents\\n\\n   1.  Introduction . . . 4'
    """
    title = _TOC_TITLE.search(text)
    if not title:
        return None
    skip = {(m.start, m.end) for m in furniture}
    end = title.end()
    pos = title.end()
    for m in re.finditer(r"[^\n]*", text[pos:]):
        line = m.group(0).replace("\f", "")
        s = pos + m.start()
        if not line.strip():
            continue
        lead = len(m.group(0)) - len(m.group(0).lstrip(" \f"))
        if any(a <= s + lead < b for a, b in skip):
            continue
        if not line.startswith(" ") and _HEADING.match(line):
            break
        if not line.startswith(" "):
            break
        end = pos + m.end()
    return Mark("toc", title.start(), end, "table of contents")


def read_rfc(data: bytes, doc_id: str, name: str = "input", encoding: str | None = None) -> Document:
    """A :class:`Document` from a plain-text RFC."""
    text, enc = decode_text(data, name, encoding)
    return rfc_document(text, doc_id, enc)


def rfc_document(text: str, doc_id: str, encoding: str | None = None) -> Document:
    """A :class:`Document` from the decoded text of an RFC (a file's, or one sent inline):
    the text unchanged, its page furniture and table of contents marked."""
    furniture, starts = find_rfc_furniture(text)
    toc = find_toc(text, furniture)
    marks = sorted([*furniture, *([toc] if toc else [])], key=lambda m: (m.start, m.end))
    number = re.search(r"^Request for Comments:\s*(\d+)", text[:4000], re.M)
    meta: dict[str, object] = {
        "encoding": encoding,
        "extractor": "ipsis.rfc",
        "media_type": "text/plain",
        "page_count": len(starts) or None,
        "rfc_number": number.group(1) if number else None,
    }
    return Document(doc_id, text, page_starts=starts, marks=tuple(marks), meta=meta)

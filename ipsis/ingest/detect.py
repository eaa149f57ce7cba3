"""Format detection from content (never from the file name alone).

>>> detect_format(b"%PDF-1.7\\n..."), detect_format(b"<?xml version='1.0'?><response/>")
('pdf', 'xml')
>>> detect_format(b"<!DOCTYPE html><html><body>Art. 1</body></html>")
'html'
"""

from __future__ import annotations

import re

from ipsis.errors import InputError, UnsupportedFormatError
from ipsis.lazy import LazyPattern

FORMATS = ("auto", "pdf", "html", "xml", "rfc", "text")
ENGINES = ("pdfium", "pypdf", "pdfplumber")
"""The PDF text engines (:mod:`ipsis.ingest.pdf`), here so that the command line can list them
without importing the PDF reader."""

# compiled on first use: the command line imports this module for ENGINES, a store-backed run reads no file
_HTML = LazyPattern("re", rb"<!doctype\s+html|<html[\s>]", ("I",))
_HTML_ROOT = LazyPattern("re", rb"html|head|body|div|p|table|meta|title|!doctype\s+html", ("I",))
_ROOT = LazyPattern("re", rb"<(?!\?|!--|!DOCTYPE)(/?[A-Za-z!][\w:.-]*(?:\s+html)?)", ("I",))
_XML_START = LazyPattern("re", rb"\s*(?:<\?xml|<!--|<!DOCTYPE|<[A-Za-z_])")
# Paginated RFC text: "Request for Comments: 7519" near the top, or page footers/headers.
_RFC = LazyPattern(
    "re",
    rb"^Request for Comments:\s+\d+|^RFC \d{3,5}\s{2,}.+\s{2,}\w+ \d{4}\s*$|\[Page \d+\]\s*$",
    ("M",),
)


def detect_format(data: bytes, name: str = "input") -> str:
    """``pdf``, ``html``, ``xml``, ``rfc`` or ``text`` from the first bytes of ``data``."""
    from ipsis.ingest.text import looks_binary, sniff_wide

    head = data[:8192].removeprefix(b"\xef\xbb\xbf")
    if b"%PDF-" in data[:1024]:
        return "pdf"
    wide = sniff_wide(data)
    if wide:  # UTF-16/32 text: detect on its UTF-8 form
        head = data[:16384].decode(wide, "ignore").removeprefix("\ufeff").encode("utf-8")[:8192]
        data = head
    if looks_binary(data):
        msg = (
            f"{name}: binary data that is not a PDF (first bytes {data[:8]!r}); "
            "pass a PDF, HTML, XML or text file, or set --input-format"
        )
        raise UnsupportedFormatError(msg)
    stripped = head.lstrip()
    if stripped.startswith(b"<"):
        root = _ROOT.search(_strip_prolog(stripped))
        if _HTML.search(head[:4096]) or (root and _HTML_ROOT.fullmatch(root.group(1))):
            # XHTML starts like XML; the <html> element decides.
            return "html"
        if _XML_START.match(stripped):
            return "xml"
    elif _HTML.search(head[:2048]) and b"</" in head and not head.startswith(b"#"):
        return "html"
    return "rfc" if looks_rfc(head, b"\f" in data) else "text"


def looks_rfc(head: bytes, form_feeds: bool) -> bool:
    """Paginated RFC text: an RFC line in ``head`` (the first 8 KB) and either "Request for
    Comments" there or form feeds (``form_feeds``) in the text.

    >>> looks_rfc(b"Network Working Group\\nRequest for Comments: 7519\\n", False)
    True
    """
    return len(_RFC.findall(head)) >= 1 and (b"Request for Comments" in head or form_feeds)


def _strip_prolog(head: bytes) -> bytes:
    """``head`` without the XML declaration, comments and an internal DOCTYPE subset."""
    head = re.sub(rb"<\?.*?\?>|<!--.*?-->", b"", head, flags=re.S)
    return re.sub(rb"<!DOCTYPE[^\[>]*(\[.*?\])?\s*>", b"", head, flags=re.S | re.I)


def check_format(fmt: str | None) -> str:
    """Validate a user-given format name (``None`` means ``auto``)."""
    fmt = (fmt or "auto").lower()
    if fmt in ("txt", "md", "markdown"):
        fmt = "text"
    if fmt not in FORMATS:
        msg = f"unknown input format {fmt!r}; choose one of {', '.join(FORMATS)}"
        raise InputError(msg)
    return fmt

"""Plain-text and Markdown reader: decode bytes into the document text.

The document text of a plain file is its decoded content unchanged, a leading BOM dropped.
Line ends are kept as they are (CRLF stays CRLF) so that offsets match other tools reading the
same file; the whitespace tier of the matcher treats them as spaces.
"""

from __future__ import annotations

from ipsis.document import Document
from ipsis.errors import InputError

ENCODINGS = ("utf-8", "cp1252", "latin-1")


def decode_text(data: bytes, name: str = "input", encoding: str | None = None) -> tuple[str, str]:
    """Decode ``data``; return ``(text, encoding)``. UTF-8 first, then windows-1252, Latin-1.

    >>> decode_text("Art. 5º".encode("cp1252"))
    ('Art. 5º', 'cp1252')
    >>> decode_text(b"\\xef\\xbb\\xbfRFC 9111")
    ('RFC 9111', 'utf-8-sig')
    """
    if encoding:
        try:
            return data.decode(encoding), encoding
        except (UnicodeDecodeError, LookupError) as exc:
            msg = f"{name}: cannot decode as {encoding} ({exc}); try another --encoding"
            raise InputError(msg) from exc
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="strict"), "utf-8-sig"
    if b"\x00" in data[:4096]:
        msg = f"{name}: looks binary (NUL bytes), not text; pass a text, PDF, HTML or XML file"
        raise InputError(msg)
    for enc in ENCODINGS:
        try:
            return data.decode(enc), enc
        except UnicodeDecodeError:
            continue
    msg = "latin-1 decodes every byte string"  # pragma: no cover
    raise AssertionError(msg)  # pragma: no cover


def read_text(data: bytes, doc_id: str, name: str = "input", encoding: str | None = None) -> Document:
    """A :class:`Document` from plain-text bytes."""
    text, enc = decode_text(data, name, encoding)
    return Document(
        doc_id,
        text,
        meta={"encoding": enc, "extractor": "ipsis.text", "media_type": "text/plain"},
    )

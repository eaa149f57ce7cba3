"""Plain-text and Markdown reader: decode bytes into the document text.

The document text of a plain file is its decoded content, a leading BOM dropped. Line ends are
kept as they are (CRLF stays CRLF, a lone CR stays CR) so that offsets match other tools
reading the same file; the whitespace tier of the matcher treats them as spaces. The one repair
made here is length-preserving: text decoded with the wrong single-byte code page
(:mod:`ipsis.ingest.mojibake`), reported in ``meta["repaired"]``.
"""

from __future__ import annotations

import codecs

from ipsis.document import Document
from ipsis.errors import InputError
from ipsis.ingest.mojibake import repair_single_byte

ENCODINGS = ("utf-8", "cp1252", "latin-1")
_CONTROL = frozenset(range(0x20)) - {0x09, 0x0A, 0x0C, 0x0D, 0x1B}


def looks_binary(data: bytes) -> bool:
    """True for bytes that are not text: NUL bytes or many control characters at the start.

    >>> looks_binary(b"Art. 5\\xba Todos"), looks_binary(b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00")
    (False, True)
    """
    head = data[:4096]
    if not head:
        return False
    if b"\x00" in head and not head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    controls = sum(1 for b in head if b in _CONTROL)
    return controls > max(2, len(head) // 100)


def suggest_encoding(data: bytes, tried: str) -> str:
    """The first of UTF-8, windows-1252, Latin-1 that decodes ``data`` and is not ``tried``.

    >>> suggest_encoding("União".encode("cp1252"), "utf-8"), suggest_encoding(b"Uni\\xc3\\xa3o", "ascii")
    ('cp1252', 'utf-8')
    """
    tried = codecs.lookup(tried).name if _known(tried) else tried
    for enc in ENCODINGS:
        if codecs.lookup(enc).name == tried:
            continue
        try:
            data.decode(enc)
        except UnicodeDecodeError:
            continue
        return enc
    return "latin-1"  # pragma: no cover  (latin-1 decodes anything)


def _known(encoding: str) -> bool:
    try:
        codecs.lookup(encoding)
    except LookupError:
        return False
    return True


def decode_forced(data: bytes, name: str, encoding: str) -> str:
    """Decode ``data`` with the encoding the user chose (``--encoding``); a BOM is dropped.
    A failure names the file, the byte and an encoding that does decode it.

    >>> decode_forced(b"Art. 5\\xba", "lei.txt", "cp1252")
    'Art. 5º'
    >>> try:
    ...     decode_forced(b"Art. 5\\xba", "lei.txt", "utf-8")
    ... except InputError as exc:
    ...     print(exc)
    lei.txt: cannot decode as utf-8 (invalid start byte at byte 6: b'\\xba'); try --encoding cp1252
    """
    if not _known(encoding):
        msg = f"unknown encoding {encoding!r} for {name}; use a codec name such as utf-8, cp1252 or latin-1"
        raise InputError(msg)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        bad = data[exc.start : min(exc.end, exc.start + 4)]
        other = suggest_encoding(data, encoding)
        msg = f"{name}: cannot decode as {encoding} ({exc.reason} at byte {exc.start}: {bad!r}); try --encoding {other}"
        raise InputError(msg) from exc
    return text.removeprefix("\ufeff")


def decode_text(data: bytes, name: str = "input", encoding: str | None = None) -> tuple[str, str]:
    """Decode ``data``; return ``(text, encoding)``. A BOM decides; else UTF-8, windows-1252,
    then Latin-1 (which decodes anything; windows-1252 leaves 5 bytes undefined).

    >>> decode_text("Art. 5º".encode("cp1252"))
    ('Art. 5º', 'cp1252')
    >>> decode_text(b"\\xef\\xbb\\xbfRFC 9111")
    ('RFC 9111', 'utf-8-sig')
    >>> decode_text(b"caf\\xe9 \\x81")
    ('café \\x81', 'latin-1')
    """
    if encoding:
        return decode_forced(data, name, encoding), encoding
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data[3:].decode("utf-8"), "utf-8-sig"
        except UnicodeDecodeError as exc:
            at = exc.start + 3
            msg = f"{name}: starts with a UTF-8 BOM but is not UTF-8 ({exc.reason} at byte {at})"
            raise InputError(msg) from exc
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16"), "utf-16"
    if looks_binary(data):
        msg = f"{name}: looks binary (control bytes), not text; pass a text, PDF, HTML or XML file"
        raise InputError(msg)
    for enc in ENCODINGS:
        try:
            return data.decode(enc), enc
        except UnicodeDecodeError:
            continue
    msg = "latin-1 decodes every byte string"  # pragma: no cover
    raise AssertionError(msg)  # pragma: no cover


def read_text(data: bytes, doc_id: str, name: str = "input", encoding: str | None = None) -> Document:
    """A :class:`Document` from plain-text bytes (``meta["encoding"]`` names the decoding used)."""
    text, enc = decode_text(data, name, encoding)
    meta: dict[str, object] = {
        "encoding": enc,
        "extractor": "ipsis.text",
        "media_type": "text/plain",
    }
    fixed, why = repair_single_byte(text) if not encoding else (text, "")
    if why:
        text = fixed
        meta["repaired"] = why
    return Document(doc_id, text, meta=meta)

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


_WIDE_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32"),
    (b"\x00\x00\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)


def sniff_wide(data: bytes) -> str | None:
    """The UTF-16/UTF-32 codec of ``data`` from its BOM, or from ASCII interleaved with NULs.

    >>> sniff_wide("<html>".encode("utf-16")), sniff_wide("<p>Olá".encode("utf-16-be"))
    ('utf-16', 'utf-16-be')
    >>> sniff_wide(b"\\xff\\xfe\\x00\\x00<\\x00\\x00\\x00"), sniff_wide(b"<p>plain</p>")
    ('utf-32', None)
    """
    for bom, codec in _WIDE_BOMS:
        if data.startswith(bom):
            return codec
    head = data[:8]
    if len(head) == 8 and all(head[i] == 0 for i in (1, 3, 5, 7)) and all(0 < head[i] < 0x80 for i in (0, 2, 4, 6)):
        return "utf-16-le"
    if len(head) == 8 and all(head[i] == 0 for i in (0, 2, 4, 6)) and all(0 < head[i] < 0x80 for i in (1, 3, 5, 7)):
        return "utf-16-be"
    return None


def decode_wide(data: bytes, codec: str, name: str) -> str:
    """Decode UTF-16/UTF-32 strictly; a bad sequence is an error that names the byte.

    >>> decode_wide(b"\\xff\\xfeA\\x00\\x00\\xd8", "utf-16", "a.txt")
    Traceback (most recent call last):
    ...
    ipsis.errors.InputError: a.txt: invalid utf-16 (unexpected end of data at byte 4); re-save the file as UTF-8
    """
    try:
        return data.decode(codec).removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        msg = f"{name}: invalid {codec} ({exc.reason} at byte {exc.start}); re-save the file as UTF-8"
        raise InputError(msg) from None


def looks_binary(data: bytes) -> bool:
    """True for bytes that are not text: NUL bytes or many control characters at the start.

    >>> looks_binary(b"Art. 5\\xba Todos"), looks_binary(b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00")
    (False, True)
    """
    head = data[:4096]
    if not head or sniff_wide(data):
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
    wide = sniff_wide(data)
    if wide:
        return decode_wide(data, wide, name), wide
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
    return text_document(text, doc_id, enc, repair=not encoding)


def text_document(text: str, doc_id: str, encoding: str | None = None, *, repair: bool = True) -> Document:
    """A :class:`Document` from decoded plain text: :func:`read_text` after decoding, and the
    reader of a text sent inline (``encoding`` None). ``repair`` undoes a wrong single-byte
    decoding (length-preserving, so offsets into the text given stay true).

    >>> text_document("Art. 1º A Lei vale.", "d").meta["extractor"]
    'ipsis.text'
    """
    meta: dict[str, object] = {"encoding": encoding, "extractor": "ipsis.text", "media_type": "text/plain"}
    fixed, why = repair_single_byte(text) if repair else (text, "")
    if why:
        text = fixed
        meta["repaired"] = why
    return Document(doc_id, text, meta=meta)

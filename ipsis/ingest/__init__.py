"""Readers: bytes or files into :class:`~ipsis.document.Document` records.

This is the one place (with the store and the CLI) that does I/O. The format is detected from
the content (``%PDF``, ``<?xml``, ``<html``, RFC page furniture) unless ``fmt`` says otherwise;
each reader fills ``meta`` with ``encoding``, ``extractor``, ``extractor_version``,
``media_type`` and, here, ``sha256`` and ``format``.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ipsis import __version__
from ipsis.document import Document
from ipsis.errors import InputError
from ipsis.ingest.tesseract import DEFAULT_OCR, OcrOptions
from ipsis.lazy import lazy_exports
from ipsis.limits import DEFAULT_LIMITS, Limits

if TYPE_CHECKING:  # the PDF reader is imported when a PDF is read, not by every reader
    from ipsis.ingest.pdf import Progress


def load_bytes(
    data: bytes,
    doc_id: str,
    name: str = "input",
    fmt: str | None = None,
    *,
    engine: str = "pdfium",
    password: str | None = None,
    progress: Progress | None = None,
    encoding: str | None = None,
    position_furniture: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    ocr: OcrOptions = DEFAULT_OCR,
) -> Document:
    """Read ``data`` into a Document; ``fmt`` is one of :data:`FORMATS` (``None`` = ``auto``).

    ``engine`` (one of :data:`~ipsis.ingest.pdf.ENGINES`), ``password`` and
    ``position_furniture`` apply to PDFs; ``progress`` is called as ``progress(done, total)``
    after each PDF page; ``limits`` bounds size, pages and time; ``ocr`` says which PDF pages
    Tesseract reads (:class:`~ipsis.ingest.ocr.OcrOptions`: ``auto`` = pages without usable text).
    ``encoding`` forces the decoding
    of a text, RFC, HTML or XML file (PDFs carry their own and ignore it); a wrong one is an
    :class:`InputError` that names the file and suggests an encoding that works.
    """
    from ipsis.ingest.detect import check_format, detect_format  # not by every import of a step module

    fmt = check_format(fmt)
    limits.check_size(len(data), name)
    if not data.strip():
        msg = f"{name} is empty; pass a file with text in it"
        raise InputError(msg)
    deadline = limits.deadline(name)
    if encoding and fmt != "pdf" and b"%PDF-" not in data[:1024]:
        from ipsis.ingest.text import decode_forced

        probe = decode_forced(data, name, encoding).encode("utf-8")
    else:
        encoding, probe = None, data
    if fmt == "auto":
        fmt = detect_format(probe, name)
    if fmt == "pdf":
        from ipsis.ingest.pdf import read_pdf

        doc = read_pdf(
            data,
            doc_id,
            name,
            engine=engine,
            password=password,
            progress=progress,
            position_furniture=position_furniture,
            limits=limits,
            deadline=deadline,
            ocr=ocr,
        )
    elif fmt == "html":
        from ipsis.ingest.html import read_html

        doc = read_html(data, doc_id, name, encoding)
    elif fmt == "xml":
        from ipsis.ingest.xml import read_xml

        doc = read_xml(data, doc_id, name, encoding)
    elif fmt == "rfc":
        from ipsis.ingest.rfc import read_rfc

        doc = read_rfc(data, doc_id, name, encoding)
    else:
        from ipsis.ingest.text import read_text

        doc = read_text(data, doc_id, name, encoding)
    deadline.check("after extraction")
    limits.check_text(len(doc.text), len(data), name)
    doc.meta.setdefault("extractor_version", f"ipsis {__version__}")
    doc.meta["format"] = fmt
    doc.meta.setdefault("sha256", hashlib.sha256(data).hexdigest())
    if "work" not in doc.meta:  # the ELI or LexML URN the document states, never a guess
        from ipsis.formats.ids import work_of_text

        work = work_of_text(doc.text)
        if work is not None:
            doc.meta["work"] = work
    return doc


def text_source(text: str, doc_id: str) -> Document:
    """A :class:`Document` for text given inline (a serve request's ``{"text": ...}``, the
    sources of an answer, ``--source-text``): the reading a file of that text gets from
    :func:`load_bytes` (RFC text detected and its page furniture marked; a wrong single-byte
    decoding repaired, length-preserving), minus the decoding: the text is already ``str``, so
    offsets stay offsets into the text given (a leading BOM is kept). Markup stays text.

    >>> rfc = "RFC 7519  JSON Web Token  May 2015\\n\\nRequest for Comments: 7519\\n"
    >>> text_source(rfc, "jwt").meta["extractor"], text_source("Art. 1º", "lei").meta["extractor"]
    ('ipsis.rfc', 'ipsis.text')
    """
    from ipsis.ingest.detect import looks_rfc

    head = text[:8192].lstrip("\ufeff").encode("utf-8", "replace")
    if looks_rfc(head, "\f" in text):
        from ipsis.ingest.rfc import rfc_document

        doc = rfc_document(text, doc_id)
    else:
        from ipsis.ingest.text import text_document

        doc = text_document(text, doc_id)
    doc.meta["format"] = "rfc" if doc.meta["extractor"] == "ipsis.rfc" else "text"
    return doc


def load_document(
    path: str | Path,
    doc_id: str | None = None,
    fmt: str | None = None,
    *,
    engine: str = "pdfium",
    password: str | None = None,
    progress: Progress | None = None,
    encoding: str | None = None,
    position_furniture: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    ocr: OcrOptions = DEFAULT_OCR,
) -> Document:
    """Read the file at ``path`` (``-`` for stdin); options as in :func:`load_bytes`."""
    options: dict[str, Any] = {
        "engine": engine,
        "password": password,
        "progress": progress,
        "encoding": encoding,
        "position_furniture": position_furniture,
        "limits": limits,
        "ocr": ocr,
    }
    if str(path) == "-":
        cap = limits.max_input_bytes + 1 if limits.max_input_bytes else -1
        return load_bytes(sys.stdin.buffer.read(cap), doc_id or "stdin", "stdin", fmt, **options)
    p = Path(path)
    if not p.exists():
        msg = f"{p}: no such file; pass a path to a text, PDF, HTML or XML file or a store id"
        raise InputError(msg)
    if p.is_dir():
        msg = f"{p} is a directory; pass a file"
        raise InputError(msg)
    limits.check_size(p.stat().st_size, str(p))
    doc = load_bytes(p.read_bytes(), doc_id or p.stem, str(p), fmt, **options)
    doc.meta.setdefault("path", str(p))
    return doc


__getattr__ = lazy_exports(__name__, {"FORMATS": "ipsis.ingest.detect", "detect_format": "ipsis.ingest.detect"})
"""The format detector is imported by the readers, not by every import of a normalization step
(``ipsis.ingest.normalize`` imports this package first): a store-backed run reads no file."""

__all__ = ["FORMATS", "Limits", "OcrOptions", "detect_format", "load_bytes", "load_document", "text_source"]

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

from ipsis import __version__
from ipsis.document import Document
from ipsis.errors import InputError
from ipsis.ingest.detect import FORMATS, check_format, detect_format
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
) -> Document:
    """Read ``data`` into a Document; ``fmt`` is one of :data:`FORMATS` (``None`` = ``auto``).

    ``engine`` (``pdfium`` or ``pypdf``) and ``password`` apply to PDFs; ``progress`` is called
    as ``progress(done, total)`` after each PDF page.
    """
    fmt = check_format(fmt)
    if not data.strip():
        msg = f"{name} is empty; pass a file with text in it"
        raise InputError(msg)
    if fmt == "auto":
        fmt = detect_format(data, name)
    if fmt == "pdf":
        from ipsis.ingest.pdf import read_pdf

        doc = read_pdf(data, doc_id, name, engine=engine, password=password, progress=progress)
    elif fmt == "html":
        from ipsis.ingest.html import read_html

        doc = read_html(data, doc_id, name)
    elif fmt == "xml":
        from ipsis.ingest.xml import read_xml

        doc = read_xml(data, doc_id, name)
    elif fmt == "rfc":
        from ipsis.ingest.rfc import read_rfc

        doc = read_rfc(data, doc_id, name)
    else:
        from ipsis.ingest.text import read_text

        doc = read_text(data, doc_id, name)
    doc.meta.setdefault("extractor_version", f"ipsis {__version__}")
    doc.meta["format"] = fmt
    doc.meta.setdefault("sha256", hashlib.sha256(data).hexdigest())
    return doc


def load_document(
    path: str | Path,
    doc_id: str | None = None,
    fmt: str | None = None,
    *,
    engine: str = "pdfium",
    password: str | None = None,
    progress: Progress | None = None,
) -> Document:
    """Read the file at ``path`` (``-`` for stdin); options as in :func:`load_bytes`."""
    options = {"engine": engine, "password": password, "progress": progress}
    if str(path) == "-":
        return load_bytes(sys.stdin.buffer.read(), doc_id or "stdin", "stdin", fmt, **options)  # type: ignore[arg-type]
    p = Path(path)
    if not p.exists():
        msg = f"{p}: no such file; pass a path to a text, PDF, HTML or XML file or a store id"
        raise InputError(msg)
    if p.is_dir():
        msg = f"{p} is a directory; pass a file"
        raise InputError(msg)
    doc = load_bytes(
        p.read_bytes(),
        doc_id or p.stem,
        str(p),
        fmt,
        engine=engine,
        password=password,
        progress=progress,
    )
    doc.meta.setdefault("path", str(p))
    return doc


__all__ = ["FORMATS", "detect_format", "load_bytes", "load_document"]

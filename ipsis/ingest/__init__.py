"""Readers: bytes or files into :class:`~ipsis.document.Document` records.

This is the one place (with the store and the CLI) that does I/O.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from ipsis.document import Document
from ipsis.errors import InputError
from ipsis.ingest.text import read_text


def load_bytes(data: bytes, doc_id: str, name: str = "input", fmt: str | None = None) -> Document:
    """Read ``data`` into a Document (plain text for now; other formats dispatch by content)."""
    if not data.strip():
        msg = f"{name} is empty; pass a file with text in it"
        raise InputError(msg)
    doc = read_text(data, doc_id, name)
    doc.meta.setdefault("sha256", hashlib.sha256(data).hexdigest())
    return doc


def load_document(path: str | Path, doc_id: str | None = None, fmt: str | None = None) -> Document:
    """Read the file at ``path`` (``-`` for stdin)."""
    if str(path) == "-":
        return load_bytes(sys.stdin.buffer.read(), doc_id or "stdin", "stdin", fmt)
    p = Path(path)
    if not p.exists():
        msg = f"{p}: no such file; pass a path to a text, PDF, HTML or XML file or a store id"
        raise InputError(msg)
    if p.is_dir():
        msg = f"{p} is a directory; pass a file"
        raise InputError(msg)
    doc = load_bytes(p.read_bytes(), doc_id or p.stem, str(p), fmt)
    doc.meta.setdefault("path", str(p))
    return doc


__all__ = ["load_bytes", "load_document"]

"""Turn SOURCE arguments, ``--source ID=PATH`` and ``--sources MAP.json`` into documents."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ipsis.document import Document
from ipsis.errors import InputError
from ipsis.ingest import load_document
from ipsis.sections import segment


class SourceMap:
    """Ids mapped to files or inline texts, loaded once on first use."""

    def __init__(self, encoding: str | None = None) -> None:
        self._encoding = encoding
        self._paths: dict[str, Path] = {}
        self._docs: dict[str, Document] = {}

    def add_path(self, source_id: str, path: str | Path) -> None:
        self._paths[source_id] = Path(path)

    def add_text(self, source_id: str, text: str) -> None:
        self._docs[source_id] = Document(source_id, text)

    def add_pairs(self, pairs: tuple[str, ...]) -> None:
        for pair in pairs:
            sid, sep, path = pair.partition("=")
            if not sep or not sid or not path:
                msg = f"--source {pair!r}: expected ID=PATH, e.g. --source returns-v1=returns.txt"
                raise InputError(msg)
            self.add_path(sid, path)

    def add_map_file(self, path: str | Path) -> None:
        p = Path(path)
        try:
            data: Any = json.loads(p.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            msg = f"{p}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
            raise InputError(msg) from exc
        if not isinstance(data, dict):
            msg = f'{p}: expected an object mapping source ids to a path or {{"text": ...}}'
            raise InputError(msg)
        for sid, value in data.items():
            if isinstance(value, str):
                self.add_path(sid, (p.parent / value) if not Path(value).is_absolute() else value)
            elif isinstance(value, dict) and isinstance(value.get("text"), str):
                self.add_text(sid, value["text"])
            elif isinstance(value, dict) and isinstance(value.get("path"), str):
                self.add_path(sid, p.parent / value["path"])
            else:
                msg = f'{p}: source {sid!r} must be a path or {{"text": "..."}}'
                raise InputError(msg)

    def __contains__(self, source_id: str) -> bool:
        return source_id in self._docs or source_id in self._paths

    def get(self, source_id: str) -> Document | None:
        doc = self._docs.get(source_id)
        if doc is None and source_id in self._paths:
            doc = load_document(self._paths[source_id], source_id, encoding=self._encoding)
            self._docs[source_id] = doc
        if doc is not None and doc.sections is None:
            segment(doc)
        return doc


def open_source(source: str, **options: Any) -> Document:
    """A SOURCE argument: a file path (store ids come with the store), segmented. ``options``
    go to :func:`~ipsis.ingest.load_document` (``fmt``, ``engine``, ``password``, ``progress``,
    ``encoding``, ``position_furniture``)."""
    doc = load_document(source, **options)
    segment(doc)
    return doc

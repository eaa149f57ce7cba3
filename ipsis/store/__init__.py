"""The versioned source store: ingest once, verify citations against exact versions.

Embedded default: one folder (``.ipsis/`` in the working directory, or ``--store DIR`` /
``IPSIS_STORE``) holding a SQLite database in WAL mode and the original bytes of every source
version, content-addressed by SHA-256. See :mod:`ipsis.store.db` for the layout and the
permission rule, :mod:`ipsis.store.ids` for versioned ids, :mod:`ipsis.store.runs` for
verification runs.
"""

from __future__ import annotations

from pathlib import Path

from ipsis.store.db import CheckReport, IngestOutcome, SourceVersion, Store, parse_when
from ipsis.store.ids import compose_id, resolve_id, split_id
from ipsis.store.runs import Run, RunStream, find_elsewhere, verify_run

DEFAULT_DIR = ".ipsis"


def open_store(path: str | Path | None = None, *, create: bool = False) -> Store | None:
    """Open the store at ``path``; with ``path`` None, the ``.ipsis/`` folder of the working
    directory if it exists (None otherwise, unless ``create``). An explicit path must exist
    unless ``create``."""
    if path is None:
        default = Path(DEFAULT_DIR)
        if not create and not (default / "ipsis.db").exists():
            return None
        return Store.open(default, create=create)
    return Store.open(path, create=create)


__all__ = [
    "DEFAULT_DIR",
    "CheckReport",
    "IngestOutcome",
    "Run",
    "RunStream",
    "SourceVersion",
    "Store",
    "compose_id",
    "find_elsewhere",
    "open_store",
    "parse_when",
    "resolve_id",
    "split_id",
    "verify_run",
]

"""The seam between :class:`~ipsis.store.db.Store` (the rules) and a database engine (the SQL).

The store's rules (versions never change, identical bytes are a no-op, who may read what, the
found-elsewhere look-up, run records) live once, in :mod:`ipsis.store.db`, written in the SQL
both engines share with ``?`` placeholders. A backend runs that SQL and supplies the parts that
differ: connecting and migrating, the exclusive write transaction, the full-text index, the
integrity checks, and where the original bytes live.

- :class:`~ipsis.store.sqlite.SqliteBackend`: the embedded default, a folder (``.ipsis/``).
- :class:`~ipsis.store.postgres.PostgresBackend`: ``--store postgresql://...`` (extra ``postgres``),
  for several service replicas sharing one store.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

Row = dict[str, Any]


def is_url(target: str | Path) -> bool:
    """Whether a ``--store`` value names a PostgreSQL database rather than a folder.

    >>> is_url("postgresql://ipsis@db/ipsis"), is_url("postgres://h/db"), is_url(".ipsis")
    (True, True, False)
    """
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


class Blobs(Protocol):
    """Where the original bytes of each version live, named by their SHA-256."""

    def create_dirs(self) -> None: ...

    def put(self, data: bytes, sha256: str) -> object: ...

    def read(self, sha256: str) -> bytes:
        """The bytes stored under ``sha256``; FileNotFoundError when there are none."""
        ...

    def digest(self, sha256: str) -> tuple[str, int]:
        """``(sha256, size)`` of what is actually stored under ``sha256`` (FileNotFoundError when missing)."""
        ...

    def label(self, sha256: str) -> str:
        """How messages name the blob (a relative path, or a database row)."""
        ...

    def entries(self) -> Iterator[tuple[str, str]]:
        """Every stored blob as ``(name, label)``."""
        ...

    def leftover_labels(self) -> list[str]:
        """Temporary files left by interrupted writes."""
        ...


class Backend(Protocol):
    """One open connection to a store's database, plus its blobs."""

    kind: str
    """``sqlite`` or ``postgresql``."""
    location: str
    """What messages and run manifests call the store (a folder, or a URL without its password)."""
    root: Path | None
    """The store folder (SQLite) or the blob folder (PostgreSQL with folder blobs), else None."""
    database_errors: tuple[type[Exception], ...]
    """What the engine raises for a damaged or unreadable database (``store check`` reports them)."""

    @property
    def blobs(self) -> Blobs:
        """Where the original bytes live."""
        ...

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Rows of ``sql`` (``?`` placeholders) as dicts."""
        ...

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None: ...

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    def write(self) -> AbstractContextManager[None]:
        """One exclusive write transaction (one writer at a time per store), committed on exit."""
        ...

    def search_condition(self, query: str) -> tuple[str, list[Any]]:
        """A condition on ``v.pk`` for an FTS5-syntax query (quoted phrases AND-ed together)."""
        ...

    def add_to_index(self, pk: int, index_text: str, terms: set[str]) -> None:
        """Index the text of version ``pk`` (inside the write transaction)."""
        ...

    def indexed(self, pk: int) -> bool: ...

    def compact_index(self) -> None:
        """Merge the found-elsewhere index into as few parts as the engine allows (inside the
        write transaction): the same rows found, fewer places to look them up."""
        ...

    def check_database(self) -> list[str]:
        """Problems the engine itself finds (integrity checks)."""
        ...

    def check_index(self, expected: Iterable[tuple[int, str]]) -> list[str]:
        """Problems of the found-elsewhere index against ``(pk, index text)`` of every version:
        an index that reads back other words or places than the texts give (a damaged page the
        engine's own checks cannot see)."""
        ...

    def check_permissions(self) -> list[str]:
        """Warnings about files that other OS users may read."""
        ...

    def close(self) -> None: ...

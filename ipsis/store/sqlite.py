"""The embedded backend: SQLite (WAL) plus content-addressed original files under one folder.

Layout of a store folder (``.ipsis/`` by default)::

    ipsis.db            source versions, readers, the found-elsewhere index, run records
    blobs/ab/abcd…      the original bytes of each version, named by their SHA-256
    tmp/                temporary files of blob writes in progress

A new folder is private to its owner: folders 0700, ``ipsis.db`` 0600 (SQLite gives its
``-wal`` and ``-shm`` files the database's mode), blobs 0400.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ipsis.errors import StoreError
from ipsis.store.backend import Row
from ipsis.store.blobs import PRIVATE_FILE, BlobStore, open_to_others
from ipsis.store.schema import migrate

DB_NAME = "ipsis.db"
BUSY_TIMEOUT_S = 60.0


MMAP_BYTES = 1 << 30
"""Most of the database file SQLite reads through a memory map instead of ``read`` calls: a run
reads a cited version's text and stored view (~15 MB for 5 MB of text) in ~40% less time
(SQLite maps only what it reads; writes still go through the WAL)."""


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    text = str(exc)
    return "database is locked" in text or "database is busy" in text


def _connect(path: Path, db: Path, *, create: bool, durable: bool) -> sqlite3.Connection:
    if create:
        BlobStore(path).create_dirs()
        if not db.exists():  # created private before SQLite opens it (and copies its mode)
            os.close(os.open(db, os.O_CREAT | os.O_WRONLY, PRIVATE_FILE))
    conn = sqlite3.connect(str(db), timeout=BUSY_TIMEOUT_S, isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL" if durable else "PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute(f"PRAGMA mmap_size={MMAP_BYTES}")
        migrate(conn, str(path))
    except BaseException:
        conn.close()
        raise
    return conn


class SqliteBackend:
    """A store folder: ``ipsis.db`` and ``blobs/``."""

    kind = "sqlite"
    database_errors: tuple[type[Exception], ...] = (sqlite3.DatabaseError,)

    def __init__(self, root: Path, conn: sqlite3.Connection, durable: bool = True) -> None:
        self.root: Path | None = root
        self.location = str(root)
        self.conn = conn
        self.blobs = BlobStore(root, durable)

    @classmethod
    def open(cls, root: str | Path, *, create: bool = False, durable: bool = True) -> SqliteBackend:
        path = Path(root)
        db = path / DB_NAME
        if not db.exists():
            if not create:
                msg = f"no ipsis store at {path} (no {DB_NAME}); create one with `ipsis ingest FILE --store {path}`"
                raise StoreError(msg)
            if path.exists() and not path.is_dir():
                msg = f"{path} is a file, not a store folder; pass another --store"
                raise StoreError(msg)
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        while True:
            try:
                return cls(path, _connect(path, db, create=create, durable=durable), durable)
            except sqlite3.OperationalError as exc:
                # Switching to WAL and creating the schema need the database to themselves, and
                # SQLite does not always wait on its busy handler for them: a second process opening
                # a store that another is creating gets "database is locked" at once. Wait as
                # BUSY_TIMEOUT_S says for every other lock.
                if _is_busy(exc) and time.monotonic() < deadline:
                    time.sleep(0.05)
                    continue
                msg = f"{db} cannot be opened as an ipsis store ({exc}); check the path or restore a backup"
                raise StoreError(msg) from exc
            except sqlite3.DatabaseError as exc:
                msg = f"{db} cannot be opened as an ipsis store ({exc}); check the path or restore a backup"
                raise StoreError(msg) from exc

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return [dict(r) for r in self.conn.execute(sql, list(params))]

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        self.conn.execute(sql, list(params))

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.conn.executemany(sql, rows)

    @contextmanager
    def write(self) -> Iterator[None]:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise

    def search_condition(self, query: str) -> tuple[str, list[Any]]:
        return "v.pk IN (SELECT rowid FROM text_index WHERE text_index MATCH ?)", [query]

    def add_to_index(self, pk: int, index_text: str, terms: set[str]) -> None:
        self.conn.execute("INSERT INTO text_index(rowid, body) VALUES (?, ?)", [pk, index_text])

    def indexed(self, pk: int) -> bool:
        return self.conn.execute("SELECT 1 FROM text_index WHERE rowid = ?", [pk]).fetchone() is not None

    def compact_index(self) -> None:
        """FTS5's ``optimize``: one ingest per transaction leaves the index in many segments (FTS5
        merges them only a few at a time), each of which a search reads; merged into one, the
        searches of a batch's found-elsewhere look-up took ~3x less time (1,000 sources)."""
        self.conn.execute("INSERT INTO text_index(text_index) VALUES('optimize')")

    def check_database(self) -> list[str]:
        """SQLite's own page and index check, then the full-text index's; a database too damaged
        to be checked ("database disk image is malformed") is a problem too, never an exception."""
        problems = []
        where = f"database {self.location}/{DB_NAME}"
        try:
            rows = [r[0] for r in self.conn.execute("PRAGMA integrity_check(20)").fetchall()]
        except sqlite3.DatabaseError as exc:
            rows = [str(exc)]
        if rows != ["ok"]:
            problems.append(f"{where}: integrity check failed: {'; '.join(rows)}")
        try:
            self.conn.execute("INSERT INTO text_index(text_index) VALUES('integrity-check')")
        except sqlite3.DatabaseError as exc:
            problems.append(f"found-elsewhere index is damaged ({exc}); rebuild the store from its blobs")
        return problems

    def check_index(self, expected: Iterable[tuple[int, str]]) -> list[str]:
        """The index read back word by word (FTS5's ``instance`` vocabulary: term, row, place)
        against an index of the same texts built in memory: FTS5's own integrity check cannot
        compare a contentless index with anything, so a damaged index page could read back other
        words and pass it."""
        from itertools import zip_longest

        from ipsis.store.schema import INDEX_TABLE

        rows = list(expected)
        pks = {pk for pk, _ in rows}
        mem = sqlite3.connect(":memory:")
        try:
            mem.execute(INDEX_TABLE)
            mem.executemany("INSERT INTO text_index(rowid, body) VALUES (?, ?)", rows)
            mem.execute("CREATE VIRTUAL TABLE vocab USING fts5vocab(text_index, 'instance')")
            want = mem.execute("SELECT term, doc, col, offset FROM vocab")
            try:
                self.conn.execute(
                    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.ipsis_index_vocab"
                    " USING fts5vocab(main, text_index, 'instance')"
                )
                vocab = self.conn.execute("SELECT term, doc, col, offset FROM temp.ipsis_index_vocab")
                got = (tuple(r) for r in vocab if r[1] in pks)  # rows of versions read, as plain tuples
                for a, b in zip_longest(got, want):
                    if a != b:
                        first = a or b
                        return [
                            f"found-elsewhere index does not match the stored texts (first at the word {first[0]!r} of "
                            "version row "
                            f"{first[1]}): a damaged page, or an index an older ipsis built; rebuild it with "
                            f"`ipsis store migrate --from {self.location} --to NEW-FOLDER`"
                        ]
            except sqlite3.DatabaseError as exc:
                return [f"found-elsewhere index is damaged ({exc}); rebuild the store from its blobs"]
        finally:
            mem.close()
        return []

    def check_permissions(self) -> list[str]:
        return open_to_others(Path(self.location))

    def close(self) -> None:
        self.conn.close()

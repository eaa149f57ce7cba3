"""The store's SQLite schema and its migrations.

The schema version lives in ``PRAGMA user_version``. :data:`MIGRATIONS` holds one SQL script
per version step; opening a store applies the missing ones in order, each in one transaction
(taken with ``BEGIN IMMEDIATE`` so two processes opening a fresh store do not race). A store
written by a newer ipsis (a higher ``user_version``) is refused rather than guessed at.
"""

from __future__ import annotations

import sqlite3

from ipsis.errors import StoreError

INDEX_TABLE = "CREATE VIRTUAL TABLE text_index USING fts5(body, content='', tokenize='unicode61 remove_diacritics 2')"
"""The found-elsewhere index as migration 1 creates it (``store check`` builds one like it in
memory to compare with; a test keeps the two statements the same)."""

MIGRATIONS: tuple[str, ...] = (
    # 1: source versions, their blobs and readers, the found-elsewhere index (FTS5 plus the
    # document frequency of each folded word), run records.
    """
    CREATE TABLE blobs (
        sha256 TEXT PRIMARY KEY,
        size INTEGER NOT NULL
    );
    CREATE TABLE versions (
        pk INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        version TEXT NOT NULL,
        sha256 TEXT NOT NULL REFERENCES blobs(sha256),
        size INTEGER NOT NULL,
        filename TEXT,
        retrieved_at TEXT NOT NULL,
        ingested_at TEXT NOT NULL,
        origin TEXT,
        media_type TEXT,
        extractor TEXT,
        extractor_version TEXT,
        public INTEGER NOT NULL,
        text TEXT NOT NULL,
        text_sha256 TEXT NOT NULL,
        text_length INTEGER NOT NULL,
        page_starts TEXT NOT NULL,
        marks TEXT NOT NULL,
        hints TEXT NOT NULL,
        meta TEXT NOT NULL,
        sections TEXT,
        page_count INTEGER NOT NULL,
        section_count INTEGER,
        UNIQUE (name, version)
    );
    CREATE INDEX versions_name ON versions(name);
    CREATE TABLE readers (
        version_pk INTEGER NOT NULL REFERENCES versions(pk),
        user TEXT NOT NULL,
        PRIMARY KEY (version_pk, user)
    );
    CREATE INDEX readers_user ON readers(user);
    CREATE VIRTUAL TABLE text_index USING fts5(
        body, content='', tokenize='unicode61 remove_diacritics 2'
    );
    CREATE TABLE terms (
        term TEXT PRIMARY KEY,
        df INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        started_at TEXT NOT NULL,
        finished_at TEXT NOT NULL,
        user TEXT,
        policy_fingerprint TEXT NOT NULL,
        manifest TEXT NOT NULL
    );
    """,
    # 2: per-version derived data (ipsis.store.derived): boxes of PDF pages, ... Versions stored
    # before have no rows; what a run needs is computed on demand, as before.
    """
    CREATE TABLE derived (
        version_pk INTEGER NOT NULL REFERENCES versions(pk) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        format INTEGER NOT NULL,
        source_sha256 TEXT NOT NULL,
        payload BLOB NOT NULL,
        payload_sha256 TEXT NOT NULL,
        size INTEGER NOT NULL,
        PRIMARY KEY (version_pk, kind)
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


def migrate(conn: sqlite3.Connection, where: str) -> int:
    """Bring the database up to :data:`SCHEMA_VERSION`; return the version it had before."""
    before = conn.execute("PRAGMA user_version").fetchone()[0]
    if before > SCHEMA_VERSION:
        msg = (
            f"{where} has schema version {before}, newer than this ipsis understands ({SCHEMA_VERSION}); "
            "upgrade ipsis to use it"
        )
        raise StoreError(msg)
    if before == SCHEMA_VERSION:
        return before
    conn.execute("BEGIN IMMEDIATE")
    try:
        current = conn.execute("PRAGMA user_version").fetchone()[0]  # another process may have migrated
        for step in range(current, SCHEMA_VERSION):
            for statement in _statements(MIGRATIONS[step]):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {step + 1}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return before


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]

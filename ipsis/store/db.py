"""The embedded store: SQLite (WAL) plus content-addressed original files under one folder.

Layout of a store folder (``.ipsis/`` by default)::

    ipsis.db            source versions, readers, the found-elsewhere index, run records
    blobs/ab/abcd…      the original bytes of each version, named by their SHA-256
    tmp/                temporary files of blob writes in progress

Permissions: each version has readers (none listed = everyone). Every read method takes a
``user``: ``None`` means no restriction (the owner of the folder, who can read the files
anyway); a name restricts to versions that are public or list that user. A version the user
may not read is treated exactly like one that does not exist.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ipsis import __version__
from ipsis.document import Document
from ipsis.errors import InputError, StoreError, VersionConflictError
from ipsis.store.blobs import BlobStore, hash_file, sha256_of
from ipsis.store.docs import document_from_row, document_payload, terms_of
from ipsis.store.ids import compose_id, propose_version, resolve_id, version_key
from ipsis.store.schema import migrate

DB_NAME = "ipsis.db"
BUSY_TIMEOUT_S = 60.0
_COLUMNS = (
    "pk, id, name, version, sha256, size, filename, retrieved_at, ingested_at, origin, media_type, "
    "extractor, extractor_version, page_count, section_count, text_length"
)


def utc_now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_when(value: str, what: str = "--retrieved") -> str:
    """An ISO date or date-time as UTC ``YYYY-MM-DDTHH:MM:SSZ`` (a naive time is taken as UTC).

    >>> parse_when("2019-07-08"), parse_when("2024-02-17T10:30:00-03:00")
    ('2019-07-08T00:00:00Z', '2024-02-17T13:30:00Z')
    """
    text = value.strip()
    try:
        when = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text)
    except ValueError:
        msg = f"{what} {value!r} is not an ISO date; write 2019-07-08 or 2019-07-08T12:00:00Z"
        raise InputError(msg) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True, slots=True)
class SourceVersion:
    """One stored source version (without its text)."""

    pk: int
    id: str
    name: str
    version: str
    sha256: str
    size: int
    filename: str | None
    retrieved_at: str
    ingested_at: str
    origin: str | None
    media_type: str | None
    extractor: str | None
    extractor_version: str | None
    page_count: int
    section_count: int | None
    text_length: int
    readers: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "version": self.version,
            "sha256": self.sha256,
            "size": self.size,
            "retrieved_at": self.retrieved_at,
            "ingested_at": self.ingested_at,
            "origin": self.origin,
            "media_type": self.media_type,
            "extractor": self.extractor,
            "extractor_version": self.extractor_version,
            "filename": self.filename,
            "pages": self.page_count,
            "sections": self.section_count,
            "text_length": self.text_length,
            "readers": list(self.readers) or "everyone",
        }


@dataclass(frozen=True, slots=True)
class IngestOutcome:
    """What an ingest did: ``stored`` a new version, or found it ``unchanged``."""

    status: str
    version: SourceVersion
    message: str


@dataclass(slots=True)
class CheckReport:
    """``store check``: problems (exit 1) and notes (harmless leftovers)."""

    checked: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


class Store:
    """An open store. Use as a context manager, or call :meth:`close`."""

    def __init__(self, root: Path, conn: sqlite3.Connection, durable: bool = True) -> None:
        self.root = root
        self.conn = conn
        self.blobs = BlobStore(root, durable)
        self._docs: dict[int, Document] = {}

    # -- opening ---------------------------------------------------------------------------
    @classmethod
    def open(cls, root: str | Path, *, create: bool = False, durable: bool = True) -> Store:
        """Open the store at ``root``; ``create`` makes the folder and database when missing.

        ``durable=False`` skips the fsyncs (blobs, and SQLite ``synchronous=NORMAL``): a killed
        process still leaves a consistent store, but a power loss may drop the last ingests.
        For bulk loads such as benchmarks; the CLI is always durable.
        """
        path = Path(root)
        db = path / DB_NAME
        if not db.exists():
            if not create:
                msg = f"no ipsis store at {path} (no {DB_NAME}); create one with `ipsis ingest FILE --store {path}`"
                raise StoreError(msg)
            if path.exists() and not path.is_dir():
                msg = f"{path} is a file, not a store folder; pass another --store"
                raise StoreError(msg)
        try:
            if create:
                BlobStore(path).create_dirs()
            conn = sqlite3.connect(str(db), timeout=BUSY_TIMEOUT_S, isolation_level=None)
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL" if durable else "PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            migrate(conn, str(path))
        except sqlite3.DatabaseError as exc:
            msg = f"{db} cannot be opened as an ipsis store ({exc}); check the path or restore a backup"
            raise StoreError(msg) from exc
        return cls(path, conn, durable)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading ---------------------------------------------------------------------------
    @staticmethod
    def _visible(user: str | None, alias: str = "v") -> tuple[str, list[Any]]:
        if user is None:
            return "1", []
        return f"({alias}.public = 1 OR {alias}.pk IN (SELECT version_pk FROM readers WHERE user = ?))", [user]

    def _rows(
        self, where: str, params: Iterable[Any], user: str | None, limit: int = -1, order: str = "v.name, v.pk"
    ) -> list[SourceVersion]:
        vis, vparams = self._visible(user)
        sql = f"SELECT {_COLUMNS} FROM versions v WHERE {where} AND {vis} ORDER BY {order} LIMIT ?"
        rows = self.conn.execute(sql, [*params, *vparams, limit]).fetchall()
        readers: dict[int, list[str]] = {}
        if rows:
            marks = ",".join("?" * len(rows))
            for r in self.conn.execute(
                f"SELECT version_pk, user FROM readers WHERE version_pk IN ({marks}) ORDER BY user",
                [r["pk"] for r in rows],
            ):
                readers.setdefault(r[0], []).append(r[1])
        return [SourceVersion(**dict(r), readers=tuple(readers.get(r["pk"], ()))) for r in rows]

    def get(self, full_id: str, user: str | None = None) -> SourceVersion | None:
        """The version stored under ``full_id`` that ``user`` may read, or None."""
        rows = self._rows("v.id = ?", [full_id], user)
        return rows[0] if rows else None

    def versions(self, user: str | None = None) -> list[SourceVersion]:
        """Every version ``user`` may read, by name, then version order."""
        rows = self._rows("1", [], user)
        return sorted(rows, key=lambda v: (v.name, version_key(v.version)))

    def family(self, name: str, user: str | None = None) -> list[SourceVersion]:
        """The versions of ``name`` that ``user`` may read, oldest first."""
        return sorted(self._rows("v.name = ?", [name], user), key=lambda v: version_key(v.version))

    def newer_versions(self, version: SourceVersion, user: str | None = None) -> list[SourceVersion]:
        key = version_key(version.version)
        return [v for v in self.family(version.name, user) if version_key(v.version) > key]

    def document(self, full_id: str, user: str | None = None) -> Document | None:
        """The stored Document of ``full_id`` (loaded once per open store), or None."""
        sv = self.get(full_id, user)
        return None if sv is None else self.document_of(sv)

    def document_of(self, sv: SourceVersion) -> Document:
        doc = self._docs.get(sv.pk)
        if doc is None:
            row = self.conn.execute("SELECT * FROM versions WHERE pk = ?", [sv.pk]).fetchone()
            doc = document_from_row(row)
            self._docs[sv.pk] = doc
        return doc

    def search(self, query: str, exclude_id: str | None, user: str | None, limit: int) -> list[SourceVersion]:
        """Versions ``user`` may read whose index matches the FTS5 ``query`` (by pk)."""
        where = "v.pk IN (SELECT rowid FROM text_index WHERE text_index MATCH ?) AND v.id IS NOT ?"
        return self._rows(where, [query, exclude_id], user, limit, order="v.pk")

    def document_frequency(self, terms: Iterable[str]) -> dict[str, int]:
        """How many stored versions hold each folded word (all versions, whoever may read them)."""
        terms = list(dict.fromkeys(terms))
        out: dict[str, int] = {}
        for i in range(0, len(terms), 500):
            chunk = terms[i : i + 500]
            sql = f"SELECT term, df FROM terms WHERE term IN ({','.join('?' * len(chunk))})"
            out.update(self.conn.execute(sql, chunk).fetchall())
        return out

    # -- writing ---------------------------------------------------------------------------
    def ingest(
        self,
        data: bytes,
        given_id: str,
        version: str | None = None,
        *,
        filename: str | None = None,
        origin: str | None = None,
        retrieved_at: str | None = None,
        readers: Iterable[str] = (),
        fmt: str | None = None,
    ) -> IngestOutcome:
        """Store ``data`` as a new version; identical bytes under the same id are a no-op.

        Different bytes under an existing id and version raise :class:`VersionConflictError`
        with a proposed new version. The blob is durable before the rows are committed, and
        the rows (version, readers, index entry) go in one transaction.
        """
        full_id, name, ver = resolve_id(given_id, version)
        sha = sha256_of(data)
        existing = self._existing(full_id, sha, name, ver)
        if existing is not None:
            return existing
        from ipsis.ingest import load_bytes

        doc = load_bytes(data, full_id, filename or full_id, fmt)
        payload = document_payload(doc)
        self.blobs.create_dirs()
        self.blobs.put(data, sha)
        readers = sorted({r.strip() for r in readers if r.strip()})
        now = utc_now()
        row = {
            "id": full_id,
            "name": name,
            "version": ver,
            "sha256": sha,
            "size": len(data),
            "filename": Path(filename).name if filename else None,
            "retrieved_at": retrieved_at or now,
            "ingested_at": now,
            "origin": origin,
            "media_type": doc.meta.get("media_type"),
            "extractor": doc.meta.get("extractor"),
            "extractor_version": doc.meta.get("extractor_version") or f"ipsis {__version__}",
            "public": 0 if readers else 1,
            **payload.columns,
        }
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            again = self._existing(full_id, sha, name, ver)
            if again is not None:  # another process stored it meanwhile
                self.conn.execute("ROLLBACK")
                return again
            self.conn.execute("INSERT OR IGNORE INTO blobs(sha256, size) VALUES (?, ?)", [sha, len(data)])
            cols = ", ".join(row)
            cur = self.conn.execute(
                f"INSERT INTO versions({cols}) VALUES ({', '.join('?' * len(row))})", list(row.values())
            )
            pk = cur.lastrowid
            self.conn.executemany("INSERT INTO readers(version_pk, user) VALUES (?, ?)", [(pk, r) for r in readers])
            self.conn.execute("INSERT INTO text_index(rowid, body) VALUES (?, ?)", [pk, payload.index_text])
            self.conn.executemany(
                "INSERT INTO terms(term, df) VALUES (?, 1) ON CONFLICT(term) DO UPDATE SET df = df + 1",
                [(t,) for t in terms_of(payload.index_text)],
            )
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise
        sv = self.get(full_id)
        if sv is None:  # pragma: no cover - just committed
            msg = f"{full_id} vanished right after it was stored; run `ipsis store check`"
            raise StoreError(msg)
        pages = f", {sv.page_count} pages" if sv.page_count else ""
        secs = f", {sv.section_count} sections" if sv.section_count else ""
        msg = f"stored {full_id} (sha256 {sha[:12]}, {len(data):,} bytes, {sv.media_type}{pages}{secs})"
        return IngestOutcome("stored", sv, msg)

    def _existing(self, full_id: str, sha: str, name: str, ver: str) -> IngestOutcome | None:
        sv = self.get(full_id)
        if sv is None:
            return None
        if sv.sha256 == sha:
            msg = f"unchanged {full_id}: the store already holds these bytes (sha256 {sha[:12]}); nothing to do"
            return IngestOutcome("unchanged", sv, msg)
        new = propose_version([v.version for v in self.family(name)])
        msg = (
            f"{full_id} already holds different bytes (stored sha256 {sv.sha256[:12]}, offered {sha[:12]}); "
            f"a stored version never changes: ingest them as a new version, e.g. --id {name} --version {new} "
            f"(id {compose_id(name, new)})"
        )
        raise VersionConflictError(msg)

    # -- checking --------------------------------------------------------------------------
    def check(self, user: str | None = None) -> CheckReport:
        """Verify every blob against its SHA-256, the database and the index; say what is wrong."""
        report = CheckReport()
        status = self.conn.execute("PRAGMA integrity_check").fetchone()[0]
        if status != "ok":
            report.problems.append(f"database {self.root / DB_NAME}: integrity check failed: {status}")
        try:
            self.conn.execute("INSERT INTO text_index(text_index) VALUES('integrity-check')")
        except sqlite3.DatabaseError as exc:
            report.problems.append(f"found-elsewhere index is damaged ({exc}); rebuild the store from its blobs")
        hashes: dict[str, tuple[str, int] | None] = {}
        for sv in self.versions(user):
            report.checked += 1
            path = self.blobs.path(sv.sha256)
            rel = path.relative_to(self.root)
            if sv.sha256 not in hashes:
                try:
                    hashes[sv.sha256] = hash_file(path)
                except FileNotFoundError:
                    hashes[sv.sha256] = None
                except OSError as exc:
                    report.problems.append(f"{sv.id}: blob {rel} cannot be read ({exc.strerror})")
                    continue
            got = hashes[sv.sha256]
            if got is None:
                report.problems.append(f"{sv.id}: blob {rel} is missing (the original bytes are lost)")
            elif got[0] != sv.sha256:
                report.problems.append(
                    f"{sv.id}: blob {rel} has SHA-256 {got[0]}, expected {sv.sha256} "
                    f"({got[1]:,} bytes, expected {sv.size:,}): the file was changed after ingest"
                )
            row = self.conn.execute("SELECT text, text_sha256 FROM versions WHERE pk = ?", [sv.pk]).fetchone()
            if sha256_of(row["text"].encode("utf-8", "surrogatepass")) != row["text_sha256"]:
                report.problems.append(f"{sv.id}: the stored document text does not match its recorded hash")
            if not self.conn.execute("SELECT 1 FROM text_index WHERE rowid = ?", [sv.pk]).fetchone():
                report.problems.append(f"{sv.id}: missing from the found-elsewhere index")
        if user is None:
            known = {r[0] for r in self.conn.execute("SELECT sha256 FROM versions")}
            for name, path in self.blobs.stored():
                if name not in known:
                    rel = path.relative_to(self.root)
                    report.notes.append(f"unreferenced blob {rel} (left by an interrupted ingest; safe to delete)")
            for path in self.blobs.leftovers():
                report.notes.append(f"temporary file {path.relative_to(self.root)} (interrupted write; safe to delete)")
        return report

    # -- runs ------------------------------------------------------------------------------
    def record_run(self, manifest: dict[str, Any]) -> None:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            self.conn.execute(
                "INSERT INTO runs(id, started_at, finished_at, user, policy_fingerprint, manifest) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [
                    manifest["run_id"],
                    manifest["started_at"],
                    manifest["finished_at"],
                    manifest["user"],
                    manifest["policy_fingerprint"],
                    json.dumps(manifest, ensure_ascii=False),
                ],
            )
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise

    def run(self, run_id: str) -> dict[str, Any] | None:
        row = self.conn.execute("SELECT manifest FROM runs WHERE id = ?", [run_id]).fetchone()
        return None if row is None else dict(json.loads(row[0]))

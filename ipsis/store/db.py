"""The store's rules, over a backend: the embedded SQLite folder (default) or PostgreSQL.

See :mod:`ipsis.store.sqlite` for the folder layout, :mod:`ipsis.store.postgres` for the shared
database, and :mod:`ipsis.store.backend` for the seam between them. Everything here (versions,
permissions, ingest, check, runs) is written once, in the SQL both engines share.

Permissions: each version has readers (none listed = everyone). Every read method takes a
``user``: ``None`` means no restriction (the owner of the folder, who can read the files
anyway); a name restricts to versions that are public or list that user; :data:`ANONYMOUS`
(the empty name, which is never a reader) sees only public versions: ``ipsis serve`` without
``--tokens``, whose callers are nobody in particular. A version the user may not read is treated
exactly like one that does not exist.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ipsis import __version__
from ipsis.doccache import DocumentCache
from ipsis.document import Document
from ipsis.errors import InputError, StoreError, VersionConflictError
from ipsis.store import derived as dv
from ipsis.store.backend import Backend, Blobs, is_url
from ipsis.store.blobs import sha256_of
from ipsis.store.docs import document_from_row, document_payload, terms_of
from ipsis.store.ids import compose_id, propose_version, resolve_id, version_key
from ipsis.store.sqlite import DB_NAME, SqliteBackend

ANONYMOUS = ""
"""The user of a caller who is nobody in particular: public versions only."""
CACHED_DOCUMENTS = 2048
CACHED_CHARS = 8_000_000
"""The store keeps the most recently used documents it has read (with the views built on them)
up to these many, and these many characters of text together: a run over any number of sources
keeps bounded memory (the views cost ~16-110 bytes per character of text, measured on a norm and
an RFC), and a run citing fewer, smaller sources reads each once."""

__all__ = ["DB_NAME", "CheckReport", "IngestOutcome", "SourceVersion", "Store", "parse_when", "utc_now"]
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
    """``store check``: problems (exit 1), warnings (files other OS users may read) and notes
    (harmless leftovers)."""

    checked: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


class Store:
    """An open store. Use as a context manager, or call :meth:`close`."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self.kind = backend.kind
        self.root = backend.root
        self.location = backend.location
        self.blobs: Blobs = backend.blobs
        self._docs = DocumentCache(CACHED_DOCUMENTS, CACHED_CHARS)

    # -- opening ---------------------------------------------------------------------------
    @classmethod
    def open(cls, target: str | Path, *, create: bool = False, durable: bool = True) -> Store:
        """Open the store at ``target``: a folder, or a ``postgresql://`` URL.

        ``create`` makes the folder (or the tables) when missing. ``durable=False`` skips the
        fsyncs (blobs, and SQLite ``synchronous=NORMAL``): a killed process still leaves a
        consistent store, but a power loss may drop the last ingests. For bulk loads such as
        benchmarks; the CLI is always durable.
        """
        if is_url(target):
            from ipsis.store.postgres import PostgresBackend

            return cls(PostgresBackend.open(str(target), create=create, durable=durable))
        return cls(SqliteBackend.open(target, create=create, durable=durable))

    def close(self) -> None:
        self.backend.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading ---------------------------------------------------------------------------
    @staticmethod
    def _visible(user: str | None, alias: str = "v") -> tuple[str, list[Any]]:
        """The permission rule, once for every backend: public, or the user is a listed reader."""
        if user is None:
            return "1 = 1", []
        if user == ANONYMOUS:
            return f"{alias}.public = 1", []
        return f'({alias}.public = 1 OR {alias}.pk IN (SELECT version_pk FROM readers WHERE "user" = ?))', [user]

    def _rows(
        self, where: str, params: Iterable[Any], user: str | None, limit: int | None = None, order: str = "v.name, v.pk"
    ) -> list[SourceVersion]:
        vis, vparams = self._visible(user)
        sql = f"SELECT {_COLUMNS} FROM versions v WHERE {where} AND {vis} ORDER BY {order}"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        rows = self.backend.query(sql, [*params, *vparams])
        readers: dict[int, list[str]] = {}
        if rows:
            marks = ",".join("?" * len(rows))
            for r in self.backend.query(
                f'SELECT version_pk, "user" FROM readers WHERE version_pk IN ({marks}) ORDER BY "user"',
                [r["pk"] for r in rows],
            ):
                readers.setdefault(r["version_pk"], []).append(r["user"])
        return [SourceVersion(**r, readers=tuple(readers.get(r["pk"], ()))) for r in rows]

    def get(self, full_id: str, user: str | None = None) -> SourceVersion | None:
        """The version stored under ``full_id`` that ``user`` may read, or None."""
        rows = self._rows("v.id = ?", [full_id], user)
        return rows[0] if rows else None

    def versions(self, user: str | None = None) -> list[SourceVersion]:
        """Every version ``user`` may read, by name, then version order."""
        rows = self._rows("1 = 1", [], user)
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

    def for_this_thread(self) -> Store:
        """The store whose connection the calling thread may use: this one (``ipsis serve``, which
        opens one per thread, answers with the calling thread's own)."""
        return self

    def document_of(self, sv: SourceVersion) -> Document:
        doc = self._docs.get(sv.pk)
        if doc is None:
            doc = document_from_row(self.row(sv.pk))
            now = self.for_this_thread  # the lazy reads below may come from another thread
            if doc.meta.get("ocr") or dv.is_pdf(doc):  # the HTML report's page image (ipsis.report.scan)
                doc.cache[("original_bytes",)] = lambda sha=sv.sha256: now().blobs.read(sha)
            for kind in dv.expected(doc):  # what was computed at ingest, read on first use
                doc.cache.provide(kind.keys, dv.loader(lambda: now().backend, sv.pk, sv.sha256, kind.name))
            self._docs.put(sv.pk, doc)
        return doc

    def row(self, pk: int) -> dict[str, Any]:
        """Every column of the version ``pk`` (text included); for copying and rebuilding."""
        return self.backend.query("SELECT * FROM versions WHERE pk = ?", [pk])[0]

    def search(self, query: str, exclude_id: str | None, user: str | None, limit: int) -> list[SourceVersion]:
        """Versions ``user`` may read whose index matches the FTS5-syntax ``query`` (by pk)."""
        cond, params = self.backend.search_condition(query)
        where = f"{cond} AND (CAST(? AS TEXT) IS NULL OR v.id <> ?)"
        return self._rows(where, [*params, exclude_id, exclude_id], user, limit, order="v.pk")

    def search_many(
        self,
        queries: Sequence[tuple[str, str | None]],
        user: str | None,
        limit: int,
        known: dict[int, SourceVersion] | None = None,
    ) -> list[list[SourceVersion]]:
        """:meth:`search` of each ``(query, exclude_id)``: the index read by one prepared
        statement (only the version keys), the versions found read once for all the queries
        (those not in ``known`` already, by key; they are added to it)."""
        vis, vparams = self._visible(user)
        found: list[list[int]] = []
        for query, exclude_id in queries:
            cond, params = self.backend.search_condition(query)
            sql = (
                f"SELECT v.pk AS pk FROM versions v WHERE {cond} AND (CAST(? AS TEXT) IS NULL OR v.id <> ?)"
                f" AND {vis} ORDER BY v.pk LIMIT {int(limit)}"
            )
            found.append([r["pk"] for r in self.backend.query(sql, [*params, exclude_id, exclude_id, *vparams])])
        versions: dict[int, SourceVersion] = {} if known is None else known
        pks = sorted({pk for hits in found for pk in hits if pk not in versions})
        for at in range(0, len(pks), 500):
            chunk = pks[at : at + 500]
            for sv in self._rows(f"v.pk IN ({','.join('?' * len(chunk))})", chunk, None):
                versions[sv.pk] = sv
        return [[versions[pk] for pk in hits] for hits in found]

    def document_frequency(self, terms: Iterable[str]) -> dict[str, int]:
        """How many stored versions hold each folded word (all versions, whoever may read them)."""
        terms = list(dict.fromkeys(terms))
        out: dict[str, int] = {}
        for i in range(0, len(terms), 500):
            chunk = terms[i : i + 500]
            sql = f"SELECT term, df FROM terms WHERE term IN ({','.join('?' * len(chunk))})"
            out.update((r["term"], r["df"]) for r in self.backend.query(sql, chunk))
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
        read_options: Mapping[str, Any] | None = None,
        work: str | None = None,
    ) -> IngestOutcome:
        """Store ``data`` as a new version; identical bytes under the same id are a no-op.

        ``read_options`` go to :func:`ipsis.ingest.load_bytes` (``engine``, ``password``,
        ``encoding``, ``position_furniture``, ``progress``); the text they give is what is stored.
        ``work`` is the work identifier the user declares (LexML URN or ELI), kept in the meta.

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

        doc = load_bytes(data, full_id, filename or full_id, fmt, **dict(read_options or {}))
        if work:  # declared at ingest (--work): a LexML URN or an ELI
            from ipsis.formats.ids import declared_work

            doc.meta["work"] = declared_work(work)
        payload = document_payload(doc)
        password = (read_options or {}).get("password")
        derived = dv.compute(doc, data, sha, password=password)  # boxes of PDF pages: kept with the version
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
        outcome = self._insert(data, row, readers, payload.index_text, derived)
        if outcome is not None:
            return outcome
        sv = self.get(full_id)
        if sv is None:  # pragma: no cover - just committed
            msg = f"{full_id} vanished right after it was stored; run `ipsis store check`"
            raise StoreError(msg)
        pages = f", {sv.page_count} pages" if sv.page_count else ""
        secs = f", {sv.section_count} sections" if sv.section_count else ""
        msg = f"stored {full_id} (sha256 {sha[:12]}, {len(data):,} bytes, {sv.media_type}{pages}{secs})"
        return IngestOutcome("stored", sv, msg)

    def _insert(
        self, data: bytes, row: dict[str, Any], readers: list[str], index_text: str, derived: Iterable[dv.Derived] = ()
    ) -> IngestOutcome | None:
        """Write the blob, then the rows (version, readers, derived data, index) in one
        transaction; an outcome when another writer won."""
        sha = row["sha256"]
        self.blobs.create_dirs()
        self.blobs.put(data, sha)
        with self.backend.write():
            again = self._existing(row["id"], sha, row["name"], row["version"])
            if again is not None:  # another process stored it meanwhile
                return again
            self.backend.execute(
                "INSERT INTO blobs(sha256, size) VALUES (?, ?) ON CONFLICT (sha256) DO NOTHING", [sha, row["size"]]
            )
            cols = ", ".join(row)
            pk = self.backend.query(
                f"INSERT INTO versions({cols}) VALUES ({', '.join('?' * len(row))}) RETURNING pk", list(row.values())
            )[0]["pk"]
            self.backend.executemany(
                'INSERT INTO readers(version_pk, "user") VALUES (?, ?)', [(pk, r) for r in readers]
            )
            self.backend.executemany(dv.INSERT, [d.values(pk) for d in derived])
            terms = terms_of(index_text)
            self.backend.add_to_index(pk, index_text, terms)
            self.backend.executemany(
                "INSERT INTO terms(term, df) VALUES (?, 1) ON CONFLICT (term) DO UPDATE SET df = terms.df + 1",
                [(t,) for t in sorted(terms)],
            )
        return None

    def copy_version(
        self, row: dict[str, Any], readers: Iterable[str], data: bytes, derived: Iterable[dict[str, Any]] = ()
    ) -> IngestOutcome:
        """Store a version read from another store exactly as it was (same text, dates, readers,
        derived rows: those computed from these bytes).

        The bytes must hash to the row's SHA-256; the index is rebuilt from the stored text.
        """
        from ipsis.store.docs import index_text

        if sha256_of(data) != row["sha256"]:
            msg = f"{row['id']}: the original bytes do not match their SHA-256 {row['sha256'][:12]}; not copied"
            raise StoreError(msg)
        existing = self._existing(row["id"], row["sha256"], row["name"], row["version"])
        if existing is not None:
            return existing
        fields = {k: v for k, v in row.items() if k != "pk"}
        kept = [
            dv.Derived(d["kind"], d["format"], d["source_sha256"], bytes(d["payload"]), d["size"])
            for d in derived
            if d["source_sha256"] == row["sha256"]
        ]
        self._insert(data, fields, sorted(readers), index_text(document_from_row(row)), kept)
        sv = self.get(row["id"])
        assert sv is not None
        return IngestOutcome("stored", sv, f"copied {sv.id} (sha256 {sv.sha256[:12]}, {sv.size:,} bytes)")

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
        from ipsis.store.docs import index_text

        report = CheckReport()
        report.warnings.extend(self.backend.check_permissions())
        db_problems = self.backend.check_database()
        report.problems.extend(db_problems)
        damaged = self.backend.database_errors
        try:
            versions = self.versions(user)
        except damaged as exc:
            report.problems.append(f"database {self.location}: the list of versions cannot be read ({_short(exc)})")
            return report
        hashes: dict[str, tuple[str, int] | None] = {}
        # (pk, index text) of each version whose stored view is current (its index text is then
        # what ingest indexed): the index is compared with them once every row has been read
        index_texts: list[tuple[int, str]] | None = [] if user is None and not db_problems else None
        unreadable: tuple[type[BaseException], ...] = (*damaged, ValueError, TypeError, KeyError, IndexError)
        for sv in versions:
            report.checked += 1
            try:
                doc, views_current = self._check_row(sv, report)
                if index_texts is not None and views_current:
                    index_texts.append((sv.pk, index_text(doc)))
            except unreadable as exc:
                # a damaged page under the row: undecodable text, JSON cut by garbage, a lost row
                report.problems.append(f"{sv.id}: its database row cannot be read ({_short(exc)})")
                db_problems = [*db_problems, report.problems[-1]]
                index_texts = None
            rel = self.blobs.label(sv.sha256)
            if sv.sha256 not in hashes:
                try:
                    hashes[sv.sha256] = self.blobs.digest(sv.sha256)
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
            try:
                if not self.backend.indexed(sv.pk):
                    report.problems.append(f"{sv.id}: missing from the found-elsewhere index")
            except damaged as exc:
                report.problems.append(f"{sv.id}: the found-elsewhere index cannot be read ({_short(exc)})")
        if index_texts:  # the whole store was read: its index must hold exactly these texts
            index_problems = self.backend.check_index(index_texts)
            report.problems.extend(index_problems)
            db_problems = [*db_problems, *index_problems]
        if user is None:
            try:
                known = {r["sha256"] for r in self.backend.query("SELECT sha256 FROM versions")}
            except damaged as exc:
                report.problems.append(f"database {self.location}: the blob hashes cannot be read ({_short(exc)})")
                known = {sv.sha256 for sv in versions}
                db_problems = [*db_problems, report.problems[-1]]
            for name, label in self.blobs.entries():
                if name not in known:
                    if db_problems:  # rows may be lost with a damaged database: the bytes are the way back
                        report.notes.append(
                            f"unreferenced blob {label}: keep it; the database is damaged, and its rows may be "
                            "the lost ones (ingest it again from this file)"
                        )
                    else:
                        report.notes.append(
                            f"unreferenced blob {label} (left by an interrupted ingest; safe to delete)"
                        )
            for label in self.blobs.leftover_labels():
                report.notes.append(f"temporary file {label} (interrupted write; safe to delete)")
        return report

    def _check_row(self, sv: SourceVersion, report: CheckReport) -> tuple[Document, bool]:
        """The version's row reads back whole: its text matches its hash, and the document
        (pages, marks, sections: every column) loads as ``verify`` would load it; with whether
        its stored views are this ipsis's (then its index text is the one ingest indexed)."""
        row = self.row(sv.pk)
        if sha256_of(row["text"].encode("utf-8", "surrogatepass")) != row["text_sha256"]:
            report.problems.append(f"{sv.id}: the stored document text does not match its recorded hash")
        doc = document_from_row(row)
        derived = self.derived_rows(sv.pk)
        problems, notes = dv.check_rows(doc, sv.sha256, derived)
        report.problems.extend(f"{sv.id}: {p}" for p in problems)
        report.notes.extend(f"{sv.id}: {n}" for n in notes)
        return doc, any(r["kind"] == "views" and dv.state(r, sv.sha256) == "ok" for r in derived)

    # -- derived data ----------------------------------------------------------------------
    def derived_rows(self, pk: int) -> list[dict[str, Any]]:
        """The derived rows of version ``pk`` (:mod:`ipsis.store.derived`)."""
        return dv.rows_of(self.backend, pk)

    def derive(self, user: str | None = None) -> list[tuple[str, list[str]]]:
        """Compute and store the derived data every version lacks (missing, stale or damaged
        rows), one transaction per version; ``(id, kinds written)`` for each version written."""
        done = []
        for sv in self.versions(user):
            doc = document_from_row(self.row(sv.pk))
            need = dv.missing(doc, sv.sha256, self.derived_rows(sv.pk))
            if not need:
                continue
            data = self.blobs.read(sv.sha256)
            if sha256_of(data) != sv.sha256:
                msg = f"{sv.id}: blob {self.blobs.label(sv.sha256)} does not match its SHA-256; run `ipsis store check`"
                raise StoreError(msg)
            rows = dv.compute(doc, data, sv.sha256, need)
            with self.backend.write():
                self.backend.executemany(dv.UPSERT, [d.values(sv.pk) for d in rows])
            self._docs.discard(sv.pk)
            done.append((sv.id, [d.kind for d in rows]))
        return done

    def compact_index(self) -> None:
        """Merge the found-elsewhere index into as few parts as the backend allows (same
        contents, faster searches); ``ipsis ingest`` of many files and ``ipsis store derive``
        do it, at ~1% of the ingest's time."""
        with self.backend.write():
            self.backend.compact_index()

    # -- runs ------------------------------------------------------------------------------
    def record_run(self, manifest: dict[str, Any]) -> None:
        with self.backend.write():
            self.backend.execute(
                'INSERT INTO runs(id, started_at, finished_at, "user", policy_fingerprint, manifest) '
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

    def run(self, run_id: str) -> dict[str, Any] | None:
        rows = self.backend.query("SELECT manifest FROM runs WHERE id = ?", [run_id])
        return None if not rows else dict(json.loads(rows[0]["manifest"]))

    def run_ids(self) -> list[str]:
        return [r["id"] for r in self.backend.query("SELECT id FROM runs ORDER BY started_at, id")]


def _short(exc: BaseException) -> str:
    """An exception for a one-line problem: its type and the start of its message (SQLite quotes
    the whole undecodable column in its message)."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:100]}{'…' if len(text) > 100 else ''}"

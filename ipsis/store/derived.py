"""Per-version derived data: what a run would otherwise recompute from a version's bytes or text.

One row per ``(version, kind)`` in the ``derived`` table, written at ingest in the version's own
transaction (a crash leaves both or neither):

- ``format``: the kind's format version (:attr:`Kind.format`, bumped when the algorithm or the
  payload layout changes). A row of another format is *stale*: never used, the data is computed
  on demand as for a version without a row, and ``ipsis store derive`` rewrites it.
- ``source_sha256``: the SHA-256 of the version's original bytes it was computed from.
- ``payload``: zlib-compressed bytes (the views' uncompressed: :data:`ipsis.store.views.COMPRESSED`);
  ``payload_sha256`` their hash and ``size`` their length uncompressed. A payload that does not
  match its hash is never used.

Kinds (:data:`KINDS`): ``boxes``, the PDFium character boxes of every page of a PDF aligned
with the document text (:mod:`ipsis.pdfboxes`); ``views``, the normalized view the default
policy matches against, with its offset map (:mod:`ipsis.store.views`). A stored document's
cache is *provided* each kind's keys (:meth:`ipsis.document.Cache.provide`), read on first use:
a run that needs no boxes reads no boxes.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ipsis.document import LINE_STARTS, Document
from ipsis.store import views
from ipsis.store.blobs import sha256_of

LEVEL = 6  # zlib level: level 9 saves ~2% more for twice the time


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of derived data: when it applies, how it is computed, packed and loaded."""

    name: str
    format: int
    keys: tuple[Any, ...]
    """The ``doc.cache`` keys it provides (:meth:`ipsis.document.Cache.provide`)."""
    applies: Callable[[Document], bool]
    compute: Callable[[Document, bytes, str | None], bytes | None]
    """``(document, original bytes, password) -> payload`` (uncompressed), None when it cannot be
    computed (no row is written: a run computes it on demand, as for an older version)."""
    load: Callable[[bytes], dict[Any, Any]]
    """payload -> ``{doc.cache key: value}`` (ValueError when it is not such a payload)."""
    compressed: bool = True
    """Whether the payload is stored zlib-compressed (the views are not: see :data:`ipsis.store.views.COMPRESSED`)."""


def _log() -> Any:
    """This module's logger (``logging`` loads only when there is something to say)."""
    import logging

    return logging.getLogger(__name__)


def is_pdf(doc: Document) -> bool:
    return doc.meta.get("format") == "pdf" or doc.meta.get("media_type") == "application/pdf"


def _boxes(doc: Document, data: bytes, password: str | None) -> bytes | None:
    from ipsis.pdfboxes import all_pages, pack_pages

    pages = all_pages(doc, data, password)
    return None if pages is None else pack_pages(pages)


def _load_boxes(payload: bytes) -> dict[Any, Any]:
    from ipsis.pdfboxes import STORED, unpack_pages

    return {STORED: unpack_pages(payload)}


def _every_version(doc: Document) -> bool:
    return True  # every version: a run against it matches on its view


def _views(doc: Document, data: bytes, password: str | None) -> bytes:
    return views.pack(doc)


def _kinds() -> dict[str, Kind]:
    from ipsis import pdfboxes

    boxes = Kind("boxes", pdfboxes.FORMAT, (pdfboxes.STORED,), is_pdf, _boxes, _load_boxes)
    keys = (*(views.key(t) for t in views.TIERS), LINE_STARTS)
    view = Kind("views", views.FORMAT, keys, _every_version, _views, views.unpack,
                views.COMPRESSED)  # fmt: skip
    return {k.name: k for k in (boxes, view)}


KINDS: dict[str, Kind] = _kinds()


@dataclass(frozen=True, slots=True)
class Derived:
    """One row to write: the kind, its format, what it was computed from, the compressed payload."""

    kind: str
    format: int
    source_sha256: str
    payload: bytes
    size: int

    @property
    def payload_sha256(self) -> str:
        return sha256_of(self.payload)

    def values(self, version_pk: int) -> list[Any]:
        return [version_pk, self.kind, self.format, self.source_sha256, self.payload, self.payload_sha256, self.size]


INSERT = (
    "INSERT INTO derived(version_pk, kind, format, source_sha256, payload, payload_sha256, size) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)
UPSERT = INSERT + (
    " ON CONFLICT (version_pk, kind) DO UPDATE SET format = excluded.format, "
    "source_sha256 = excluded.source_sha256, payload = excluded.payload, "
    "payload_sha256 = excluded.payload_sha256, size = excluded.size"
)


def compute(
    doc: Document, data: bytes, sha256: str, kinds: list[str] | None = None, password: str | None = None
) -> list[Derived]:
    """The derived rows of a version (``kinds``: only those; default every kind that applies);
    ``password`` opens an encrypted PDF, as it did for the text."""
    out = []
    for kind in KINDS.values():
        if (kinds is None or kind.name in kinds) and kind.applies(doc):
            raw = kind.compute(doc, data, password)
            if raw is None:
                _log().info("%s: %s not computed; a run computes them when needed", doc.id, kind.name)
                continue
            payload = zlib.compress(raw, LEVEL) if kind.compressed else raw
            out.append(Derived(kind.name, kind.format, sha256, payload, len(raw)))
    return out


def expected(doc: Document) -> list[Kind]:
    """The kinds a version of ``doc`` should have rows for."""
    return [k for k in KINDS.values() if k.applies(doc)]


def state(row: dict[str, Any], sha256: str) -> str:
    """``ok``, ``stale`` (another format), ``unknown`` (a kind this ipsis does not know),
    ``foreign`` (computed from other bytes) or ``damaged`` (the payload does not match its hash)."""
    kind = KINDS.get(row["kind"])
    if kind is None:
        return "unknown"
    if row["source_sha256"] != sha256:
        return "foreign"
    if sha256_of(bytes(row["payload"])) != row["payload_sha256"]:
        return "damaged"
    if row["format"] != kind.format:
        return "stale"
    return "ok"


def decode(row: dict[str, Any]) -> dict[Any, Any]:
    """The loaded payload of a row whose state is ``ok`` (ValueError when it does not decode)."""
    try:
        payload = bytes(row["payload"])
        raw = zlib.decompress(payload) if KINDS[row["kind"]].compressed else payload
    except zlib.error as exc:
        msg = f"payload does not decompress ({exc})"
        raise ValueError(msg) from None
    if len(raw) != row["size"]:
        msg = f"payload is {len(raw)} bytes, {row['size']} recorded"
        raise ValueError(msg)
    return KINDS[row["kind"]].load(raw)


_COLUMNS = "version_pk, kind, format, source_sha256, payload, payload_sha256, size"


def rows_of(backend: Any, version_pk: int) -> list[dict[str, Any]]:
    """The derived rows of one version, by kind."""
    return backend.query(f"SELECT {_COLUMNS} FROM derived WHERE version_pk = ? ORDER BY kind", [version_pk])


def loader(backend: Callable[[], Any], version_pk: int, sha256: str, kind: str) -> Callable[[], dict[Any, Any] | None]:
    """The loader of ``kind`` for :meth:`ipsis.document.Cache.provide`: its values, or None when
    the version has no usable row (missing, stale, from other bytes, damaged): they are computed.
    ``backend()`` is the connection the calling thread may use (a document may be loaded in one
    thread and read in another: ``ipsis serve`` keeps one connection per thread)."""

    def load() -> dict[Any, Any] | None:
        sql = f"SELECT {_COLUMNS} FROM derived WHERE version_pk = ? AND kind = ?"
        rows = backend().query(sql, [version_pk, kind])
        if not rows:
            return None
        if (st := state(rows[0], sha256)) != "ok":
            _log().info("stored %s of version %s are %s; computed again", kind, version_pk, st)
            return None
        try:
            return decode(rows[0])
        except ValueError as exc:
            _log().warning("stored %s of version %s cannot be read (%s); computed again", kind, version_pk, exc)
            return None

    return load


def check_rows(doc: Document, sha256: str, rows: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """``(problems, notes)`` about a version's derived rows: damaged or foreign rows are problems;
    missing and stale ones are notes (a run computes them; ``ipsis store derive`` stores them)."""
    problems, notes = [], []
    fix = "; `ipsis store derive` stores them"
    have = {r["kind"]: r for r in rows}
    for kind in expected(doc):
        row = have.get(kind.name)
        if row is None:
            notes.append(f"no stored {kind.name} (stored by an older ipsis): a run computes them{fix}")
            continue
        st = state(row, sha256)
        if st == "stale":
            notes.append(
                f"stored {kind.name} are format {row['format']}, this ipsis writes {kind.format}: not used, "
                f"a run computes them{fix}"
            )
        elif st == "foreign":
            problems.append(
                f"stored {kind.name} (a database row) were computed from other bytes (sha256 "
                f"{str(row['source_sha256'])[:12]}, the version's is {sha256[:12]}): not used{fix} again"
            )
        elif st == "damaged":
            problems.append(f"stored {kind.name} (a database row) do not match their SHA-256: not used{fix} again")
        else:
            try:
                decode(row)
            except ValueError as exc:
                problems.append(f"stored {kind.name} (a database row) cannot be read ({exc}): not used{fix} again")
    return problems, notes


def missing(doc: Document, sha256: str, rows: list[dict[str, Any]]) -> list[str]:
    """The kinds of a version that have no usable row (what ``store derive`` computes)."""
    have = {r["kind"]: r for r in rows}
    out = []
    for kind in expected(doc):
        row = have.get(kind.name)
        if row is None or state(row, sha256) != "ok":
            out.append(kind.name)
            continue
        try:
            decode(row)
        except ValueError:
            out.append(kind.name)
    return out

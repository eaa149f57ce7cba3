"""Derived data kept with each version (issue 23's boxes, ipsis.store.derived), both backends.

A run against the store takes the boxes of a PDF from the rows written at ingest: with the blob
reads and PDFium made to fail, every place (match, ambiguous candidates, nearest passage,
found-elsewhere place) gets the same boxes as the path that computes them from the original PDF.
Versions without rows (stored before, or whose rows are stale, foreign or damaged) fall back to
computing; ``store check`` says which; ``store derive`` writes them; a failed ingest leaves no row.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ipsis.store import Store
from ipsis.store import derived as dv
from tests.pg_util import StoreTarget
from tests.shared import CORPORA
from tests.store_util import RETURNS_V1, _no_store_env, run  # noqa: F401

PDF = CORPORA / "rfc/rfc7519-rfceditor-pdfrfc.pdf"
# Sentences of RFC 7519 (4.1.1 and 4.1.x), as pdftotext shows them on pages 9-10.
ISS = 'The "iss" (issuer) claim identifies the principal that issued the JWT.'
OPTIONAL = "Use of this claim is OPTIONAL."  # after every registered claim: ambiguous
NEAR = 'The "iss" (issuer) claim identifies the principal that signed the JWT.'  # one word changed
RECORDS = [
    {"citation_id": "iss", "source_id": "rfc", "quote": ISS},
    {"citation_id": "opt", "source_id": "rfc", "quote": OPTIONAL},
    {"citation_id": "near", "source_id": "rfc", "quote": NEAR},
    {"citation_id": "elsewhere", "source_id": "returns-v1", "quote": ISS},
]


@pytest.fixture
def store(tmp_path: Path, store_target: StoreTarget) -> Iterator[Any]:
    st = store_target(tmp_path / "st")
    (tmp_path / "returns.txt").write_text(RETURNS_V1, encoding="utf-8")
    for path, sid in ((PDF, "rfc"), (tmp_path / "returns.txt", "returns-v1")):
        res = run("ingest", path, "--id", sid, "--store", st)
        assert res.exit_code == 0, res.output
    yield st


def _verify(store: Any, tmp_path: Path) -> list[dict[str, Any]]:
    records = tmp_path / "records.jsonl"
    records.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    res = run("verify", records, "--store", store, "--format", "json")
    assert res.exit_code == 1, res.output
    return list(json.loads(res.stdout)["results"])


def _places(results: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """Every place's boxes, by citation and kind of place."""
    out: dict[str, list[Any]] = {}
    for r in results:
        cid = r["citation_id"]
        for m in r["matches"]:
            out.setdefault(f"{cid}/match", []).append(m.get("boxes"))
        if isinstance(r.get("nearest"), dict):
            out[f"{cid}/nearest"] = [r["nearest"].get("boxes")]
        for place in r.get("found_elsewhere") or []:
            out.setdefault(f"{cid}/elsewhere", []).append(place.get("boxes"))
    return out


def _no_blob_no_pdfium(monkeypatch: pytest.MonkeyPatch) -> None:
    import pypdfium2

    from ipsis import pdfboxes
    from ipsis.store.blobs import BlobStore
    from ipsis.store.postgres import DatabaseBlobs

    def fail(*_a: Any, **_k: Any) -> Any:
        msg = "a run against the store read the original or opened PDFium for boxes"
        raise AssertionError(msg)

    for target, name in ((BlobStore, "read"), (DatabaseBlobs, "read"), (pypdfium2, "PdfDocument")):
        monkeypatch.setattr(target, name, fail)
    monkeypatch.setattr(pdfboxes, "char_map", fail)


def _count_blob_reads(monkeypatch: pytest.MonkeyPatch, reads: list[str]) -> None:
    from ipsis.store.blobs import BlobStore
    from ipsis.store.postgres import DatabaseBlobs

    for cls in (BlobStore, DatabaseBlobs):
        original = cls.read
        monkeypatch.setattr(cls, "read", lambda self, sha, _o=original: reads.append(sha) or _o(self, sha))


def _sql(store: Any, sql: str, params: list[Any] | None = None) -> list[dict[str, Any]]:
    with Store.open(store) as st:
        if sql.startswith("SELECT"):
            return st.backend.query(sql, params or [])
        with st.backend.write():
            st.backend.execute(sql, params or [])
    return []


def test_a_store_run_takes_boxes_from_the_rows_written_at_ingest(
    store: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = _sql(
        store, "SELECT v.id, kind, format FROM derived d JOIN versions v ON v.pk = d.version_pk ORDER BY v.id, kind"
    )
    assert [(r["id"], r["kind"], r["format"]) for r in rows] == [
        ("returns-v1", "views", dv.KINDS["views"].format),  # every version: the view a run matches on
        ("rfc", "boxes", dv.KINDS["boxes"].format),  # a PDF: its boxes
        ("rfc", "views", dv.KINDS["views"].format),
    ]
    with monkeypatch.context() as m:
        _no_blob_no_pdfium(m)
        stored = _places(_verify(store, tmp_path))
    assert set(stored) == {"iss/match", "opt/match", "near/nearest", "elsewhere/elsewhere"}
    assert len(stored["opt/match"]) > 3  # every candidate of the ambiguous quote
    assert all(boxes for places in stored.values() for boxes in places)
    # the same store without its rows (as a store written before them): computed from the blob
    _sql(store, "DELETE FROM derived")
    computed = _places(_verify(store, tmp_path))
    assert stored == computed
    # and the path that reads the file itself
    records = tmp_path / "file.jsonl"
    records.write_text(json.dumps(RECORDS[0]) + "\n", encoding="utf-8")
    res = run("verify", records, "--source", f"rfc={PDF}", "--format", "json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["results"][0]["matches"][0]["boxes"] == stored["iss/match"][0]
    # the box of the located quote holds its text (page 9 of the PDF, two line runs)
    assert [b["page"] for b in stored["iss/match"][0]] == [9, 9]


def _computed_on_demand(monkeypatch: pytest.MonkeyPatch, kind: str, seen: list[Any]) -> None:
    """Record what proves ``kind`` was computed, not loaded: a blob read (boxes), or the PDF's
    whole text normalized at the typography tier (views)."""
    if kind == "boxes":
        _count_blob_reads(monkeypatch, seen)
        return
    from ipsis.verify import match

    real = match.normalize

    def spy(text: str, tier: str = "typography", **k: Any) -> Any:
        if tier == "typography" and len(text) > 50_000:
            seen.append(len(text))
        return real(text, tier, **k)

    monkeypatch.setattr(match, "normalize", spy)


@pytest.mark.parametrize("kind", ["boxes", "views"])
def test_check_names_missing_stale_and_damaged_rows_and_derive_repairs_them(
    kind: str, store: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run("store", "check", "--store", store).output.strip() == "ok: 2 source versions checked"
    good = _places(_verify(store, tmp_path))
    rfc = "version_pk = (SELECT pk FROM versions WHERE id = 'rfc')"
    (payload,) = [
        bytes(r["payload"]) for r in _sql(store, f"SELECT payload FROM derived WHERE kind = ? AND {rfc}", [kind])
    ]
    fmt = dv.KINDS[kind].format
    cases: list[tuple[str, list[Any], int, str]] = [
        ("UPDATE derived SET format = format + 1", [], 0, f"stored {kind} are format {fmt + 1}, this ipsis writes"),
        ("DELETE FROM derived", [], 0, f"no stored {kind} (stored by an older ipsis)"),
        (
            "UPDATE derived SET source_sha256 = ?",
            ["0" * 64],
            1,
            f"stored {kind} (a database row) were computed from other bytes",
        ),
        (
            "UPDATE derived SET payload = ?",
            [payload[:-7] + b"garbage"],
            1,
            f"stored {kind} (a database row) do not match their SHA-256",
        ),
    ]
    for sql, params, code, said in cases:
        _sql(store, f"{sql} WHERE kind = ? AND {rfc}", [*params, kind])
        res = run("store", "check", "--store", store)
        assert res.exit_code == code and f"rfc: {said}" in res.output, res.output
        seen: list[Any] = []
        with monkeypatch.context() as m:
            _computed_on_demand(m, kind, seen)
            assert _places(_verify(store, tmp_path)) == good  # never used: computed
        assert seen, sql
        res = run("store", "derive", "--store", store)
        assert res.exit_code == 0 and res.output.startswith(f"stored {kind} of rfc\n"), res.output
        assert "returns" not in res.output
        assert run("store", "check", "--store", store).output.strip() == "ok: 2 source versions checked"
        with monkeypatch.context() as m:
            _no_blob_no_pdfium(m)
            _computed_on_demand(m, "views", seen := [])
            assert _places(_verify(store, tmp_path)) == good
        assert seen == []
    assert run("store", "derive", "--store", store).output.strip() == "ok: 0 source versions given derived data"


def test_a_failed_ingest_leaves_neither_the_version_nor_its_rows(tmp_path: Path, store_target: StoreTarget) -> None:
    target = store_target(tmp_path / "st")
    with Store.open(target, create=True) as st:
        real = st.backend.executemany

        def fail_on_derived(sql: str, rows: Any) -> None:
            if sql.startswith("INSERT INTO derived"):
                msg = "disk full"
                raise OSError(msg)
            real(sql, rows)

        st.backend.executemany = fail_on_derived  # type: ignore[method-assign]
        with pytest.raises(OSError, match="disk full"):
            st.ingest(PDF.read_bytes(), "rfc", filename=PDF.name)
        st.backend.executemany = real  # type: ignore[method-assign]
        assert st.get("rfc") is None
        assert st.backend.query("SELECT COUNT(*) AS n FROM derived")[0]["n"] == 0
        assert st.backend.query("SELECT COUNT(*) AS n FROM versions")[0]["n"] == 0
        assert st.check().ok
        assert st.ingest(PDF.read_bytes(), "rfc", filename=PDF.name).status == "stored"  # and again, whole
        assert [r["kind"] for r in st.derived_rows(st.get("rfc").pk)] == ["boxes", "views"]  # type: ignore[union-attr]


def test_a_store_of_schema_1_is_migrated_and_keeps_working(
    store: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = _places(_verify(store, tmp_path))
    with Store.open(store) as st:
        st.backend.execute("DROP TABLE derived")
        if st.kind == "sqlite":
            st.backend.execute("PRAGMA user_version = 1")
        else:
            st.backend.execute("UPDATE ipsis_schema SET version = 1")
    assert _places(_verify(store, tmp_path)) == good  # migrated on open, no rows: computed
    assert "no stored boxes" in run("store", "check", "--store", store).output
    assert run("store", "derive", "--store", store).exit_code == 0
    with monkeypatch.context() as m:
        _no_blob_no_pdfium(m)
        assert _places(_verify(store, tmp_path)) == good


def test_store_migrate_copies_the_rows(store: Any, tmp_path: Path) -> None:
    target = tmp_path / "copy"
    res = run("store", "migrate", "--from", store, "--to", target)
    assert res.exit_code == 0, res.output
    with Store.open(store) as a, Store.open(target) as b:
        sa, sb = a.get("rfc"), b.get("rfc")
        assert sa is not None and sb is not None
        ra, rb = a.derived_rows(sa.pk), b.derived_rows(sb.pk)
        assert [(r["kind"], r["format"], r["payload_sha256"]) for r in ra] == [
            (r["kind"], r["format"], r["payload_sha256"]) for r in rb
        ]
        assert len(ra) == 2


def test_a_document_loaded_in_one_thread_reads_its_rows_in_another(tmp_path: Path) -> None:
    """``ipsis serve`` keeps one store connection per thread and shares loaded documents between
    threads: the lazy reads of a document (its stored boxes, views, original bytes) use the reading
    thread's connection (they used the loading thread's, and SQLite refuses that: a 500 now and
    then, seen in CI on tests/test_serve_store.py)."""
    import threading

    from ipsis.doccache import DocumentCache
    from ipsis.pdfboxes import STORED
    from ipsis.report.scan import ORIGINAL
    from ipsis.serve.catalog import Catalog

    st = tmp_path / "st"
    assert run("ingest", PDF, "--id", "rfc", "--store", st).exit_code == 0
    catalog = Catalog(DocumentCache(), str(st))
    loaded: list[Any] = []
    loader = threading.Thread(target=lambda: loaded.append(catalog.stored("rfc", None)))
    loader.start()
    loader.join()
    (doc,) = loaded
    assert doc is not None
    boxes, data = doc.cache.get(STORED), doc.cache[ORIGINAL]()  # this thread, not the loader's
    assert boxes and sorted(boxes) == list(range(1, len(doc.page_starts) + 1))
    assert data == PDF.read_bytes()

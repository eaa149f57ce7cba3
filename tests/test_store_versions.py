"""Versioned ids and the versioning rules of the store (library and CLI)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ipsis.errors import InputError, VersionConflictError
from ipsis.ingest.folder import SOURCE_SUFFIXES
from ipsis.store import Store, resolve_id, verify_run
from tests.pg_util import StoreTarget
from tests.store_util import CRP, RETURNS_V1, RETURNS_V2, _no_store_env, run  # noqa: F401

CASES = json.loads((Path(__file__).parent / "cases/store/ids.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["label"] for c in CASES])
def test_id_cases(case: dict[str, Any]) -> None:
    if "error" in case:
        with pytest.raises(InputError, match=None) as info:
            resolve_id(case["id"], case["version"])
        assert case["error"] in str(info.value)
        return
    assert resolve_id(case["id"], case["version"]) == (case["full_id"], case["name"], case["expect_version"])


@pytest.fixture
def store(tmp_path: Path, store_target: StoreTarget) -> Store:
    s = Store.open(store_target(tmp_path / "store"), create=True)
    yield s  # type: ignore[misc]
    s.close()


def test_identical_bytes_are_a_noop(store: Store) -> None:
    first = store.ingest(RETURNS_V1.encode(), "returns-v1")
    again = store.ingest(RETURNS_V1.encode(), "returns", "v1")
    assert (first.status, again.status) == ("stored", "unchanged")
    assert "already holds these bytes" in again.message and "nothing to do" in again.message
    assert again.version.pk == first.version.pk
    assert [v.id for v in store.versions()] == ["returns-v1"]


def test_different_bytes_are_refused_with_a_new_version(store: Store) -> None:
    store.ingest(RETURNS_V1.encode(), "returns-v1")
    with pytest.raises(VersionConflictError) as info:
        store.ingest(RETURNS_V2.encode(), "returns-v1")
    assert "--id returns --version v2" in str(info.value) and "returns-v2" in str(info.value)
    doc = store.document("returns-v1")
    assert doc is not None and doc.text == RETURNS_V1  # the stored version did not change
    store.ingest(RETURNS_V2.encode(), "returns", "v2")
    with pytest.raises(VersionConflictError, match="--version v3"):
        store.ingest(b"Returns are accepted within 90 days.", "returns-v2")


def test_dated_versions_propose_a_date(store: Store) -> None:
    store.ingest(RETURNS_V1.encode(), "returns", "2019-07-08")
    with pytest.raises(VersionConflictError) as info:
        store.ingest(RETURNS_V2.encode(), "returns@2019-07-08")
    assert "--id returns --version 20" in str(info.value)


def test_a_version_keeps_what_the_issue_lists(store: Store) -> None:
    data = CRP.read_bytes()
    out = store.ingest(
        data, "crp", "v7", filename=str(CRP), origin="https://dre.pt/crp", retrieved_at="2024-02-17T00:00:00Z"
    )
    sv = out.version
    assert sv.id == "crp-v7" and sv.size == len(data) and sv.filename == CRP.name
    assert (sv.retrieved_at, sv.origin, sv.media_type) == ("2024-02-17T00:00:00Z", "https://dre.pt/crp", "text/plain")
    assert sv.extractor == "ipsis.text" and sv.extractor_version
    assert store.blobs.read(sv.sha256) == data  # the original bytes, content-addressed
    doc = store.document("crp-v7")
    assert doc is not None and doc.text == data.decode("utf-8")
    assert doc.sections is not None and len(doc.sections) == sv.section_count and sv.section_count > 200
    art13 = doc.sections.get("art-13")
    assert art13 is not None and doc.text[art13.start : art13.end].startswith("Artigo 13.º")


def test_never_substitute_a_version(store: Store) -> None:
    store.ingest(RETURNS_V1.encode(), "returns-v1")
    store.ingest(RETURNS_V2.encode(), "returns-v2")
    records = [
        {"citation_id": "c30", "source_id": "returns-v1", "quote": "Returns are accepted within 30 days."},
        {"citation_id": "c60", "source_id": "returns-v1", "quote": "Returns are accepted within 60 days."},
        {"citation_id": "v2", "source_id": "returns-v2", "quote": "Returns are accepted within 60 days."},
        {"citation_id": "bare", "source_id": "returns", "quote": "Returns are accepted within 60 days."},
    ]
    c30, c60, v2, bare = verify_run(records, store).results
    assert c30.status == "located" and (c30.matches[0].start, c30.matches[0].end) == (0, 36)
    assert c60.status == "not_found"  # checked against v1 although v2 holds the sentence
    assert c60.found_elsewhere == [{"source_id": "returns-v2", "start": 0, "end": 36, "section": None}]
    newer = [w for w in c30.warnings + c60.warnings if w["kind"] == "newer_version"]
    assert [w["message"] for w in newer] == ["a newer version returns-v2 exists"] * 2
    assert v2.status == "located" and not v2.warnings
    assert bare.status == "unknown_source" and "cite a version: returns-v1, returns-v2" in bare.message


def test_cli_versioning_messages(tmp_path: Path, store_target: StoreTarget) -> None:
    st = store_target(tmp_path / "st")
    v1 = tmp_path / "returns.txt"
    v1.write_text(RETURNS_V1, encoding="utf-8")
    res = run("ingest", v1, "--id", "returns", "--version", "v1", "--store", st)
    assert res.exit_code == 0 and res.output.startswith("stored returns-v1 (sha256 ")
    res = run("ingest", v1, "--id", "returns-v1", "--store", st)
    assert res.exit_code == 0 and res.output.startswith("unchanged returns-v1: the store already holds these bytes")
    v1.write_text(RETURNS_V2, encoding="utf-8")
    res = run("ingest", v1, "--id", "returns-v1", "--store", st)
    assert res.exit_code == 2 and "--id returns --version v2" in res.output and "Traceback" not in res.output
    res = run("sources", "--store", st, "--format", "json")
    rows = json.loads(res.stdout)
    assert [(r["id"], r["version"], r["readers"]) for r in rows] == [("returns-v1", "v1", "everyone")]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["ingest", "NOPE.txt", "--id", "x"], "no such file or directory"),
        (["ingest", "FILE", "--id", "a b"], "--id 'a b'"),
        (["ingest", "FILE", "--retrieved", "yesterday"], "--retrieved 'yesterday' is not an ISO date"),
        (["ingest", "FILE", "FILE2", "--id", "x"], "--id names one source but 2 files"),
        (["ingest", "FILE", "--user", "bob"], "cannot run restricted to a user"),
        (["sources"], "no ipsis store"),
        (["store", "check"], "no ipsis store"),
        (["text", "returns-v1", "--store", "MISSING"], "no ipsis store at"),
        (["verify", "-", "--user", ""], "--user (or IPSIS_USER) is empty"),
    ],
)
def test_bad_input_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], needle: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "FILE").write_text(RETURNS_V1)
    (tmp_path / "FILE2").write_text(RETURNS_V2)
    res = run(*args, input="")
    assert res.exit_code == 2, res.output
    assert needle in res.output and "Traceback" not in res.output
    assert not (tmp_path / ".ipsis").exists() or args[0] == "ingest"


def test_directory_ingest_names_by_file(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "returns.txt").write_text(RETURNS_V1)
    (src / "sub" / "crp.txt").write_bytes(CRP.read_bytes())
    (src / "notes.bin").write_bytes(b"\x00\x01")
    res = run("ingest", src, "--version", "v1", "--store", tmp_path / "st")
    assert res.exit_code == 0, res.output
    assert [line.split()[1] for line in res.stdout.splitlines()] == ["returns-v1", "crp-v1"]
    suffixes = " ".join(SOURCE_SUFFIXES)
    assert res.stderr == f"note: {src}: skipped 1 file that is not a source (not {suffixes}): notes.bin\n"


@pytest.mark.parametrize(
    ("rel", "flag"),
    [
        ("es/constitucion-espanola-boe-api-texto-excerpt.xml", "versions"),  # BOE blocks: dated wordings
        ("br/lei-13709-2018-lgpd-planalto.html", "has_revoked"),  # Planalto's struck old wordings
    ],
)
def test_a_stored_section_tree_is_the_tree_of_the_document(tmp_path: Path, rel: str, flag: str) -> None:
    from ipsis.ingest import load_document
    from ipsis.sections import segment
    from tests.shared import corpus

    path = corpus(rel)
    tree = segment(load_document(path))
    assert any(getattr(s, flag) for s in tree), f"{rel}: no section with {flag} to round-trip"
    with Store.open(tmp_path / "store", create=True) as store:
        store.ingest(path.read_bytes(), path.stem, filename=path.name)
        doc = store.document(path.stem)
    assert doc is not None and doc.sections is not None
    assert list(doc.sections) == list(tree)  # every field: versions and struck wordings included

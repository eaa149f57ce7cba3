"""What only the PostgreSQL backend has: ``store migrate`` from a folder, blobs in a folder or in
the database, and two ``ipsis serve`` processes sharing one store (no lost write, no leak).
The behaviour both backends share is tested by the parametrized ``test_store_*`` suites."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from ipsis.store import Store
from tests.pg_util import PgServer
from tests.store_util import FRESHNESS, RETURNS_V1, RETURNS_V2, RFC9111, _no_store_env, run, scrub  # noqa: F401

pytest.importorskip("psycopg")


@pytest.fixture
def folder_store(tmp_path: Path) -> Path:
    st = tmp_path / "st"
    (tmp_path / "r1.txt").write_text(RETURNS_V1)
    (tmp_path / "r2.txt").write_text(RETURNS_V2)
    when = ["--retrieved", "2024-01-02", "--store", st]
    assert run("ingest", tmp_path / "r1.txt", "--id", "returns-v1", *when).exit_code == 0
    assert run("ingest", tmp_path / "r2.txt", "--id", "returns-v2", "--reader", "alice", *when).exit_code == 0
    assert run("ingest", RFC9111, "--id", "rfc9111", *when).exit_code == 0
    records = tmp_path / "records.jsonl"
    rows = [
        {"citation_id": "a", "source_id": "returns-v1", "quote": "Returns are accepted within 60 days."},
        {"citation_id": "b", "source_id": "returns-v1", "quote": FRESHNESS},
    ]
    records.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert run("verify", records, "--store", st, "--user", "alice").exit_code == 1
    return st


def test_migrate_a_folder_to_postgresql(folder_store: Path, pg_server: PgServer, tmp_path: Path) -> None:
    url = pg_server.new_database()
    res = run("store", "migrate", "--from", folder_store, "--to", url)
    assert res.exit_code == 0, res.output
    assert res.output.strip() == "ok: 3 versions copied, 0 already there, 1 run records copied; 3 verified by SHA-256"
    again = run("store", "migrate", "--from", folder_store, "--to", url)
    assert "0 versions copied, 3 already there, 0 run records copied" in again.output
    with Store.open(url) as st:
        for sid, data in (("returns-v1", RETURNS_V1.encode()), ("rfc9111", RFC9111.read_bytes())):
            sv = st.get(sid)
            assert sv is not None and sv.sha256 == hashlib.sha256(data).hexdigest()
            assert st.blobs.read(sv.sha256) == data
        assert st.check().ok
    for user in ("alice", "bob"):  # the same listing and verdicts, readers included
        outs = [
            scrub(run("sources", "--store", s, "--user", user, "--format", "json").output) for s in (folder_store, url)
        ]
        assert outs[0] == outs[1]
        recs = tmp_path / "records.jsonl"
        outs = [
            scrub(run("verify", recs, "--store", s, "--user", user, "--format", "json").stdout, folder_store, url)
            for s in (folder_store, url)
        ]
        assert outs[0] == outs[1]
    bob = json.loads(
        run("verify", tmp_path / "records.jsonl", "--store", url, "--user", "bob", "--format", "json").stdout
    )
    assert "returns-v2" not in json.dumps(bob)  # alice's version stays hidden after the move
    assert bob["results"][1]["found_elsewhere"][0]["source_id"] == "rfc9111"


def test_store_check_catches_tampered_bytes_in_the_database(folder_store: Path, pg_server: PgServer) -> None:
    url = pg_server.new_database()
    assert run("store", "migrate", "--from", folder_store, "--to", url).exit_code == 0
    with Store.open(url) as st:
        sv = st.get("returns-v1")
        assert sv is not None
        st.backend.execute("UPDATE blob_data SET data = ? WHERE sha256 = ?", [b"Returns within 90 days.", sv.sha256])
    res = run("store", "check", "--store", url)
    tampered = hashlib.sha256(b"Returns within 90 days.").hexdigest()
    assert res.exit_code == 1 and f"returns-v1: blob blob_data[{sv.sha256[:12]}] has SHA-256 {tampered}" in res.output


def test_store_check_catches_an_index_with_other_words(folder_store: Path, pg_server: PgServer) -> None:
    url = pg_server.new_database()
    assert run("store", "migrate", "--from", folder_store, "--to", url).exit_code == 0
    with Store.open(url) as st:
        sv = st.get("returns-v1")
        assert sv is not None and st.check().ok
        st.backend.execute(
            "UPDATE text_index SET terms = array_to_tsvector(CAST(? AS text[])) WHERE version_pk = ?",
            [["words", "no", "text", "holds"], sv.pk],
        )
    res = run("store", "check", "--store", url)
    assert res.exit_code == 1 and "found-elsewhere index does not match the stored texts of 1 version(s)" in res.output


def test_blobs_in_a_content_addressed_folder(pg_server: PgServer, tmp_path: Path) -> None:
    url = pg_server.new_database() + f"?blobs={tmp_path / 'blobs-root'}"
    (tmp_path / "r1.txt").write_text(RETURNS_V1)
    res = run("ingest", tmp_path / "r1.txt", "--id", "returns-v1", "--store", url)
    assert res.exit_code == 0, res.output
    sha = hashlib.sha256(RETURNS_V1.encode()).hexdigest()
    assert (tmp_path / "blobs-root" / "blobs" / sha[:2] / sha).read_bytes() == RETURNS_V1.encode()
    with Store.open(url) as st:
        assert st.backend.query("SELECT count(*) AS n FROM blob_data")[0]["n"] == 0
        assert "blobs-root" not in st.location and st.check().ok


def test_a_bad_url_is_a_clear_error(pg_server: PgServer) -> None:
    res = run("sources", "--store", "postgresql://nobody:pw@127.0.0.1:1/none")
    assert res.exit_code == 2 and "cannot connect to the store postgresql://nobody@127.0.0.1:1/none" in res.output
    assert "pw" not in res.output.replace("postgresql", "") and "Traceback" not in res.output
    res = run("sources", "--store", pg_server.new_database())
    assert res.exit_code == 2 and "no ipsis store in" in res.output


# -- two service replicas on one store ----------------------------------------------------
ALICE, BOB = "alice-token-5f1c9e0a7b3d", "bob-token-0c4e8a2b6d9f7e"


@pytest.fixture
def two_servers(folder_store: Path, pg_server: PgServer, tmp_path: Path) -> Iterator[tuple[str, list[object]]]:
    from tests.serve_helpers import running_server

    pytest.importorskip("starlette")
    url = pg_server.new_database()
    assert run("store", "migrate", "--from", folder_store, "--to", url).exit_code == 0
    tokens = tmp_path / "tokens.txt"
    tokens.write_text(f"{ALICE} alice\n{BOB} bob\n", encoding="utf-8")
    args = ("--store", url, "--tokens", str(tokens))
    with running_server(*args) as a, running_server(*args) as b:
        yield url, [a, b]


def test_two_serve_processes_share_one_store(two_servers: tuple[str, list[object]]) -> None:
    url, servers = two_servers
    rec = [
        {"citation_id": "own", "source_id": "returns-v1", "quote": "Returns are accepted within 30 days."},
        {"citation_id": "v2", "source_id": "returns-v1", "quote": "Returns are accepted within 60 days."},
        {"citation_id": "hidden", "source_id": "returns-v2", "quote": "Returns are accepted within 60 days."},
    ]

    def call(i: int) -> tuple[str, int, dict[str, object]]:
        server = servers[i % 2]
        token, user = (ALICE, "alice") if i % 3 == 0 else (BOB, "bob")
        status, data = server.post("/v1/verify", {"records": rec}, token=token)  # type: ignore[attr-defined]
        return user, status, data

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(call, range(40)))
    run_ids = set()
    for user, status, data in answers:
        assert status == 200
        statuses = [r["status"] for r in data["results"]]  # type: ignore[index]
        run_ids.add(data["run"]["run_id"])  # type: ignore[index]
        if user == "alice":
            assert statuses == ["located", "not_found", "located"]
            assert data["results"][1]["found_elsewhere"][0]["source_id"] == "returns-v2"  # type: ignore[index]
        else:  # bob: returns-v2 is unknown, and never named
            assert statuses == ["located", "not_found", "unknown_source"]
            assert "returns-v2" not in json.dumps(data["results"][:2]) and "dc4427ae" not in json.dumps(data)  # type: ignore[index]
    assert len(run_ids) == 40
    with Store.open(url) as st:  # every run of both replicas was recorded: no lost write
        stored = set(st.run_ids())
        assert run_ids <= stored
        assert {st.run(r)["user"] for r in run_ids} == {"alice", "bob"}  # type: ignore[index]


def test_schema_migrations_are_numbered_and_a_newer_schema_is_refused(pg_server: PgServer) -> None:
    from ipsis.errors import StoreError
    from ipsis.store.postgres import SCHEMA_VERSION

    url = pg_server.new_database()
    with Store.open(url, create=True) as st:
        assert st.backend.query("SELECT version FROM ipsis_schema")[0]["version"] == SCHEMA_VERSION
        st.backend.execute("UPDATE ipsis_schema SET version = ?", [SCHEMA_VERSION + 1])
    with pytest.raises(StoreError, match="newer than this ipsis understands"):
        Store.open(url)

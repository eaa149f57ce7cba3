"""Permissions: a source the user may not read is indistinguishable from one that does not exist.

Two stores: ``hidden`` holds returns-v1 (everyone), returns-v2 and rfc9111 (readers: alice);
``missing`` holds returns-v1 only. As bob, every command must print exactly the same on both
(run ids, timestamps and the store folder name aside); as alice, the hidden sources show up
(the control that makes the comparison meaningful).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.pg_util import BACKENDS, new_store
from tests.store_util import FRESHNESS, RETURNS_V1, RETURNS_V2, RFC9111, _no_store_env, run, scrub  # noqa: F401

RECORDS = [
    {"citation_id": "own", "source_id": "returns-v1", "quote": "Returns are accepted within 30 days."},
    {"citation_id": "v2-quote", "source_id": "returns-v1", "quote": "Returns are accepted within 60 days."},
    {"citation_id": "hidden-id", "source_id": "returns-v2", "quote": "Returns are accepted within 60 days."},
    {"citation_id": "hidden-9111", "source_id": "rfc9111", "quote": FRESHNESS},
    {"citation_id": "wrong-source", "source_id": "returns-v1", "quote": FRESHNESS},
    {"citation_id": "family", "source_id": "returns", "quote": "Returns are accepted within 60 days."},
]


@pytest.fixture(scope="module", params=BACKENDS)
def stores(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> tuple[Path, Path, Path]:
    base = tmp_path_factory.mktemp("perm")
    (base / "returns-v1.txt").write_text(RETURNS_V1)
    (base / "returns-v2.txt").write_text(RETURNS_V2)
    (base / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    hidden, missing = new_store(request, base / "hidden"), new_store(request, base / "missing")
    when = ["--retrieved", "2024-01-02"]
    for st in (hidden, missing):
        assert run("ingest", base / "returns-v1.txt", "--id", "returns-v1", "--store", st, *when).exit_code == 0
    secret = ["--reader", "alice", "--reader", "carol", "--store", hidden, *when]
    assert run("ingest", base / "returns-v2.txt", "--id", "returns", "--version", "v2", *secret).exit_code == 0
    assert run("ingest", RFC9111, "--id", "rfc9111", *secret).exit_code == 0
    return base, hidden, missing


COMMANDS = [
    ["text", "returns-v2"],
    ["text", "rfc9111", "--format", "json"],
    ["text", "returns-v1", "--format", "json"],
    ["sections", "rfc9111"],
    ["locate", "rfc9111", FRESHNESS],
    ["locate", "returns-v2", "Returns are accepted within 60 days.", "--format", "json"],
    ["describe", "rfc9111", "0", "20"],
    ["sources"],
    ["sources", "--format", "json"],
    ["store", "check"],
    ["verify", "RECORDS"],
    ["verify", "RECORDS", "--format", "json"],
    ["verify", "RECORDS", "--format", "jsonl"],
    ["verify", "RECORDS", "--format", "csv"],
    ["verify", "RECORDS", "--log", "LOG"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a[:3]) for a in COMMANDS])
def test_hidden_is_indistinguishable_from_missing(stores: tuple[Path, Path, Path], args: list[str]) -> None:
    base, hidden, missing = stores
    outputs = []
    for i, st in enumerate((hidden, missing)):
        log = base / f"log-{i}.json"
        argv = [str(base / "records.jsonl") if a == "RECORDS" else str(log) if a == "LOG" else a for a in args]
        res = run(*argv, "--store", st, "--user", "bob")
        text = scrub(res.output, hidden, missing)
        if "LOG" in args:
            text += scrub(log.read_text(), hidden, missing)
        outputs.append((res.exit_code, text))
    assert outputs[0] == outputs[1]
    for secret in ("dc4427ae", "aeb52adb", "alice", "freshness_lifetime"):  # hashes, a reader, rfc9111's text
        assert secret not in outputs[0][1]


def test_hidden_sources_leak_no_hash_or_text(stores: tuple[Path, Path, Path]) -> None:
    base, hidden, _ = stores
    res = run("verify", base / "records.jsonl", "--store", hidden, "--user", "bob", "--format", "json")
    out = res.stdout
    secret_text = RFC9111.read_text(encoding="utf-8-sig")
    assert "dc4427ae" not in out and "aeb52adb3279" not in out  # sha256 of returns-v2 and rfc9111
    assert "found_elsewhere" not in out and "newer version" not in out
    assert secret_text[:200] not in out
    results = {r["citation_id"]: r for r in json.loads(out)["results"]}
    assert results["hidden-id"]["status"] == results["hidden-9111"]["status"] == "unknown_source"
    assert results["family"]["message"] == "unknown source 'returns'; cite a version: returns-v1"


def test_readers_see_what_bob_does_not(stores: tuple[Path, Path, Path]) -> None:
    base, hidden, _ = stores
    res = run("verify", base / "records.jsonl", "--store", hidden, "--user", "alice", "--format", "json")
    results = {r["citation_id"]: r for r in json.loads(res.stdout)["results"]}
    assert results["hidden-id"]["status"] == "located"
    assert results["hidden-9111"]["status"] == "located"
    assert results["v2-quote"]["found_elsewhere"] == [
        {"source_id": "returns-v2", "start": 0, "end": 36, "section": None}
    ]
    assert results["own"]["warnings"][0]["message"] == "a newer version returns-v2 exists"
    wrong = results["wrong-source"]
    assert wrong["status"] == "not_found" and wrong["found_elsewhere"][0]["source_id"] == "rfc9111"
    assert "cite a version: returns-v1, returns-v2" in results["family"]["message"]
    res = run("text", "rfc9111", "--store", hidden, "--user", "carol")
    assert res.exit_code == 0 and res.output == RFC9111.read_text(encoding="utf-8-sig")
    res = run("sources", "--store", hidden, "--user", "alice")
    assert [line.split()[0] for line in res.output.splitlines()[1:]] == ["returns-v1", "returns-v2", "rfc9111"]
    # Without a user nothing is filtered (the folder's owner):
    res = run("sources", "--store", hidden, "--format", "json")
    assert [r["readers"] for r in json.loads(res.stdout)] == ["everyone", ["alice", "carol"], ["alice", "carol"]]


def test_env_user_restricts_like_the_option(stores: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    _, hidden, _ = stores
    monkeypatch.setenv("IPSIS_USER", "bob")
    monkeypatch.setenv("IPSIS_STORE", str(hidden))
    res = run("text", "returns-v2")
    assert res.exit_code == 2 and "returns-v2: no such file" in res.output
    res = run("ingest", RFC9111, "--id", "x")
    assert res.exit_code == 2 and "cannot run restricted to a user" in res.output

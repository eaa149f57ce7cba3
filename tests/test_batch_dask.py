"""``ipsis verify --engine dask``: partitioned by source on a local Dask cluster, the same results
as one process (byte for byte after sorting), every input shard accounted for, and a partition
whose worker dies is retried rather than lost."""

from __future__ import annotations

import json
import pickle
import random
import re
from pathlib import Path
from typing import Any

import pytest

import ipsis
from ipsis.batch import partition_records
from ipsis.store import Store
from tests.shared import SHARED
from tests.store_util import CRP, RFC7519, RFC9111, ROOT, _no_store_env, run  # noqa: F401
from tests.test_store_verify import sample_quote

pytest.importorskip("distributed")

SOURCES = {
    "rfc7519": RFC7519,
    "rfc9111": RFC9111,
    "crp": CRP,
    "cf88@1988-10-05": SHARED / "corpora/br/cf88-senado-texto-original-1988.html",
    "lgpd": SHARED / "corpora/br/lei-13709-2018-lgpd-planalto.html",
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """A store of five corpus documents, and 240 records split over three JSONL shards."""
    base = tmp_path_factory.mktemp("dask")
    st = base / "st"
    for sid, path in SOURCES.items():
        assert run("ingest", path, "--id", sid, "--store", st, "--retrieved", "2024-05-01").exit_code == 0
    rng = random.Random(12)
    records: list[Any] = []
    with Store.open(st) as store:
        docs = {sid: store.document(sid) for sid in SOURCES}
    while len(records) < 240:
        sid = rng.choice(sorted(SOURCES))
        doc = docs[sid]
        assert doc is not None
        span = sample_quote(doc.text, rng, lambda s, e, d=doc: d.marks_overlapping(ipsis.Span(s, e)))
        if span is None:
            continue
        cited = sid if len(records) % 6 else ("crp" if sid != "crp" else "rfc9111")  # wrong source: found elsewhere
        records.append({"citation_id": f"q{len(records)}", "source_id": cited, "quote": doc.text[span[0] : span[1]]})
    records[17] = {"citation_id": "no-quote", "source_id": "crp"}  # invalid: numbered by its place (18)
    records[101]["source_id"] = "lgpd@2099-01-01"  # unknown source
    shards = base / "shards"
    shards.mkdir()
    for i, chunk in enumerate((records[:100], records[100:130], records[130:])):
        (shards / f"part-{i}.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in chunk))
    whole = base / "all.jsonl"
    whole.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return st, shards, whole


def _lines(text: str) -> list[str]:
    return sorted(re.sub(r"run-\d{8}T\d{6}Z-[0-9a-f]{8}", "RUN", line) for line in text.splitlines())


def _shard_lines(out: Path) -> str:
    return "".join(p.read_text(encoding="utf-8") for p in sorted((out / "results").glob("*.jsonl")))


def test_dask_matches_one_process_byte_for_byte(corpus: tuple[Path, Path, Path], tmp_path: Path) -> None:
    st, shards, whole = corpus
    single = run("verify", whole, "--store", st, "--format", "jsonl")
    out = tmp_path / "out"
    res = run("verify", str(shards / "*.jsonl"), "--store", st, "--engine", "dask", "--workers", "2", "-o", out)
    assert res.exit_code == single.exit_code == 1, res.output
    assert "verified 240/240 records" in res.stderr
    assert res.stderr.splitlines()[-1] == single.stderr.splitlines()[-1]  # the same summary line
    assert _lines(_shard_lines(out)) == _lines(single.stdout)
    by_id = {r["citation_id"]: r for r in map(json.loads, _shard_lines(out).splitlines())}
    assert by_id["no-quote"]["status"] == "invalid_record" and "record 18:" in by_id["no-quote"]["message"]
    assert by_id["q0"]["status"] == "not_found" and by_id["q0"]["found_elsewhere"]  # the wrong source, q0 % 6 == 0
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert [(Path(i["path"]).name, i["records"], i["results"]) for i in manifest["inputs"]] == [
        ("part-0.jsonl", 100, 100),
        ("part-1.jsonl", 30, 30),
        ("part-2.jsonl", 110, 110),
    ]
    assert manifest["complete"] and manifest["engine"]["workers"] == 2 and not manifest["failed"]
    assert manifest["engine"]["cpu_seconds"] > 0  # the workers' own time verifying
    assert manifest["engine"]["client_peak_rss_mb"] > 10 and manifest["engine"]["worker_peak_rss_mb"] > 10
    assert sum(o["results"] for o in manifest["outputs"]) == 240 == manifest["summary"]["total"]
    assert {o["source"] for o in manifest["outputs"]} == {*SOURCES, "lgpd@2099-01-01"}  # one partition per source
    with Store.open(st) as store:
        assert store.run(manifest["run_id"]) == manifest
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json", "results"]  # the input index removed


def test_a_task_carries_where_its_records_are_not_the_records(
    corpus: tuple[Path, Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the client hands the scheduler per task is a range of the index, a few hundred bytes
    whether the partition holds 3 records or 100: the records are read by the worker."""
    import distributed

    from ipsis.batch.engine import run_batch

    st, _, whole = corpus
    quotes = [r["quote"] for r in map(json.loads, whole.read_text(encoding="utf-8").splitlines()) if "quote" in r]
    sizes: list[tuple[int, int]] = []  # (records in the partition, pickled bytes of the task's arguments)
    submit = distributed.Client.submit

    def spy(self: Any, func: Any, *args: Any, **kwargs: Any) -> Any:
        payload = pickle.dumps(args)
        assert not any(q.encode() in payload for q in quotes)  # no record's quote travels with its task
        sizes.append((args[2].count, len(payload)))
        return submit(self, func, *args, **kwargs)

    monkeypatch.setattr(distributed.Client, "submit", spy)
    with Store.open(st) as store:
        for cap in (3, 100):
            batch = run_batch([str(whole)], tmp_path / f"out-{cap}", store=store, workers=1, max_partition=cap)
            assert batch.manifest["complete"] and sum(batch.statuses.values()) == 240
    small = max(n for c, n in sizes if c <= 3)
    assert max(c for c, _ in sizes) >= 60  # a large partition was handed out too (~58 bytes of quote a record)
    assert max(n for _, n in sizes) < small + 200 < 1500  # its task no larger than one of 3 records
    single = _lines(_shard_lines(tmp_path / "out-3"))
    assert single == _lines(_shard_lines(tmp_path / "out-100"))  # the same results however partitioned


def test_a_local_cluster_of_too_many_workers_is_refused(corpus: tuple[Path, Path, Path], tmp_path: Path) -> None:
    _, _, whole = corpus
    res = run("verify", whole, "--engine", "dask", "--workers", "1000", "-o", tmp_path / "o")
    assert res.exit_code == 2, res.output
    assert "--workers 1000: a local cluster of more than 4 worker processes per core" in res.output


def test_a_partition_whose_worker_dies_is_retried(
    corpus: tuple[Path, Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ipsis.batch.engine import CRASH_HOOK, run_batch

    st, shards, _ = corpus
    marker = tmp_path / "crashed"
    monkeypatch.setenv(CRASH_HOOK, str(marker))
    with Store.open(st) as store:
        batch = run_batch([str(shards / "part-1.jsonl")], tmp_path / "out", store=store, workers=2, max_partition=8)
    assert marker.read_text().startswith("crashed on partition")  # a worker really died mid-run
    assert batch.manifest["complete"] and [i["results"] for i in batch.manifest["inputs"]] == [30]
    assert sum(batch.statuses.values()) == 30 and len(_shard_lines(tmp_path / "out").splitlines()) == 30


def test_partitions_keep_each_source_together_and_number_records() -> None:
    recs = [(0, {"source_id": "a"}), (0, {"source_id": "b"}), (1, {"source_id": "a"}), (1, ["not a record"])]
    parts = partition_records(recs, max_size=1)
    assert [(p.key, p.numbers) for p in parts] == [("a", (1,)), ("a", (3,)), ("", (4,)), ("b", (2,))]


def test_bad_batch_input_is_a_clear_error(tmp_path: Path) -> None:
    res = run("verify", str(tmp_path / "nothing-*.jsonl"), "--engine", "dask", "-o", tmp_path / "o")
    assert res.exit_code == 2 and "no file matches this pattern" in res.output
    (tmp_path / "a.jsonl").write_text("{}\n")
    res = run("verify", tmp_path / "a.jsonl", "--engine", "dask")
    assert res.exit_code == 2 and "pass -o DIR" in res.output
    res = run("verify", tmp_path / "a.jsonl", tmp_path / "a.jsonl")
    assert res.exit_code == 2 and "use --engine dask for many" in res.output

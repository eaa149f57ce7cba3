"""A streamed store-backed run keeps flat memory: its results are not kept once handed out,
and the store's documents stay within their bound, with the same results as an unbounded run.
(The figures, peak RSS at 10k-1M records: ``benchmarks/scale.py --memory``.)"""

from __future__ import annotations

import gc
import json
import random
from pathlib import Path
from typing import Any

import pytest

from ipsis.doccache import DocumentCache
from ipsis.store import RunStream, Store
from ipsis.verify.records import BLOCK
from ipsis.verify.result import Result
from tests.store_util import CRP, RFC7519, RFC9111, _no_store_env, run  # noqa: F401

SOURCES = {"rfc7519": RFC7519, "rfc9111": RFC9111, "crp": CRP}


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    st = tmp_path_factory.mktemp("memory") / "st"
    for sid, path in SOURCES.items():
        res = run("ingest", path, "--id", sid, "--store", st)
        assert res.exit_code == 0, res.output
    return st


def records(store: Store, n: int, seed: int = 7) -> list[dict[str, Any]]:
    """Passages of the stored texts as written (line ends kept): every 10th cites another source
    than its own."""
    rng = random.Random(seed)
    texts = {sid: store.document(sid).text for sid in SOURCES}  # type: ignore[union-attr]
    ids = sorted(texts)
    out = []
    for i in range(n):
        own = ids[i % 3]
        text = texts[own]
        quote = ""
        # a passage of words (not a row of spaces) within a paragraph (not across a page's
        # furniture), out of the tables of contents (their dot leaders are one whatever their length)
        while len("".join(quote.split())) < 40 or any(x in quote for x in ("\n\n", "\f", ". .")):
            s = text.find(" ", rng.randrange(0, len(text) - 300)) + 1
            quote = text[s : text.rfind(" ", s, s + rng.randint(60, 200))].strip()
        cited = ids[(i + 1) % 3] if i % 10 == 9 else own
        out.append({"citation_id": f"r{i}", "source_id": cited, "quote": quote, "own": own})
    return out


def _results_alive() -> int:
    gc.collect()
    return sum(type(o) is Result for o in gc.get_objects())


def test_streamed_run_does_not_keep_results(store_dir: Path) -> None:
    n = 3 * BLOCK + 100
    with Store.open(store_dir) as st:
        recs = [{k: v for k, v in r.items() if k != "own"} for r in records(st, n)]
        before = _results_alive()
        alive = []
        done = 0
        for r in RunStream(iter(recs), st):
            done += 1
            assert r.status in ("located", "ambiguous", "not_found"), (r.citation_id, r.status, r.message)
            del r
            if done % 500 == 0:
                alive.append(_results_alive() - before)
    assert done == n
    # at most the block being annotated and the one being read (kept, ``n`` would be alive at the end)
    assert max(alive) <= 2 * BLOCK, alive
    assert alive[-1] <= 2 * BLOCK < n


def test_bounded_documents_same_results(store_dir: Path) -> None:
    with Store.open(store_dir) as st:
        recs = records(st, 400, seed=3)
        texts = {sid: st.document(sid).text for sid in SOURCES}  # type: ignore[union-attr]
    outs = []
    for bound in (None, 1):
        with Store.open(store_dir) as st:
            if bound:  # one document at a time: every record citing another source reads it again
                st._docs = DocumentCache(max_documents=bound)
            stream = RunStream(iter([{k: v for k, v in r.items() if k != "own"} for r in recs]), st)
            results = list(stream)
            if bound:
                assert len(st._docs.keys()) == 1
            assert sorted(stream.documents) == sorted(SOURCES)  # every cited document, asked of the store
            assert all(stream.documents[sid].text == texts[sid] for sid in SOURCES)
            outs.append([json.dumps({**r.to_json(), "run_id": None}, sort_keys=True) for r in results])
    assert outs[0] == outs[1]
    for rec, line in zip(recs, outs[1], strict=True):
        r = json.loads(line)
        own, quote = rec["own"], rec["quote"]
        if own == rec["source_id"]:  # the passage as written, in its own source
            assert r["status"] in ("located", "ambiguous"), (rec, r["message"])
            assert any(texts[own][m["start"] : m["end"]] == quote for m in r["matches"]), rec
        elif " ".join(quote.split()) in " ".join(texts[rec["source_id"]].split()):  # boilerplate both have
            assert r["status"] in ("located", "ambiguous"), rec
        else:  # cited to another source: not there, found in its own at the passage
            assert r["status"] == "not_found", rec
            places = [(p["source_id"], p["start"], p["end"]) for p in r["found_elsewhere"]]
            assert any(texts[s][a:b] == quote for s, a, b in places if s == own), (rec, places)


def test_input_index_reads_partitions_as_the_whole_input_would(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    from ipsis.batch import partition_records
    from ipsis.batch.inputs import InputIndex
    from ipsis.errors import InputError, RecordError
    from ipsis.verify.records import parse_records

    a = tmp_path / "a.jsonl"  # a BOM, CRLF line ends, blank lines, a record that is not an object
    a.write_bytes(
        b'\xef\xbb\xbf{"citation_id": 1, "source_id": "x", "quote": "um"}\r\n\r\n'
        b'{"citation_id": 2, "source_id": "y", "quote": "dois \\u00ba"}\n["not a record"]\n\n'
        + '{"citation_id": 4, "source_id": "x", "quote": "quatro º"}'.encode()
    )
    b = tmp_path / "b.json"  # a JSON array, blanks before it
    b.write_text('\n  [{"citation_id": 5, "source_id": "y", "quote": "cinco"}, {"citation_id": 6}]', encoding="utf-8")
    index = InputIndex([a, b])
    request.addfinalizer(index.close)
    assert [s.records for s in index.shards] == [4, 2] and len(index) == 6
    got = [index.read(part) for part in index.partitions(max_size=2)]
    assert [(p.key, p.numbers, p.shards) for p in got] == [
        ("", (3, 6), (0, 1)),  # the two without a source id
        ("x", (1, 4), (0, 0)),
        ("y", (2, 5), (0, 1)),
    ]
    assert [r["quote"] for r in got[1].records] == ["um", "quatro º"] and got[2].records[0]["quote"] == "dois º"
    whole = [(i, r) for i, f in enumerate((a, b)) for r in parse_records(f.read_text(encoding="utf-8-sig"))]
    assert got == partition_records(whole, max_size=2)  # the same partitions, records and all
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b'{"citation_id": 1, "source_id": "x", "quote": "q"}\n{"citation_id": 2,\n')
    with pytest.raises(RecordError, match=r"bad.jsonl: line 2 is not valid JSON"):
        InputIndex([bad])
    bad.write_bytes(b'{"citation_id": 1, "source_id": "x", "quote": "q"}\n{"quote": "\xe7a"}\n')
    with pytest.raises(InputError, match=r"bad.jsonl: line 2 is not UTF-8 .*save the file as UTF-8"):
        InputIndex([bad])

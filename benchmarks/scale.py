"""Batch verification on Dask: records/s with 1 and 2 local workers, scaling efficiency, and the
cluster size that 100M records/day would need at those rates.

Sources: 1,000 generated documents (as in ``store.py``: 12 paragraphs of corpus sentences with
their numbers redrawn, ~5 KB each) in a SQLite store. Records: 80% quote their cited source,
10% quote another source (not_found, then the found-elsewhere look-up), 10% are altered (found
nowhere), written as 10 JSONL shards. Each engine run is ``ipsis.batch.engine.run_batch`` (the
code behind ``ipsis verify --engine dask``) on a LocalCluster of N worker processes; the figure
is records/s over the whole run (cluster start excluded, reading inputs and writing the result
shards included).

    python benchmarks/scale.py                    # 1,000,000 records, 1,000 sources
    python benchmarks/scale.py --records 20000    # a shorter run (the rates do not depend on N)
    python benchmarks/scale.py --quick            # reduced run for CI
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from store import alter, make_source, sample, sentences  # noqa: E402

from ipsis.batch.engine import run_batch  # noqa: E402
from ipsis.store import Store  # noqa: E402

PER_DAY = 100_000_000
SHARDS = 10


def write_records(store: Store, n_sources: int, n: int, folder: Path, rng: random.Random) -> list[str]:
    ids = [f"src{k:05d}-v1" for k in range(n_sources)]
    texts = {}
    for sid in ids:
        doc = store.document(sid)
        assert doc is not None
        texts[sid] = doc.text
    files = [folder / f"records-{i:02d}.jsonl" for i in range(SHARDS)]
    handles = [f.open("w", encoding="utf-8") for f in files]
    try:
        for i in range(n):
            cited = rng.choice(ids)
            kind = i % 10
            own = rng.choice(ids) if kind == 8 else cited
            q = sample(texts[own], rng)
            if kind == 9:
                q = alter(q)
            rec = {"citation_id": f"r{i}", "source_id": cited, "quote": q}
            handles[i % SHARDS].write(json.dumps(rec, ensure_ascii=False) + "\n")
    finally:
        for h in handles:
            h.close()
    return [str(f) for f in files]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="reduced run for CI")
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--sources", type=int, default=1_000)
    ap.add_argument("--workers", default="1,2", help="worker counts to measure (default 1,2)")
    args = ap.parse_args()
    n_records, n_sources = (600, 50) if args.quick else (args.records, args.sources)
    counts = [int(w) for w in args.workers.split(",")]
    rng = random.Random(12)
    pool = sentences()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        t = time.perf_counter()
        with Store.open(base / "st", create=True, durable=False) as store:
            for k in range(n_sources):
                store.ingest(make_source(k, pool, rng), f"src{k:05d}", "v1")
            print(f"ingested {n_sources:,} sources in {time.perf_counter() - t:.1f} s")
            t = time.perf_counter()
            inputs = write_records(store, n_sources, n_records, base, rng)
            print(f"generated {n_records:,} records in {SHARDS} shards in {time.perf_counter() - t:.1f} s")
            rates: dict[int, float] = {}
            reference: str | None = None
            for w in counts:
                out = base / f"out-{w}"
                batch = run_batch(inputs, out, store=store, workers=w)
                m = batch.manifest
                assert m["complete"] and sum(i["results"] for i in m["inputs"]) == n_records
                rates[w] = n_records / m["seconds"]
                lines = sorted(
                    line.replace(batch.run_id, "RUN")
                    for p in sorted((out / "results").glob("*.jsonl"))
                    for line in p.read_text(encoding="utf-8").splitlines()
                )
                digest = str(hash(tuple(lines)))
                same = "same results" if reference in (None, digest) else "RESULTS DIFFER"
                reference = reference or digest
                s = m["summary"]
                print(
                    f"{w} worker(s): {n_records:,} records in {m['seconds']:.1f} s = {rates[w]:,.0f} records/s "
                    f"({m['partitions']} partitions; located {s['located']:,}; {s['by_status']}; {same})"
                )
    one = rates.get(1)
    if one and len(rates) > 1:
        for w, r in rates.items():
            if w > 1:
                print(f"scaling 1 -> {w} workers: x{r / one:.2f}, efficiency {r / (w * one):.0%}")
    need = PER_DAY / 86_400
    best_w = max(rates)
    per_worker = rates[best_w] / best_w
    print(
        f"100M records/day = {need:,.0f} records/s sustained: {math.ceil(need / per_worker)} worker processes "
        f"at {per_worker:,.0f} records/s each (the {best_w}-worker rate), before headroom"
    )


if __name__ == "__main__":
    main()

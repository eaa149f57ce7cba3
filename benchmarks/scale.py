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
    python benchmarks/scale.py --records 30000 --cited 30   # shorter, 1,000 records per cited source
    python benchmarks/scale.py --quick            # reduced run for CI
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import itertools
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import nullcontext
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from store import alter, make_source, sample, sentences  # noqa: E402

from ipsis.batch.engine import run_batch  # noqa: E402
from ipsis.store import Store  # noqa: E402
from ipsis.store.runs import Verifier  # noqa: E402
from ipsis.verify import Policy  # noqa: E402
from ipsis.verify.batch import clear_caches, reference_path  # noqa: E402

PER_DAY = 100_000_000
RUN_ID = re.compile(r"run-\d{8}T\d{6}Z-[0-9a-f]{8}")
SHARDS = 10


def write_records(
    store: Store,
    n_sources: int,
    n: int,
    folder: Path,
    rng: random.Random,
    cited_sources: int | None = None,
    shards: int = SHARDS,
) -> list[str]:
    ids = [f"src{k:05d}-v1" for k in range(n_sources)]
    cited_ids = ids[: cited_sources or n_sources]
    texts = {}
    for sid in ids:
        doc = store.document(sid)
        assert doc is not None
        texts[sid] = doc.text
    files = [folder / f"records-{i:02d}.jsonl" for i in range(shards)]
    handles = [f.open("w", encoding="utf-8") for f in files]
    try:
        for i in range(n):
            cited = rng.choice(cited_ids)
            kind = i % 10
            own = rng.choice(ids) if kind == 8 else cited
            q = sample(texts[own], rng)
            if kind == 9:
                q = alter(q)
            rec = {"citation_id": f"r{i}", "source_id": cited, "quote": q}
            handles[i % shards].write(json.dumps(rec, ensure_ascii=False) + "\n")
    finally:
        for h in handles:
            h.close()
    return [str(f) for f in files]


def one_worker(folder: Path, inputs: list[str], n: int) -> None:
    """Records/s of one worker's loop (``Verifier``, partitions by source as the engine makes
    them) on the first ``n`` records, blocks vs the per-quote reference path, each on a freshly
    opened store with no quote cached; same results."""
    records = [json.loads(line) for f in inputs for line in Path(f).read_text(encoding="utf-8").splitlines()]
    # the first n as generated (shard by shard, the first n would be records of one kind only:
    # record i is in shard i % 10, and i % 10 is its kind)
    records = sorted(records, key=lambda r: int(r["citation_id"][1:]))[:n]
    records.sort(key=lambda r: r["source_id"])  # the engine's partitions: one source each
    rates: dict[str, list[float]] = {"reference": [], "blocks": []}
    cpu: dict[str, list[float]] = {"reference": [], "blocks": []}
    outs = {}
    for name in ("reference", "blocks") * 2:  # interleaved twice: a busy moment hits both
        context = reference_path() if name == "reference" else nullcontext()
        clear_caches()
        with context, Store.open(folder) as store:
            t, c = time.perf_counter(), time.process_time()
            v = Verifier(store, "run", policy=Policy())
            outs[name] = [json.dumps(r.to_json(), sort_keys=True) for r in v.iter_verify(records)]
            rates[name].append(len(records) / (time.perf_counter() - t))
            cpu[name].append(len(records) / (time.process_time() - c))
    same = "same results" if outs["reference"] == outs["blocks"] else "RESULTS DIFFER"
    ref, blocks = max(rates["reference"]), max(rates["blocks"])
    print(
        f"one worker in-process, {len(records):,} records (best of 2): per-quote reference {ref:,.0f} records/s,"
        f" blocks {blocks:,.0f} records/s = x{blocks / ref:.2f} ({same})"
    )
    ref, blocks = max(cpu["reference"]), max(cpu["blocks"])
    print(
        f"  the same in CPU time (less disturbed by other jobs): reference {ref:,.0f} records/s,"
        f" blocks {blocks:,.0f} records/s = x{blocks / ref:.2f}"
    )


MEMORY_COUNTS = (10_000, 100_000, 1_000_000)
MODES = ("cli", "api")
"""How a user runs a batch: ``ipsis verify RECORDS.jsonl --store DIR -o OUT.jsonl`` (``cli``); the
streaming Python API, :class:`~ipsis.store.RunStream` over :func:`~ipsis.verify.records.iter_records`,
each result written as it comes (``api``); and, when Dask is installed, ``ipsis verify RECORDS.jsonl
--engine dask --workers N -o DIR`` (``dask-N``: the client's and the largest worker's peak RSS, from
the run's manifest); every mode's results compared with the first mode's (``cli``)."""


def run_child(argv: list[str]) -> tuple[float, float, float]:
    """Peak RSS (MB), wall and CPU seconds of one child process (its own, from ``wait4``)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    t = time.perf_counter()
    child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert child.stderr is not None
    err = child.stderr.read()  # a run's summary line; read before waiting, so the pipe never fills
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - t
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 1):  # 1: some records not located, as generated
        msg = f"{argv[:4]} exited {child.returncode}: {err.decode(errors='replace')[-2000:]}"
        raise SystemExit(msg)
    return usage.ru_maxrss / 1024, wall, usage.ru_utime + usage.ru_stime


def api_child(records: str, store_dir: str, out: str) -> None:
    """The ``api`` mode's child: the streaming run, results written one at a time."""
    from ipsis.store import RunStream
    from ipsis.verify.records import iter_records

    with Store.open(store_dir) as store, open(records, "rb") as fh, open(out, "w", encoding="utf-8") as o:
        run = RunStream(iter_records(fh, records), store, records_name=records)
        for r in run:
            o.write(json.dumps(r.to_json(), ensure_ascii=False) + "\n")
        run.finish()


def result_digest(files: list[Path]) -> tuple[int, int]:
    """The number of result lines and a digest of them as a multiset (in any order, run ids
    blanked), read a line at a time: a million results are compared without holding them."""
    lines = total = 0
    for f in files:
        with open(f, encoding="utf-8") as fh:
            for line in fh:
                lines += 1
                h = hashlib.blake2b(RUN_ID.sub("RUN", line).encode(), digest_size=16).digest()
                total = (total + int.from_bytes(h, "little")) % (1 << 128)
    return lines, total


def memory(
    base: Path,
    store: Store,
    n_sources: int,
    counts: list[int],
    rng: random.Random,
    dask_workers: list[int],
    only: list[str] | None = None,
) -> None:
    """Peak RSS of a whole run per records count and mode, and the ratio between the largest and
    the smallest run: flat memory is a ratio near 1 (the per-source caches, bounded, fill in the
    smallest run already, when it cites every source)."""
    t = time.perf_counter()
    (first,) = write_records(store, n_sources, max(counts), base, rng, shards=1)
    print(f"generated {max(counts):,} records citing all {n_sources:,} sources in {time.perf_counter() - t:.1f} s")
    dask = importlib.util.find_spec("distributed") is not None
    modes = [*MODES, *(f"dask-{w}" for w in dask_workers if dask)]
    modes = [m for m in modes if only is None or m in only]
    rss: dict[str, dict[int, float]] = {m: {} for m in modes}
    st = str(base / "st")
    for n in sorted(counts):
        records = base / f"first-{n}.jsonl"
        with open(first, "rb") as src, open(records, "wb") as dst:
            dst.writelines(itertools.islice(src, n))
        expected = None
        for mode in modes:
            out = base / f"out-{mode}-{n}.jsonl"
            cli = [sys.executable, "-m", "ipsis", "verify", str(records), "--store", st]
            if mode == "cli":
                argv = [*cli, "--format", "jsonl", "-o", str(out)]
            elif mode.startswith("dask-"):
                out = base / f"out-{mode}-{n}"
                argv = [*cli, "--engine", "dask", "--workers", mode[5:], "-o", str(out)]
            else:
                argv = [sys.executable, __file__, "--api-child", str(records), st, str(out)]
            peak, wall, cpu = run_child(argv)
            files = sorted((out / "results").glob("*.jsonl")) if out.is_dir() else [out]
            lines, digest = result_digest(files)
            assert lines == n, f"{mode}: {lines:,} results for {n:,} records"
            expected = expected or digest
            same = f"same results as {modes[0]}" if digest == expected else f"RESULTS DIFFER from {modes[0]}"
            extra = ""
            if out.is_dir():  # a Dask run: the client's own peak, and its largest worker's
                engine = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["engine"]
                peak = engine["client_peak_rss_mb"]
                extra = f" (client; largest worker {engine['worker_peak_rss_mb']:.1f} MB)"
            shutil.rmtree(out) if out.is_dir() else out.unlink()
            rss[mode][n] = peak
            print(
                f"{mode:>6}: {n:>9,} records: peak RSS {peak:7.1f} MB{extra}, {wall:7.1f} s wall,"
                f" {cpu:7.1f} s CPU = {n / cpu:,.0f} records/s CPU; {same}"
            )
        records.unlink()
    lo, hi = min(counts), max(counts)
    for mode in modes:
        print(f"{mode}: peak RSS at {hi:,} records / at {lo:,} = x{rss[mode][hi] / rss[mode][lo]:.2f}")


def parse_counts(arg: str) -> list[int]:
    return [int(n) for n in arg.split(",")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="reduced run for CI")
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--sources", type=int, default=1_000)
    ap.add_argument("--workers", default="1,2", help="worker counts to measure (default 1,2; 0 for none)")
    ap.add_argument(
        "--cited",
        type=int,
        default=None,
        help="records cite only the first N sources (default all): a shorter run with as many records"
        " per source as the full run (1,000), the found-elsewhere index still over every source",
    )
    ap.add_argument("--compare", type=int, default=5000, help="records for the in-process per-worker comparison")
    ap.add_argument(
        "--memory",
        nargs="?",
        const=",".join(map(str, MEMORY_COUNTS)),
        default=None,
        metavar="N,N,...",
        help="peak RSS of single-process runs (the CLI and the streaming API) of these records counts"
        " (default 10k, 100k, 1M; --quick: 1k, 5k, 50 sources) instead of the throughput figures",
    )
    ap.add_argument("--modes", default=None, help="--memory: only these modes (cli, api, dask-N; default all)")
    ap.add_argument("--api-child", nargs=3, metavar=("RECORDS", "STORE", "OUT"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.api_child:
        api_child(*args.api_child)
        return
    n_records, n_sources = (600, 50) if args.quick else (args.records, args.sources)
    worker_counts = [int(w) for w in args.workers.split(",") if int(w) > 0]
    rng = random.Random(12)
    pool = sentences()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        t = time.perf_counter()
        with Store.open(base / "st", create=True, durable=False) as store:
            for k in range(n_sources):
                store.ingest(make_source(k, pool, rng), f"src{k:05d}", "v1")
            store.compact_index()  # as `ipsis ingest` of many files does at its end
            print(f"ingested {n_sources:,} sources in {time.perf_counter() - t:.1f} s")
            if args.memory or args.quick:  # --quick: a reduced memory run too
                counts = [1000, 5000] if args.quick else parse_counts(args.memory)
                memory(base, store, n_sources, counts, rng, worker_counts, args.modes and args.modes.split(","))
                if args.memory:
                    return
            t = time.perf_counter()
            inputs = write_records(store, n_sources, n_records, base, rng, None if args.quick else args.cited)
            print(f"generated {n_records:,} records in {SHARDS} shards in {time.perf_counter() - t:.1f} s")
            one_worker(base / "st", inputs, 300 if args.quick else args.compare)
            rates: dict[int, float] = {}
            reference: str | None = None
            for w in worker_counts:
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
                cpu = m["engine"]["cpu_seconds"]
                print(
                    f"{w} worker(s): {n_records:,} records in {m['seconds']:.1f} s = {rates[w]:,.0f} records/s "
                    f"({m['partitions']} partitions; located {s['located']:,}; {s['by_status']}; {same})\n"
                    f"  the workers' CPU time verifying (all {w} together): {cpu:.1f} s ="
                    f" {n_records / max(cpu, 1e-9):,.0f} records per worker-CPU-second (wall above minus this:"
                    f" cores taken by other jobs, the client, the scheduler, reading and partitioning the inputs)"
                )
    if not rates:
        return
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

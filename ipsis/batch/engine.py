"""``ipsis verify RECORDS --engine dask``: the partitions of a batch run on a Dask cluster.

The client reads the input shards, partitions the records by source (so a worker loads a
source's normalized views once, kept in its process's store cache), and submits one task per
partition. Each task verifies its records with the same :class:`~ipsis.store.runs.Verifier` as
a single-process run and writes its results (the lines ``--format jsonl`` prints, in input order)
to ``OUT/results/part-NNNNN.jsonl`` atomically, so a retried task rewrites the same file. A task
that raises is retried, and one whose worker dies is rescheduled by Dask; one that still fails
makes the run fail, listed in the manifest, never dropped. ``OUT/manifest.json`` lists every input
shard with its record count and result count, and every output shard.

Without ``--scheduler`` a LocalCluster of worker processes is started on loopback.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ipsis.batch.inputs import InputIndex, Slice, expand_inputs, read_slice
from ipsis.document import Document
from ipsis.errors import InputError, IpsisError
from ipsis.verify.policy import Policy
from ipsis.verify.result import LOCATED, STATUSES

RETRIES = 2
IN_FLIGHT = 3
"""Partitions handed to the cluster per worker at a time (the others wait, unread, in the client)."""
LOCAL_PER_CORE = 4
"""Most local worker processes per core: beyond, a mistaken count (a benchmark once asked for
1,000) starts a process storm that looks like a hang rather than failing."""
CRASH_HOOK = "IPSIS_BATCH_CRASH_ONCE"
"""Fault injection for tests: a path; the first task to find it missing creates it and kills its worker."""

_STORES: dict[str, Any] = {}
_VERSIONS: dict[tuple[str, str | None, str | None], dict[int, Any]] = {}
"""The found-elsewhere candidates this worker process has read, per run (and user): one
partition's look-ups reuse another's instead of reading the same versions again."""


class BatchError(IpsisError):
    """A batch run could not complete (a partition failed after its retries)."""


@dataclass(frozen=True, slots=True)
class Job:
    """What every task needs (pickled once per task; small)."""

    run_id: str
    out_dir: str
    store: str | None
    user: str | None
    policy: Policy
    fallback: Any = None  # a SourceMap, or None


@dataclass(frozen=True, slots=True)
class BatchRun:
    run_id: str
    manifest: dict[str, Any]
    statuses: Counter[str]


def _worker_store(target: str | None) -> Any:
    """The store of this worker process (opened once, documents cached for all its tasks)."""
    if target is None:
        return None
    store = _STORES.get(target)
    if store is None:
        from ipsis.store import Store

        store = _STORES[target] = Store.open(target)
    return store


def verify_partition(job: Job, index: int, where: Slice) -> dict[str, Any]:
    """Verify one partition on a worker (its records read here, from the input shards); write its
    result shard; return counts and sources used."""
    from ipsis.store.runs import Verifier

    marker = os.environ.get(CRASH_HOOK)
    if marker and not os.path.exists(marker):
        Path(marker).write_text(f"crashed on partition {index}\n", encoding="utf-8")
        os._exit(17)
    fallback: Callable[[str], Document | None] | None = job.fallback.get if job.fallback is not None else None
    cpu = time.process_time()
    part = read_slice(where)
    key = (job.run_id, job.store, job.user)
    if key not in _VERSIONS:
        _VERSIONS.clear()  # another run's: its permissions may differ
    versions = _VERSIONS.setdefault(key, {})
    v = Verifier(
        _worker_store(job.store), job.run_id, user=job.user, policy=job.policy, fallback=fallback, versions=versions
    )
    results = v.verify(part.records, part.numbers)
    rel = f"results/part-{index:05d}.jsonl"
    target = Path(job.out_dir) / rel
    tmp = target.with_name(f".{target.name}.{uuid.uuid4().hex[:8]}.tmp")
    with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        fh.writelines(json.dumps(r.to_json(), ensure_ascii=False) + "\n" for r in results)
    os.replace(tmp, target)
    return {
        "index": index,
        "path": rel,
        "source": part.key,
        "results": len(results),
        "per_shard": dict(Counter(part.shards)),
        "statuses": dict(Counter(r.status for r in results)),
        "used": v.used,
        "cpu_seconds": time.process_time() - cpu,
        "peak_rss_mb": peak_rss_mb(),
    }


def peak_rss_mb() -> float:
    """This process's peak resident memory in MB (0 where the platform does not say)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return 0.0
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(kb / (1 << 20 if sys.platform == "darwin" else 1024), 1)


def _summary(statuses: Counter[str]) -> dict[str, Any]:
    """The shape of :func:`ipsis.report.summary`, from counts."""
    return {
        "total": sum(statuses.values()),
        "located": statuses.get(LOCATED, 0),
        "by_status": {s: statuses[s] for s in STATUSES if statuses.get(s)},
    }


def _client(scheduler: str | None, workers: int) -> tuple[Any, Any]:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        msg = "--engine dask needs Dask: pip install 'ipsis[dask]'"
        raise InputError(msg) from None
    if scheduler:
        try:
            return Client(scheduler, timeout="20s"), None
        except OSError as exc:
            msg = f"--scheduler {scheduler}: cannot reach the Dask scheduler ({exc}); check the address"
            raise InputError(msg) from exc
    cores = os.cpu_count() or 1
    if workers > LOCAL_PER_CORE * cores:
        msg = (
            f"--workers {workers}: a local cluster of more than {LOCAL_PER_CORE} worker processes per core"
            f" ({cores} here) would only thrash; pass fewer, or --scheduler ADDRESS for a real cluster"
        )
        raise InputError(msg)
    cluster = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        # a free port for the scheduler's HTTP server: with None it takes 8787 and, when another
        # cluster on the machine holds it, warns (an error where warnings are errors)
        dashboard_address=":0",
        silence_logs=50,
    )
    return Client(cluster), cluster


def run_batch(
    inputs: Sequence[str],
    out_dir: str | Path,
    *,
    store: Any = None,
    user: str | None = None,
    policy: Policy | None = None,
    fallback: Any = None,
    scheduler: str | None = None,
    workers: int | None = None,
    max_partition: int | None = None,
    progress: Callable[[int, int, int, int], None] | None = None,
) -> BatchRun:
    """Verify every record of ``inputs`` on Dask; write ``out_dir/results/*.jsonl`` and the manifest.

    ``store`` is an open :class:`~ipsis.store.Store` (its location is opened again on each
    worker) or None. ``progress(done_records, total_records, done_partitions, partitions)``.
    """
    paths = expand_inputs(inputs)
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        msg = f"-o {out}: a file; --engine dask writes a folder of result shards, name a folder"
        raise InputError(msg)
    (out / "results").mkdir(parents=True, exist_ok=True)
    for old in (out / "results").glob("part-*.jsonl"):
        old.unlink()  # shards of an earlier run would be mistaken for this one's
    # the index where the workers read it (they write to OUT already), removed at the end
    with InputIndex(paths, out.resolve() / ".index") as index:
        return _run(index, out, store, user, policy or Policy(), fallback, scheduler, workers, max_partition, progress)


def _run(
    index: InputIndex,
    out: Path,
    store: Any,
    user: str | None,
    policy: Policy,
    fallback: Any,
    scheduler: str | None,
    workers: int | None,
    max_partition: int | None,
    progress: Callable[[int, int, int, int], None] | None,
) -> BatchRun:
    from ipsis.store.db import utc_now
    from ipsis.store.runs import make_manifest, merge_used, new_run_id, write_manifest

    paths = index.paths
    parts = index.partitions(max_partition) if max_partition else index.partitions()
    run_id, started = new_run_id(), utc_now()
    job = Job(run_id, str(out.resolve()), store.location if store is not None else None, user, policy, fallback)
    total = len(index)
    n_workers = workers or max(1, os.cpu_count() or 1)
    client, cluster = _client(scheduler, n_workers)
    statuses: Counter[str] = Counter()
    per_shard: Counter[int] = Counter()
    used: dict[str, dict[str, Any]] = {}
    outputs: list[dict[str, Any]] = []
    failed: list[dict[str, Any]] = []
    cpu = worker_rss = 0.0
    t0 = time.perf_counter()
    try:
        from distributed import as_completed

        # a few partitions per worker in flight, each task a range of the index: the workers
        # read the records, the client and the scheduler never hold them (memory stays flat)
        window = IN_FLIGHT * max(n_workers, len(client.scheduler_info().get("workers", {})))
        todo = iter(enumerate(parts))
        futures: dict[Any, tuple[int, Slice]] = {}

        def submit(i: int, part: Slice) -> Any:
            fut = client.submit(verify_partition, job, i, part, key=f"ipsis-{run_id}-{i}", retries=RETRIES, pure=False)
            futures[fut] = (i, part)
            return fut

        running = as_completed([submit(i, part) for i, part in itertools.islice(todo, window)])
        done = 0
        for fut in running:
            i, part = futures.pop(fut)
            for j, nxt in itertools.islice(todo, 1):  # the next one takes its place
                running.add(submit(j, nxt))
            try:
                res = fut.result()
            except Exception as exc:  # a partition that failed after its retries
                failed.append({"partition": i, "source": part.key, "records": part.count, "error": repr(exc)[:300]})
                continue
            finally:
                fut.release()  # the scheduler forgets its task (records and all) now, not at the end
            done += res["results"]
            cpu += res["cpu_seconds"]
            worker_rss = max(worker_rss, res["peak_rss_mb"])
            statuses.update(res["statuses"])
            per_shard.update({int(k): v for k, v in res["per_shard"].items()})
            merge_used(used, res["used"])
            outputs.append({k: res[k] for k in ("path", "source", "results")})
            if progress is not None:
                progress(done, total, len(outputs), len(parts))
        address = client.scheduler.address if client.scheduler else scheduler
        n_seen = len(client.scheduler_info().get("workers", {}))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    elapsed = time.perf_counter() - t0
    name = ", ".join(str(p) for p in paths) if len(paths) <= 3 else f"{paths[0]} and {len(paths) - 1} more"
    manifest = make_manifest(run_id, started, store, user, policy, name, _summary(statuses), used)
    manifest.update(
        {
            "engine": {
                "name": "dask",
                "scheduler": scheduler or f"local ({address})",
                "workers": n_seen,
                "cpu_seconds": round(cpu, 3),  # the workers' own, verifying (not waiting for a core)
                # peak resident memory of the client process and of the largest worker process
                "client_peak_rss_mb": peak_rss_mb(),
                "worker_peak_rss_mb": worker_rss,
            },
            "complete": not failed and sum(statuses.values()) == total,
            "records_total": total,
            "seconds": round(elapsed, 3),
            "inputs": [
                {"path": s.path, "records": s.records, "results": per_shard.get(k, 0)}
                for k, s in enumerate(index.shards)
            ],
            "partitions": len(parts),
            "outputs": sorted(outputs, key=lambda o: o["path"]),
            "failed": sorted(failed, key=lambda f: f["partition"]),
        }
    )
    write_manifest(out / "manifest.json", manifest)
    if store is not None:
        store.record_run(manifest)
    if failed:
        lost = sum(f["records"] for f in failed)
        msg = (
            f"{len(failed)} of {len(parts)} partitions failed after {RETRIES} retries ({lost} records without a "
            f"result; first: {failed[0]['error']}); see {out / 'manifest.json'}"
        )
        raise BatchError(msg)
    return BatchRun(run_id, manifest, statuses)


def progress_printer() -> Callable[[int, int, int, int], None]:
    """Progress on stderr: one rewritten line on a terminal, else a line about every 10%."""
    last = [-1]

    def show(done: int, total: int, parts_done: int, parts: int) -> None:
        line = f"verified {done:,}/{total:,} records ({parts_done}/{parts} partitions)"
        if sys.stderr.isatty():
            print("\r" + line, end="\n" if parts_done == parts else "", file=sys.stderr, flush=True)
            return
        decile = done * 10 // max(total, 1)
        if decile != last[0] or parts_done == parts:
            last[0] = decile
            print(line, file=sys.stderr, flush=True)

    return show

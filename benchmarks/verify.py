"""Whole-process ``ipsis verify`` on the speed workload against other ways to find the quotes.

The workload (``workload.py``): a 5 MB text from the RFCs and the Portuguese Constitution and
1,000 quotes of 20-300 characters, about a quarter of them found in several places. Figures,
all in ms per quote, medians of ``--repeat`` runs, in this process unless said otherwise:

- ``ipsis verify`` as a whole process (start-up, reading and normalizing the source, JSONL out);
- ``verify_records`` in-process, the block path and the per-quote reference path (both must
  give the same results; checked here);
- the naive floor: a ``str.find`` loop counting every occurrence of the quote as given;
- the obvious per-quote approach: normalize the whole source, then a ``regex`` with word
  boundaries counting overlapping matches (a few quotes, scaled);
- gtrex ``Verifier.verify`` (built once, warmed; it stops at the first hit);
- reanchor ``resolve_quote`` on a prepared document (a subset of the quotes).

gtrex and reanchor are measured when installed (``pip install gtrex reanchor``), else skipped.

    python benchmarks/verify.py            # 5 MB, 1,000 quotes
    python benchmarks/verify.py --quick    # 0.5 MB, 100 quotes, for CI
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
import regex  # noqa: E402
from processes import child_env  # noqa: E402
from workload import write  # noqa: E402

from ipsis import Document  # noqa: E402
from ipsis.ingest.normalize import normalize  # noqa: E402
from ipsis.verify.batch import clear_caches, reference_path  # noqa: E402
from ipsis.verify.records import verify_records  # noqa: E402

CPU_IN: list[float] = []
"""CPU seconds of the last :func:`median_time` (median), beside its wall time."""


def median_time(fn: Callable[[], object], repeat: int) -> float:
    """Median wall seconds of ``repeat`` runs; the median CPU seconds go to :data:`CPU_IN`."""
    times, cpu = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fn()
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    CPU_IN[:] = [statistics.median(cpu)]
    return statistics.median(times)


CPU: list[float] = []
"""CPU seconds (user + system) of each whole-process run: steadier than wall time on a shared machine."""


ENV: dict[str, str] = {}
"""The children's environment: :func:`processes.child_env`, bytecode cached as an installed ipsis has it."""


def whole_process(records: Path, sources: Path | str, env: dict[str, str] | None = None) -> None:
    """``ipsis verify`` on ``records`` with ``--sources MAP``, or (a string) ``--store DIR``."""
    env = env or ENV
    where = ["--store", sources] if isinstance(sources, str) else ["--sources", str(sources)]
    cmd = [sys.executable, "-m", "ipsis", "verify", str(records), *where, "--format", "jsonl"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([*cmd, "-o", os.devnull], env=env, check=False, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)


STORED = "ipsis verify --store (whole process, stored view)"
COMPUTED = "ipsis verify --store (whole process, view computed)"
UNCACHED = "ipsis verify --store (stored view, no bytecode cache)"


def stores(tmp: Path, source: Path) -> tuple[str, str]:
    """Two stores holding the workload text as ``bench``: one as ingest writes it (the view kept
    with the version), one without its derived rows (as a store written before them)."""
    from ipsis.store import Store

    out = []
    for name in ("stored", "computed"):
        with Store.open(tmp / name, create=True, durable=False) as st:
            st.ingest(source.read_bytes(), "bench", filename=source.name)
            if name == "computed":
                with st.backend.write():
                    st.backend.execute("DELETE FROM derived")
        out.append(str(tmp / name))
    return out[0], out[1]


def child_cpu(cmd: list[str], repeat: int) -> float:
    """Median CPU seconds of ``repeat`` runs of a child process (after one warm-up run)."""
    times = []
    for k in range(repeat + 1):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd, env=ENV, check=False, capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if k:
            times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(times)


def floor_parts(tmp: Path, records: Path, store: str, repeat: int) -> None:
    """What a store-backed run costs before its quotes: the interpreter, the imports of
    ``ipsis verify``, a run of no records (start-up, the store, the run's record) and of one
    (the cited version's text, sections and stored view read): whole processes, CPU time."""
    empty, one = tmp / "empty.jsonl", tmp / "one.jsonl"
    empty.write_text("", encoding="utf-8")
    one.write_text(records.read_text(encoding="utf-8").split("\n", 1)[0] + "\n", encoding="utf-8")
    verify = [sys.executable, "-m", "ipsis", "verify"]
    tail = ["--store", store, "--format", "jsonl", "-o", os.devnull]
    parts = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "imports of ipsis verify": [sys.executable, "-c", "import ipsis.cli.core, ipsis.store.runs"],
        "ipsis verify, no records": [*verify, str(empty), *tail],
        "ipsis verify, one record": [*verify, str(one), *tail],
    }
    print("the fixed part of a store-backed run (whole processes, CPU time, medians):")
    for name, cmd in parts.items():
        print(f"  {name:52s} {child_cpu(cmd, max(3, repeat)) * 1e3:8.1f} ms")
    built = [dataclasses_built([str(one), *tail]) for _ in range(max(3, repeat))]
    ms = statistics.median(b[0] for b in built)
    print(f"  {f'of the one-record run: {built[0][1]} @dataclass classes built':52s} {ms:8.1f} ms")


DATACLASS_PROBE = """
import dataclasses, sys, time
spent = [0.0, 0]
build = dataclasses._process_class
def timed(*args, **kw):
    t = time.process_time()
    try:
        return build(*args, **kw)
    finally:
        spent[0] += time.process_time() - t
        spent[1] += 1
dataclasses._process_class = timed
from ipsis.cli import main
try:
    main(["verify", *sys.argv[1:]], prog_name="ipsis")
except SystemExit:
    pass
print(f"{spent[0] * 1e3:.3f} {spent[1]}")
"""
"""A one-record run with the building of every ``@dataclass`` class timed (CPU): Python 3.11
compiles each class's generated methods (``__init__``, ``__eq__``, ``__repr__``, ``__hash__``,
a frozen class's ``__setattr__``/``__delattr__``) from source, in every process."""


def dataclasses_built(args: list[str]) -> tuple[float, int]:
    """CPU ms spent building ``@dataclass`` classes in ``ipsis verify ARGS``, and how many."""
    out = subprocess.run([sys.executable, "-c", DATACLASS_PROBE, *args], env=ENV, capture_output=True, text=True)
    ms, count = out.stdout.split()[-2:]
    return float(ms), int(count)


LOOP_PARTS = {
    "ipsis.verify.batch": ("quote_keys", "find_many"),
    "ipsis.verify.records": ("locate",),
    "ipsis.verify.locate": ("_search", "_contexts", "_selector_for", "_cheapest_tier"),
}
"""The functions whose time :func:`loop_parts` prints, each wrapped in the module that calls it
by that name: the block's quote normalization and its one automaton pass, then ``locate`` per
quote and its largest parts (their time is also inside ``locate``'s)."""


def loop_parts(recs: list[dict[str, str]], doc: Document, repeat: int) -> None:
    """Where the in-process block path's time goes: CPU ms per 1,000 quotes in each of
    :data:`LOOP_PARTS` (wrapped with a timer, so a little slower than unwrapped) and in the
    JSONL encoding of the results, medians of ``repeat`` runs."""
    import importlib

    from ipsis.report import _encode_line

    spent: dict[str, float] = {}
    saved = []
    for module_name, names in LOOP_PARTS.items():
        module = importlib.import_module(module_name)
        for name in names:
            fn = getattr(module, name)
            saved.append((module, name, fn))

            def timed(*a: object, _fn: Callable[..., object] = fn, _name: str = name, **k: object) -> object:
                t = time.process_time()
                try:
                    return _fn(*a, **k)
                finally:
                    spent[_name] = spent.get(_name, 0.0) + time.process_time() - t

            setattr(module, name, timed)
    runs: list[dict[str, float]] = []
    try:
        for _ in range(repeat):
            clear_caches()
            spent.clear()
            results = list(verify_records(recs, lambda _s: doc))
            t = time.process_time()
            for r in results:
                _encode_line(r.to_json())
            runs.append({**spent, "JSONL encoding": time.process_time() - t})
    finally:
        for module, name, fn in saved:
            setattr(module, name, fn)
    scale = 1000 / len(recs)
    print("the in-process block path's parts (CPU ms per 1,000 quotes, medians; parts of locate are inside it):")
    for name in runs[0]:
        print(f"  {name:52s} {statistics.median(r[name] for r in runs) * 1e3 * scale:8.1f} ms")


def obvious(text: str, quote: str) -> int:
    view = normalize(text, "typography").text
    q = normalize(quote, "typography").text.strip()
    pattern = regex.compile(r"(?<!\w)" + regex.escape(q) + r"(?!\w)")
    return sum(1 for _ in pattern.finditer(view, overlapped=True))


def find_loop(text: str, quote: str) -> int:
    n, i = 0, text.find(quote)
    while i != -1:
        n += 1
        i = text.find(quote, i + 1)
    return n


def run(size: int, n: int, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        ENV.update(child_env(Path(tmp) / "pycache"))
        src, recs_path, smap = write(Path(tmp), size, n)
        text = src.read_text(encoding="utf-8")
        recs = [json.loads(line) for line in recs_path.read_text(encoding="utf-8").splitlines()]
        quotes = [r["quote"] for r in recs]
        mb = len(text.encode()) / 1e6
        print(f"workload: {mb:.1f} MB, {len(quotes)} quotes of 20-300 characters; medians of {repeat}")
        print("whole processes: bytecode cached as an installed ipsis has it (benchmarks/processes.py), warmed")
        whole_process(recs_path, smap)  # the warm-up run writes the bytecode cache
        per: dict[str, float] = {}
        cpu: dict[str, float] = {}  # CPU seconds per quote (steadier than wall time on a shared machine)
        per["ipsis verify (whole process)"] = median_time(lambda: whole_process(recs_path, smap), repeat) / n
        cpu["ipsis verify (whole process)"] = statistics.median(CPU) / n  # the child's, not this process's
        stored, computed = stores(Path(tmp), src)
        for name, folder in ((STORED, stored), (COMPUTED, computed)):
            CPU.clear()
            per[name] = median_time(lambda f=folder: whole_process(recs_path, f), repeat) / n
            cpu[name] = statistics.median(CPU) / n
        floor_parts(Path(tmp), recs_path, stored, repeat)
        CPU.clear()  # as a checkout runs with PYTHONDONTWRITEBYTECODE=1: every module compiled
        uncached = child_env(Path(tmp) / "empty", compiled=False)
        per[UNCACHED] = median_time(lambda: whole_process(recs_path, stored, uncached), repeat) / n
        cpu[UNCACHED] = statistics.median(CPU) / n

        doc = Document("bench", text)

        def results() -> list[str]:
            clear_caches()  # no path gets the other's normalized quotes
            return [json.dumps(r.to_json(), sort_keys=True) for r in verify_records(recs, lambda _s: doc)]

        fast = results()  # builds the document's views once (the whole-process figure includes it)
        per["verify_records in-process (blocks)"] = median_time(results, repeat) / n
        loop_parts(recs, doc, repeat)
        cpu["verify_records in-process (blocks)"] = CPU_IN[0] / n
        with reference_path():
            slow = results()
            per["verify_records in-process (per quote, reference)"] = median_time(results, repeat) / n
            cpu["verify_records in-process (per quote, reference)"] = CPU_IN[0] / n
        ambiguous = sum('"status": "ambiguous"' in r for r in fast)
        print(f"same results on both paths: {fast == slow} ({ambiguous} ambiguous of {n})")
        per["naive floor (str.find loop, every occurrence)"] = (
            median_time(lambda: [find_loop(text, q) for q in quotes], repeat) / n
        )
        cpu["naive floor (str.find loop, every occurrence)"] = CPU_IN[0] / n
        k = 3
        per["obvious per quote (normalize + regex, boundaries)"] = (
            median_time(lambda: [obvious(text, q) for q in quotes[:k]], 1) / k
        )
        cpu["obvious per quote (normalize + regex, boundaries)"] = CPU_IN[0] / k
        try:
            from gtrex import Verifier

            ver = Verifier(text)
            ver.verify(quotes[0])
            per["gtrex Verifier.verify (warmed, first hit)"] = (
                median_time(lambda: [ver.verify(q) for q in quotes], repeat) / n
            )
            cpu["gtrex Verifier.verify (warmed, first hit)"] = CPU_IN[0] / n
        except ImportError:
            print("gtrex not installed: skipped (pip install gtrex)")
        try:
            from reanchor import TextQuoteSelector, prepare_document, resolve_quote

            prepared = prepare_document(text)
            sub = quotes[: max(10, n // 10)]
            per["reanchor resolve_quote (prepared)"] = median_time(
                lambda: [resolve_quote(prepared, TextQuoteSelector(exact=q)) for q in sub], 1
            ) / len(sub)
            cpu["reanchor resolve_quote (prepared)"] = CPU_IN[0] / len(sub)
        except ImportError:
            print("reanchor not installed: skipped (pip install reanchor)")
        for name, t in per.items():
            print(f"  {name:52s} {t * 1e3:8.3f} ms/quote   CPU {cpu[name] * 1e3:8.3f} ms/quote")
        print(
            f"store-backed ipsis verify, the version's view kept at ingest vs computed by the run: "
            f"{per[COMPUTED] / per[STORED]:.2f}x faster ({cpu[COMPUTED] / cpu[STORED]:.2f}x in CPU time)"
        )
        for ours_name in ("ipsis verify (whole process)", STORED):
            compare(ours_name, per, cpu)


def compare(ours_name: str, per: dict[str, float], cpu: dict[str, float]) -> None:
    """The ratios of one whole-process ipsis figure to the others, with the issue's targets."""
    ours = per[ours_name]
    for name, target in [
        ("gtrex Verifier.verify (warmed, first hit)", 2),
        ("obvious per quote (normalize + regex, boundaries)", 50),
        ("reanchor resolve_quote (prepared)", 20),
        ("verify_records in-process (per quote, reference)", 1),
    ]:
        if name in per:
            ours_cpu = cpu[ours_name]
            print(
                f"{ours_name} vs {name}: {per[name] / ours:.1f}x faster"
                f" ({cpu[name] / ours_cpu:.1f}x in CPU time; target >= {target}x)"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="0.5 MB, 100 quotes, one run")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if args.quick:
        run(500_000, 100, 1)
    else:
        run(5_000_000, 1000, args.repeat)


if __name__ == "__main__":
    main()

"""Hostile inputs and load: how ipsis fails, per category, and how much memory verify takes.

Run: ``python benchmarks/hostile.py`` (``--quick``: the first 6 cases of each category and
small memory runs; what CI runs). Every case is an ``ipsis`` run in its own
subprocess with a timeout (``tests/hostile/battery.py``). The table counts, per category: inputs
tried, clear errors (exit 2, one line naming the input), findings (exit 0/1 with results),
tracebacks (must be 0), hangs (must be 0), other failures (must be 0), faults injected, data lost
(records read without a result in the output; must be 0) and the peak RSS of the worst case.

The memory part verifies N JSONL records with ``ipsis verify --format jsonl`` (streamed) and,
as the baseline in the same run, the way verify worked before (all records parsed into a list,
all results rendered at the end), and prints each peak RSS.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.hostile.battery import (  # noqa: E402
    _CHILD,
    CATEGORIES,
    CLEAR_ERROR,
    FINDING,
    HANG,
    ISS,
    RFC_TXT,
    TRACEBACK,
    Outcome,
    _peak_rss_mb,
    all_cases,
    run_case,
)

_SUMMARY = re.compile(r"located=(\d+)/(\d+)")
_TOTAL = re.compile(r'"total": (\d+)')


def lost_records(outcome: Outcome) -> int:
    """Records in a verify input that have no result (from the ``located=N/M`` summary)."""
    case = outcome.case
    if case.argv[0] != "verify" or outcome.kind != FINDING:
        return 0
    data = case.files.get(case.argv[1], case.stdin or b"")
    if data.lstrip().startswith(b"["):
        return 0
    read = sum(1 for line in data.splitlines() if line.strip())
    fmt = case.argv[case.argv.index("--format") + 1] if "--format" in case.argv else "table"
    if fmt == "jsonl":
        return read - outcome.stdout_lines
    if fmt == "csv":
        return read - (outcome.stdout_lines - 1)
    m = _TOTAL.search(outcome.stdout) if fmt == "json" else _SUMMARY.search(outcome.stdout[-2000:])
    return read - int(m.group(m.re.groups)) if m else read


def battery(quick: bool, timeout: float) -> bool:
    cases = all_cases(quick=quick)
    if quick:  # a sample, so that CI runs it in seconds: the first cases of each category
        seen: dict[str, int] = defaultdict(int)
        sample = []
        for c in cases:
            seen[c.category] += 1
            if seen[c.category] <= 6:
                sample.append(c)
        cases = sample
    rows: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    bad: list[str] = []
    with tempfile.TemporaryDirectory(prefix="ipsis-hostile-") as tmp:
        for i, case in enumerate(cases):
            outcome = run_case(case, Path(tmp) / f"case-{i}", timeout=timeout)
            row = rows[case.category]
            row["tried"] += 1
            row[outcome.kind] += 1
            row["faults"] += case.faults or 1
            row["lost"] += lost_records(outcome)
            row["rss"] = max(row["rss"], outcome.peak_rss_mb)
            row["seconds"] += outcome.seconds
            if not outcome.ok:
                bad.append(f"{case.category}: {case.name}: {outcome.kind} {outcome.problems} {outcome.stderr[-300:]!r}")
    head = ("category", "tried", "clear errors", "findings", "tracebacks", "hangs", "other", "faults", "data lost",
            "peak RSS", "time")  # fmt: skip
    print(" | ".join(head))
    print(" | ".join("-" * len(h) for h in head))
    total: dict[str, float] = defaultdict(float)
    for cat in CATEGORIES:
        r = rows.get(cat)
        if not r:
            continue
        other = r["tried"] - r[CLEAR_ERROR] - r[FINDING] - r[TRACEBACK] - r[HANG]
        cells = [cat, r["tried"], r[CLEAR_ERROR], r[FINDING], r[TRACEBACK], r[HANG], other, r["faults"], r["lost"]]
        print(" | ".join(str(int(c)) if isinstance(c, float) else c for c in cells)
              + f" | {r['rss']:.0f} MB | {r['seconds']:.0f} s")  # fmt: skip
        for k in ("tried", CLEAR_ERROR, FINDING, TRACEBACK, HANG, "faults", "lost", "seconds"):
            total[k] += r[k]
        total["other"] += other
        total["rss"] = max(total["rss"], r["rss"])
    print(f"total | {int(total['tried'])} | {int(total[CLEAR_ERROR])} | {int(total[FINDING])} | "
          f"{int(total[TRACEBACK])} | {int(total[HANG])} | {int(total['other'])} | {int(total['faults'])} | "
          f"{int(total['lost'])} | {total['rss']:.0f} MB | {total['seconds']:.0f} s")  # fmt: skip
    for line in bad:
        print("FAILED", line)
    return not bad and not total[TRACEBACK] and not total[HANG] and not total["lost"]


_BASELINE = """
import sys
from ipsis.cli.resolve import SourceMap
from ipsis.report import render
from ipsis.verify import parse_records, verify_records
sources = SourceMap()
sources.add_pairs(tuple(sys.argv[2:]))
with open(sys.argv[1], encoding="utf-8") as fh:
    records = parse_records(fh.read(), sys.argv[1])
results = list(verify_records(records, sources.get))
sys.stdout.write(render(results, "jsonl"))
"""


def peak_rss(argv: list[str], folder: Path, code: str = _CHILD) -> tuple[float, float]:
    """Peak RSS (MB) and seconds of ``python -c code *argv`` in ``folder``."""
    rss_file = folder / ".rss"
    prologue = (
        "import atexit, os\n"
        "def _p():\n"
        "    hwm = [l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM:')]\n"
        "    open(os.environ['IPSIS_HOSTILE_RSS'], 'w').write(hwm[0])\n"
        "atexit.register(_p)\n"
    )
    env = {"PYTHONPATH": str(ROOT), "IPSIS_HOSTILE_RSS": str(rss_file), "PATH": "/usr/bin:/bin"}
    start = time.monotonic()
    subprocess.run([sys.executable, "-c", prologue + code, *argv], cwd=folder, env=env, check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=3600)  # fmt: skip
    return _peak_rss_mb(rss_file), time.monotonic() - start


def memory(quick: bool) -> None:
    counts = (1_000, 5_000) if quick else (10_000, 100_000)
    rec = json.dumps({"citation_id": "iss", "source_id": "rfc", "quote": ISS}) + "\n"
    print()
    print("verify: records | source | streamed peak RSS | time | baseline (list) peak RSS | time")
    print("--------------- | ------ | ----------------- | ---- | ------------------------ | ----")
    with tempfile.TemporaryDirectory(prefix="ipsis-mem-") as tmp:
        folder = Path(tmp)
        (folder / "rfc.txt").write_bytes(RFC_TXT.read_bytes())
        for n in counts:
            (folder / "r.jsonl").write_text(rec * n, encoding="utf-8")
            argv = ["verify", "r.jsonl", "--source", "rfc=rfc.txt", "--format", "jsonl"]
            s_rss, s_t = peak_rss(argv, folder)
            b_rss, b_t = peak_rss(["r.jsonl", "rfc=rfc.txt"], folder, _BASELINE)
            print(f"{n:,} | rfc7519 (63 KB) | {s_rss:.0f} MB | {s_t:.0f} s | {b_rss:.0f} MB | {b_t:.0f} s")
        mb = 5 if quick else 50
        text = RFC_TXT.read_text(encoding="utf-8")
        copies = math.ceil(mb * 2**20 / len(text))
        (folder / "big.txt").write_text("".join(text.replace("JWT", f"JWT{i}") for i in range(copies)))
        n = 5 if quick else 20
        quote = ISS.replace("JWT.", "JWT7.")
        row = json.dumps({"citation_id": "iss7", "source_id": "big", "quote": quote}) + "\n"
        (folder / "b.jsonl").write_text(row * n, encoding="utf-8")
        s_rss, s_t = peak_rss(["verify", "b.jsonl", "--source", "big=big.txt", "--format", "jsonl"], folder)
        print(f"{n:,} | {mb} MB text | {s_rss:.0f} MB | {s_t:.0f} s | - | -")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="the reduced run CI does")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds before a case counts as a hang")
    ap.add_argument("--no-memory", action="store_true", help="skip the memory runs")
    args = ap.parse_args()
    ok = battery(args.quick, args.timeout)
    if not args.no_memory:
        memory(args.quick)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

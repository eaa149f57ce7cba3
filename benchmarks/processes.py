"""Whole ipsis processes run as an installed ipsis runs: with its modules' bytecode compiled.

pip compiles every module of a wheel when it installs it, so an installed ``ipsis`` reads
``.pyc`` files. A checkout run with ``PYTHONDONTWRITEBYTECODE=1`` (set in some shells and
containers) compiles every module it imports from source, in every process: a store-backed
``ipsis verify`` imports ~200 of them. :func:`child_env` gives the other benchmarks' child
processes a bytecode cache of their own (``PYTHONPYCACHEPREFIX`` in a temporary folder, so the
checkout stays clean); this module prints what the cache is worth.

    python benchmarks/processes.py            # 15 runs each
    python benchmarks/processes.py --quick    # 3 runs each, for CI
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def child_env(cache: Path | str, compiled: bool = True) -> dict[str, str]:
    """The environment of a child ``ipsis`` process: this checkout on the path and its bytecode
    kept in the ``cache`` folder; ``compiled=False``: as a checkout runs under
    ``PYTHONDONTWRITEBYTECODE=1``: ipsis's modules are compiled in every run (the standard
    library's and site-packages' ``__pycache__`` are read, and so would be one left in the
    checkout: none is, as long as every run of it is under that setting)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if compiled:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(cache)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    return env


def walls(cmd: list[str], env: dict[str, str], runs: int) -> list[float]:
    """Wall seconds of each of ``runs`` runs after one warm-up run (which fills a bytecode
    cache); output discarded."""
    return [w for w, _ in timed(cmd, env, runs)]


def timed(cmd: list[str], env: dict[str, str], runs: int, warm: bool = True) -> list[tuple[float, float]]:
    """``(wall, cpu)`` seconds of each of ``runs`` runs after one warm-up run (``warm=False``:
    none); ``cpu`` is the child's own user + system time (what other jobs on a shared machine
    disturb least)."""
    if warm:
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        child = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(child.pid, 0)
        times.append((time.perf_counter() - t, usage.ru_utime + usage.ru_stime))
    return times


def interleaved(cmds: dict[str, list[str]], env: dict[str, str], runs: int) -> dict[str, list[tuple[float, float]]]:
    """:func:`timed` of each command, the runs taken in turn (one of each, ``runs`` times) after
    one warm-up run of each: a busy moment of the machine falls on all of them alike."""
    for cmd in cmds.values():
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    out: dict[str, list[tuple[float, float]]] = {name: [] for name in cmds}
    for _ in range(runs):
        for name, cmd in cmds.items():
            out[name] += timed(cmd, env, 1, warm=False)
    return out


def median_wall(cmd: list[str], env: dict[str, str], runs: int) -> float:
    """Median wall seconds of ``runs`` runs after one warm-up run (:func:`walls`)."""
    return statistics.median(walls(cmd, env, runs))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="3 runs each")
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    runs = 3 if args.quick else args.runs
    commands = {
        "ipsis --help": [sys.executable, "-m", "ipsis", "--help"],
        "import ipsis.cli.core (what ipsis verify loads)": [sys.executable, "-c", "import ipsis.cli.core"],
    }
    print(f"whole processes, medians of {runs} runs after a warm-up")
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as empty:
        for name, cmd in commands.items():
            cached = median_wall(cmd, child_env(tmp), runs)
            compiled = median_wall(cmd, child_env(empty, compiled=False), runs)
            print(
                f"  {name:50s} bytecode cached {cached * 1e3:6.1f} ms   compiled each run {compiled * 1e3:6.1f} ms"
                f"   ({(compiled - cached) * 1e3:.0f} ms of compiling)"
            )


if __name__ == "__main__":
    main()

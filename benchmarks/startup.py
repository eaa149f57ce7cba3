"""Start-up as whole processes, measured like hyperfine: each command run ``--runs`` times after
one warm-up run, median and minimum wall time.

- ``ipsis --help`` (target <= 80 ms), against ``python -c pass`` (the interpreter's floor);
- ``ipsis text SMALL.pdf`` against ``pdftotext SMALL.pdf -`` (target within 1.5x), on the
  smallest PDFs of the corpus (the RFC 7519 PDF and the two-column Greek revision);
- ``ipsis text`` of a plain-text RFC, and ``ipsis locate`` of one quote in it (the verifier
  loaded).

    python benchmarks/startup.py            # 15 runs each
    python benchmarks/startup.py --quick    # 3 runs each, for CI
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from processes import child_env, walls  # noqa: E402

from tests.shared import SHARED  # noqa: E402 - the real documents, never copied

PDFS = ["corpora/rfc/rfc7519-rfceditor-pdfrfc.pdf", "corpora/pdf/gr-fek-2008-syntagma-revision-2col.pdf"]
RFC = "corpora/rfc/rfc7519.txt"
QUOTE = 'The "iss" (issuer) claim identifies the principal that issued the JWT.'
ENV: dict[str, str] = {}
"""The children's environment: bytecode cached as an installed ipsis has it (:mod:`processes`)."""
IPSIS = [sys.executable, "-m", "ipsis"]


def wall(cmd: list[str], runs: int) -> tuple[float, float]:
    """(median, min) seconds of ``runs`` runs after one warm-up run (:func:`processes.walls`)."""
    times = walls(cmd, ENV, runs)
    return statistics.median(times), min(times)


def show(name: str, t: tuple[float, float]) -> None:
    print(f"  {name:58s} median {t[0] * 1e3:7.1f} ms   min {t[1] * 1e3:7.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="3 runs each")
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    runs = 3 if args.quick else args.runs
    with tempfile.TemporaryDirectory() as tmp:
        ENV.update(child_env(tmp))
        measure(runs)


def measure(runs: int) -> None:
    print(f"whole processes, {runs} runs each after a warm-up (medians; the machine is shared, so also the minimum)")
    floor = wall([sys.executable, "-c", "pass"], runs)
    show("python -c pass (floor)", floor)
    helped = wall([*IPSIS, "--help"], runs)
    show("ipsis --help", helped)
    above = helped[0] - floor[0]
    print(f"ipsis --help: {helped[0] * 1e3:.0f} ms median (target <= 80 ms); {above * 1e3:.0f} ms above the floor")
    pdftotext = shutil.which("pdftotext")
    for rel in PDFS:
        pdf = str(SHARED / rel)
        ours = wall([*IPSIS, "text", pdf], runs)
        show(f"ipsis text {Path(rel).name}", ours)
        if pdftotext:
            theirs = wall([pdftotext, pdf, "-"], runs)
            show(f"pdftotext {Path(rel).name} -", theirs)
            print(f"  ratio ipsis text / pdftotext: {ours[0] / theirs[0]:.2f}x the time (target <= 1.5x)")
        else:
            print("  pdftotext not installed: no baseline (apt-get install poppler-utils)")
    show(f"ipsis text {Path(RFC).name}", wall([*IPSIS, "text", str(SHARED / RFC)], runs))
    show(f"ipsis locate {Path(RFC).name} QUOTE", wall([*IPSIS, "locate", str(SHARED / RFC), QUOTE], runs))
    floor = wall([sys.executable, "-c", "import click, pypdfium2"], runs)
    show("python -c 'import click, pypdfium2' (floor of a PDF command)", floor)


if __name__ == "__main__":
    main()

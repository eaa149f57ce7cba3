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
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from processes import child_env, interleaved, walls  # noqa: E402

from tests.shared import SHARED  # noqa: E402 - the real documents, never copied

PDFS = ["corpora/rfc/rfc7519-rfceditor-pdfrfc.pdf", "corpora/pdf/gr-fek-2008-syntagma-revision-2col.pdf"]
RFC = "corpora/rfc/rfc7519.txt"
QUOTE = 'The "iss" (issuer) claim identifies the principal that issued the JWT.'
ENV: dict[str, str] = {}
"""The children's environment: bytecode cached as an installed ipsis has it (:mod:`processes`)."""
IPSIS = [sys.executable, "-m", "ipsis"]
RUNS = [15]


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
    RUNS[0] = runs
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
        cmds = {f"ipsis text {Path(rel).name}": [*IPSIS, "text", pdf]}
        if pdftotext:
            cmds[f"pdftotext {Path(rel).name} -"] = [pdftotext, pdf, "-"]
        times = interleaved(cmds, ENV, runs)
        for name, t in times.items():
            show_both(name, t)
        if pdftotext:
            ours, theirs = (statistics.median(w for w, _ in t) for t in times.values())
            cpu_ours, cpu_theirs = (statistics.median(c for _, c in t) for t in times.values())
            print(
                f"  ratio ipsis text / pdftotext: {ours / theirs:.2f}x the wall time, {cpu_ours / cpu_theirs:.2f}x"
                " the CPU time (target <= 1.5x)"
            )
        else:
            print("  pdftotext not installed: no baseline (apt-get install poppler-utils)")
    show(f"ipsis text {Path(RFC).name}", wall([*IPSIS, "text", str(SHARED / RFC)], runs))
    show(f"ipsis locate {Path(RFC).name} QUOTE", wall([*IPSIS, "locate", str(SHARED / RFC), QUOTE], runs))
    floors()


def floors() -> None:
    """What a Python PDF command costs before it reads a page: each part of ``ipsis text
    SMALL.pdf``'s start-up as its own process (interleaved), and the PDF read itself in-process."""
    py = sys.executable
    mods = _text_modules()
    parts = {
        "python -S -c pass (no site)": [py, "-S", "-c", "pass"],
        "python -c pass": [py, "-c", "pass"],
        "import pypdfium2_raw (the PDFium library and its ctypes bindings)": [py, "-c", "import pypdfium2_raw"],
        "import pypdfium2 (with its helper classes)": [py, "-c", "import pypdfium2"],
        "import click": [py, "-c", "import click"],
        "import click, pypdfium2": [py, "-c", "import click, pypdfium2"],
        f"import every module ipsis text imports ({len(mods)}, pypdfium2's too), read nothing": [
            py,
            "-c",
            f"import importlib\nfor m in {mods!r}:\n    try:\n        importlib.import_module(m)\n"
            "    except Exception:\n        pass",
        ],
    }
    if shutil.which("pdftotext"):
        parts["pdftotext rfc7519-rfceditor-pdfrfc.pdf -"] = ["pdftotext", str(SHARED / PDFS[0]), "-"]
    print("floors of a PDF command, whole processes interleaved (wall and the child's own CPU time):")
    for name, t in interleaved(parts, ENV, RUNS[0]).items():
        show_both(name, t)
    from ipsis.ingest import load_document
    from ipsis.ingest.ocr import OcrOptions

    load_document(SHARED / PDFS[0], ocr=OcrOptions(mode="never"))
    cpu = []
    for _ in range(RUNS[0]):
        c = time.process_time()
        load_document(SHARED / PDFS[0], ocr=OcrOptions(mode="never"))
        cpu.append(time.process_time() - c)
    print(f"  the read of {Path(PDFS[0]).name} in-process (warm): median {statistics.median(cpu) * 1e3:.1f} ms CPU")


def _text_modules() -> list[str]:
    """The modules a run of ``ipsis text`` on the small PDF imports (asked of a child)."""
    code = (
        "import sys, runpy, io, contextlib\n"
        f"sys.argv = ['ipsis', 'text', {str(SHARED / PDFS[0])!r}]\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        "    try:\n"
        "        runpy.run_module('ipsis', run_name='__main__')\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(' '.join(sorted(m for m in sys.modules if m != '__main__')), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], env=ENV, capture_output=True, text=True, check=True)
    return done.stderr.split()


def show_both(name: str, t: list[tuple[float, float]]) -> None:
    w, c = [x for x, _ in t], [y for _, y in t]
    print(
        f"  {name:66s} wall median {statistics.median(w) * 1e3:6.1f} ms (min {min(w) * 1e3:6.1f})"
        f"   CPU median {statistics.median(c) * 1e3:6.1f} ms"
    )


if __name__ == "__main__":
    main()

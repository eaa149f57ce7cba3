"""Normalization speed: the typography view of a 5 MB text with its offset map.

Prints MB/s for the whole view, the time of each step (where the time goes), and a baseline
without offsets in the same run (NFKC plus whitespace collapse with ``str.split``), each the
median of 5 interleaved runs.

    python benchmarks/normalize.py           # 5 MB
    python benchmarks/normalize.py --quick   # 0.5 MB, for CI
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from ipsis.ingest import load_document  # noqa: E402
from ipsis.ingest.fixes import FIXES  # noqa: E402
from ipsis.ingest.normalize import SKIP_MARKS, normalize, steps_for  # noqa: E402
from tests.shared import SHARED  # noqa: E402 - the real documents, never copied

SOURCES = [
    "corpora/br/lgpd-senado-edicao-2024.pdf",
    "corpora/br/cf88-camara-cedi-texto-atualizado-ec105.pdf",
    "corpora/rfc/rfc7519.txt",
    "corpora/pt/crp-constituicao-republica-portuguesa.txt",
]


REPEAT = 5


def run(size: int) -> None:
    base = "\n".join(load_document(SHARED / p).text for p in SOURCES)
    text = (base * (size // len(base) + 1))[:size]
    mb = len(text.encode()) / 1e6
    normalize("warm up ﬁ …", "typography")

    views, plains = [], []
    for _ in range(REPEAT):  # interleaved, so that a busy moment of the machine hits both
        t0 = time.perf_counter()
        view = normalize(text, "typography")
        views.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        plain = " ".join(unicodedata.normalize("NFKC", text).split())
        plains.append(time.perf_counter() - t0)
    total, baseline = statistics.median(views), statistics.median(plains)

    print(f"text: {mb:.1f} MB (PDF and plain-text corpus, repeated); view: {len(view.text):,} code points")
    print(f"medians of {REPEAT} runs of each, interleaved")
    print(f"typography view with offset map: {total:.3f} s = {mb / total:.1f} MB/s (target >= 30 MB/s)")
    print(f"baseline without offsets (NFKC + split/join): {baseline:.3f} s = {mb / baseline:.1f} MB/s")
    print(f"ratio: {total / baseline:.2f}x the baseline's time; {len(plain):,} code points there")
    print("where the time goes:")
    t = text
    for name in steps_for("typography"):
        if name == SKIP_MARKS:
            continue
        t0 = time.perf_counter()
        t, edits = FIXES[name].apply(t)
        print(f"  {name:20s} {(time.perf_counter() - t0) * 1e3:8.1f} ms  {len(edits):7,} length changes")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="0.5 MB instead of 5 MB")
    args = ap.parse_args()
    run(500_000 if args.quick else 5_000_000)


if __name__ == "__main__":
    main()

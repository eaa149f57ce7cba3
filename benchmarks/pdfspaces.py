"""The cost of reading the spaces a PDF draws inside a word and the gaps it leaves without one:
PDF ingest with and without the two sparse-page steps.

Run: ``python benchmarks/pdfspaces.py`` (``--quick``: one round, two files). On a page read
sparsely, the PDFium reader reads two character origins per space to find the spaces drawn
under the glyph after them (:func:`ipsis.ingest.pdfspaces.drawn_under`, ``judiciá ria``) and
three boxes per line that starts with two letters (:func:`ipsis.ingest.pdfspaces.line_start_gap`,
``acommercial``). The baseline is the same ingest in the same process with both steps
switched off; the spaces each changes are counted (the text's length with and without).
"""

from __future__ import annotations

import argparse
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import ipsis.ingest.pdfsparse as sparse  # noqa: E402
from benchmarks.toggled import with_and_without  # noqa: E402
from ipsis.ingest import load_document  # noqa: E402
from ipsis.ingest.tesseract import OcrOptions  # noqa: E402
from tests.shared import CORPORA  # noqa: E402 - the real documents, never copied

FILES = [
    "br/br-eca-lei-8069-ms-2006.pdf",
    "pdf/ch-bundesverfassung-sr101-2020.pdf",
    "latam/mx-cpeum-camara-diputados-2024-11-15.pdf",
    "pdf-wild/pj_freeculture.pdf",
]
QUICK = FILES[:2]
NO_OCR = OcrOptions(mode="never")


def _ingest(path: Path) -> tuple[float, int]:
    t = time.perf_counter()
    doc = load_document(path, engine="pdfium", ocr=NO_OCR)
    return time.perf_counter() - t, len(doc.text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one round, two files (CI)")
    args = parser.parse_args()
    rounds = 1 if args.quick else 3
    print(f"{'file':45} {'with':>8} {'without':>8} {'ratio':>6} {'chars':>7}")
    for rel in QUICK if args.quick else FILES:
        path = CORPORA / rel
        if not path.exists():
            print(f"{rel}: not in ../shared (skipped)")
            continue
        off = {"_underdrawn_spaces": lambda *_a: [], "_line_start_gaps": lambda *_a: set()}
        a, b, with_size, without_size = with_and_without(sparse, off, partial(_ingest, path), rounds)
        print(f"{path.name[:45]:45} {a:8.3f} {b:8.3f} {a / b:6.2f} {with_size - without_size:+7d}")


if __name__ == "__main__":
    main()

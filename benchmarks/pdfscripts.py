"""The cost of marking scripts set on their line (issue 18): PDF ingest with and without it.

Run: ``python benchmarks/pdfscripts.py`` (``--quick``: one round). On a page with a formula sign
(:data:`ipsis.ingest.pdfchars.FORMULA`) or a script at a line break, the PDFium reader reads
every character's font size and the boxes next to a change of size, to mark ``TₛS``, ``Xᶜ``
as ``script`` (what the ``script_spacing`` search goes by). The baseline is the same ingest in
the same process with that step switched off. Files: the formula-heavy lecture script of
``pdf-wild`` (GeoTopo), and prose PDFs that must not pay for it (RFC 7519, the Swiss
constitution with its footnotes, a two-column Greek law).
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
    "pdf-wild/ss_GeoTopo-komprimiert.pdf",
    "rfc/rfc7519-rfceditor-pdfrfc.pdf",
    "pdf/ch-bundesverfassung-sr101-2020.pdf",
    "pdf/gr-fek-2008-syntagma-revision-2col.pdf",
]
NO_OCR = OcrOptions(mode="never")


def _ingest(path: Path) -> tuple[float, int]:
    t = time.perf_counter()
    doc = load_document(path, ocr=NO_OCR)
    return time.perf_counter() - t, sum(m.kind == "script" for m in doc.marks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one round (CI)")
    args = parser.parse_args()
    rounds = 1 if args.quick else 5
    print(f"{'file':45} {'with s':>8} {'without s':>10} {'ratio':>6} {'scripts':>8} {'without':>8}")
    for rel in FILES:
        path = CORPORA / rel
        if not path.exists():
            print(f"{rel}: not in ../shared (skipped)")
            continue
        off = {"_inline_scripts": lambda *_a: []}
        a, b, with_marks, without_marks = with_and_without(sparse, off, partial(_ingest, path), rounds)
        print(f"{path.name[:45]:45} {a:8.3f} {b:10.3f} {a / b:6.2f} {with_marks:8d} {without_marks:8d}")


if __name__ == "__main__":
    main()

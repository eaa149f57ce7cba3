"""Cost of boxes on the PDF page (issue 23): pages/s reading a PDF, with and without its boxes.

Baseline: ``load_document`` of each corpus PDF (PDFium text extraction, as ingest does). With
boxes: the same, then every page's characters aligned with PDFium's and given their boxes
(:func:`ipsis.pdfboxes.char_map`), which is what the first located quote on a page costs; a
quote on a page already aligned costs a dictionary lookup.

    python benchmarks/boxes.py          # the corpus PDFs of tests/shared.CORE_CORPUS
    python benchmarks/boxes.py --quick  # two small PDFs (CI)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ipsis.ingest import load_document  # noqa: E402
from ipsis.pdfboxes import PdfSource  # noqa: E402
from tests.shared import CORE_CORPUS, CORPORA  # noqa: E402 - the real documents, never copied


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="two small PDFs (CI)")
    args = parser.parse_args(argv)
    pdfs = sorted((CORPORA / f for f in CORE_CORPUS if f.endswith(".pdf")), key=lambda p: p.stat().st_size)
    if args.quick:
        pdfs = pdfs[:2]
    pages = 0
    t_read = t_boxes = 0.0
    for path in pdfs:
        t0 = time.perf_counter()
        doc = load_document(path)
        t1 = time.perf_counter()
        src = PdfSource(doc, path.read_bytes())
        n = len(doc.page_starts) or 1
        for p in range(1, n + 1):
            start = doc.page_starts[p - 1] if doc.page_starts else 0
            src.boxes(start, start + 1)
        src.close()
        t2 = time.perf_counter()
        pages += n
        t_read += t1 - t0
        t_boxes += t2 - t1
        print(f"  {path.name}: {n} pages, read {(t1 - t0) * 1000:.0f} ms, boxes {(t2 - t1) * 1000:.0f} ms")
    print(f"{pages} pages: read {pages / t_read:.0f} pages/s; read + boxes {pages / (t_read + t_boxes):.0f} pages/s "
          f"(boxes cost {t_boxes / t_read:.2f}x the read)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Cost of boxes on the PDF page (issue 23): ingest pages/s with and without the boxes kept in the store.

Baseline: ``Store.ingest`` of each corpus PDF (PDFium text extraction, sections, index, the
other derived data, one transaction) with the boxes switched off, as ipsis stored versions
before boxes were kept. With boxes: the same ingest, which also aligns every page with PDFium's characters and
stores their boxes (:mod:`ipsis.store.derived`). Both into fresh non-durable stores, the best of
``--repeat`` runs each, interleaved. Then the stored payload per page, and what a run pays to
read the boxes back (load + unpack) against computing them from the original PDF.

    python benchmarks/boxes.py          # the corpus PDFs of tests/shared.CORE_CORPUS
    python benchmarks/boxes.py --quick  # two small PDFs (CI)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ipsis.pdfboxes import PdfSource, stored_pages  # noqa: E402
from ipsis.store import Store  # noqa: E402
from ipsis.store import db as store_db  # noqa: E402
from tests.shared import CORE_CORPUS, CORPORA  # noqa: E402 - the real documents, never copied


def _ingest(path: Path, folder: Path, boxes: bool) -> tuple[float, Any]:
    real = store_db.dv.compute
    if not boxes:  # every other kind of derived data is kept as usual

        def others(doc: Any, data: bytes, sha: str, kinds: Any = None, password: str | None = None) -> Any:
            return real(doc, data, sha, [k for k in store_db.dv.KINDS if k != "boxes"], password)

        store_db.dv.compute = others  # type: ignore[assignment]
    try:
        with Store.open(folder, create=True, durable=False) as st:
            data = path.read_bytes()
            t0 = time.perf_counter()
            out = st.ingest(data, "doc", filename=path.name)
            took = time.perf_counter() - t0
            rows = [r for r in st.derived_rows(out.version.pk) if r["kind"] == "boxes"]
            return took, (out.version.page_count, sum(len(r["payload"]) for r in rows), sum(r["size"] for r in rows))
    finally:
        store_db.dv.compute = real


def _read_back(path: Path, folder: Path) -> tuple[float, float]:
    """Seconds to get every page's boxes from the store, and from the original PDF."""
    with Store.open(folder) as st:
        doc = st.document("doc")
        assert doc is not None
        t0 = time.perf_counter()
        pages = stored_pages(doc)
        t1 = time.perf_counter()
        src = PdfSource(doc, path.read_bytes())
        for p in range(1, len(doc.page_starts) + 1):
            start = doc.page_starts[p - 1]
            src.boxes(start, start + 1)
        src.close()
        t2 = time.perf_counter()
        assert pages is not None and all(pages[p] == src.cache[p] for p in src.cache), "stored boxes differ"
    return t1 - t0, t2 - t1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="two small PDFs, one run each (CI)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per PDF and mode (best kept)")
    args = parser.parse_args(argv)
    pdfs = sorted((CORPORA / f for f in CORE_CORPUS if f.endswith(".pdf")), key=lambda p: p.stat().st_size)
    repeat = 1 if args.quick else max(1, args.repeat)
    if args.quick:
        pdfs = pdfs[:2]
    pages = stored = raw = 0
    t_plain = t_boxes = t_load = t_compute = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        _ingest(pdfs[0], Path(tmp) / "warm-up", boxes=True)  # imports, PDFium, the segmenter's regexes
        for i, path in enumerate(pdfs):
            plain, with_boxes = [], []
            for k in range(repeat):
                plain.append(_ingest(path, Path(tmp) / f"p{i}-{k}", boxes=False)[0])
                took, (n, size, unpacked) = _ingest(path, Path(tmp) / f"b{i}-{k}", boxes=True)
                with_boxes.append(took)
            load, compute = _read_back(path, Path(tmp) / f"b{i}-0")
            pages, stored, raw = pages + n, stored + size, raw + unpacked
            t_plain, t_boxes = t_plain + min(plain), t_boxes + min(with_boxes)
            t_load, t_compute = t_load + load, t_compute + compute
            print(f"  {path.name}: {n} pages, ingest {min(plain) * 1000:.0f} ms, with boxes "
                  f"{min(with_boxes) * 1000:.0f} ms, boxes stored {size / max(1, n) / 1024:.1f} KiB/page")  # fmt: skip
    print(f"{pages} pages: ingest {pages / t_plain:.0f} pages/s without boxes, {pages / t_boxes:.0f} pages/s with "
          f"boxes (ingest with boxes costs {t_boxes / t_plain:.2f}x)")  # fmt: skip
    print(f"stored boxes: {stored / pages / 1024:.1f} KiB/page compressed ({raw / pages / 1024:.1f} KiB unpacked); "
          f"a run reads them back in {t_load * 1000:.0f} ms vs {t_compute * 1000:.0f} ms computing them from the PDF "
          f"({t_compute / max(t_load, 1e-9):.1f}x)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

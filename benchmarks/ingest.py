"""Ingest speed: pages/s of ipsis's default PDF path vs pypdf extract_text vs pdftotext.

Run: ``python benchmarks/ingest.py`` (``--quick``: 2 small PDFs, one round). The default path
is the whole ingest (PDFium extraction, soft-hyphen resolution, furniture/footnote/glyph marks);
the baselines are pypdf's plain ``extract_text`` and poppler's ``pdftotext`` (install
``poppler-utils``; skipped when absent), each timed over the same files in the same run.
Also prints where ipsis's time goes (extraction vs marks) and the peak memory (tracemalloc,
Python allocations) for the largest corpus PDF.

Two slower ipsis paths are timed once per file next to those: the ``pdfplumber`` engine (layout
from word boxes: columns, furniture by position) and the default path with
``position_furniture=True`` (PDFium text, furniture confirmed by pdfplumber positions), with a
breakdown of where the pdfplumber engine's time goes (pdfminer parsing + pdfplumber objects,
word grouping, ipsis layout analysis).
"""

from __future__ import annotations

import argparse
import io
import shutil
import statistics
import subprocess
import sys
import time
import tracemalloc
import warnings
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from ipsis.ingest import load_bytes  # noqa: E402
from ipsis.ingest.pages import assemble, find_footnotes, find_furniture, find_unmapped  # noqa: E402
from tests.shared import CORE_CORPUS, SHARED  # noqa: E402 - the real documents, never copied


def _ipsis(data: bytes) -> int:
    return len(load_bytes(data, "bench", fmt="pdf").page_starts)


def _pdfium_plain(data: bytes) -> int:
    """PDFium's text of every page and nothing else: the floor of the default path (the
    difference is ipsis's own work: annotations, crop box, superscripts, marks)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    try:
        for i in range(len(pdf)):
            page = pdf[i]
            textpage = page.get_textpage()
            textpage.get_text_range()
            textpage.close()
            page.close()
        return len(pdf)
    finally:
        pdf.close()


def _plumber(data: bytes) -> int:
    return len(load_bytes(data, "bench", fmt="pdf", engine="pdfplumber").page_starts)


def _confirmed(data: bytes) -> int:
    return len(load_bytes(data, "bench", fmt="pdf", position_furniture=True).page_starts)


def _plumber_breakdown(data: bytes) -> tuple[float, float, float, int]:
    """Seconds spent in (pdfminer parse + pdfplumber char objects, word grouping, ipsis layout)."""
    import pdfplumber

    from ipsis.ingest.layout import Box, reading_order

    parse = words = layout = 0.0
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            t0 = time.perf_counter()
            _ = page.chars
            t1 = time.perf_counter()
            boxes = [Box(w["text"], w["x0"], w["x1"], w["top"], w["bottom"]) for w in page.extract_words()]
            t2 = time.perf_counter()
            reading_order(boxes, float(page.width), float(page.height))
            t3 = time.perf_counter()
            parse, words, layout = parse + t1 - t0, words + t2 - t1, layout + t3 - t2
            page.close()
        return parse, words, layout, len(pdf.pages)


def _pypdf(data: bytes) -> int:
    from pypdf import PdfReader

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reader = PdfReader(io.BytesIO(data))
        for page in reader.pages:
            page.extract_text()
        return len(reader.pages)


def _pdftotext(path: Path) -> Callable[[bytes], int]:
    def run(data: bytes) -> int:
        subprocess.run(["pdftotext", "-q", str(path), "-"], check=True, capture_output=True)
        return 0

    return run


def _time(fn: Callable[[bytes], int], data: bytes, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn(data)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="two small PDFs, one round (CI)")
    args = parser.parse_args()
    pdfs = sorted((SHARED / "corpora" / f for f in CORE_CORPUS if f.endswith(".pdf")), key=lambda p: p.stat().st_size)
    if args.quick:
        pdfs = pdfs[:2]
    rounds = 1 if args.quick else 3
    have_poppler = shutil.which("pdftotext") is not None
    totals = {
        "ipsis (pdfium + marks)": 0.0,
        "pdfium text only": 0.0,
        "pypdf extract_text": 0.0,
        "pdftotext": 0.0,
        "ipsis pdfplumber engine": 0.0,
        "ipsis pdfium + position check": 0.0,
    }
    pages_total = 0
    print(
        f"{'file':50} {'pages':>5} {'ipsis p/s':>10} {'pypdf p/s':>10} {'pdftotext p/s':>13}"
        f" {'plumber p/s':>11} {'pos.check p/s':>13}"
    )
    for path in pdfs:
        data = path.read_bytes()
        pages = _ipsis(data)
        pages_total += pages
        t_ipsis = _time(_ipsis, data, rounds)
        totals["pdfium text only"] += _time(_pdfium_plain, data, rounds)
        t_pypdf = _time(_pypdf, data, 1)
        t_pop = _time(_pdftotext(path), data, rounds) if have_poppler else float("nan")
        totals["ipsis (pdfium + marks)"] += t_ipsis
        totals["pypdf extract_text"] += t_pypdf
        totals["pdftotext"] += t_pop
        t_plumber = _time(_plumber, data, 1)
        t_confirmed = _time(_confirmed, data, 1)
        totals["ipsis pdfplumber engine"] += t_plumber
        totals["ipsis pdfium + position check"] += t_confirmed
        print(
            f"{path.name[:50]:50} {pages:5d} {pages / t_ipsis:10.0f} {pages / t_pypdf:10.0f} {pages / t_pop:13.0f}"
            f" {pages / t_plumber:11.1f} {pages / t_confirmed:13.1f}"
        )
    print()
    for name, total in totals.items():
        print(f"{name:30} {pages_total / total:8.1f} pages/s over {pages_total} pages")
    plain = totals["pdfium text only"] / totals["ipsis (pdfium + marks)"]
    print(f"ipsis / plain PDFium text speed: {plain:.2f} (the cost of ipsis's own page work)")
    if have_poppler:
        ratio = totals["pdftotext"] / totals["ipsis (pdfium + marks)"]
        print(f"ipsis / pdftotext speed: {ratio:.2f} (target >= 0.5)")
    else:
        print("pdftotext not installed (apt-get install -y poppler-utils): baseline skipped")
    # where the time goes, on the largest PDF
    big = pdfs[-1]
    data = big.read_bytes()
    from ipsis.ingest.pdf import _pdfium_pages
    from ipsis.limits import DEFAULT_LIMITS

    t0 = time.perf_counter()
    read = _pdfium_pages(data, big.name, None, None, DEFAULT_LIMITS, DEFAULT_LIMITS.deadline(big.name))
    texts = [p.text for p in read]
    t1 = time.perf_counter()
    text, starts = assemble(texts)
    furniture = find_furniture(text, starts)
    find_footnotes(text, starts, furniture)
    find_unmapped(text, starts)
    t2 = time.perf_counter()
    print(f"\n{big.name}: PDFium extraction {t1 - t0:.3f}s, assembly + marks {t2 - t1:.3f}s")
    small = pdfs[0]
    parse, words, layout, n = _plumber_breakdown(small.read_bytes())
    whole = parse + words + layout
    print(
        f"{small.name}, pdfplumber engine over {n} pages: pdfminer parse + pdfplumber char objects"
        f" {parse:.2f}s ({parse / whole:.0%}), word grouping {words:.2f}s ({words / whole:.0%}),"
        f" ipsis layout {layout:.3f}s ({layout / whole:.0%})"
    )
    tracemalloc.start()
    load_bytes(data, "bench", fmt="pdf")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"peak Python memory for {big.name} ({len(data) / 1e6:.1f} MB): {peak / 1e6:.1f} MB")


if __name__ == "__main__":
    main()

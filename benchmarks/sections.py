"""Segmentation speed: MB/s on the CF/88 text and on 1x/4x/16x concatenations of the corpus texts.

Run ``python benchmarks/sections.py`` (full, up to ~50 MB) or ``--quick`` (seconds, for CI).
Linear growth shows as a roughly constant MB/s from 1x to 16x. Each size is also timed with
CPython's cyclic garbage collector paused: the gap between the two columns is the collector
scanning the live section records (~140,000 at 16x), not the segmenter's algorithm.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from ipsis.sections import segment  # noqa: E402
from tests.shared import SHARED  # noqa: E402 - the real documents, never copied


def _pdf_text(path: Path) -> str:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        return "\f".join(p.get_textpage().get_text_range() for p in pdf)
    finally:
        pdf.close()


def _time(text: str, family: str | None, repeat: int, collect: bool = True) -> tuple[float, int]:
    best = float("inf")
    n = 0
    for _ in range(repeat):
        if not collect:
            gc.disable()
        try:
            t0 = time.perf_counter()
            tree = segment(text, family)
            best = min(best, time.perf_counter() - t0)
        finally:
            gc.enable()
        n = len(tree)
        del tree
    return best, n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="small sizes only (CI)")
    args = ap.parse_args()
    corpora = SHARED / "corpora"
    cf88 = _pdf_text(corpora / "br/cf88-camara-cedi-texto-atualizado-ec105.pdf")
    mb = len(cf88.encode()) / 1e6
    secs, n = _time(cf88, "br", 1 if args.quick else 3)
    print(f"CF/88 (Câmara PDF text): {mb:.2f} MB, {n} sections, {secs * 1000:.0f} ms, {mb / secs:.1f} MB/s")
    texts = [
        cf88,
        (corpora / "pt/crp-constituicao-republica-portuguesa.txt").read_text("utf-8"),
        (corpora / "rfc/rfc9111.txt").read_text("utf-8-sig"),
        _pdf_text(corpora / "es/constitucion-espanola-boe-consolidado-2024-02-17.pdf"),
        _pdf_text(corpora / "br/lgpd-senado-edicao-2024.pdf"),
    ]
    base = "\n".join(texts)
    # the base is ~1 MB; 3x of it is the "1x" unit so that 16x reaches ~50 MB
    unit = base * (1 if args.quick else 3)
    factors = (1, 2, 4) if args.quick else (1, 4, 16)
    first = first_nogc = None
    for k in factors:
        text = unit * k
        size = len(text.encode()) / 1e6
        secs, n = _time(text, "br", 1)
        rate = size / secs
        first = first or rate
        nogc = size / _time(text, "br", 1, collect=False)[0]
        first_nogc = first_nogc or nogc
        print(
            f"{k:>2}x corpus concatenation: {size:6.1f} MB, {n:7d} sections, {secs:6.2f} s, "
            f"{rate:5.1f} MB/s ({rate / first:.2f} of the 1x rate); "
            f"collector paused {nogc:5.1f} MB/s ({nogc / first_nogc:.2f})"
        )


if __name__ == "__main__":
    main()

"""Scanned documents: OCR pages/s and the cost of OCR-aware matching per quote.

- OCR: the image-only scans of ``../shared/corpora/scans`` read by ipsis (PDFium render at the
  scan's resolution, Tesseract hOCR, words, characters and boxes), pages/s, against the bare ``tesseract``
  binary on the same pre-rendered pages in the same run (the ratio is ipsis's overhead), and
  the default languages (por+spa+eng) against one language.
- Matching: quotes from the original pages' text layer (and their changed-meaning variants)
  located on the Tesseract text layer of ``scans/ocr-layer``: ms per quote with OCR-aware
  matching against the same quotes with it off (``Policy(ocr_noise=False)``, which still runs
  the nearest-passage search on a miss), located rate on the right page, changed quotes
  located (must be 0).
- Full run only: the same figures on corpus pages degraded here (tests/ocr_cases.py), the
  development documents and the held-out ones apart.

    python benchmarks/ocr.py           # full run (about 2 minutes on a shared 2-core machine)
    python benchmarks/ocr.py --quick   # reduced run for CI (one page, a few seconds)

Without Tesseract it prints why and exits 0.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from ipsis.ingest import load_bytes, load_document  # noqa: E402
from ipsis.ingest.ocr import OcrOptions, engine, render_gray, run_tesseract  # noqa: E402
from ipsis.verify import Policy, locate  # noqa: E402
from tests import ocr_cases as oc  # noqa: E402
from tests.shared import corpus  # noqa: E402 - the real documents, never copied


def ocr_speed(quick: bool) -> None:
    import pypdfium2 as pdfium

    scans = oc.SCANS[:1] if quick else oc.SCANS
    for opts in [OcrOptions()] + ([] if quick else [OcrOptions(lang="por")]):
        pages = 0
        t0 = time.perf_counter()
        for rel, *_ in scans:
            data = corpus(rel).read_bytes()
            if quick:  # one page
                pdf = pdfium.PdfDocument(data)
                pdf.del_page(2)
                pdf.del_page(1)
                import io

                buf = io.BytesIO()
                pdf.save(buf)
                pdf.close()
                data = buf.getvalue()
            doc = load_bytes(data, "scan", rel, ocr=opts)
            pages += len(doc.meta["ocr"]["pages"])
        ipsis_t = time.perf_counter() - t0
        eng, lang = engine(opts)
        # the bare binary on the same pages, rendered beforehand (not timed)
        images = []
        for rel, *_ in scans:
            pdf = pdfium.PdfDocument(str(corpus(rel)))
            for i in range(1 if quick else len(pdf)):
                images.append(render_gray(pdf[i], 200)[0])
            pdf.close()
        t0 = time.perf_counter()
        for img in images:
            run_tesseract(eng, img, 200, lang, None, "bench")
        bare_t = time.perf_counter() - t0
        print(
            f"OCR ({lang}): {pages} pages in {ipsis_t:.1f} s = {pages / ipsis_t:.2f} pages/s; bare tesseract on the"
            f" same rendered pages {len(images) / bare_t:.2f} pages/s; ipsis/bare time x{ipsis_t / bare_t:.2f}"
        )


def matching(quick: bool) -> None:
    for folder in ("scans/ocr-layer",) + (() if quick else ("scans",)):
        score = oc.Score()
        on: list[float] = []
        off: list[float] = []
        ocr_tier = 0
        for n, (rel, orig, pages, lang) in enumerate(oc.SCANS):
            doc = load_document(corpus(rel.replace("scans", folder, 1)))
            qs = oc.quotes(oc.page_texts(orig, pages), lang, seed=100 + n)
            if quick:
                qs = qs[:12]
            locate(doc, qs[0].text)  # views built once per document, as in any run
            for q in qs:
                t = time.perf_counter()
                r = locate(doc, q.text)
                on.append(time.perf_counter() - t)
                ocr_tier += r.tier == "ocr" and r.status == "located"
                t = time.perf_counter()
                locate(doc, q.text, policy=Policy(ocr_noise=False))
                off.append(time.perf_counter() - t)
                score.add(q, r.status, r.matches[0].page if r.matches else None, r.message)
        print(
            f"{folder}: originals located on their page {score.on_page}/{score.originals} ({score.rate:.1%}),"
            f" {ocr_tier} of them in the ocr tier; changed quotes located {score.changed_located}/{score.changed}"
        )
        print(
            f"  per quote: OCR-aware {1000 * statistics.mean(on):.1f} ms (median {1000 * statistics.median(on):.1f}),"
            f" without it {1000 * statistics.mean(off):.1f} ms; ratio x{statistics.mean(on) / statistics.mean(off):.2f}"
        )


def degraded() -> None:
    for name, sets, seed0 in (("development", oc.DEV, 0), ("held-out", oc.HELD_OUT, 50)):
        score = oc.Score()
        t_ocr = 0.0
        n_pages = 0
        for n, (rel, pages, lang) in enumerate(sets):
            data = oc.degrade(rel, pages, seed=seed0 + n)
            t = time.perf_counter()
            doc = load_bytes(data, f"d{n}", Path(rel).name)
            t_ocr += time.perf_counter() - t
            n_pages += len(pages)
            oc.score(doc, oc.quotes(oc.page_texts(rel, pages), lang, seed=seed0 + n), score)
        print(
            f"degraded {name} pages ({n_pages}, {n_pages / t_ocr:.2f} pages/s OCR): originals located on their page"
            f" {score.on_page}/{score.originals} ({score.rate:.1%});"
            f" changed located {score.changed_located}/{score.changed}"
        )
        for q, why in score.misses or []:
            print(f"    {q.kind}: {q.text[:70]!r} -> {why[:120]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="reduced run for CI")
    args = ap.parse_args()
    if shutil.which("tesseract") is None:
        print("benchmarks/ocr.py: tesseract is not installed (Debian tesseract-ocr); nothing to measure")
        return
    if not corpus("scans").is_dir():
        print("benchmarks/ocr.py: ../shared/corpora/scans is missing; nothing to measure")
        return
    ocr_speed(args.quick)
    matching(args.quick)
    if not args.quick:
        try:
            import PIL  # noqa: F401
        except ImportError:
            print("degraded pages skipped: Pillow is not installed (pip install '.[dev]')")
            return
        degraded()


if __name__ == "__main__":
    main()

"""The corpus's own PDFs (norms, the RFC PDF; not ``pdf-wild``, not ``scans``): quotes that
``pdftotext`` reads on a page (:mod:`tests.pdfwild`) located on that page, per file.

``tests/cases/pdf-corpus/files.json`` pins, per file, the families of quotes where ``pdftotext``
itself is wrong (``pdftotext_wrong``: a ``regex`` searched in the quote and/or the ``pages``
it is on, with the reason, each checked on the page rendered by ``pdftoppm``) and the floor of
located quotes. Run as a command
for the per-file figures (the held-out files are reported apart)::

    python -m tests.pdfcorpus [pdfium|pypdf|pdfplumber]
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Any

from ipsis.ingest import load_document
from ipsis.ingest.tesseract import OcrOptions
from tests.pdfwild import Outcome, Quote, check_quotes, pdftotext_pages, readable_quotes
from tests.shared import CORPORA

CASES: list[dict[str, Any]] = json.loads((Path(__file__).parent / "cases" / "pdf-corpus" / "files.json").read_text())
NO_OCR = OcrOptions(mode="never")


def pdftotext_wrong(case: dict[str, Any], quote: Quote) -> str | None:
    """The reason ``pdftotext`` misreads ``quote`` (a pinned family), or None."""
    for pin in case.get("pdftotext_wrong", []):
        if re.search(pin.get("regex", ""), quote.text) and quote.page in pin.get("pages", [quote.page]):
            return str(pin["why"])
    return None


def measure(case: dict[str, Any], engine: str = "pdfium", cap: int | None = None) -> tuple[list[Outcome], int]:
    """The outcomes of the file's readable quotes (every k-th of them up to ``cap``), those
    ``pdftotext`` misreads left out, and how many were left out."""
    path = CORPORA / case["file"]
    quotes = readable_quotes(pdftotext_pages(path))
    kept = [q for q in quotes if pdftotext_wrong(case, q) is None]
    if cap and len(kept) > cap:
        step = len(kept) / cap
        kept = [kept[int(k * step)] for k in range(cap)]
    doc = load_document(path, engine=engine, ocr=NO_OCR)
    return list(check_quotes(doc, kept)), len(quotes) - len([q for q in quotes if pdftotext_wrong(case, q) is None])


def main(argv: list[str]) -> int:
    engine = argv[0] if argv else "pdfium"
    totals = {False: [0, 0], True: [0, 0]}
    for case in CASES:
        start = time.monotonic()
        outcomes, wrong = measure(case, engine)
        ok = sum(o.ok for o in outcomes)
        held = bool(case.get("held_out"))
        totals[held][0] += ok
        totals[held][1] += len(outcomes)
        tag = " (held out)" if held else ""
        took = time.monotonic() - start
        print(f"{case['file']}{tag}\t{ok}/{len(outcomes)}\tpdftotext_wrong {wrong}\t{took:.1f}s", flush=True)
        for o in [o for o in outcomes if not o.ok][:3]:
            print(f"    miss p.{o.quote.page} {o.status}: {o.quote.text[:100]!r}")
    for held, (ok, n) in totals.items():
        if n:
            print(f"{'HELD OUT' if held else 'WORK SET'} {engine}: {ok}/{n} = {ok / n:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

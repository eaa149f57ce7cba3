"""The corpus's own PDFs (norms, the RFC PDF; not ``pdf-wild``, not ``scans``): quotes that
``pdftotext`` reads on a page (:mod:`tests.pdfwild`) located on that page, per file.

``tests/cases/pdf-corpus/files.json`` pins, per file, the families of quotes where ``pdftotext``
itself is wrong (``pdftotext_wrong``: a ``regex`` searched in the quote and/or the ``pages``
it is on, or ``narrow_gap``: a quote holding two words that ``pdftotext`` splits at a gap
narrower than that share of the line height, :func:`tests.pdfwild.narrow_splits`; each with the
reason, checked on the page rendered by ``pdftoppm``) and the floor of located quotes. Run as a command
for the per-file figures (the held-out files are reported apart)::

    python -m tests.pdfcorpus [pdfium|pypdf|pdfplumber]
"""

from __future__ import annotations

import json
import re
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple

from ipsis.ingest import load_document
from ipsis.ingest.tesseract import OcrOptions
from tests.pdfwild import (
    Misreadings,
    Outcome,
    Quote,
    as_printed,
    check_quotes,
    holds_words,
    hyphen_seams,
    narrow_splits,
    pdftotext_layout,
    pdftotext_pages,
    readable_quotes,
)
from tests.shared import CORPORA

CASES: list[dict[str, Any]] = json.loads((Path(__file__).parent / "cases" / "pdf-corpus" / "files.json").read_text())
NO_OCR = OcrOptions(mode="never")


def pdftotext_wrong(case: dict[str, Any], quote: Quote, seams: dict[str, Misreadings] | None = None) -> str | None:
    """The reason ``pdftotext`` misreads ``quote`` (a pinned family), or None. ``seams``: per
    layout pin kind (``narrow_gap``, ``hyphen_joins``), the page's misreadings (:func:`layout_seams`)."""
    for pin in case.get("pdftotext_wrong", []):
        kind = next((k for k in LAYOUT_PINS if k in pin), None)
        if kind is not None:
            if seams and any(holds_words(quote.text, seam) for seam in seams[kind][quote.page - 1]):
                return str(pin["why"])
        elif re.search(pin.get("regex", ""), quote.text) and quote.page in pin.get("pages", [quote.page]):
            return str(pin["why"])
    return None


LAYOUT_PINS = ("narrow_gap", "hyphen_joins")


def layout_seams(case: dict[str, Any], path: Path) -> dict[str, Misreadings] | None:
    """For the file's pins read from ``pdftotext``'s layout: ``narrow_gap`` (the words it splits
    at a gap narrower than that share of the line height, :func:`tests.pdfwild.narrow_splits`)
    and ``hyphen_joins`` (where it drops a line-end hyphen joining two lines,
    :func:`tests.pdfwild.hyphen_seams`)."""
    pins = [pin for pin in case.get("pdftotext_wrong", []) if any(k in pin for k in LAYOUT_PINS)]
    if not pins:
        return None
    layout = pdftotext_layout(path)
    share = max([pin["narrow_gap"] for pin in pins if "narrow_gap" in pin], default=0.0)
    joins = any("hyphen_joins" in pin for pin in pins)
    return {
        "narrow_gap": narrow_splits(layout, share) if share else [{} for _ in layout],
        "hyphen_joins": hyphen_seams(layout, share) if joins else [{} for _ in layout],
    }


def as_shown(quote: Quote, seams: dict[str, Misreadings]) -> Quote:
    """``quote`` with the layout misreadings of its page replaced by what the page shows
    (:func:`tests.pdfwild.as_printed`): dropped hyphens first, then narrow splits."""
    text = as_printed(quote.text, seams["hyphen_joins"][quote.page - 1])
    return replace(quote, text=as_printed(text, seams["narrow_gap"][quote.page - 1]))


class Measured(NamedTuple):
    outcomes: list[Outcome]  # the readable quotes pdftotext reads right
    wrong: int  # readable quotes left out: pdftotext misreads them
    shown: list[Outcome]  # those left out by a layout pin, read as the page shows them (:func:`as_shown`)


def measure(case: dict[str, Any], engine: str = "pdfium", cap: int | None = None) -> Measured:
    """The outcomes of the file's readable quotes (every k-th of them up to ``cap``), those
    ``pdftotext`` misreads left out, how many were left out, and the outcomes of those a layout
    pin leaves out, read as the page shows them."""
    path = CORPORA / case["file"]
    quotes = readable_quotes(pdftotext_pages(path), also=pdftotext_pages(path, raw=True))
    seams = layout_seams(case, path)
    why = [pdftotext_wrong(case, q, seams) for q in quotes]
    kept = [q for q, w in zip(quotes, why, strict=True) if w is None]
    layout = {str(pin["why"]) for pin in case.get("pdftotext_wrong", []) if any(k in pin for k in LAYOUT_PINS)}
    shown = [as_shown(q, seams) for q, w in zip(quotes, why, strict=True) if seams and w in layout]
    if cap and len(kept) > cap:
        step = len(kept) / cap
        kept = [kept[int(k * step)] for k in range(cap)]
    doc = load_document(path, engine=engine, ocr=NO_OCR)
    return Measured(
        list(check_quotes(doc, kept)), len(quotes) - sum(w is None for w in why), list(check_quotes(doc, shown))
    )


def main(argv: list[str]) -> int:
    engine = argv[0] if argv else "pdfium"
    totals = {False: [0, 0], True: [0, 0]}
    for case in CASES:
        start = time.monotonic()
        outcomes, wrong, shown = measure(case, engine)
        ok = sum(o.ok for o in outcomes)
        held = bool(case.get("held_out"))
        totals[held][0] += ok
        totals[held][1] += len(outcomes)
        tag = " (held out)" if held else ""
        took = time.monotonic() - start
        print(f"{case['file']}{tag}\t{ok}/{len(outcomes)}\tpdftotext_wrong {wrong}\t{took:.1f}s", flush=True)
        if shown:
            print(f"    pinned by pdftotext's layout, as the page shows them: {sum(o.ok for o in shown)}/{len(shown)}")
        for o in [o for o in outcomes if not o.ok][:3]:
            print(f"    miss p.{o.quote.page} {o.status}: {o.quote.text[:100]!r}")
    for held, (ok, n) in totals.items():
        if n:
            print(f"{'HELD OUT' if held else 'WORK SET'} {engine}: {ok}/{n} = {ok / n:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Clip paths (issue 18): text a page draws and then clips away is not on the page.

PDFs built here draw text partly outside a clip region: with a ``re W n`` clip on the page, a
form XObject's own clip (mapped by the form's matrix), its ``/BBox``, and a clip on the form
object that applies to everything drawn inside it. What lies outside is left out of the text;
what is inside stays and is located where it is. The region is each clip path's bounding box,
so a slanted clip drops what lies outside its box (and would keep a corner of the box it does not
show: ``ipsis.ingest.pdfclip``). The real case is in the
pdf-wild pins (``knockout_groups_test.pdf``: ``backdrop`` clipped to ``backdro``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ipsis.ingest import load_document
from ipsis.ingest.tesseract import OcrOptions
from ipsis.verify.locate import locate
from tests.pdfbuild import one_page_pdf

NO_OCR = OcrOptions(mode="never")
LINE = b"BT /F1 12 Tf 72 700 Td (Shown on the page) Tj 300 0 Td (drawn but clipped away) Tj ET"
"""One text object: ``Shown on the page`` from x = 72 (to about 163), the rest from x = 372."""
FORM_LINE = b"BT /F1 12 Tf 0 600 Td (Inside the form box) Tj 300 0 Td (outside the form box) Tj ET"

CASES = {
    "a rectangle clip on the page": (b"q 0 0 300 792 re W n " + LINE + b" Q", {}, "Shown on the page"),
    "a clip that holds the whole page": (
        b"q 0 0 612 792 re W n " + LINE + b" Q",
        {},
        "Shown on the page drawn but clipped away",
    ),
    "a second clip inside the first": (
        b"q 0 0 500 792 re W n q 0 0 300 792 re W n " + LINE + b" Q Q",
        {},
        "Shown on the page",
    ),
    "the form's own clip, moved by its matrix": (
        b"q 1 0 0 1 100 0 cm /Fm Do Q",
        {"Fm": (b"[0 0 612 792]", b"q 0 0 200 792 re W n " + FORM_LINE + b" Q")},
        "Inside the form box",
    ),
    "the form's bounding box": (
        b"q 1 0 0 1 100 0 cm /Fm Do Q",
        {"Fm": (b"[0 0 200 792]", FORM_LINE)},
        "Inside the form box",
    ),
    "a form in a form: both matrices": (
        b"q 1 0 0 1 100 0 cm /Fm1 Do Q",
        {
            "Fm1": (b"[0 0 612 792]", b"q 1 0 0 1 50 0 cm /Fm2 Do Q"),
            "Fm2": (b"[0 0 612 792]", b"q 0 0 150 792 re W n " + FORM_LINE + b" Q"),  # x 150-300 on the page
        },
        "Inside the form box",
    ),
    "a clip on the page around the form": (
        b"q 0 0 300 792 re W n /Fm Do Q",
        {"Fm": (b"[0 0 612 792]", FORM_LINE)},
        "Inside the form box",
    ),
    "a slanted clip: its bounding box": (
        b"q 0 0 m 300 792 l 0 792 l h W n " + LINE + b" Q",  # a triangle: x up to 265 at y = 700
        {},
        "Shown on the page",
    ),
}


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_text_outside_the_clip_is_not_on_the_page(tmp_path: Path, case: str) -> None:
    content, forms, visible = CASES[case]
    path = tmp_path / "clip.pdf"
    path.write_bytes(one_page_pdf(content, forms))
    doc = load_document(path, ocr=NO_OCR)
    assert " ".join(doc.text.split()) == visible
    r = locate(doc, visible)
    assert r.status == "located", r.message
    m = r.matches[0]
    assert doc.text[m.start : m.end] == m.text == visible
    if "clipped away" not in visible and "outside" not in visible:
        hidden = "drawn but clipped away" if b"Shown" in content else "outside the form box"
        assert locate(doc, hidden).status == "not_found"

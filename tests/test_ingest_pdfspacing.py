"""Spaces the page shows and spaces extractors disagree on (issue 18).

- **A gap is a space**: a gap between two characters on one line wider than a tenth of an em
  beyond the letter spacing is a word space, where PDFium (whose threshold follows the font's
  space width) glues ``law.The``. Checked on a PDF built here with known gaps.
- **Raised and lowered scripts stay on their line**: PDFium breaks the line before a raised
  letter or sign (``R\\nn``, ``3\\nème``, ``f\\n−1\\n(U)``); ipsis reads them on the line, as printed.
- **Spacing by symbols** (``symbol_spacing``, typography tier): a space next to a symbol or
  bracket is not a difference (``a1 (Γ)`` is ``a1(Γ)``), a space between two letters or two
  digits and the space after ``,`` always is; the result lists the step.
- **A raised or lowered script set apart by spaces** in the quote (``S 2`` for ``S²``, ``S n``
  for ``Sⁿ``: ``superscript`` and ``script`` marks) is located, and the result says so.
- **Scripts on their line** (no line break: ``TₛS``, ``Xᶜ``) are marked ``script`` from the font
  sizes, on a page that sets formulas; a quote that spaces **some scripts and not others**
  (``S 1 … e2πit``, ``Ts S``) is located by the ``script_spacing`` search, listed in the steps,
  while a space between two ordinary letters still counts (checked on a PDF built here).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ipsis.document import Document, Mark
from ipsis.ingest import load_document
from ipsis.ingest.tesseract import OcrOptions
from ipsis.spans import Span
from ipsis.verify.batch import surely_absent
from ipsis.verify.locate import locate
from tests.pdfbuild import one_page_pdf
from tests.shared import CORPORA

WILD = CORPORA / "pdf-wild"
NO_OCR = OcrOptions(mode="never")


LAW = 20.328  # the advance of "law." in 12 pt Times-Roman (278 + 444 + 722 + 250 thousandths)


@pytest.mark.parametrize(
    ("gap", "expected"),
    [(0.0, "law.The next"), (0.5, "law.The next"), (1.5, "law. The next"), (2.5, "law. The next")],
)
def test_a_gap_wider_than_a_tenth_of_an_em_is_a_space(tmp_path: Path, gap: float, expected: str) -> None:
    # 1.5 pt is 0.125 em at 12 pt: PDFium itself reads no space below about 0.15 em
    page = b"BT /F1 12 Tf 72 700 Td (law.) Tj %.3f 0 Td (The next) Tj ET" % (LAW + gap)
    path = tmp_path / "gap.pdf"
    path.write_bytes(one_page_pdf(page))
    doc = load_document(path, ocr=NO_OCR)
    assert doc.text.strip() == expected


def test_letter_spacing_is_not_a_word_gap(tmp_path: Path) -> None:
    # tracked text (2 pt between every letter) has a wide gap after the period too: no space
    page = b"BT /F1 12 Tf 2 Tc 72 700 Td (law.The) Tj ET"
    path = tmp_path / "tracked.pdf"
    path.write_bytes(one_page_pdf(page))
    assert load_document(path, ocr=NO_OCR).text.strip() == "law.The"


def _located(doc: Document, quote: str, page: int, text: str) -> list[str]:
    r = locate(doc, quote)
    assert r.status == "located", r.message
    m = r.matches[0]
    assert doc.text[m.start : m.end] == m.text == text
    assert m.page == page
    return r.steps


def test_raised_letters_stay_on_their_line() -> None:
    # rendered pages: GeoTopo p. 28 "sind Rⁿ und Rᵐ", issue6127 p. 3 "jusqu'au 3ème degré"
    geo = load_document(WILD / "ss_GeoTopo-komprimiert.pdf", ocr=NO_OCR)
    q = "b) Für n 6= m sind Rn und Rm nicht homöomorph."  # ≠ is read "6=" by pdftotext too
    assert _located(geo, q, 28, q) == []
    form = load_document(WILD / "pj_issue6127.pdf", ocr=NO_OCR)
    q = "le collatéral jusqu’au 3ème degré ou l’allié au même degré de"
    assert _located(form, q, 3, q) == []


def test_spacing_by_symbols_is_typography_and_listed() -> None:
    geo = load_document(WILD / "ss_GeoTopo-komprimiert.pdf", ocr=NO_OCR)
    steps = _located(
        geo,
        "b) Ist n = a1 (Γ) − a1 (T ), so ist χ(Γ) = 1 − n.",  # pdftotext's spacing
        41,
        "b) Ist n = a1(Γ) − a1(T), so ist χ(Γ) = 1 − n.",
    )
    assert "symbol_spacing" in steps


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("incisos 1,5 e 7 do artigo", "incisos 1, 5 e 7 do artigo"),  # a list is not a decimal
        ("o inciso I - o cidadão brasileiro", "o inciso Io cidadão brasileiro"),  # a dash keeps words apart
        ("the total of 12 34 units shipped", "the total of 1234 units shipped"),
        ("we ship the cargo today", "we shipthe cargo today"),
    ],
)
def test_spacing_that_changes_words_or_numbers_is_a_difference(text: str, quote: str) -> None:
    assert locate(Document("d", text), quote).status == "not_found"


def test_superscript_set_apart_by_spaces() -> None:
    geo = load_document(WILD / "ss_GeoTopo-komprimiert.pdf", ocr=NO_OCR)
    r = locate(geo, "Die Kugeloberfläche S 2 lässt sich durch strecken")  # page 2 prints S²
    assert r.status == "located", r.message
    m = r.matches[0]
    assert m.page == 2 and doc_slice(geo, m) == m.text == "Die Kugeloberfläche S2 lässt sich durch strecken"
    assert "apart by spaces" in r.message
    r = locate(geo, "Als kompakte Mannigfaltigkeit wird S n auch")  # page 29 prints Sⁿ: a raised letter
    assert r.status == "located", r.message
    m = r.matches[0]
    assert m.page == 29 and doc_slice(geo, m) == m.text == "Als kompakte Mannigfaltigkeit wird Sn auch"
    scripts = [k for k in geo.marks_overlapping(Span(m.start, m.end)) if k.kind == "script"]
    assert [geo.text[k.start : k.end] for k in scripts] == ["n"]


def doc_slice(doc: Document, m: object) -> str:
    return doc.text[m.start : m.end]  # type: ignore[attr-defined]


SCRIPTS_PAGE = (  # 12 pt text with an 8 pt subscript s (2 pt down) and superscript C (4 pt up)
    b"BT /F1 12 Tf 72 700 Td (Sei T) Tj /F1 8 Tf -2 Ts (s) Tj /F1 12 Tf 0 Ts (S die Ebene und X) Tj"
    b" /F1 8 Tf 4 Ts (C) Tj /F1 12 Tf 0 Ts ( das Komplement, x ) Tj /F2 12 Tf (\\316) Tj /F1 12 Tf ( A.) Tj ET"
)  # Symbol's 316 is the sign of a formula, \u2208: the page's font sizes are read


def test_scripts_on_their_line_are_marked_and_spaced_as_a_quote_likes(tmp_path: Path) -> None:
    path = tmp_path / "scripts.pdf"
    path.write_bytes(one_page_pdf(SCRIPTS_PAGE))
    doc = load_document(path, ocr=NO_OCR)
    text = "Sei TsS die Ebene und XC das Komplement, x \u2208 A."
    assert doc.text.strip() == text
    assert [(m.kind, doc.text[m.start : m.end]) for m in doc.marks] == [("script", "s"), ("script", "C")]
    _located(doc, "Sei Ts S die Ebene und X C das Komplement, x \u2208 A.", 1, text)  # every script apart: spaced view
    assert "script_spacing" in _located(doc, "Sei T s S die Ebene und XC das Komplement, x \u2208 A.", 1, text)
    for quote in ("Sei Ts S dieEbene und X C das Komplement, x \u2208 A.", "SeiTs S die Ebene und XC das Komplement."):
        assert locate(doc, quote).status == "not_found"  # a space between two ordinary letters counts


@pytest.mark.parametrize(
    ("quote", "status"),
    [
        ("Y = S 1 = {z} und f(t) = e2πit.", "located"),  # one script spaced, the other not
        ("Y = S1 = {z} und f(t) = e 2πit.", "located"),
        ("Y = S1 = {z} undf(t) = e2πit.", "not_found"),  # two ordinary letters
        ("Y = S1 = {z} und f(t) = e2π it.", "not_found"),  # inside one script
    ],
)
def test_script_spacing_only_at_a_scripts_edge(quote: str, status: str) -> None:
    doc = Document("d", "Y = S1 = {z} und f(t) = e2πit.", marks=(Mark("script", 5, 6), Mark("script", 25, 29)))
    r = locate(doc, quote)
    assert r.status == status, r.message
    if status == "located":  # and a look-up for the other sources does not skip it
        assert not surely_absent(doc, quote)
        m = r.matches[0]
        assert doc.text[m.start : m.end] == m.text == doc.text
        assert "script_spacing" in r.steps


@pytest.mark.parametrize(
    ("quote", "status"),
    [
        ("Da U x offen ist, gibt es", "located"),  # the quote sets the subscript apart
        ("Da Uxoffen ist, gibt es", "not_found"),  # the word space after a script still counts
    ],
)
def test_the_word_space_after_a_script_counts(quote: str, status: str) -> None:
    doc = Document("d", "Da Ux offen ist, gibt es", marks=(Mark("script", 4, 5),))
    assert locate(doc, quote).status == status


def test_a_ligatures_letters_are_not_a_glyph_drawn_twice() -> None:
    # GeoTopo p. 29 prints "zu einem offenem Intervall" (an ff ligature: two f with one box) on
    # a page that repeats a line (so glyphs drawn twice at one place are read once)
    geo = load_document(WILD / "ss_GeoTopo-komprimiert.pdf", ocr=NO_OCR)
    q = "die homöomorph zu einem offenem Intervall"
    assert _located(geo, q, 29, q) == []

"""Layout by character positions (pdfplumber engine) and the position check of PDFium furniture.

Golden texts come from the Greek FEK two-column page (checked against a rendering of page 2)
and the RFC 7519 PDF; the golden cases themselves are in tests/cases/ingest/layout.json.
"""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from ipsis.document import Mark
from ipsis.ingest import load_document
from ipsis.ingest.layout import Box, PlacedLine, _rows, find_gutter, position_furniture, reading_order
from ipsis.ingest.plumber import confirm_furniture
from tests.shared import SHARED

ROOT = Path(__file__).resolve().parent.parent
FEK = SHARED / "corpora" / "pdf" / "gr-fek-2008-syntagma-revision-2col.pdf"
RFC_PDF = SHARED / "corpora" / "rfc" / "rfc7519-rfceditor-pdfrfc.pdf"
# Left column of page 2, lines 3-4 of the quoted Article 57 text: plain extraction puts the
# right column's line between them ("... Νόμος εφόσον οι τροποποιήσεις ...").
LEFT = "επαγγέλματος. Νόμος\nορίζει τις δραστηριότητες που είναι συμβατές με το\nβουλευτικό αξίωμα"


def test_plain_extraction_interleaves_the_columns() -> None:
    """The premise: pdfplumber's own extract_text reads across both columns."""
    with pdfplumber.open(FEK) as pdf:
        plain = pdf.pages[1].extract_text()
    assert "Νόμος εφόσον οι τροποποιήσεις" in plain
    assert LEFT not in plain


def test_two_columns_read_column_by_column() -> None:
    doc = load_document(FEK, engine="pdfplumber")
    at = doc.text.find(LEFT)
    assert at >= 0 and doc.page_of(at) == 2
    # the left column ends before the right column starts
    left_end = doc.text.find("επιτρέπεται στους βουλευτές.»")
    right_start = doc.text.find("«Η Βουλή μπορεί να υποβάλλει")
    assert at < left_end < right_start
    for mark in doc.marks:
        assert doc.text[mark.start : mark.end].strip() == doc.text[mark.start : mark.end]


def test_label_value_table_is_not_two_columns() -> None:
    rows = [
        [Box(label, 60, 120, 100 + 14 * k, 110 + 14 * k), Box(value, 320, 360, 100 + 14 * k, 110 + 14 * k)]
        for k, (label, value) in enumerate([("Lei", "13.709"), ("Ano", "2018"), ("Art.", "5º"), ("Inciso", "II")])
    ]
    assert find_gutter(rows, 595) is None
    lines = reading_order([b for r in rows for b in r], 595)
    assert [line.text for line in lines] == ["Lei 13.709", "Ano 2018", "Art. 5º", "Inciso II"]


def test_a_bigger_page_number_shares_its_header_row() -> None:
    """Guia LGPD: the page number (top 38) is taller than its header text (top 43)."""
    boxes = [Box("22", 58, 70, 38, 50), Box("GUIA", 140, 160, 43, 51), Box("DE", 165, 175, 43, 51)]
    assert [[b.text for b in r] for r in _rows(boxes)] == [["22", "GUIA", "DE"]]


def _boe_like() -> tuple[str, list[PlacedLine]]:
    """Twelve pages: "Página N" footers at one height; distinct body lines at the top, two of
    them starting or ending with their page's number."""
    lines: list[PlacedLine] = []
    parts: list[str] = []
    pos = 0
    for page in range(1, 13):
        body = "Artículo 4" if page == 4 else "3 La riqueza" if page == 3 else f"Texto {'abcdefghijkl'[page - 1]}"
        for text, top in ((body, 60.0), ("cuerpo del artículo", 300.0), (f"Página {page}", 806.0)):
            lines.append(PlacedLine(page, pos, pos + len(text), top, top + 10, 842.0))
            parts.append(text + "\n")
            pos += len(text) + 1
    return "".join(parts), lines


def test_page_numbers_count_per_band() -> None:
    """A body line in the top band ending in the page number ("Artículo 4." on page 4) is not a
    page header: the footers carry the page numbers, the top band does not."""
    text, lines = _boe_like()
    marks = position_furniture(text, lines)
    assert [text[m.start : m.end] for m in marks] == [f"Página {n}" for n in range(1, 13)]
    assert all(m.note.startswith("running footer") for m in marks)


def test_position_check_drops_a_body_line_marked_as_furniture() -> None:
    doc = load_document(RFC_PDF)
    furniture = [m for m in doc.marks if m.kind == "furniture" and doc.page_of(m.start) in (3, 4)]
    body = 'The "iss" (issuer) claim identifies the principal that issued the'
    at = doc.text.find(body)
    assert doc.page_of(at) == 9
    fake = Mark("furniture", at, at + len(body), "running header, page 9")
    kept, dropped = confirm_furniture(RFC_PDF.read_bytes(), doc.text, [*furniture, fake], doc.page_of, None)
    assert dropped == [fake]
    assert kept == furniture
    assert {doc.text[m.start : m.end] for m in kept} == {
        "RFC 7519 JSON Web Token (JWT) May 2015",
        "Jones, et al. Standards Track [Page 3]",
        "Jones, et al. Standards Track [Page 4]",
    }


@pytest.mark.parametrize("engine", ["pdfium", "pdfplumber"])
def test_page_starts_and_marks_agree(engine: str) -> None:
    doc = load_document(FEK, engine=engine)
    assert doc.page_starts[0] == 0 and doc.text[doc.page_starts[1] - 1] == "\f"
    for mark in doc.marks:
        assert 0 <= mark.start < mark.end <= len(doc.text)


WILD = SHARED / "corpora" / "pdf-wild"
FORM_BLOCKS = [
    # page 1 of issue6127.pdf (rendered at 70 dpi): the title block beside the VOLET 1 box,
    # read as one block each (the rows used to interleave them: "... A UN ASSUR E VOLET 1")
    (1, "DEMANDE DE RATTACHEMENT A UN ASSUR E\nDES AYANTS DROIT AUTRES QUE LES ENFANTS\n"),
    (1, "VOLET 1\nà a d r esser\nà l'organisme\nd'assurance\nmaladie"),  # pdfminer's own letter spacing
    # page 3: a brace drawn over seven bullet lines used to pull them into one row
    (3, "• la personne liée à l’assuré par un pacte civil de solidarité (PACS) ,\n"),
    (3, "(ils doivent vivre sous le même toit que l'assuré(e)\nauquel(à laquelle) ils demandent le rattachement et\n"),
]


@pytest.mark.parametrize(("page", "block"), FORM_BLOCKS)
def test_a_form_reads_block_by_block(page: int, block: str) -> None:
    doc = load_document(WILD / "pj_issue6127.pdf", engine="pdfplumber")
    at = doc.text.find(block)
    assert at >= 0, block
    assert doc.page_of(at) == page


def test_pdfminer_unmapped_glyphs_are_marked() -> None:
    # issue6132.pdf: the fi ligature has no Unicode map; pdfminer writes "(cid:12)eld"
    doc = load_document(WILD / "pj_issue6132.pdf", engine="pdfplumber")
    assert "(cid:" not in doc.text
    at = doc.text.find("Galois \ufffdeld used to achieve fast")
    assert at >= 0
    unmapped = [m for m in doc.marks if m.kind == "unmapped_glyph"]
    assert any(m.start == at + len("Galois ") and doc.text[m.start : m.end] == "\ufffd" for m in unmapped)


@pytest.mark.parametrize(
    ("quote", "page"),
    [
        ("Limit 1 voucher per person; limit 3 vouchers as gifts.", 1),  # printed on page 1 only
        ("1 month membership, unlimited rentals and beginners climbing class", 2),
        ("Promotional value expires: Thu Mar 22", 3),
    ],
)
def test_pdfplumber_reads_only_the_crop_box(quote: str, page: int) -> None:
    # issue1350.pdf draws the same content on its three pages, each cropped to another part
    # (rendered pages 1-3): what lies outside the crop box is not on the page
    from ipsis.verify.locate import locate

    doc = load_document(WILD / "pj_issue1350.pdf", engine="pdfplumber")
    r = locate(doc, quote)
    assert r.status == "located", r.message
    m = r.matches[0]
    assert m.page == page and doc.text[m.start : m.end] == m.text

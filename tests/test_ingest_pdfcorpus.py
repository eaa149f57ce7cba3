"""The corpus's own PDFs (norms of BR/ES/MX/CH/GR, RFC 7519): quotes ``pdftotext`` reads on a
page are located on that page (:mod:`tests.pdfcorpus`), and the families of misses fixed there.

Floors per file in ``tests/cases/pdf-corpus/files.json`` (``located`` of ``quotes``, after the
``pdftotext_wrong`` families are left out); the fast suite checks every k-th quote of the small
files against the same share, the slow run every quote of every file. The golden cases below
take their expectations from the page (``pdftotext``'s text, the page rendered by ``pdftoppm``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from ipsis.document import Document
from ipsis.ingest import load_document
from ipsis.verify.locate import locate
from tests.pdfcorpus import CASES, NO_OCR, measure
from tests.pdfwild import have_pdftotext
from tests.shared import corpus

FAST_QUOTES = 150
SLACK = 0.01  # share: every k-th quote is a sample, the slow run pins the count
ECA = "br/br-eca-lei-8069-ms-2006.pdf"
CDC = "br/br-cdc-procon-sp-2026.pdf"
GUIA = "br/guia-boas-praticas-lgpd-gov-2020.pdf"
CPEUM = "latam/mx-cpeum-camara-diputados-2024-11-15.pdf"


@cache
def _doc(rel: str) -> Document:
    return load_document(corpus(rel), engine="pdfium", ocr=NO_OCR)


def _located_on(doc: Document, quote: str, page: int) -> Any:
    r = locate(doc, quote)
    assert r.status == "located", f"{quote!r}: {r.status} {r.message}"
    assert [m.page for m in r.matches] == [page]
    for m in r.matches:
        assert doc.text[m.start : m.end] == m.text
    return r


def _need_pdftotext() -> None:
    if not have_pdftotext():
        pytest.fail("pdftotext (poppler-utils) is needed for the corpus PDF measurement; apt-get install poppler-utils")


def _check(case: dict[str, Any], cap: int | None) -> None:
    _need_pdftotext()
    outcomes, _wrong = measure(case, cap=cap)
    ok = sum(o.ok for o in outcomes)
    if cap is None:
        assert len(outcomes) == case["quotes"], f"{case['file']}: {len(outcomes)} readable quotes"
        assert ok >= case["located"], f"{case['file']}: {ok}/{len(outcomes)} located, floor {case['located']}"
    else:
        share = case["located"] / case["quotes"] - SLACK
        assert ok / len(outcomes) >= share, f"{case['file']}: {ok}/{len(outcomes)} of the sample located"
    assert all(o.spans_ok for o in outcomes), f"{case['file']}: a span whose text is not doc.text[start:end]"


FAST = [c for c in CASES if c.get("fast") and "located" in c]
ALL = [c for c in CASES if "located" in c]


@pytest.mark.parametrize("case", FAST, ids=[c["file"] for c in FAST])
def test_readable_quotes_located_on_their_page(case: dict[str, Any]) -> None:
    _check(case, FAST_QUOTES)


@pytest.mark.slow
@pytest.mark.parametrize("case", ALL, ids=[c["file"] for c in ALL])
def test_every_readable_quote(case: dict[str, Any]) -> None:
    _check(case, None)


# pdftotext's lines; the page shows the word whole (the fi/fl ligature is one glyph, PDFium
# reads a space drawn over it: ``identifi car``, ``fl agrante``)
LIGATURES = [
    ("O adolescente apreendido em flagrante de ato infracional", 52, "flagrante"),
    ("II - identificar o recém-nascido mediante o registro de sua", 11, "identificar"),
]


@pytest.mark.parametrize(("quote", "page", "word"), LIGATURES)
def test_a_space_drawn_over_a_ligature_is_no_word_space(quote: str, page: int, word: str) -> None:
    doc = _doc(ECA)
    r = _located_on(doc, quote, page)
    assert word in r.matches[0].text
    for broken in ("identifi cação", "fl agrante", "profi ssional", "defi ciência"):
        assert broken not in doc.text


def test_a_space_inside_overlapping_script_glyphs_stays() -> None:
    # a script font's boxes overlap by a third of a glyph; the page shows the word spaces
    doc = load_document(corpus("pdf-wild/pj_non-embedded-NuptialScript.pdf"), engine="pdfium", ocr=NO_OCR)
    assert doc.text.strip() == "Non-embedded NuptialScript font - should be italic."


def test_a_dot_leader_of_another_length_is_the_same_leader() -> None:
    # pdftotext's line of the table of contents (p. 3), with its own count of dots
    quote = "SEÇÃO II – Da Oferta" + "." * 83 + "19"
    r = _located_on(_doc(CDC), quote, 3)
    assert "leaders" in r.steps and r.matches[0].text.startswith("SEÇÃO II – Da Oferta...")


def test_a_hyphen_repeated_at_the_start_of_the_next_line_is_one() -> None:
    # p. 65 prints 'cabendo-' at a line end and '-lhe' at the start of the next (pdftoppm)
    quote = "Sistema Nacional de Defesa do Consumidor, cabendo-lhe: (Redação dada pelo Decreto nº 7.738, de 2012)."
    r = _located_on(_doc(CDC), quote, 65)
    assert "cabendo-\n-lhe" in r.matches[0].text


def test_a_round_bullet_read_as_another_round_bullet() -> None:
    # pdftotext reads the bullet glyph as U+25CF, PDFium as U+2022
    quote = "● necessidade: limitação do tratamento ao mínimo necessário para a realização de suas"
    r = _located_on(_doc(GUIA), quote, 23)
    assert "bullets" in r.steps and r.matches[0].text.startswith("•")


def test_a_running_header_quoted_by_itself_is_on_every_page_it_is_printed_on() -> None:
    from tests.pdfwild import pdftotext_pages

    _need_pdftotext()
    header = "GUIA DE BOAS PRÁTICAS - LEI GERAL DE PROTEÇÃO DE DADOS (LGPD)"
    squeezed = header.replace(" ", "")
    printed = [k for k, p in enumerate(pdftotext_pages(corpus(GUIA)), 1) if squeezed in p.replace(" ", "")]
    doc = _doc(GUIA)
    r = locate(doc, header)
    assert r.status == "ambiguous" and len(printed) > 50
    assert [m.page for m in r.matches] == printed
    assert all(doc.text[m.start : m.end] == m.text for m in r.matches)
    assert sum("furniture" in m.flags for m in r.matches) >= len(printed) - 1  # all but a title line


def test_a_header_six_lines_tall_is_furniture_and_a_quote_runs_across_it() -> None:
    # every page of the CPEUM opens with six lines (pdftotext p. 2): the title, the chamber,
    # 'Secretaría General', 'Secretaría de Servicios Parlamentarios', 'Última Reforma DOF
    # 15-11-2024', '2 de 387'; art. 1o.'s fifth paragraph runs from p. 1 onto p. 2 under them
    doc = _doc(CPEUM)
    page2 = doc.text[doc.page_starts[1] : doc.page_starts[2]].split("\n")[:7]
    furniture = {doc.text[m.start : m.end] for m in doc.marks if m.kind == "furniture" and m.start < doc.page_starts[2]}
    assert {"Secretaría de Servicios Parlamentarios", "Última Reforma DOF 15-11-2024", "2 de 387"} <= furniture
    assert page2[6] not in furniture and page2[6].startswith("sexuales, el estado civil")
    quote = "las opiniones, las preferencias sexuales, el estado civil o cualquier otra que atente contra la dignidad"
    r = _located_on(doc, quote, 1)
    assert "Última Reforma DOF" in r.matches[0].text  # the span runs over the skipped header
    # a decree's promulgation clause repeated near the bottom of many pages is body text
    clause = "Estados Unidos Mexicanos, y para su debida publicación y observancia, expido el presente Decreto en la"
    assert not any(doc.text[m.start : m.end].startswith(clause) for m in doc.marks if m.kind == "furniture")

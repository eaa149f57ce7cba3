"""The corpus's own PDFs (norms of BR/ES/MX/CH/GR, RFC 7519): quotes ``pdftotext`` reads on a
page are located on that page (:mod:`tests.pdfcorpus`), and the families of misses fixed there.

Floors per file in ``tests/cases/pdf-corpus/files.json`` (``located`` of ``quotes``, after the
``pdftotext_wrong`` families are left out); the fast suite checks every k-th quote of the small
files against the same share, the slow run every quote of every file. The golden cases below
take their expectations from the page (``pdftotext``'s text, the page rendered by ``pdftoppm``).
"""

from __future__ import annotations

import io
import json
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from ipsis.document import Document
from ipsis.ingest import load_bytes, load_document
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
    outcomes, _wrong, shown = measure(case, cap=cap)
    ok = sum(o.ok for o in outcomes)
    if cap is None:
        assert len(outcomes) == case["quotes"], f"{case['file']}: {len(outcomes)} readable quotes"
        assert ok >= case["located"], f"{case['file']}: {ok}/{len(outcomes)} located, floor {case['located']}"
        if "shown_located" in case:  # the quotes pdftotext's layout misreads, as the page shows them
            floor = case["shown_located"]
            assert len(shown) == case["shown"], f"{case['file']}: {len(shown)} quotes pinned by the layout"
            assert sum(o.ok for o in shown) >= floor, f"{case['file']}: {sum(o.ok for o in shown)} shown, floor {floor}"
        assert all(o.spans_ok for o in shown)
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


# pdftotext's lines; the page (pdftoppm -r 200) shows the word whole: PDFium reads a space whose
# glyph the next letter is drawn over, starting at the space's own origin (``judiciá ria``)
UNDER = [("judiciária, ouvido o Ministério Público, decretar liminarmente o", 57, "judiciá ria")]
# real word spaces whose boxes overlap the glyph after: a 'j' reaching back over the space
# (p. 10), a line set tight, its spaces advancing a fifth of their width (p. 19)
UNDER_REAL = [
    ("dispostos em meio físico ou digital, feito por pessoa física ou jurídica de direito público ou privado e", 10),
    ("Informação e da Lei Geral do Processo Administrativo, e considerando a existência de procedimentos", 19),
]


@pytest.mark.parametrize(("quote", "page", "broken"), UNDER)
def test_a_space_drawn_under_the_next_glyph_is_no_word_space(quote: str, page: int, broken: str) -> None:
    doc = _doc(ECA)
    r = _located_on(doc, quote, page)
    assert r.tier == "exact" and r.matches[0].text == quote
    assert broken not in doc.text


@pytest.mark.parametrize(("quote", "page"), UNDER_REAL)
def test_a_word_space_the_next_glyph_overlaps_stays(quote: str, page: int) -> None:
    r = _located_on(_doc(GUIA), quote, page)
    assert r.tier == "exact" and r.matches[0].text == quote


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


# The Mexican DOF 1995 treaty (Word through Acrobat PDFWriter 4.0, fonts not embedded): golden
# quotes read on its rendered pages, checked on those pages copied into a PDF in memory
# (reading the 1149 pages takes seconds); ``pdftotext`` is what it misreads there.
DOF = json.loads((Path(__file__).parent / "cases" / "pdf-corpus" / "dof-1995.json").read_text())


def _subset(rel: str, pages: list[int]) -> bytes:
    from pypdf import PdfReader, PdfWriter

    reader, writer = PdfReader(corpus(rel)), PdfWriter()
    for page in pages:
        writer.add_page(reader.pages[page - 1])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@cache
def _dof_pages() -> Document:
    return load_bytes(_subset(DOF["file"], DOF["pages"]), "dof", "dof.pdf", ocr=NO_OCR)


@pytest.mark.parametrize("case", DOF["cases"], ids=[f"p{c['page']}-{c['family']}" for c in DOF["cases"]])
def test_dof_quotes_read_on_the_rendered_page(case: dict[str, Any]) -> None:
    doc = _dof_pages()
    r = _located_on(doc, case["quote"], DOF["pages"].index(case["page"]) + 1)
    assert "".join(r.matches[0].text.split()) == "".join(case["quote"].split())
    if case.get("pdftotext"):  # pdftotext's misreading is not what the page shows
        assert locate(doc, case["pdftotext"]).status == "not_found"
    if case.get("before"):  # PDFium's own line breaks inside the line are gone
        assert case["before"] not in " ".join(doc.text.split())


GUARDED = [
    (DOF["file"], DOF["pages"]),
    (CPEUM, [3, 4, 5]),
    (ECA, [10, 11, 12]),
]


@pytest.mark.parametrize(("rel", "pages"), GUARDED, ids=[g[0] for g in GUARDED])
def test_no_word_space_the_page_shows_is_removed(rel: str, pages: list[int], tmp_path: Path) -> None:
    # every pair of words pdftotext reads apart at a gap a reader sees as a space (a fifth of
    # the line height or more; a narrow split is under a seventh) stays apart in ipsis's text:
    # Spanish/Portuguese one-letter words (a, y, o, e, u) and spaced dashes (``- -``) included
    from tests.pdfwild import pdftotext_layout

    _need_pdftotext()
    data = _subset(rel, pages)
    (tmp_path / "p.pdf").write_bytes(data)
    doc = load_bytes(data, "p", "p.pdf", ocr=NO_OCR)
    glued, single = [], 0
    for k, page in enumerate(pdftotext_layout(tmp_path / "p.pdf")):
        start = doc.page_starts[k]
        end = doc.page_starts[k + 1] if k + 1 < len(doc.page_starts) else len(doc.text)
        text = " ".join(doc.text[start:end].split())
        for line in (line for block in page for line in block):
            for a, b in pairwise(line):
                if b[0] - a[2] >= 0.2 * (a[3] - a[1]):
                    single += a[4] in ("a", "y", "o", "e", "u", "-") or b[4] in ("a", "y", "o", "e", "u", "-")
                    if a[4] + b[4] in text and f"{a[4]} {b[4]}" not in text:
                        glued.append(f"p.{pages[k]} {a[4]!r} {b[4]!r}")
    assert single > 50
    assert not glued, glued[:10]


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

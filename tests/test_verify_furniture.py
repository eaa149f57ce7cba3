"""A running header or footer quoted by itself is printed on the page: it is found on every page
it is printed on (``ambiguous`` when several), each place flagged ``furniture``; a quote that
runs across a page break still skips the furniture in between."""

from __future__ import annotations

from ipsis.ingest import load_document
from ipsis.verify.locate import locate
from tests.shared import corpus

RFC = corpus("rfc/rfc7519.txt")


def test_running_header_quoted_alone_is_found_on_each_page() -> None:
    doc = load_document(RFC)
    text = RFC.read_text(encoding="utf-8")
    printed = text.count("RFC 7519                  JSON Web Token (JWT)                  May 2015")
    r = locate(doc, "RFC 7519 JSON Web Token (JWT) May 2015")
    assert r.status == "ambiguous", r.message
    assert len(r.matches) == printed == 29  # the header of pages 2-30 (read from the file)
    assert [m.page for m in r.matches] == list(range(2, 31))
    for m in r.matches:
        assert doc.text[m.start : m.end] == m.text
        assert "furniture" in m.flags
    assert "page furniture" in r.message


def test_quote_across_a_page_break_still_skips_the_header() -> None:
    doc = load_document(RFC)
    r = locate(doc, "Unlike Public Claim Names, Private Claim Names are subject to collision")  # pages 10-11
    assert r.status == "located", r.message
    assert "furniture" not in r.matches[0].flags and r.matches[0].page == 10
    assert doc.text[r.matches[0].start : r.matches[0].end] == r.matches[0].text


def test_body_text_is_not_flagged() -> None:
    doc = load_document(RFC)
    r = locate(doc, "JSON Web Token (JWT) is a compact, URL-safe means of representing")
    assert r.status == "located", r.message
    assert r.matches[0].flags == []


def test_a_running_header_quoted_alone_is_boxed_where_it_is_printed() -> None:
    from ipsis.pdfboxes import PdfSource

    path = corpus("br/lgpd-senado-edicao-2024.pdf")
    doc = load_document(path)
    r = locate(doc, "16 Lei Geral de Proteção de Dados Pessoais")  # the running head with its page number
    assert r.status == "located", r.message
    m = r.matches[0]
    assert "furniture" in m.flags and doc.text[m.start : m.end] == m.text
    source = PdfSource(doc, path.read_bytes())
    try:
        boxes = source.boxes(m.start, m.end)
    finally:
        source.close()
    assert boxes and {b["page"] for b in boxes} == {m.page}

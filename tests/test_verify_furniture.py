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

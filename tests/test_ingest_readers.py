"""Reader behaviour checked against the source markup itself (independent of the reader)."""

from __future__ import annotations

import re
from pathlib import Path

import lxml.html
import pytest

from ipsis.ingest import detect_format, load_bytes, load_document
from ipsis.ingest.text import decode_text
from tests.shared import SHARED

ROOT = Path(__file__).resolve().parent.parent
PLANALTO = SHARED / "corpora" / "br" / "lei-13709-2018-lgpd-planalto.html"


def _squash(s: str) -> str:
    return re.sub(r"\s+", " ", s.replace("\xa0", " ")).strip()


def test_planalto_revoked_marks_are_struck_in_the_html() -> None:
    doc = load_document(PLANALTO)
    root = lxml.html.document_fromstring(PLANALTO.read_bytes().decode("cp1252"))
    struck = root.xpath("//strike | //s | //del | //*[contains(translate(@style,' ',''),'line-through')]")
    struck_text = [_squash(el.text_content()) for el in struck]
    revoked = [m for m in doc.marks if m.kind == "revoked"]
    assert len(revoked) >= 60
    for mark in revoked:
        passage = _squash(doc.text[mark.start : mark.end])[:80]
        assert any(passage in s for s in struck_text), passage


def test_planalto_struck_and_current_wording_of_art_3_ii() -> None:
    doc = load_document(PLANALTO)
    start = doc.text.find("Art. 3º")
    end = doc.text.find("III - ", start)
    versions = [m.start() + start for m in re.finditer(r"II - a atividade", doc.text[start:end])]
    assert len(versions) == 3
    revoked = [bool(doc.marks_overlapping(type(doc.marks[0].span)(v, v + 10), {"revoked"})) for v in versions]
    assert revoked == [True, True, False]


@pytest.mark.parametrize(
    ("data", "text", "encoding"),
    [
        ("Art. 5º Todos são iguais\r\n".encode(), "Art. 5º Todos são iguais\r\n", "utf-8"),
        (b"\xef\xbb\xbfArt. 5\xc2\xba\r", "Art. 5º\r", "utf-8-sig"),
        ("Redação dada – “Lei”\rfim".encode("cp1252"), "Redação dada – “Lei”\rfim", "cp1252"),
        (b"Regula\xe7\xe3o \x81", "Regulação \x81", "latin-1"),
    ],
)
def test_text_encodings_and_line_ends_kept(data: bytes, text: str, encoding: str) -> None:
    doc = load_bytes(data, "t", "t.txt")
    assert doc.text == text
    assert doc.meta["encoding"] == encoding
    assert decode_text(data)[1] == encoding


def test_html_block_breaks_drop_scripts_and_keep_pre() -> None:
    html = (
        b"<html><head><title>x</title><script>var a = 1;</script></head><body>"
        b"<nav>Menu Home</nav><p>Art. 1\xba  Esta\n  Lei <b>disp\xf5e</b>.</p>"
        b"<div>Par\xe1grafo \xfanico.<br>Texto</div><pre>a  b\n c</pre>"
        b"<style>p{}</style></body></html>"
    )
    doc = load_bytes(html, "h", "h.html")
    assert doc.text == "Art. 1º Esta Lei dispõe.\nParágrafo único.\nTexto\na  b\n c\n"
    assert doc.meta["encoding"] == "cp1252"


def test_html_note_and_strike_marks_on_small_page() -> None:
    html = (
        "<html><body><p><strike>I - texto antigo;</strike></p>"
        "<p><span style='text-decoration: line-through'>II - revogado</span> (VETADO)</p>"
        "<p>III - novo; (Incluído pela Lei nº 13.853, de 2019)</p></body></html>"
    ).encode()
    doc = load_bytes(html, "h", "h.html")
    got = [(m.kind, doc.text[m.start : m.end]) for m in doc.marks]
    assert got == [
        ("revoked", "I - texto antigo;"),
        ("revoked", "II - revogado"),
        ("note", "(VETADO)"),
        ("note", "(Incluído pela Lei nº 13.853, de 2019)"),
    ]


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("br/lgpd-senado-edicao-2024.pdf", "pdf"),
        ("br/lei-13709-2018-lgpd-planalto.html", "html"),
        ("br/cf88-senado-texto-original-1988.html", "html"),
        ("rfc/rfc9111-httpwg-rendered.html", "html"),
        ("es/constitucion-espanola-boe-api-texto-excerpt.xml", "xml"),
        ("rfc/rfc9111-auth48-to-be.v3.xml", "xml"),
        ("rfc/rfc7519.txt", "rfc"),
        ("rfc/rfc9111.txt", "rfc"),
        ("pt/crp-constituicao-republica-portuguesa.txt", "text"),
        ("br/trap-cf88-planalto-derived-mojibake-cp1250.md", "text"),
        ("STRUCTURE.md", "text"),
    ],
)
def test_format_detected_from_content(name: str, fmt: str) -> None:
    assert detect_format((SHARED / "corpora" / name).read_bytes()) == fmt


def test_rfc_html_permalinks_are_not_text() -> None:
    """RFC 9111's HTML ends each paragraph with a permalink `<a class="self" href="#…">¶</a>`:
    not the paragraph's text, and a quote running from one paragraph into the next (section 1's
    third and fourth) must be found across it."""
    from ipsis.verify import locate

    path = SHARED / "corpora" / "rfc" / "rfc9111-httpwg-rendered.html"
    html = path.read_text("utf-8")
    assert html.count('class="self"') > 200 and "\u00b6" in html
    doc = load_document(path)
    assert "\u00b6" not in doc.text
    quote = "a component of a user agent. The goal of HTTP caching"
    result = locate(doc, quote, section="Section 1")
    assert result.status == "located" and len(result.matches) == 1, result
    m = result.matches[0]
    assert _squash(doc.text[m.start : m.end]) == quote
    assert m.section is not None and m.section["id"] == "sec-1"
    elsewhere = locate(doc, quote, section="Section 4.2")  # cited in the wrong section: not there
    assert elsewhere.status != "located"


def test_format_override() -> None:
    data = (SHARED / "corpora" / "rfc" / "rfc7519.txt").read_bytes()
    doc = load_bytes(data, "rfc7519", "rfc7519.txt", fmt="text")
    assert doc.meta["format"] == "text"
    assert not doc.marks
    assert doc.text == data.decode()


def test_generic_xml_with_numeric_entities() -> None:
    data = (
        b"<norma><articulo>ART&#205;CULO 1&#186;.- Texto <b>uno</b>.</articulo>"
        b"<articulo>Art&#237;culo 2</articulo></norma>"
    )
    doc = load_bytes(data, "x", "x.xml")
    assert doc.text == "ARTÍCULO 1º.- Texto uno.\nArtículo 2\n"

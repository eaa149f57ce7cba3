"""Bad inputs: each gets a clear error that names the file and the fix, never a traceback."""

from __future__ import annotations

import io
from pathlib import Path

import pypdf
import pytest

from ipsis.errors import (
    EncryptedDocumentError,
    ExtractionError,
    InputError,
    IpsisError,
    NoTextLayerError,
    UnsupportedFormatError,
)
from ipsis.ingest import load_bytes, load_document
from tests.shared import SHARED

ROOT = Path(__file__).resolve().parent.parent
LGPD_PDF = SHARED / "corpora" / "br" / "lgpd-camara-cedi-2024.pdf"


def _pdf(pages: int = 1, user_password: str | None = None, text: str | None = None) -> bytes:
    """A PDF made with pypdf: blank pages (no text layer), optionally encrypted."""
    writer = pypdf.PdfWriter()
    if text is not None:
        reader = pypdf.PdfReader(LGPD_PDF)
        writer.add_page(reader.pages[0])
    for _ in range(pages):
        writer.add_blank_page(595, 842)
    if user_password is not None:
        writer.encrypt(user_password, owner_password="owner-secret", algorithm="AES-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_empty_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    with pytest.raises(InputError, match=r"empty\.pdf is empty"):
        load_document(empty)


def test_truncated_pdf() -> None:
    data = LGPD_PDF.read_bytes()
    with pytest.raises(ExtractionError, match=r"lgpd-half\.pdf .*truncated") as info:
        load_bytes(data[: len(data) // 2], "lgpd", "lgpd-half.pdf")
    assert "download the file again" in str(info.value)


@pytest.mark.parametrize("engine", ["pdfium", "pypdf"])
def test_encrypted_pdf_without_password(engine: str) -> None:
    data = _pdf(user_password="s3cret", text="")
    with pytest.raises(EncryptedDocumentError, match=r"locked\.pdf is encrypted.*--password"):
        load_bytes(data, "locked", "locked.pdf", engine=engine)
    with pytest.raises(EncryptedDocumentError, match="password given is wrong"):
        load_bytes(data, "locked", "locked.pdf", engine=engine, password="guess")
    doc = load_bytes(data, "locked", "locked.pdf", engine=engine, password="s3cret")
    assert "Art. 1º Esta Lei dispõe sobre o tratamento de dados pessoais" in doc.text


def test_encrypted_pdf_with_empty_user_password_opens() -> None:
    doc = load_bytes(_pdf(pages=0, user_password="", text=""), "open", "open.pdf")
    assert "Art. 1º Esta Lei dispõe" in doc.text


def test_image_only_pdf_names_the_pages() -> None:
    with pytest.raises(NoTextLayerError, match=r"scan\.pdf: no text layer.*pages \(1-3\).*OCR") as info:
        load_bytes(_pdf(pages=3), "scan", "scan.pdf")
    assert info.value.pages == [1, 2, 3]


def test_pdf_with_some_blank_pages_reports_them() -> None:
    doc = load_bytes(_pdf(pages=2, text=""), "mixed", "mixed.pdf")
    assert doc.meta["pages_without_text"] == [2, 3]
    assert doc.page_of(doc.text.find("Art. 1º Esta Lei")) == 1


@pytest.mark.parametrize("engine", ["pdfium", "pypdf"])
def test_zero_page_pdf(engine: str) -> None:
    with pytest.raises(ExtractionError, match=r"nothing\.pdf is a PDF with 0 pages"):
        load_bytes(_pdf(pages=0), "nothing", "nothing.pdf", engine=engine)


def test_binary_garbage_named_html(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(UnsupportedFormatError, match=r"page\.html: binary data"):
        load_document(page)
    with pytest.raises(InputError, match=r"page\.html: binary data, not HTML"):
        load_document(page, fmt="html")


def test_xml_with_external_entity() -> None:
    data = b'<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n<x>&secret;</x>'
    with pytest.raises(InputError, match=r"evil\.xml declares the external entity 'secret'"):
        load_bytes(data, "evil", "evil.xml")


def test_xml_entity_expansion_bomb() -> None:
    lol = b'<!ENTITY lol "lol">' + b"".join(
        b'<!ENTITY lol%d "%s">' % (i, b"&lol;" * 10 if i == 1 else b"&lol%d;" % (i - 1) * 10) for i in range(1, 10)
    )
    data = b'<?xml version="1.0"?><!DOCTYPE lolz [' + lol + b"]><lolz>&lol9;</lolz>"
    with pytest.raises(InputError, match="entity-expansion bomb"):
        load_bytes(data, "lolz", "lolz.xml")


def test_malformed_xml() -> None:
    with pytest.raises(ExtractionError, match=r"broken\.xml: not well-formed XML"):
        load_bytes(b"<?xml version='1.0'?><a><b></a>", "broken", "broken.xml")


def test_not_a_pdf_forced_as_pdf() -> None:
    with pytest.raises(ExtractionError, match=r"notes\.txt is not a PDF"):
        load_bytes(b"Art. 5o Todos sao iguais", "notes", "notes.txt", fmt="pdf")


def test_unknown_engine_and_format() -> None:
    with pytest.raises(InputError, match="unknown PDF engine 'mupdf'"):
        load_bytes(LGPD_PDF.read_bytes(), "x", engine="mupdf")
    with pytest.raises(InputError, match="unknown input format 'docx'"):
        load_bytes(b"text", "x", fmt="docx")


def test_every_error_is_an_ipsis_error() -> None:
    for exc in (EncryptedDocumentError, NoTextLayerError, UnsupportedFormatError):
        assert issubclass(exc, IpsisError)

"""Text layers that do not fit the document get a ``garbage_text`` warning (issue 18); real
ones never do.

The real cases are pinned in ``tests/cases/pdf-wild/files.json`` (``issue20232``: Cyrillic
read as a narrow window of Hangul; ``issue6127``: a font's raw codes that spell no words, pages
1-2; ``TAMReview``: control codes), and no other pdf-wild file gets one with any engine
(``tests/test_ingest_pdfwild.py``). Here: the corpora's legal PDFs (Brazil, Spain, Swiss
German, Greek) and the RFC PDF get none, with PDFium and with pypdf (every corpus PDF: slow);
and the rules on the text of pages: a whole-document judgement, the pages named when only some
are garbage, raw font codes that spell words (real text) or not, a code page read as another;
and a PDF built here whose letters are in a script its declared language is not written in.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ipsis.ingest import load_document
from ipsis.ingest.tesseract import OcrOptions
from ipsis.ingest.textcheck import garbage_warning
from tests.pdfbuild import one_page_pdf
from tests.shared import CORPORA

NO_OCR = OcrOptions(mode="never")
LEGAL = [
    "br/lgpd-senado-edicao-2024.pdf",
    "br/br-eca-lei-8069-ms-2006.pdf",
    "es/constitucion-espanola-boe-consolidado-2024-02-17.pdf",
    "pdf/ch-bundesverfassung-sr101-2020.pdf",
    "pdf/gr-fek-2008-syntagma-revision-2col.pdf",  # Greek: a non-Latin script is no sign of garbage
    "rfc/rfc7519-rfceditor-pdfrfc.pdf",
]


@pytest.mark.parametrize("engine", ["pdfium", "pypdf"])
@pytest.mark.parametrize("rel", LEGAL)
def test_real_text_layers_get_no_warning(rel: str, engine: str) -> None:
    doc = load_document(CORPORA / rel, engine=engine, ocr=NO_OCR)
    assert len(doc.text) > 5_000
    assert [w for w in doc.meta.get("warnings", []) if w["kind"] == "garbage_text"] == []


@pytest.mark.slow
def test_every_corpus_pdf_gets_no_warning() -> None:
    for path in sorted(CORPORA.glob("*/*.pdf")):
        if path.parent.name in ("pdf-wild", "scans"):  # pinned apart; scans have no text layer
            continue
        doc = load_document(path, ocr=NO_OCR)
        assert "garbage_text" not in [w["kind"] for w in doc.meta.get("warnings", [])], path.name


PROSE = "Art. 5º Todos são iguais perante a lei, sem distinção de qualquer natureza, garantindo-se. "
SHIFTED = "QHSDVUHPSOLUOHV FRQGLWLRQV SHUPHWWDQW G HQEpQpILFLHU -H FHUWLILH H[DFWV "  # ne pas remplir ...
CP1251_AS_CP1252 = "Ìàññà òåëà ñîñòàâëÿåò ïÿòü êèëîãðàììîâ, ñêàçàë îí. "  # Масса тела составляет ...


def test_a_whole_garbage_layer_is_judged_on_the_document() -> None:
    w = garbage_warning("\x04\x05\x06 \x07\x08\x08 " * 20, "t.pdf")
    assert w is not None and w["kind"] == "garbage_text" and "pages" not in w
    assert "control characters" in w["message"] and w["message"].startswith("t.pdf: ")


def test_the_pages_that_do_not_fit_are_named() -> None:
    pages = [(PROSE * 5, ""), (PROSE * 3 + SHIFTED, SHIFTED.replace(" ", "").replace("-", "").replace("[", "")),
             (PROSE * 5, "")]  # fmt: skip
    w = garbage_warning("".join(t for t, _ in pages), "t.pdf", pages)
    assert w is not None and w["pages"] == [2]
    assert "page 2" in w["message"] and "do not spell words" in w["message"]


def test_raw_codes_that_spell_words_are_real_text() -> None:
    # a symbolic font whose codes are ASCII (issue918.pdf): PDFium has no map, the letters are right
    raw = "".join(ch for ch in PROSE * 3 if ch.isascii() and ch.isalpha())
    assert garbage_warning(PROSE * 3, "t.pdf", [(PROSE * 3, raw)]) is None


def test_raw_codes_read_as_another_script() -> None:
    hangul = "킜킰톁톁킰 킜킰톁톈톂킰킱 킘킷킼 킛킸톁톂 "
    text = PROSE * 2 + hangul * 3  # too few Hangul for the whole-text rule: the raw codes tell
    w = garbage_warning(text, "t.pdf", [(text, hangul.replace(" ", "") * 3)])
    assert w is not None and "raw glyph codes" in w["message"] and w["pages"] == [1]


def test_a_code_page_read_as_another() -> None:
    text = PROSE + CP1251_AS_CP1252 * 2
    w = garbage_warning(text, "t.pdf", [(text, "")])
    assert w is not None and "one code page read as another" in w["message"]
    accented = "Ação é necessária: não há exceção à regra geral; também é válido até à ênfase. " * 4
    assert garbage_warning(accented, "t.pdf", [(accented, "")]) is None


# Russian typed in Latin letters and set in a font that declares itself Symbol: every extractor
# reads Greek (Κακ οβ ετοµ ...), which a document declared Russian is not written in
SYMBOL_LINE = b"BT /F1 12 Tf 72 700 Td (Kak ob etom skazano v stat'e pervoj etogo zakona o pravah) Tj ET"


@pytest.mark.parametrize(
    ("lang", "warned"), [(b"/Lang (ru-RU)", True), (b"/Lang (el)", False), (b"/Lang (en-US)", False), (b"", False)]
)
def test_a_script_the_declared_language_is_not_written_in(tmp_path: Path, lang: bytes, warned: bool) -> None:
    path = tmp_path / "lang.pdf"
    path.write_bytes(one_page_pdf(SYMBOL_LINE, font=b"Symbol", catalog=lang))
    doc = load_document(path, ocr=NO_OCR)
    assert doc.text.startswith("Κακ οβ ετοµ")
    warnings = [w for w in doc.meta.get("warnings", []) if w["kind"] == "garbage_text"]
    assert bool(warnings) == warned
    if warned:
        assert warnings[0]["pages"] == [1] and "declares /Lang ru-RU" in warnings[0]["message"]

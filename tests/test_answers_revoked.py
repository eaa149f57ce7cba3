"""``ipsis check`` on an answer that quotes a wording the source prints struck (Planalto keeps the
superseded wordings of the LGPD, struck, beside the one in force): the words are there, so the
quote is located, but an answer that gives them as the law needs review (``quote_revoked``).

Gold read from the Planalto page: art. 5º, XIX is printed three times, the 2018 wording ('órgão
da administração pública indireta responsável ...') and MP 869's struck, Lei 13.853's ('... desta
Lei em todo o território nacional.') in force."""

from __future__ import annotations

from ipsis.answers.check import check_answer
from ipsis.answers.sources import load_sources
from tests.shared import CORPORA

PLANALTO = CORPORA / "br/lei-13709-2018-lgpd-planalto.html"
DUTY = "responsável por zelar, implementar e fiscalizar o cumprimento desta Lei"
STRUCK = f"órgão da administração pública indireta {DUTY}"
IN_FORCE = f"órgão da administração pública {DUTY} em todo o território nacional"


def _check(quote: str):  # type: ignore[no-untyped-def]
    answer = f'Segundo a LGPD, a autoridade nacional é "{quote}" [1].\n'
    return check_answer(answer.encode(), load_sources(str(PLANALTO)), name="answer.txt")


def test_a_quote_of_struck_text_is_flagged() -> None:
    report = _check(STRUCK)
    (c,) = [c for c in report.checked if c.result is not None]
    assert c.result.status == "located"
    doc = report.sources.number(1).document
    (m,) = c.result.matches
    assert doc.text[m.start : m.end] == STRUCK
    assert any(k.kind == "revoked" and k.start <= m.start < k.end for k in doc.marks)
    assert [(f.kind, f.source, f.quote) for f in report.findings] == [("quote_revoked", 1, STRUCK)]
    assert "revoked" in report.findings[0].message


def test_the_wording_in_force_is_clean() -> None:
    report = _check(IN_FORCE)
    assert report.findings == ()


def test_one_document_file_is_one_source() -> None:
    """A PDF, HTML page or RFC text named by ``--sources`` is one source read as ``ipsis text``
    reads it (it was read as a list of sources in text: the HTML's markup was the source text
    and a PDF an error). The Câmara LGPD PDF's art. 1º and the Planalto page's, read by hand."""
    from ipsis.ingest import load_document

    quote = "dispõe sobre o tratamento de dados pessoais, inclusive nos meios digitais"
    for rel in ("br/lgpd-camara-cedi-2024.pdf", "br/lei-13709-2018-lgpd-planalto.html", "rfc/rfc7519.txt"):
        path = CORPORA / rel
        sources = load_sources(str(path))
        assert [s.number for s in sources] == [1]
        assert sources.number(1).text == load_document(path).text
    for rel in ("br/lgpd-camara-cedi-2024.pdf", "br/lei-13709-2018-lgpd-planalto.html"):
        answer = f'A LGPD "{quote}" [1].\n'.encode()
        report = check_answer(answer, load_sources(str(CORPORA / rel)), name="answer.txt")
        (c,) = [c for c in report.checked if c.result is not None]
        assert c.result.status == "located" and report.findings == ()
        (m,) = c.result.matches
        assert " ".join(report.sources.number(1).text[m.start : m.end].split()) == quote

"""Written references resolved against real documents (cases in tests/cases/sections)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ipsis.errors import InputError
from ipsis.sections import SectionNotFoundError, resolve_reference
from tests.sections_gold import segmented_loader

CASES = json.loads((Path(__file__).parent / "cases/sections/references.json").read_text("utf-8"))
SOURCES = {
    "cf88": "br/cf88-camara-cedi-texto-atualizado-ec105.pdf",
    "lgpd": "br/lgpd-camara-cedi-2024.pdf",
    "crp": "pt/crp-constituicao-republica-portuguesa.txt",
    "ce": "es/constitucion-espanola-boe-consolidado-2024-02-17.pdf",
    "rfc7519": "rfc/rfc7519.txt",
    "rfc9111": "rfc/rfc9111.txt",
    # the December 2026 norms (PROVENANCE.md); held-out documents are not used here
    "lec": "es/es-lec-ley-1-2000-boe-consolidado-2024.pdf",
    "lopdgdd": "es/es-lopdgdd-lo-3-2018-legalize.md",
    "pe": "latam/pe-constitucion-1993-legalize.md",
    "cpeum": "latam/mx-cpeum-camara-diputados-2024-11-15.pdf",
    "uy": "latam/uy-constitucion-1967-impo-legalize.md",
    "cl": "latam/cl-constitucion-politica-bcn-leychile-242302.xml",
    "ar": "latam/ar-constitucion-nacional-ley-24430-infoleg.htm",
    "cdc": "br/br-cdc-procon-sp-2026.pdf",
    "ct": "pt/pt-codigo-trabalho-dre-2025.txt",
    "cpt": "pt/pt-codigo-penal-legix-2007.txt",
    "eca": "br/br-eca-lei-8069-ms-2006.pdf",
    "ch": "pdf/ch-bundesverfassung-sr101-2020.pdf",
    "dof": "latam/mx-dof-1995-01-09-tlc-g3-segunda-seccion.pdf",
    "rfc9112": "rfc/rfc9112.txt",
    "rfc9112xml": "rfc/rfc9112-httpwg.xml",
    "rfc7232xml": "rfc/rfc7232-auth48-to-be.v2.xml",
}


_doc = segmented_loader(SOURCES)


def test_there_are_enough_cases() -> None:
    assert len(CASES) >= 40
    assert sum("fail" in c for c in CASES) >= 10
    new = [c for c in CASES if c["doc"] not in ("cf88", "lgpd", "crp", "ce", "rfc7519", "rfc9111")]
    assert len(new) >= 40 and sum("fail" in c for c in new) >= 10


@pytest.mark.parametrize("case", CASES, ids=[f"{c['doc']}:{c['ref']}" for c in CASES])
def test_reference(case: dict[str, object]) -> None:
    doc, tree = _doc(str(case["doc"]))
    assert doc.sections is tree
    ref = str(case["ref"])
    if "fail" in case:
        with pytest.raises(InputError) as info:
            resolve_reference(tree, ref, doc)
        assert str(case["fail"]) in str(info.value)
        if isinstance(info.value, SectionNotFoundError):
            assert info.value.closest in tree
            if "closest" in case:  # the nearest existing section, never a silent substitute
                assert info.value.closest == case["closest"]
        return
    res = resolve_reference(tree, ref, doc)
    assert list(res.ids) == case["ids"]
    if "unchecked" in case:  # a part of the reference it could not check is named, never dropped
        assert any(str(case["unchecked"]) in why for why in res.unchecked), res.unchecked
    else:
        assert res.unchecked == ()
    for sec in res.sections:
        body = doc.text[sec.start : sec.end]
        assert body.startswith(sec.label.split()[0]), (sec, body[:40])
        if "starts" in case:  # the span is the cited section's text, as read in the document
            assert body.startswith(str(case["starts"])), (sec, body[:60])


def test_section_errors_live_in_ipsis_errors() -> None:
    import ipsis.errors
    import ipsis.sections

    assert ipsis.sections.SectionNotFoundError is ipsis.errors.SectionNotFoundError
    assert ipsis.sections.ReferenceSyntaxError is ipsis.errors.ReferenceSyntaxError
    assert issubclass(ipsis.errors.SectionNotFoundError, (ipsis.errors.InputError, LookupError))


def test_a_quote_cited_in_the_wrong_inciso_is_not_located() -> None:
    """Peru's art. 2 numbers its incisos ``9.``, ``24.``: "artículo 2, inciso 24" was read as the
    whole article, so a quote of inciso 9 was `located` (a false located)."""
    from ipsis.verify import locate

    doc, _ = _doc("pe")
    quote = "Nadie puede ingresar en él ni efectuar investigaciones o registros sin autorización"
    wrong = locate(doc, quote, section="artículo 2, inciso 24")
    assert wrong.status == "not_found" and "Artículo 2 › 24." in wrong.message
    assert [e["section"]["id"] for e in wrong.found_elsewhere] == ["art-2/num-9"]
    right = locate(doc, quote, section="art. 2, inc. 9")
    assert right.status == "located" and not right.warnings
    (m,) = right.matches
    assert doc.text[m.start : m.end] == m.text == quote


def test_a_level_the_document_does_not_split_is_checked_against_the_article_with_a_warning() -> None:
    """The Spanish Constitution has apartados and letras, never fracciones: ``artículo 18,
    fracción III`` is checked against Artículo 18 and the result says so. (CPEUM's fracciones,
    once such a level, are sections now: tests/test_sections_subdivisions.py.)"""
    from ipsis.verify import locate

    doc, _ = _doc("ce")
    quote = "Se garantiza el derecho al honor, a la intimidad personal y familiar"
    res = locate(doc, quote, section="artículo 18, fracción III")
    assert res.status == "located"
    assert [w["kind"] for w in res.warnings] == ["section_unchecked"]
    assert "is not split into incisos" in res.warnings[0]["message"] and "Artículo 18" in res.warnings[0]["message"]
    assert locate(doc, quote, section="artículo 19, fracción I").status == "not_found"
    cpeum, _ = _doc("cpeum")
    quote = "Decidir, conforme a sus sistemas normativos y de acuerdo con esta Constitución"
    res = locate(cpeum, quote, section="artículo 2o., apartado A, fracción I")
    assert res.status == "located" and not res.warnings


def test_an_rfc_cited_by_its_bare_number_or_by_the_printed_id() -> None:
    """`4.2.1` and `sec-4.2.1` were "cannot read a section": a user writing what `ipsis
    sections` prints, or an RFC's number alone, got not_found for a quote that is there."""
    from ipsis.verify import locate

    doc, _ = _doc("rfc9111")
    quote = "A cache can calculate the freshness lifetime"
    for ref in ("4.2.1", "sec-4.2.1", "4.2"):
        right = locate(doc, quote, section=ref)
        assert right.status == "located", (ref, right.message)
        (m,) = right.matches
        assert doc.text[m.start : m.end] == m.text == quote
    wrong = locate(doc, quote, section="4.2.2")  # the sibling: not there, found elsewhere
    assert wrong.status == "not_found"
    assert [e["section"]["id"] for e in wrong.found_elsewhere] == ["sec-4.2.1"]

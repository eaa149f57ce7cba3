"""Subdivisions people cite that the section tree reads: CPEUM fracciones and apartados, ordinal
paragraphs, the DOF treaty's numbered paragraphs, Brazil's caput (cases in tests/cases/sections,
written from pdftotext -layout and the markup, never from ipsis's output)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ipsis.document import Document
from ipsis.errors import SectionNotFoundError
from ipsis.sections import resolve_reference
from tests.sections_gold import segmented_loader

CASES = json.loads((Path(__file__).parent / "cases/sections/subdivisions.json").read_text("utf-8"))
SOURCES = {
    "cpeum": "latam/mx-cpeum-camara-diputados-2024-11-15.pdf",
    "dof": "latam/mx-dof-1995-01-09-tlc-g3-segunda-seccion.pdf",
    "pe": "latam/pe-constitucion-1993-legalize.md",
    "lgpd": "br/lgpd-camara-cedi-2024.pdf",
    "cl": "latam/cl-constitucion-politica-bcn-leychile-242302.xml",
    "uy-impo": "latam/uy-constitucion-1967-impo-legalize.md",
    # held out until the subdivision rules were frozen (their figures are reported apart)
    "ar": "latam/ar-constitucion-nacional-ley-24430-infoleg.htm",
    "uy": "latam/uy-constitucion-1967-2004-parlamento.html",
}


_doc = segmented_loader(SOURCES)


def _flat(s: str) -> str:
    return " ".join(s.split())


@pytest.mark.parametrize("case", CASES, ids=[f"{c['doc']}:{c['ref']}" for c in CASES])
def test_subdivision(case: dict[str, str]) -> None:
    doc, tree = _doc(case["doc"])
    if "fail" in case:
        with pytest.raises(SectionNotFoundError) as info:
            resolve_reference(tree, case["ref"], doc)
        assert case["fail"] in str(info.value)
        assert info.value.closest == case["closest"] and info.value.closest in tree
        return
    res = resolve_reference(tree, case["ref"], doc)
    assert res.ids == (case["id"],)
    if "unchecked" in case:  # checked against the enclosing section, and said so
        assert any(case["unchecked"] in why for why in res.unchecked), res.unchecked
        return
    assert res.unchecked == ()
    (sec,) = res.sections
    body = _flat(doc.text[sec.start : sec.end])
    if "text" in case:  # the whole span is the paragraph, nothing more
        assert body == case["text"]
    if "starts" in case:
        assert body.startswith(case["starts"]), body[:120]
    if "last" in case:
        assert case["last"] in body
    if "next" in case:  # the span ends where the next subdivision begins
        assert _flat(doc.text[sec.end : sec.end + 400]).startswith(case["next"]), doc.text[sec.end : sec.end + 80]


def test_every_fraccion_of_the_cited_articles_is_a_section() -> None:
    """Numbers read in pdftotext -layout: art. 27 has fracciones I-XX, art. 123 apartado A I-XXXI
    with XXII Bis, apartado B I-XIV with XIII bis; art. 2 apartados A-D; art. 73 I-XXXII with
    XXIII Bis and XXIX-A to XXIX-Z in the Spanish alphabet (XXIX-Ñ between N and O)."""
    from ipsis.sections.patterns import int_to_roman

    _, tree = _doc("cpeum")

    def kids(sid: str) -> list[str]:
        return [c.rsplit("/", 1)[1] for c in tree[sid].children if "/inc-" in c or "/apt-" in c]

    romans = [f"inc-{int_to_roman(n)}" for n in range(1, 33)]
    assert kids("art-27") == romans[:20]
    assert kids("art-123") == ["apt-A", "apt-B"]
    assert kids("art-123/apt-A") == [*romans[:22], "inc-XXII-bis", *romans[22:31]]
    assert kids("art-123/apt-B") == [*romans[:13], "inc-XIII-bis", *romans[13:14]]  # IX printed `XI (sic …).`
    assert kids("art-2") == ["apt-A", "apt-B", "apt-C", "apt-D"]
    assert kids("art-72") == [f"apt-{c}" for c in "ABCDEFGHIJ"]  # J printed `I (sic DOF 24-11-1923).`
    assert kids("art-30") == ["apt-A", "apt-B"] and kids("art-37") == ["apt-A", "apt-B", "apt-C"]  # `A)`
    letters = [f"inc-XXIX-{c}" for c in "ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"]
    assert kids("art-73") == [*romans[:23], "inc-XXIII-bis", *romans[23:29], *letters, *romans[29:32]]
    for sec in tree:  # every span is what its label says
        if sec.kind in ("inciso", "apartado") and sec.id.startswith("art-"):
            assert doc_text(sec.start, sec.end).startswith(sec.label), sec


def doc_text(start: int, end: int) -> str:
    return _doc("cpeum")[0].text[start:end]


def _wrong_then_right(
    doc: Document, quote: str, wrong_ref: str, right_ref: str, *, elsewhere: list[str] | None = None,
    clean: bool = True, flat: bool = True,
) -> None:
    """``quote`` cited as ``wrong_ref`` is not_found (found elsewhere in ``elsewhere`` when given);
    cited as ``right_ref`` it is located (without warnings when ``clean``) at one place whose text,
    with its whitespace flattened when ``flat``, is the quote."""
    from ipsis.verify import locate

    wrong = locate(doc, quote, section=wrong_ref)
    assert wrong.status == "not_found" and not wrong.matches
    if elsewhere is not None:
        assert [e["section"]["id"] for e in wrong.found_elsewhere] == elsewhere
    right = locate(doc, quote, section=right_ref)
    assert right.status == "located"
    if clean:
        assert not right.warnings
    (m,) = right.matches
    got = doc.text[m.start : m.end]
    assert (" ".join(got.split()) if flat else got) == quote


def test_a_sibling_fraccion_quoted_as_this_one_is_not_located() -> None:
    """A false "located" inside a cited section is the worst bug: fracción VII's text cited as
    fracción III of art. 27 (found in art. 27 as a whole before the fracciones were read)."""
    doc, _ = _doc("cpeum")
    quote = "Se reconoce la personalidad jurídica de los núcleos de población ejidales y comunales"
    _wrong_then_right(
        doc, quote, "artículo 27, fracción III", "artículo 27, fracción VII", elsewhere=["art-27/inc-VII"], flat=False
    )


def test_a_second_list_restarting_at_i_is_not_inside_the_last_fraccion() -> None:
    """Art. 28 prints fracciones I.-XII. (the regulators' organs) and, four paragraphs later, the
    commissioners' requirements I.-VIII. (pdftotext -layout p. 30-31): the second list's text
    cited as fracción XII was located inside XII's span."""
    from ipsis.verify import locate

    doc, tree = _doc("cpeum")
    req = "Ser ciudadano mexicano por nacimiento y estar en pleno goce de sus derechos civiles y políticos"
    assert locate(doc, req, section="artículo 28, fracción XII").status == "not_found"
    assert locate(doc, req, section="artículo 28").status == "located"
    own = "Cada órgano contará con un órgano interno de control, cuyo titular será designado por las dos"
    right = locate(doc, own, section="artículo 28, fracción XII")
    assert right.status == "located" and not right.warnings
    xii = tree.get("art-28/inc-XII")
    assert doc.text[xii.start : xii.end].startswith("XII. Cada órgano")
    assert "Ser ciudadano mexicano" not in doc.text[xii.start : xii.end]


def test_a_quote_of_the_other_apartado_is_not_located() -> None:
    """Art. 123 apartado A, fracción VII, cited as apartado B's fracción VII."""
    from ipsis.verify import locate

    doc, _ = _doc("cpeum")
    quote = "A trabajo igual corresponderá salario igual, sin tener en cuenta sexo, género ni nacionalidad"
    assert locate(doc, quote, section="artículo 123, apartado B, fracción VII").status == "not_found"
    assert locate(doc, quote, section="artículo 123, apartado B").status == "not_found"
    right = locate(doc, quote, section="artículo 123, apartado A, fracción VII")
    assert right.status == "located" and not right.warnings
    (m,) = right.matches
    assert " ".join(doc.text[m.start : m.end].split()) == quote


def test_a_nested_apartado_and_an_added_fraccion_are_their_own_spans() -> None:
    from ipsis.verify import locate

    doc, _ = _doc("cpeum")
    wife = "La mujer o el varón extranjeros que contraigan matrimonio con varón o con mujer mexicanos"
    assert locate(doc, wife, section="artículo 30, fracción IV").status == "not_found"  # apartado A's IV
    assert locate(doc, wife, section="artículo 30, apartado B, fracción II").status == "located"
    b = "Corresponde al Instituto Nacional Electoral en los términos que establecen esta Constitución"
    assert locate(doc, b, section="artículo 41, fracción V, Apartado A").status == "not_found"
    assert locate(doc, b, section="artículo 41, fracción V, Apartado B").status == "located"
    bis = "Para expedir la ley general en materia de seguridad privada"
    assert locate(doc, bis, section="artículo 73, fracción XXIII").status == "not_found"
    assert locate(doc, bis, section="artículo 73, fracción XXIII Bis").status == "located"


def test_a_quote_of_another_paragraph_is_not_located() -> None:
    """The right to water (art. 4o., párrafo sexto) cited as the right to food (párrafo tercero)."""
    from ipsis.verify import locate

    doc, _ = _doc("cpeum")
    water = "Toda persona tiene derecho al acceso, disposición y saneamiento de agua"
    wrong = locate(doc, water, section="artículo 4o., párrafo tercero")
    assert wrong.status == "not_found" and "párrafo 3" in wrong.message
    assert [e["section"]["id"] for e in wrong.found_elsewhere] == ["art-4"]
    right = locate(doc, water, section="artículo 4o., párrafo sexto")
    assert right.status == "located" and not right.warnings
    (m,) = right.matches
    assert doc.text[m.start : m.end] == water
    five = "Queda prohibida toda discriminación motivada por origen étnico o nacional"
    assert locate(doc, five, section="artículo 1o., párrafo quinto").status == "located"
    assert locate(doc, five, section="artículo 1o., párrafo cuarto").status == "not_found"
    assert locate(doc, five, section="artículo 1o., último párrafo").status == "located"


def test_a_quote_of_an_inciso_cited_as_the_caput_paragraph_is_not_located() -> None:
    """LGPD art. 7º: the caput holds its incisos; a § is outside it."""
    from ipsis.verify import locate

    doc, _ = _doc("lgpd")
    inciso = "mediante o fornecimento de consentimento pelo titular"
    assert locate(doc, inciso, section="art. 7º, caput").status == "located"
    tree = doc.sections
    assert tree is not None
    par = tree["art-7/par-3"]
    words = " ".join(doc.text[par.start : par.end].split()[3:12])
    assert locate(doc, words, section="art. 7º, § 3º").status == "located"
    assert locate(doc, words, section="art. 7º, caput").status == "not_found"


def test_without_the_document_text_a_paragraph_is_named_unchecked() -> None:
    _, tree = _doc("cpeum")
    res = resolve_reference(tree, "artículo 4o., párrafo tercero")
    assert res.ids == ("art-4",) and "read from the document text" in res.unchecked[0]


@pytest.mark.parametrize(
    ("article", "fraccion", "quote"),
    [
        ("28", "XII", "Los órganos de gobierno, tanto de la Comisión Federal de Competencia Económica como del"),
        ("38", "VII", "La ley fijará los casos en que se pierden, y los demás en que se suspenden los derechos de"),
        ("105", "III", "La declaración de invalidez de las resoluciones a que se refieren las fracciones I y II"),
    ],
)
def test_the_paragraph_after_the_last_fraccion_is_the_articles(article: str, fraccion: str, quote: str) -> None:
    """pdftotext -layout: the last fracción's lines hang at its indent and its amendment note
    (`Fracción reformada DOF …`) closes it; the paragraph after it starts flush with the
    article's. Cited as the fracción it was located (the fracción's span ran to the next
    article); it is the article's text."""
    doc, _ = _doc("cpeum")
    _wrong_then_right(doc, quote, f"artículo {article}, fracción {fraccion}", f"artículo {article}", clean=False)


def test_a_quote_of_another_uruguayan_numeral_is_not_located() -> None:
    """Uruguay's parlamento HTML prints art. 85's numerales as table rows (`2º)` in its own cell):
    numeral 3's text cited as numeral 2 is not there."""
    doc, _ = _doc("uy")
    three = "Expedir leyes relativas a la independencia, seguridad, tranquilidad y decoro de la República"
    _wrong_then_right(doc, three, "artículo 85, numeral 2", "artículo 85, numeral 3º", elsewhere=["art-85/num-3"])


def test_a_numbered_subdivision_after_a_comma_with_its_ordinal_sign_is_no_second_article() -> None:
    """`Artículo 19, 11º` (one article, singular) names art. 19's number 11 (the XML prints
    `11º.- La libertad de enseñanza`): it was read as articles 19 and 11, so number 10's text
    cited that way was located in art. 19 as a whole (found by the third hunt on Chile's XML)."""
    doc, _ = _doc("cl")
    ten = "Los padres tienen el derecho preferente y el deber de educar a sus hijos"
    _wrong_then_right(doc, ten, "Artículo 19, 11º", "Artículo 19, 10º", elsewhere=["art-19/num-10"])

"""Chile's incisos: an article's paragraphs, cited `inciso segundo`, `inciso final`, `inciso 2º`,
`incisos segundo y tercero`, read from the LeyChile XML, which indents each one's first line (its
wrapped lines flush). Quotes and expectations were read in the XML file itself; the golden spans
are in tests/cases/sections/subdivisions.json (doc ``cl``)."""

from __future__ import annotations

from ipsis.sections import resolve_reference
from tests.test_sections_subdivisions import _doc, _flat, _wrong_then_right

# art. 19 N° 1, its third and fifth incisos (XML lines 499-500 and 502-508)
DEATH = "La pena de muerte sólo podrá establecerse por delito contemplado en ley aprobada con quórum calificado."
SCIENCE = "El desarrollo científico y tecnológico estará al servicio de las personas"


def test_the_third_inciso_cited_as_the_second_is_not_located() -> None:
    """A false "located" is the worst bug: before, `inciso segundo` was left unread and the quote
    was checked against all of N° 1 (found, with only a warning)."""
    doc, _ = _doc("cl")
    _wrong_then_right(
        doc,
        DEATH,
        "artículo 19, número 1º, inciso segundo",
        "inciso tercero del número 1º del artículo 19",
        elsewhere=["art-19/num-1"],
    )


def test_the_final_inciso_is_the_last_one_and_no_other() -> None:
    doc, _ = _doc("cl")
    _wrong_then_right(
        doc, SCIENCE, "artículo 19 Nº 1, inciso 4º", "artículo 19 Nº 1, inciso final", elsewhere=["art-19/num-1"]
    )
    _wrong_then_right(doc, DEATH, "artículo 19 Nº 1, inciso final", "artículo 19 Nº 1, inciso 3º")


def test_a_quote_across_the_margin_is_located() -> None:
    """The LeyChile margin starts before column 56 where the body line is short (`La familia es
    el núcleo` + 18 spaces + `CPR Art. 1° D.O.`): before, the margin was read as body text and the
    Constitution's own sentence was not found."""
    from ipsis.verify import locate

    doc, _ = _doc("cl")
    res = locate(doc, "La familia es el núcleo fundamental de la sociedad.", section="artículo 1º, inciso segundo")
    assert res.status == "located" and not res.warnings
    (m,) = res.matches
    assert _flat(doc.text[m.start : m.end]) == "La familia es el núcleo fundamental de la sociedad."
    assert "CPR Art. 1° D.O." not in doc.text[doc.text.index("Artículo 1°") : m.end]


def test_a_list_and_a_range_of_incisos_are_each_cited() -> None:
    """`incisos segundo y tercero del artículo 60` (the Constitution's own citations read this
    way): each inciso is a cited section; a quote of the fourth is in neither."""
    doc, tree = _doc("cl")
    res = resolve_reference(tree, "incisos segundo y tercero del artículo 60", doc)
    assert res.ids == ("art-60/prr-2", "art-60/prr-3") and res.unchecked == ()
    second, third = (_flat(doc.text[s.start : s.end]) for s in res.sections)
    assert second.startswith("Cesará en el cargo el diputado o senador que durante su ejercicio celebrare")
    assert second.endswith("o ejercer cargos de similar importancia en estas actividades.")
    assert third.startswith("La inhabilidad a que se refiere el inciso anterior")
    assert third.endswith("de una sociedad de personas de la que forme parte.")
    ranged = resolve_reference(tree, "artículo 60, incisos primero a tercero", doc)
    assert ranged.ids == ("art-60/prr-1", "art-60/prr-2", "art-60/prr-3")
    fourth = "Cesará en su cargo el diputado o senador que actúe como abogado o mandatario"
    _wrong_then_right(doc, fourth, "incisos segundo y tercero del artículo 60", "artículo 60, inciso cuarto")


def test_incisos_elsewhere_keep_their_meaning() -> None:
    """Where the markup does not mark paragraphs, an inciso is a numbered item (Brazil's `inciso
    II`, Uruguay's `inciso 17` = numeral 17) and an ordinal word after it is reported unread."""
    doc, tree = _doc("uy")
    assert resolve_reference(tree, "artículo 168, inciso 17", doc).ids == ("art-168/num-17",)
    res = resolve_reference(tree, "inciso primero del artículo 122", doc)
    assert res.ids == ("art-122",) and any("'inciso primero' in the reference was not read" in w for w in res.unchecked)


def test_the_articles_inciso_after_its_enumeration_is_the_articles() -> None:
    """Art. 10: `Son chilenos:`, numbers 1º.- to 4º.-, then the article's own inciso `La ley
    reglamentará los procedimientos de opción por la nacionalidad chilena …` (XML lines 254-275:
    indented like the numbers). 1º.- to 3º.- are one paragraph each, closed by `;`, and 4º.-
    closes the enumeration with a full stop (`… gracia de nacionalización por ley.`): 4º ends
    there (``closing.close_enumerations``). Cited as número 4º the inciso is not found and is
    named where it is, the article; before, it was located in 4º with the end-uncertain warning.
    4º's own text, and the inciso cited as the article, are located without a warning."""
    from ipsis.verify import locate

    doc, _ = _doc("cl")
    after = "La ley reglamentará los procedimientos de opción por la nacionalidad chilena"
    res = locate(doc, after, section="artículo 10, número 4º")
    assert res.status == "not_found"
    assert [e["section"]["id"] for e in res.found_elsewhere] == ["art-10"]
    for quote, ref in (
        ("Los que obtuvieren especial gracia de nacionalización por ley", "artículo 10, número 4º"),
        (after, "artículo 10"),
        ("Los hijos de padre o madre chilenos, nacidos en territorio extranjero", "artículo 10, número 2º"),
    ):
        res = locate(doc, quote, section=ref)
        assert res.status == "located" and not res.warnings, (quote, res.warnings)


def test_a_numero_inside_an_inciso_is_not_the_numeros_inciso() -> None:
    """`número 1 del inciso quinto del artículo 19` names a número inside the article's fifth
    inciso; before, it was read as the fifth inciso of número 1 (`inciso quinto del número 1`,
    XML lines 502-508: another text, located without a word). Now the article as a whole is
    checked and the warning names the part not read; the inverse order still reads the inciso."""
    from ipsis.verify import locate

    doc, tree = _doc("cl")
    res = resolve_reference(tree, "número 1 del inciso quinto del artículo 19", doc)
    assert res.ids == ("art-19",)
    assert "'número 1 del inciso quinto': an item inside one of the article's paragraphs" in res.unchecked[0]
    assert resolve_reference(tree, "inciso quinto del número 1 del artículo 19", doc).ids == ("art-19/num-1/prr-5",)
    # art. 144's fifth inciso is the last before its numbers and introduces them (`El Consejo
    # Constitucional estará compuesto por 50 personas … aplicándose las reglas siguientes:`): the
    # Constitution's own `número 1 del inciso quinto del artículo 144` (its letter b)) is número 1
    assert resolve_reference(tree, "número 1 del inciso quinto del artículo 144", doc).ids == ("art-144/num-1",)
    assert resolve_reference(tree, "número 1 del inciso cuarto del artículo 144", doc).ids == ("art-144",)
    located = locate(doc, SCIENCE, section="número 1 del inciso quinto del artículo 19")
    assert located.status == "located" and [w["kind"] for w in located.warnings] == ["section_unchecked"]
    (m,) = located.matches
    assert _flat(doc.text[m.start : m.end]) == SCIENCE


def test_a_relative_inciso_says_it_needs_the_citing_text() -> None:
    """`inciso anterior`, `el inciso siguiente`: relative to the paragraph that cites them. A
    citation record gives no citing paragraph, and reading them from the quote's own inciso would
    confirm any quote; they are checked against the article and the warning says why."""
    doc, tree = _doc("cl")
    for ref in ("inciso anterior del artículo 19", "el inciso siguiente del artículo 10"):
        res = resolve_reference(tree, ref, doc)
        assert len(res.ids) == 1 and res.ids[0].startswith("art-1")
        assert "is relative to the text that cites it" in res.unchecked[0], res.unchecked

"""``subdivision_end_uncertain`` where it is right and where it was noise (docs/end-uncertain.md).

The warning says a quote in a list's last item, past its first paragraph, may be the enclosing
section's own text. It is silent now where the text itself tells the item's continuation: a later
item of the item's own list follows, the item introduces a list (`… en los asuntos relativos a:`
then its letters; `c) Materias:` then `1. …`), or a later paragraph names the item as itself
(`este numeral`). Quotes were read in the documents (pdftotext -layout of the CPEUM, the LeyChile
XML, the Senado's CF88 HTML); each located span is checked with ``text[start:end]``."""

from __future__ import annotations

from ipsis.verify import locate
from tests.test_sections_subdivisions import _doc, _flat, _wrong_then_right

WARN = "subdivision_end_uncertain"


def _located(name: str, quote: str, ref: str) -> list[str]:
    doc, _ = _doc(name)
    res = locate(doc, quote, section=ref)
    assert res.status == "located", (ref, res.message)
    (m,) = res.matches
    assert _flat(doc.text[m.start : m.end]) == quote
    return [w["kind"] for w in res.warnings]


def test_the_items_own_list_is_its_own_text() -> None:
    """CPEUM art. 113 fracción III (`… en los términos que determine la Ley:` then a) to e)) and
    art. 123 A fracción XXXI (`… relativos a:` a) b) c), and `c) Materias:` then 1. to 4.): the
    letters and numbers are the fracción's own; before, each warned."""
    assert (
        _located(
            "cpeum", "b) El diseño y promoción de políticas integrales en materia", "fracción III del artículo 113"
        )
        == []
    )
    assert (
        _located(
            "cpeum",
            "1. El registro de todos los contratos colectivos de trabajo",
            "fracción XXXI del apartado A del artículo 123",
        )
        == []
    )


def test_a_paragraph_naming_the_item_as_itself_is_its_own() -> None:
    """Chile art. 32 N° 21: five paragraphs after its first, the last `La atribución especial
    contenida en este numeral …`: all are the número's (XML); before, each warned."""
    for quote in (
        "La infraestructura crítica comprende el conjunto de instalaciones",
        "La atribución especial contenida en este numeral",
    ):
        assert _located("cl", quote, "número 21 del artículo 32") == []


def test_the_articles_text_after_the_list_still_warns() -> None:
    """CPEUM art. 130 after its inciso e) (`Queda estrictamente prohibida la formación …`, printed
    at the article's indent) and art. 105 fracción I after inciso l) (`En las controversias
    previstas en esta fracción …`: it names the fracción, not the inciso): the warning is right."""
    assert _located(
        "cpeum",
        "Queda estrictamente prohibida la formación de toda clase de agrupaciones políticas",
        "inciso e) del artículo 130",
    ) == [WARN]
    assert _located(
        "cpeum",
        "En las controversias previstas en esta fracción únicamente podrán hacerse valer violaciones",
        "inciso l) de la fracción I del artículo 105",
    ) == [WARN]
    # cited as the section it belongs to, it is located without a word
    assert (
        _located(
            "cpeum",
            "En las controversias previstas en esta fracción únicamente podrán hacerse valer violaciones",
            "fracción I del artículo 105",
        )
        == []
    )


def test_a_fraccion_bis_written_with_a_hyphen_is_not_the_fraccion_before_it() -> None:
    """`fracción XXIII-Bis` was read as fracción XXIII: XXIII's text cited as XXIII Bis was
    located (a false "located"). Now it is XXIII Bis, and XXIII's text is found elsewhere."""
    doc, _ = _doc("cpeum")
    quote = "Para expedir leyes que, con respeto a los derechos humanos, establezcan las bases de coordinación"
    _wrong_then_right(
        doc,
        quote,
        "fracción XXIII-Bis del artículo 73",
        "fracción XXIII del artículo 73",
        elsewhere=["art-73/inc-XXIII"],
    )

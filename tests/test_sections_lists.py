"""Lists and ranges of cited subdivisions (`incisos III e IV do caput do art. 156`, `alíneas b) a
f) do nº 2 do artigo 52º`, `números 1º, 3º ó 4º del artículo 10`): every item is a cited section.
Before, only the first item was read (the others dropped without a word: a quote of the last item
was not found in the cited section) or the list was left unread (checked against the whole unit).
Cases in tests/cases/sections/lists.json, read in the documents (the norms' own cross-references)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ipsis.sections import parse_reference, resolve_reference
from tests.sections_gold import segmented_loader

CASES = json.loads((Path(__file__).parent / "cases/sections/lists.json").read_text("utf-8"))
SOURCES = {
    "l14133": "br/lei-14133-2021-planalto-reserialized-cp1252.html",
    "cp": "pt/pt-codigo-penal-legix-2007.txt",
    "cl": "latam/cl-constitucion-politica-bcn-leychile-242302.xml",
    "cf88": "br/cf88-senado-compilado-ec108-2020.html",
}


_doc = segmented_loader(SOURCES)


def _flat(s: str) -> str:
    return " ".join(s.split())


@pytest.mark.parametrize("case", CASES, ids=[f"{c['doc']}:{c['ref']}" for c in CASES])
def test_every_item_of_a_list_is_cited(case: dict[str, object]) -> None:
    from ipsis.verify import locate

    doc, tree = _doc(str(case["doc"]))
    res = resolve_reference(tree, str(case["ref"]), doc)
    assert list(res.ids) == case["ids"] and res.unchecked == ()
    for sec, starts in zip(res.sections, case["starts"], strict=True):  # type: ignore[call-overload]
        assert _flat(doc.text[sec.start : sec.end]).startswith(starts)
    if "in" in case:  # the last item's text is located in the cited list
        got = locate(doc, str(case["in"]), section=str(case["ref"]))
        assert got.status == "located" and not got.warnings, got.message
        (m,) = got.matches
        assert _flat(doc.text[m.start : m.end]) == case["in"]
    if "out" in case:  # an item left out of the list: not found in it, found where it is
        got = locate(doc, str(case["out"]), section=str(case["ref"]))
        assert got.status == "not_found" and not got.matches
        assert [e["section"]["id"] for e in got.found_elsewhere] == [case["out_at"]]


def test_a_missing_item_is_named_and_the_others_checked() -> None:
    """`incisos III e V do caput do art. 156` (art. 156 has I to IV): inciso V is named as missing,
    the quote is checked in III."""
    doc, tree = _doc("l14133")
    res = resolve_reference(tree, "incisos III e V do caput do art. 156", doc)
    assert res.ids == ("art-156/inc-III",)
    assert any("art-156/inc-V does not exist" in w and "closest: art-156/inc-IV" in w for w in res.unchecked)


def test_lists_without_a_document() -> None:
    assert parse_reference("incisos II e V do caput do art. 3º") == ("art-3/inc-II", "art-3/inc-V")
    assert parse_reference("artigo 8.º, n.os 1 e 2", "pt") == ("art-8/num-1", "art-8/num-2")
    assert parse_reference("artículos 5 a 7") == ("art-5", "art-6", "art-7")
    assert parse_reference("§§ 1º e 2º do art. 5º") == ("art-5/par-1", "art-5/par-2")


def test_an_inciso_of_the_caput_is_never_a_paragraphs() -> None:
    """Art. 156 of Lei 14.133 has incisos I-IV in its caput and I-V in its § 1º (Planalto HTML):
    before, `art. 156, V` (and `inciso V do caput do art. 156`) resolved to § 1º's inciso V, the
    only V one level down, and its text was located there."""
    from ipsis.verify import locate

    doc, _ = _doc("l14133")
    quote = "a implantação ou o aperfeiçoamento de programa de integridade"
    for ref in ("art. 156, V", "inciso V do caput do art. 156"):
        wrong = locate(doc, quote, section=ref)
        assert wrong.status == "not_found" and not wrong.matches
        assert [e["section"]["id"] for e in wrong.found_elsewhere] == ["art-156/par-1/inc-V"]
    right = locate(doc, quote, section="art. 156, § 1º, V")
    assert right.status == "located" and not right.warnings
    (m,) = right.matches
    assert doc.text[m.start : m.end] == quote


def test_a_compound_reference_is_one_reference_per_article() -> None:
    """`incisos I e II do art. 5º e inciso III do art. 7º`: before, every inciso was read against
    both articles (art. 7's inciso I cited, inciso III dropped): art. 7 I's text was located (a
    false "located") and III's not found. Now each article has its own subdivisions, in either
    order (`art. 5º, inciso II, e art. 7º, inciso III`), and a second list is read too (texts read
    in the Senado's HTML: art. 5º I-II, art. 7º I and III)."""
    from ipsis.verify import locate

    doc, tree = _doc("cf88")
    ref = "incisos I e II do art. 5º e inciso III do art. 7º"
    assert resolve_reference(tree, ref, doc).ids == ("art-5/inc-I", "art-5/inc-II", "art-7/inc-III")
    wrong = locate(doc, "relação de emprego protegida contra despedida arbitrária ou sem justa causa", section=ref)
    assert wrong.status == "not_found" and [e["section"]["id"] for e in wrong.found_elsewhere] == ["art-7/inc-I"]
    for quote, cited in (
        ("fundo de garantia do tempo de serviço", ref),
        ("ninguém será obrigado a fazer ou deixar de fazer alguma coisa senão em virtude de lei", ref),
        ("fundo de garantia do tempo de serviço", "art. 5º, inciso II, e art. 7º, inciso III"),
    ):
        res = locate(doc, quote, section=cited)
        assert res.status == "located" and not res.warnings, (quote, cited, res.message)
        (m,) = res.matches
        assert _flat(doc.text[m.start : m.end]) == quote
    both = "incisos I e II do art. 5º e alíneas a) e b) do inciso XII do art. 21"
    assert resolve_reference(tree, both, doc).ids == (
        "art-5/inc-I",
        "art-5/inc-II",
        "art-21/inc-XII/ali-a",
        "art-21/inc-XII/ali-b",
    )

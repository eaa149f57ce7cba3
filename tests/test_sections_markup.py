"""Segmentation of the marked-up renditions (HTML, XML) read by the real readers, with hints.

Gold comes from the markup itself, parsed here with lxml (``tests/sections_gold.py``), never
from the segmenter. Each document is also segmented with its hints stripped (the plain-text
path) to show what the hints add. Floors in ``cases/sections/corpus_floors.json`` (raise only).

Remaining misses, explained:

- Planalto LGPD without hints: ``Art. 57`` is printed ``Art. 5 7.`` (two ``<span>``s), which no
  marker pattern reads as 57; the ``<a name="art57">`` anchor places it (F1 0.994 -> 1.0).
- RFC 9111 XML without hints: its text has no RFC page furniture, so the family is not
  detected (generic); the ``section`` hints make it an RFC, numbered from the XML nesting.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ipsis.document import Document
from ipsis.sections import SectionTree, segment
from tests.sections_gold import (
    CORPORA,
    boe_blocks,
    load,
    planalto_articles,
    prf,
    rfcxml_sections,
    senado_cf88,
)

pytestmark = pytest.mark.corpus
FLOORS = json.loads((Path(__file__).parent / "cases/sections/corpus_floors.json").read_text())
PLANALTO = CORPORA / "br/lei-13709-2018-lgpd-planalto.html"


def _plain(doc: Document) -> Document:
    return Document(doc.id, doc.text, doc.page_starts, doc.marks, (), dict(doc.meta))


def _check(name: str, figures: dict[str, float]) -> None:
    print(name, {k: round(v, 4) for k, v in figures.items()})
    for key, floor in FLOORS[name].items():
        assert figures[key] >= floor, f"{name}: {key} {figures[key]:.4f} < floor {floor}"


def _spans_hold(doc: Document, tree: SectionTree) -> None:
    ids = [s.id for s in tree]
    assert len(ids) == len(set(ids)) and not any("~" in i for i in ids)
    for s in tree:
        if s.kind != "scope":
            assert doc.text[s.start : s.end].lstrip(" \t\u00a0").startswith(s.label.split()[0]), s


@pytest.mark.parametrize("hints", [True, False], ids=["hints", "plain"])
@pytest.mark.parametrize("name", ["cf88-senado-compilado-ec108-2020.html", "cf88-senado-texto-original-1988.html"])
def test_senado_html_vs_classes_with_adct(name: str, hints: bool) -> None:
    path = CORPORA / "br" / name
    main_arts, main_pars = senado_cf88(path)
    adct_arts, adct_pars = senado_cf88(path, "adct")
    assert "adct/art-1" in adct_arts and len(adct_arts) >= 70
    doc = load(path)
    tree = segment(doc if hints else _plain(doc))
    _spans_hold(doc, tree)
    arts = [s.id for s in tree if s.kind == "artigo"]
    pars = [s.id for s in tree if s.kind == "paragrafo"]
    figures = {
        "articles_f1": prf(main_arts, [a for a in arts if not a.startswith("adct/")])[2],
        "paragraphs_f1": prf(main_pars, [p for p in pars if not p.startswith("adct/")])[2],
        "adct_articles_f1": prf(adct_arts, [a for a in arts if a.startswith("adct/")])[2],
        "adct_paragraphs_f1": prf(adct_pars, [p for p in pars if p.startswith("adct/")])[2],
    }
    _check("senado_html_vs_classes", figures)
    # the ADCT restarts at Art. 1º: both exist, with different text
    text = doc.text
    assert text[tree["art-1"].start : tree["art-1"].end].startswith("Art.\xa01º")  # NBSP
    assert "A República Federativa do Brasil" in tree.text_of(text, "art-1")
    adct1 = tree.text_of(text, "adct/art-1")
    assert adct1.startswith("Art.\xa01º") and "O Presidente da República, o Presidente do Supremo" in adct1
    assert tree["adct/art-1"].parent == "adct" and tree.path(tree["adct/art-1"]) == "ADCT › Art. 1º"


def test_planalto_lgpd_html_vs_anchors() -> None:
    gold = planalto_articles(PLANALTO)
    doc = load(PLANALTO)
    tree = segment(doc)
    _spans_hold(doc, tree)
    found = [s.id for s in tree if s.kind == "artigo"]
    plain = [s.id for s in segment(_plain(doc)) if s.kind == "artigo"]
    _check(
        "planalto_lgpd_html_vs_anchors",
        {"articles_f1": prf(gold, found)[2], "articles_f1_plain": prf(gold, plain)[2]},
    )
    assert set(gold) - set(plain) == {"art-57"}  # `Art. 5 7.`, explained above
    assert doc.text[tree["art-57"].start :].startswith("Art. 5 7. (VETADO)")


def test_planalto_lgpd_flags_from_reader_marks() -> None:
    doc = load(PLANALTO)
    tree = segment(doc)
    text = doc.text
    # Art. 3º II: struck original, struck MP 869 wording and the wording in force, one section
    inc = tree["art-3/inc-II"]
    body = text[inc.start : inc.end]
    assert body.count("II - a atividade de tratamento") == 3
    assert body.rstrip().endswith("(Redação dada pela Lei nº 13.853, de 2019)\xa0\xa0\xa0 Vigência")
    assert text[inc.end :].startswith("III - os dados pessoais")
    assert inc.has_revoked and inc.has_notes and not inc.revoked
    assert [s.id for s in tree if s.id.startswith("art-3/inc-")] == [
        "art-3/inc-I",
        "art-3/inc-II",
        "art-3/inc-III",
    ]
    # § 1º of Art. 7º: its last wording is "§ 1º (Revogado)."
    assert tree.text_of(text, "art-7/par-1").split("\n")[-2].startswith("§ 1º (Revogado).")
    assert tree["art-7/par-1"].revoked
    # § 4º of Art. 4º: the struck first wording is followed by the one in force
    par = tree["art-4/par-4"]
    assert "salvo por aquela que possua capital" in tree.text_of(text, par.id)
    assert par.has_revoked and not par.revoked
    # Art. 55-B: struck through, "(Revogado pela Lei nº 14.460, de 2022)"
    assert "(Revogado pela Lei nº 14.460, de 2022)" in tree.text_of(text, "art-55-B")
    assert tree["art-55-B"].revoked
    # the lapsed MP 869 wording of Art. 55-C printed (struck) before Art. 55-A: an old wording
    old = tree["old/art-55-C"]
    assert old.kind == "superseded" and old.revoked
    assert tree.text_of(text, old.id).startswith("Art. 55-C. ANPD é composta por")
    assert tree.text_of(text, "art-55-C").startswith("Art. 55-C. A ANPD é composta de")
    assert not tree["art-55-C"].revoked
    assert tree.text_of(text, "art-55-A").rstrip().endswith("(Redação dada pela Lei nº 14.460, de 2022)")
    assert not tree["art-55-A"].revoked


def test_rfc9111_xml_vs_rfcxml_sections() -> None:
    path = CORPORA / "rfc/rfc9111-auth48-to-be.v3.xml"
    gold = rfcxml_sections(path)
    doc = load(path)
    tree = segment(doc)
    assert tree.family == "rfc"
    _spans_hold(doc, tree)
    found = [
        (s.label.removeprefix("Appendix ").rstrip("."), s.title) for s in tree if s.kind in ("rfc_section", "appendix")
    ]
    _check(
        "rfc9111_xml_vs_rfcxml",
        {"sections_f1": prf([g[0] for g in gold], [f[0] for f in found])[2], "titles_f1": prf(gold, found)[2]},
    )
    assert tree["sec-5.2.2.1"].title == "max-age" and tree["sec-5.2.2.1"].parent == "sec-5.2.2"
    assert "acknowledgements" in tree and "app-C" not in tree  # numbered="false"


def test_boe_xml_vs_blocks() -> None:
    path = CORPORA / "es/constitucion-espanola-boe-api-texto-excerpt.xml"
    blocks = boe_blocks(path)
    doc = load(path)
    tree = segment(doc)
    assert tree.family == "es"
    _spans_hold(doc, tree)
    found = [s.id for s in tree if s.kind in ("articulo", "disposicion")]
    apt_ok = [sid for sid, n in blocks if sid in tree and sum("/apt-" in c for c in tree[sid].children) == n]
    _check(
        "boe_xml_vs_blocks",
        {"blocks_f1": prf([b for b, _ in blocks], found)[2], "apartados_match": len(apt_ok) / len(blocks)},
    )
    # every precepto block starts its section
    for h in doc.hints:
        if h.kind == "block" and dict(h.attrs)["tipo"] == "precepto":
            sec = tree.innermost_at(h.start)
            assert sec is not None and sec.start == h.start and sec.kind in ("articulo", "disposicion")
            assert re.match(r"Art[íi]culo|Disposici[óo]n", doc.text[sec.start : sec.end])

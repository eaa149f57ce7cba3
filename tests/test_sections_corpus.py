"""Segmentation against gold structure from the structured renditions (pinned floors).

Gold never comes from the segmenter: RFCXML sections, the RFC's own table of contents, Senado
HTML classes, Planalto anchors, BOE XML blocks and the ``Artigo N.º`` lines of the CRP text.

Remaining misses, explained (figures printed with ``pytest -s``):

- CF/88: the Senado HTML is compiled to EC 108/2020 and the Câmara PDF to EC 105/2019. Art.
  163-A (EC 108) and 212-A (EC 108) and the paragraphs EC 106-108 added (art. 193 parágrafo
  único, 211 §§ 6-7, 212 §§ 7-9) exist only in the newer edition: the article F1 is therefore
  0.996 on all articles, and 1.0 on the articles present in both editions (also asserted).
- BOE: the XML file is an excerpt (10 preceptos); it gives recall only. The PDF's articles are
  also checked to be exactly Artículo 1-169 in order (the whole CE).
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
    rfc_txt_toc,
    rfcxml_sections,
    senado_cf88,
)

pytestmark = pytest.mark.corpus
FLOORS = json.loads((Path(__file__).parent / "cases/sections/corpus_floors.json").read_text())


def _rfc_found(doc: Document) -> list[tuple[str, str]]:
    tree = segment(doc)
    text = doc.text
    assert tree.family == "rfc"
    for s in tree:
        assert text[s.start : s.end].startswith(s.label.split()[0])
    return [
        (s.label.removeprefix("Appendix ").rstrip("."), s.title) for s in tree if s.kind in ("rfc_section", "appendix")
    ]


def _check(name: str, figures: dict[str, float]) -> None:
    print(name, {k: round(v, 4) for k, v in figures.items()})
    for key, floor in FLOORS[name].items():
        assert figures[key] >= floor, f"{name}: {key} {figures[key]:.4f} < floor {floor}"


def _rfc_case(name: str, gold: list[tuple[str, str]], found: list[tuple[str, str]]) -> None:
    nums = prf([g[0] for g in gold], [f[0] for f in found])
    titles = prf(gold, found)
    _check(name, {"sections_f1": nums[2], "titles_f1": titles[2]})


def test_rfc9111_txt_vs_rfcxml() -> None:
    gold = rfcxml_sections(CORPORA / "rfc/rfc9111-auth48-to-be.v3.xml")
    assert ("5.2.2.1", "max-age") in gold and len(gold) == 67
    _rfc_case("rfc9111_txt_vs_rfcxml", gold, _rfc_found(load(CORPORA / "rfc/rfc9111.txt")))


def test_rfc9111_html_vs_rfcxml() -> None:
    """The greenbytes rendering writes `1.&nbsp;Introduction`: headings numbered with an NBSP
    after the number (all but `9. References` were read as the Copyright Notice's text)."""
    gold = rfcxml_sections(CORPORA / "rfc/rfc9111-auth48-to-be.v3.xml")
    _rfc_case("rfc9111_html_vs_rfcxml", gold, _rfc_found(load(CORPORA / "rfc/rfc9111-httpwg-rendered.html")))


def test_rfc7519_txt_and_pdf_vs_toc() -> None:
    gold = rfc_txt_toc((CORPORA / "rfc/rfc7519.txt").read_text("ascii"))
    assert ("4.1.2", '"sub" (Subject) Claim') in gold and len(gold) == 50
    _rfc_case("rfc7519_txt_vs_toc", gold, _rfc_found(load(CORPORA / "rfc/rfc7519.txt")))
    pdf = load(CORPORA / "rfc/rfc7519-rfceditor-pdfrfc.pdf")
    _rfc_case("rfc7519_pdf_vs_toc", gold, _rfc_found(pdf))


def _articles(doc: Document, kind: str = "artigo") -> tuple[list[str], SectionTree]:
    tree = segment(doc)
    arts = [s for s in tree if s.kind == kind]
    for s in arts:  # every boundary starts at the printed marker
        assert re.match(r"Art", doc.text[s.start : s.end]), s
    return [s.id for s in arts], tree


def test_cf88_camara_pdf_vs_senado_html() -> None:
    gold_arts, gold_pars = senado_cf88(CORPORA / "br/cf88-senado-compilado-ec108-2020.html")
    assert len(gold_arts) > 250 and "art-103-A" in gold_arts
    found, tree = _articles(load(CORPORA / "br/cf88-camara-cedi-texto-atualizado-ec105.pdf"))
    pars = [s.id for s in tree if s.kind == "paragrafo"]
    a, p = prf(gold_arts, found), prf(gold_pars, pars)
    _check("cf88_camara_pdf_vs_senado_html", {"articles_f1": a[2], "paragraphs_f1": p[2]})
    newer_only = {"art-163-A", "art-212-A"}
    assert set(gold_arts) - set(found) == newer_only
    assert prf(set(gold_arts) - newer_only, found)[2] == 1.0


@pytest.mark.parametrize("pdf", ["lgpd-senado-edicao-2024.pdf", "lgpd-camara-cedi-2024.pdf"])
def test_lgpd_pdf_vs_planalto_anchors(pdf: str) -> None:
    gold = planalto_articles(CORPORA / "br/lei-13709-2018-lgpd-planalto.html")
    assert "art-55-L" in gold and "art-58-B" in gold
    found, _ = _articles(load(CORPORA / "br" / pdf))
    name = "lgpd_senado_pdf_vs_planalto_anchors" if "senado" in pdf else "lgpd_camara_pdf_vs_planalto_anchors"
    _check(name, {"articles_f1": prf(gold, found)[2]})


def test_ce_boe_pdf_vs_xml_blocks() -> None:
    blocks = boe_blocks(CORPORA / "es/constitucion-espanola-boe-api-texto-excerpt.xml")
    tree = segment(load(CORPORA / "es/constitucion-espanola-boe-consolidado-2024-02-17.pdf"))
    assert tree.family == "es"
    hits = [sid for sid, _ in blocks if sid in tree]
    apt_ok = [sid for sid, n in blocks if sid in tree and sum("/apt-" in c for c in tree[sid].children) == n]
    _check(
        "ce_boe_pdf_vs_xml_blocks",
        {"articles_recall": len(hits) / len(blocks), "apartados_match": len(apt_ok) / len(blocks)},
    )
    assert [s.id for s in tree if s.kind == "articulo"] == [f"art-{i}" for i in range(1, 170)]


def test_crp_vs_artigo_lines() -> None:
    doc = load(CORPORA / "pt/crp-constituicao-republica-portuguesa.txt")
    text = doc.text
    gold = [(m.start(), f"art-{m.group(1)}") for m in re.finditer(r"^Artigo (\d+)\.º$", text, re.M)]
    assert len(gold) == 296
    tree = segment(doc)
    found = [(s.start, s.id) for s in tree if s.kind == "artigo"]
    _check("crp_txt_vs_artigo_lines", {"articles_f1": prf(gold, found)[2]})
    assert tree["art-8"].title == "Direito internacional"

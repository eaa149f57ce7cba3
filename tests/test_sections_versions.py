"""BOE multi-version blocks: each dated wording can be cited; the latest is the default.

Gold: the ``<version>`` elements of block ``a13`` (Artículo 13) read here with lxml: 1978-12-29
(BOE-A-1978-31229, "sufragio activo") and 1992-08-28 (BOE-A-1992-20403, "sufragio activo y
pasivo", with a ``nota_pie``).
"""

from __future__ import annotations

import pytest
from lxml import etree

from ipsis.document import Document
from ipsis.errors import InputError
from ipsis.sections import SectionVersion, document_at, segment
from tests.sections_gold import CORPORA, load

BOE = CORPORA / "es/constitucion-espanola-boe-api-texto-excerpt.xml"


def _gold_versions(block: str) -> list[tuple[str, str, str]]:
    """(fecha_vigencia, id_norma, text of apartado 2) of each version of ``block``."""
    root = etree.parse(str(BOE)).getroot()
    out = []
    for v in root.find(f".//bloque[@id='{block}']").findall("version"):
        paras = [" ".join("".join(p.itertext()).split()) for p in v.iter("p")]
        apt2 = next(p for p in paras if p.startswith("2. "))
        out.append((v.get("fecha_vigencia"), v.get("id_norma"), apt2))
    return out


def test_a13_versions_on_the_section() -> None:
    gold = _gold_versions("a13")
    assert [g[0] for g in gold] == ["19781229", "19920828"]
    doc = load(BOE)
    tree = segment(doc)
    art = tree["art-13"]
    assert art.versions == (
        SectionVersion("1978-12-29", "1978-12-29", gold[0][1], False),
        SectionVersion("1992-08-28", "1992-08-28", gold[1][1], True),
    )
    # the document text holds the latest wording (the default)
    apt2 = tree["art-13/apt-2"]
    assert doc.text[apt2.start : apt2.end].rstrip("\n") == gold[1][2]
    assert "activo y pasivo" in gold[1][2] and "activo y pasivo" not in gold[0][2]
    assert tree.to_json()["sections"][[s.id for s in tree].index("art-13")]["versions"][1] == {
        "in_force_from": "1992-08-28",
        "published": "1992-08-28",
        "norm": "BOE-A-1992-20403",
        "in_text": True,
    }
    a1 = _gold_versions("a1")
    assert tree["art-1"].versions == (SectionVersion("1978-12-29", "1978-12-29", a1[0][1], True),)


@pytest.mark.parametrize(("date", "iso"), [("1980-01-01", "1980-01-01"), ("19920827", "1992-08-27")])
def test_document_at_a_date_gives_the_older_wording(date: str, iso: str) -> None:
    gold = _gold_versions("a13")
    doc = load(BOE)
    old = document_at(doc, date)
    assert old.id == f"{doc.id}@{iso}" and old.meta["version_date"] == iso
    tree = segment(old)
    apt2 = tree["art-13/apt-2"]
    assert old.text[apt2.start : apt2.end].rstrip("\n") == gold[0][2]
    assert [v.in_text for v in tree["art-13"].versions] == [True, False]
    # ids are stable across versions: every article of the excerpt keeps its id
    current = segment(doc)
    arts = {s.id for s in current if s.kind in ("articulo", "disposicion")}
    assert arts == {s.id for s in tree if s.kind in ("articulo", "disposicion")}
    # the 1992 nota_pie ("Se modifica el apartado 2 ...") is not in the 1978 wording
    assert not any("1992" in old.text[m.start : m.end] for m in old.marks)
    assert any(doc.text[m.start : m.end].startswith("Se modifica el apartado 2") for m in doc.marks if m.kind == "note")


def test_document_at_the_latest_date_is_the_document() -> None:
    doc = load(BOE)
    same = document_at(doc, "2030-01-01")
    assert same.text == doc.text
    assert [(m.kind, m.start, m.end) for m in same.marks] == [(m.kind, m.start, m.end) for m in doc.marks]
    assert [(h.value, h.start, h.end) for h in same.hints] == [(h.value, h.start, h.end) for h in doc.hints]


@pytest.mark.parametrize(
    ("doc", "date", "message"),
    [
        ("boe", "1970-01-01", "nothing of constitucion-espanola-boe-api-texto-excerpt was in force on 1970-01-01"),
        ("boe", "29/12/1978", "write it as YYYY-MM-DD"),
        ("plain", "1992-08-28", "has no dated versions"),
    ],
)
def test_document_at_errors(doc: str, date: str, message: str) -> None:
    d = load(BOE) if doc == "boe" else Document("plain", "Artículo 1\nTexto.\n")
    with pytest.raises(InputError, match=message):
        document_at(d, date)

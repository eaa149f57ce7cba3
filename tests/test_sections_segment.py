"""Segmentation traps on real marker shapes (cases in tests/cases/sections/segment.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ipsis.document import Document, Mark
from ipsis.sections import detect, segment
from ipsis.sections.families import FAMILIES

CASES = json.loads((Path(__file__).parent / "cases/sections/segment.json").read_text("utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["label"] for c in CASES])
def test_segment_case(case: dict[str, object]) -> None:
    text = str(case["text"])
    # "detect": the family is left to detection (a family change at a norm boundary needs it)
    tree = segment(text) if case.get("detect") else segment(text, family=str(case["family"]))
    assert tree.family == case["family"]
    assert [s.id for s in tree] == case["ids"]
    for s in tree:
        body = text[s.start : s.end]
        if s.kind != "scope":
            assert body.startswith(s.label.split()[0]) or s.label.startswith(body.split()[0])
        if s.parent:
            p = tree[s.parent]
            assert p.start <= s.start and s.end <= p.end
        assert tree.innermost_at(s.start) is not None
    assert sorted(s.id for s in tree if s.revoked) == sorted(case.get("revoked", []))  # type: ignore[arg-type]
    if "has_notes" in case:
        assert sorted(s.id for s in tree if s.has_notes) == sorted(case["has_notes"])  # type: ignore[arg-type]
    for sid, title in dict(case.get("titles", {})).items():  # type: ignore[call-overload]
        assert tree[sid].title == title


@pytest.mark.parametrize("case", [c for c in CASES if c["family"] != "generic"], ids=lambda c: c["label"])
def test_family_detected(case: dict[str, object]) -> None:
    text = str(case["text"])
    assert detect(text * 2) == case["family"]


def test_revoked_mark_and_innermost() -> None:
    text = "Art. 3º Esta Lei:\nI - um;\nII - texto riscado;\nArt. 4º Outro.\n"
    start = text.index("II -")
    end = text.index("\nArt. 4")
    doc = Document("d", text, marks=(Mark("revoked", start + 5, end),))
    tree = segment(doc)
    assert doc.sections is tree
    assert tree["art-3/inc-II"].revoked and not tree["art-3"].revoked
    inner = tree.innermost_at(text.index("riscado"))
    assert inner is not None and tree.path(inner) == "Art. 3º › II"
    assert tree.innermost_at(text.index("Outro")).id == "art-4"  # type: ignore[union-attr]
    assert tree.to_json()["sections"][0]["id"] == "art-3"


def test_unknown_family_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown section family 'xx'"):
        segment("Art. 1º", family="xx")
    assert "generic" in FAMILIES

"""Golden cases for locate(): tests/cases/verify/*.json, one parametrized runner."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ipsis import Document
from ipsis.verify import Policy, locate
from tests.shared import resolve

CASES_DIR = Path(__file__).resolve().parent / "cases" / "verify"
ROOT = Path(__file__).resolve().parent.parent


def _load() -> list[Any]:
    out = []
    for f in sorted(CASES_DIR.glob("*.json")):
        data = json.loads(f.read_text(encoding="utf-8"))
        for case in data["cases"]:
            out.append(pytest.param(data, case, id=f"{f.stem}:{case['label']}"))
    return out


_DOCS: dict[tuple[str, str], Document] = {}


def _document(data: dict[str, Any], name: str) -> Document:
    key = (json.dumps(data["sources"].get(name), sort_keys=True), name)
    if key not in _DOCS:
        src = data["sources"][name]
        if isinstance(src, str):
            _DOCS[key] = Document(name, src)
        else:
            from ipsis.ingest import load_document
            from ipsis.sections import segment

            _DOCS[key] = load_document(resolve(src["path"]), name)
            segment(_DOCS[key])
    return _DOCS[key]


@pytest.mark.parametrize(("data", "case"), _load())
def test_case(data: dict[str, Any], case: dict[str, Any]) -> None:
    doc = _document(data, case["source"])
    policy = Policy(**case.get("policy", {}))
    r = locate(
        doc,
        case["quote"],
        prefix=case.get("prefix"),
        suffix=case.get("suffix"),
        position=case.get("position"),
        section=case.get("section"),
        policy=policy,
    )
    exp = case["expect"]
    assert r.status == exp["status"], r.message
    for m in r.matches:
        assert doc.text[m.start : m.end] == m.text
    if "start" in exp:
        assert (r.matches[0].start, r.matches[0].end) == (exp["start"], exp["end"])
        assert len(r.matches) == 1
    if "text" in exp:
        assert r.matches[0].text == exp["text"]
    if "spans" in exp:
        assert [[m.start, m.end] for m in r.matches] == exp["spans"]
    if "tier" in exp:
        assert r.tier == exp["tier"]
    if "steps_include" in exp:
        assert set(exp["steps_include"]) <= set(r.steps), r.steps
    if "message_contains" in exp:
        assert exp["message_contains"] in r.message
    if "nearest" in exp:
        assert r.nearest is not None
        assert [r.nearest["start"], r.nearest["end"]] == exp["nearest"]
    if "prepared" in exp:
        assert r.prepared == exp["prepared"]
    if "spans_regex" in exp:
        import regex

        want = [[m.start(), m.end()] for m in regex.finditer(exp["spans_regex"], doc.text)]
        assert want, "the golden regex must match the source"
        assert [[m.start, m.end] for m in r.matches] == want
    if "text_regex" in exp:
        import regex

        found = [m.span() for m in regex.finditer(exp["text_regex"], doc.text)]
        assert len(found) == 1, "the golden regex must match the source once"
        assert (r.matches[0].start, r.matches[0].end) == found[0]
    if "flags" in exp:
        assert r.matches[0].flags == exp["flags"]
    if "reasons" in exp:
        assert r.nearest is not None, r.message
        flags = [x["flag"] for x in r.nearest["reasons"]]
        assert set(exp["reasons"]) <= set(flags), (flags, r.message)
        assert doc.text[r.nearest["start"] : r.nearest["end"]] == r.nearest["text"]
    if "nearest_regex" in exp:
        import regex

        found = [m.span() for m in regex.finditer(exp["nearest_regex"], doc.text)]
        assert len(found) == 1, "the golden regex must match the source once"
        assert r.nearest is not None and (r.nearest["start"], r.nearest["end"]) == found[0], r.message
    if "nearest_text" in exp:
        assert r.nearest is not None and r.nearest["text"] == exp["nearest_text"]
    if "nearest_ties" in exp:
        assert r.nearest is not None and r.nearest["ties"] == exp["nearest_ties"]
        others = [[c["start"], c["end"]] for c in r.nearest["candidates"]]
        assert len(others) == exp["nearest_ties"] - 1 and all(
            c["distance"] == r.nearest["distance"] for c in r.nearest["candidates"]
        )
    if exp.get("no_nearest"):
        assert r.nearest is None, r.nearest
    if "warnings" in exp:
        assert [w["kind"] for w in r.warnings] == exp["warnings"]
    if "omitted_startswith" in exp:
        omitted = r.warnings[0] if r.warnings else (r.nearest or {}).get("omitted")
        assert omitted is not None and omitted["text" if "text" in omitted else "omitted"].startswith(
            exp["omitted_startswith"]
        ), omitted
        assert doc.text[omitted["start"] : omitted["end"]] == omitted.get("omitted", omitted.get("text"))
    if "texts" in exp:
        assert [m.text for m in r.matches] == exp["texts"]
    if "prepared_include" in exp:
        assert set(exp["prepared_include"]) <= set(r.prepared)
    if "line" in exp:
        assert r.matches[0].line == exp["line"]
    if "section_id" in exp:
        assert r.matches[0].section is not None and r.matches[0].section["id"] == exp["section_id"]
    if "found_elsewhere" in exp:
        got = [[e["start"], e["end"], (e["section"] or {}).get("id")] for e in r.found_elsewhere]
        assert got == exp["found_elsewhere"]
    if "page" in exp:
        assert r.matches[0].page == exp["page"]
    if r.status == "ambiguous":
        # every proposed selector singles its own candidate out
        for m in r.matches:
            if m.unique and m.selector is not None:
                again = locate(doc, m.selector.exact, prefix=m.selector.prefix, suffix=m.selector.suffix, policy=policy)
                assert again.status in ("located", "too_short"), (m.selector, again.message)
                assert (again.matches[0].start, again.matches[0].end) == (m.start, m.end)

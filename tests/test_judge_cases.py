"""Golden cases for the support judge: tests/cases/judge/*.json, one parametrized runner."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ipsis.ingest import load_document
from ipsis.judge import CueJudge
from ipsis.judge.attach import attach_support
from ipsis.verify import Policy, verify_records
from tests.shared import resolve

CASES_DIR = Path(__file__).resolve().parent / "cases" / "judge"
ROOT = Path(__file__).resolve().parent.parent


def _load() -> list[Any]:
    out = []
    for f in sorted(CASES_DIR.glob("*.json")):
        data = json.loads(f.read_text(encoding="utf-8"))
        for case in data.get("cases", []):  # llm-replies.json holds replay scenarios instead
            out.append(pytest.param(data, case, id=f"{f.stem}:{case['label']}"))
    return out


_DOCS: dict[str, Any] = {}


def _resolver(data: dict[str, Any]) -> Any:
    def get(sid: str) -> Any:
        src = data["sources"].get(sid)
        if src is None:
            return None
        if src["path"] not in _DOCS:
            _DOCS[src["path"]] = load_document(resolve(src["path"]), sid)
        return _DOCS[src["path"]]

    return get


@pytest.mark.parametrize(("data", "case"), _load())
def test_case(data: dict[str, Any], case: dict[str, Any]) -> None:
    record = {"citation_id": "c1", "source_id": case["source"], "quote": case["quote"], "claim": case["claim"]}
    if "section" in case:  # the cited section narrows a quote the document repeats
        record["section"] = case["section"]
    policy = Policy(judge="cues")
    resolve = _resolver(data)
    results = list(attach_support([record], verify_records([record], resolve, policy), resolve, policy, CueJudge()))
    out = results[0].to_json()
    expect = case["expect"]
    assert out["status"] == expect["status"], out
    support = out.get("support")
    if expect["verdict"] is None:
        assert support is None
        assert any(w["kind"] == expect["warning"] for w in out.get("warnings", []))
        return
    assert support is not None
    assert support["verdict"] in expect["verdict"], support
    assert support["judge"] == "cues"
    doc = resolve(case["source"])
    p = support["passage"]
    m = out["matches"][0]
    assert p["start"] <= m["start"] and m["end"] <= p["end"]
    assert p["end"] - p["start"] < 4000
    assert doc.text[m["start"] : m["end"]] == m["text"]
    if "evidence_includes" in expect:
        assert any(expect["evidence_includes"] in e for e in support["evidence"]), support["evidence"]

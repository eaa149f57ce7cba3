"""Golden cases for ``ipsis check``: every fixture yields exactly the findings its README lists."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from ipsis.answers.check import check_answer
from ipsis.answers.sources import load_sources
from tests.shared import ANSWERS

HERE = Path(__file__).parent
FIXTURES = ANSWERS
CASES = sorted((HERE / "cases" / "answers").glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("case_path", CASES, ids=[p.stem for p in CASES])
def test_fixture_findings(case_path: Path) -> None:
    case = _load(case_path)
    sources = load_sources(FIXTURES / case["sources"])
    report = check_answer((FIXTURES / case["answer"]).read_bytes(), sources, name=case["answer"])
    text = report.answer.text
    got = Counter(
        (
            f.kind,
            None if f.answer_span is None else f.answer_span.slice(text),
            f.source,
            f.quote,
        )
        for f in report.findings
    )
    want = Counter((f["kind"], f["answer_text"], f["source"], f["quote"]) for f in case["findings"])
    assert got == want, "\n".join(f"{f.kind}: {f.message}" for f in report.findings)
    assert report.answer.format == case["format"]
    assert report.answer.truncated is case["truncated"]
    assert sorted(report.cited) == case["cited"]


@pytest.mark.parametrize("case_path", CASES, ids=[p.stem for p in CASES])
def test_report_shape_and_spans(case_path: Path) -> None:
    case = _load(case_path)
    sources = load_sources(FIXTURES / case["sources"])
    report = check_answer((FIXTURES / case["answer"]).read_bytes(), sources, name=case["answer"])
    out = json.loads(json.dumps(report.to_json(), ensure_ascii=False))
    assert set(out) == {"format", "truncated", "sources", "findings", "citations"}
    assert [s["number"] for s in out["sources"]] == [1, 2, 3]
    for f in out["findings"]:
        assert {"kind", "message", "answer_span", "source", "quote"} <= set(f)
        if f["answer_span"] is not None:
            start, end = f["answer_span"]
            assert 0 <= start <= end <= len(report.answer.text)
    by_id = {s.id: s for s in sources}
    for rec in out["citations"]:
        for m in rec["matches"]:
            assert by_id[rec["source_id"]].text[m["start"] : m["end"]] == m["text"]

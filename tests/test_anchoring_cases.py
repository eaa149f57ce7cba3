"""The public anchoring suites' cases (tests/cases/anchoring/*.json), through benchmarks/anchoring.py's
one scoring: every exact-mode case right; every fuzzy-mode case points at its place, and a near miss
is never located. Cases an engine of ours still gets wrong carry ``"known_failure": true``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from ipsis import Document
from ipsis.verify import describe, locate

ROOT = Path(__file__).resolve().parent.parent


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("ipsis_bench_anchoring", ROOT / "benchmarks" / "anchoring.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


BENCH = _bench()


def _params(mode: str) -> list[Any]:
    data, cases = BENCH.load(mode)
    marks = [pytest.mark.xfail(strict=True)]
    return [
        pytest.param(data, c, id=f"{mode}:{c['label']}", marks=marks if c.get("known_failure") else ()) for c in cases
    ]


def _spans_are_text(data: dict[str, Any], case: dict[str, Any], r: Any) -> None:
    text = data["texts"][case["text"]]
    for m in r.matches:
        assert text[m.start : m.end] == m.text
    if r.nearest is not None:
        assert text[r.nearest["start"] : r.nearest["end"]] == r.nearest["text"]


@pytest.mark.parametrize(("data", "case"), _params("exact"))
def test_exact_mode(data: dict[str, Any], case: dict[str, Any]) -> None:
    ok, r = BENCH.ipsis_right("exact", data, case)
    _spans_are_text(data, case, r)
    assert ok, (r.status, [(m.start, m.end) for m in r.matches], r.message)
    if r.status in ("located", "ambiguous"):  # the exact tier: each span is the quote itself
        assert all(m.text == case["exact"] for m in r.matches)


@pytest.mark.parametrize(("data", "case"), _params("fuzzy"))
def test_fuzzy_mode(data: dict[str, Any], case: dict[str, Any]) -> None:
    ok, r = BENCH.ipsis_right("fuzzy", data, case)
    _spans_are_text(data, case, r)
    assert ok, (r.status, BENCH.ipsis_answer("fuzzy", r), r.message)


def test_a_contradicted_context_is_named_in_a_warning() -> None:
    data, cases = BENCH.load("fuzzy")
    case = next(c for c in cases if c["label"] == "succeeds with the best match even if the context fails")
    r = BENCH.run_ipsis(data, case)
    assert r.status == "located"
    (w,) = r.warnings
    assert w["kind"] == "context_not_found" and w["prefix"] == w["suffix"] == "bogomips"
    assert "'bogomips'" in w["message"] and "'bogomips'" in r.message


def test_strict_policy_refuses_the_contradicted_context() -> None:
    data, cases = BENCH.load("exact")
    case = next(c for c in cases if c["label"] == "the context fails: W3C selects nothing")
    r = BENCH.run_ipsis(data, case)
    assert r.status == "not_found" and r.matches == []
    assert r.warnings[0]["kind"] == "context_not_found"
    assert "prefix 'bogomips' and suffix 'bogomips'" in r.message


_DESCRIBED = [
    c
    for c in BENCH.load("exact")[1]
    if c["from"].get("path", "").endswith("describe-cases.ts") and len(c["expect"]["spans"]) == 1
]


@pytest.mark.parametrize("case", _DESCRIBED, ids=[c["label"] for c in _DESCRIBED])
def test_describe_round_trips_under_the_strict_policy(case: dict[str, Any]) -> None:
    """ipsis's own selector for each describe case's range selects that range again."""
    data, _ = BENCH.load("exact")
    policy = BENCH.policy_for(data, case)
    doc = Document(case["text"], data["texts"][case["text"]])
    ((start, end),) = case["expect"]["spans"]
    sel = describe(doc, start, end, policy)["selector"]
    r = locate(doc, sel["exact"], prefix=sel["prefix"], suffix=sel["suffix"], policy=policy)
    assert r.status == "located", (sel, r.message)
    assert (r.matches[0].start, r.matches[0].end) == (start, end)


def test_the_table_and_the_html_report_show_the_context_warning() -> None:
    from ipsis.report import table
    from ipsis.report.html import render_html

    data, cases = BENCH.load("fuzzy")
    case = next(c for c in cases if c["label"] == "succeeds with the best match even if the context fails")
    r = BENCH.run_ipsis(data, case)
    doc = Document(case["text"], data["texts"][case["text"]])
    lines = table([r], width=200, documents={doc.id: doc}).splitlines()
    assert any(line.strip().startswith("note: the given prefix 'bogomips'") for line in lines), lines
    page = render_html([r], documents={doc.id: doc})
    # the warning's kind reads as a sentence with a tooltip (issue 27), then its message
    chip = '<span class="badge kind" title="The prefix/suffix given with the quote is not around the place found."'
    assert chip in page and 'data-key="context_not_found">context not found</span>' in page
    assert "the given prefix &#x27;bogomips&#x27;" in page


def test_cli_explicit_error_rate_gives_short_quotes_a_nearest_passage(tmp_path: Path) -> None:
    import json

    from click.testing import CliRunner

    from ipsis.cli import main

    src = tmp_path / "fox.txt"
    src.write_text("The quick brown fox jumps over the lazy dog near the riverbank.\n", encoding="utf-8")
    args = ["locate", str(src), "jumpz", "--min-length", "0", "--format", "json"]
    default = json.loads(CliRunner().invoke(main, args).output)
    given = json.loads(CliRunner().invoke(main, [*args, "--max-error-rate", "0.2"]).output)
    d, g = default, given
    assert d["status"] == g["status"] == "not_found"
    assert "nearest" not in d  # the default rate shrinks for short quotes: 5 characters get no edit
    assert (g["nearest"]["start"], g["nearest"]["end"], g["nearest"]["text"]) == (20, 25, "jumps")

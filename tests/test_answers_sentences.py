"""Sentence splitting golden cases (tests/cases/sentences/split.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ipsis.answers.sentences import split_sentences

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "cases" / "sentences" / "split.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("case", CASES, ids=[c["label"] for c in CASES])
def test_split(case: dict[str, Any]) -> None:
    spans = split_sentences(case["text"])
    assert [s.slice(case["text"]) for s in spans] == case["sentences"]

"""The reduced negative-control evaluation of the cue judge, with its floors pinned.

Pairs come from the real norms in corpora/ (CRP for pt, the BOE XML excerpt for es) through
benchmarks/judge_eval.py; the floors are the issue's: AUC > 0.72 overall and >= 0.95 for
num_bump, negation and modality_swap. A floor is only ever raised.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.shared import SHARED

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def bench() -> Any:
    spec = importlib.util.spec_from_file_location("judge_eval", ROOT / "benchmarks" / "judge_eval.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["judge_eval"] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def pairs(bench: Any) -> list[Any]:
    return list(bench.build_pairs(quick=True))


def test_pairs_are_real_and_controlled(bench: Any, pairs: list[Any]) -> None:
    assert len(pairs) >= 200
    assert {p.lang for p in pairs} == {"pt", "es"}
    assert {p.kind for p in pairs} == {"faithful", *bench.CORRUPTIONS}
    crp = (SHARED / "corpora/pt/crp-constituicao-republica-portuguesa.txt").read_text(encoding="utf-8")
    for p in pairs:
        if p.lang == "pt":
            assert p.section.splitlines()[0] in crp
    last = None  # each faithful pair is followed by its corruptions
    for p in pairs:
        if p.kind == "faithful":
            last = p
        else:
            assert last is not None and p.claim != last.claim and p.section == last.section


def test_auc_floors(bench: Any, pairs: list[Any]) -> None:
    got = bench.evaluate(pairs, bench.cue_score, samples=50)
    for kind, floor in bench.FLOORS.items():
        auc = got[kind][0]
        assert auc > floor if kind == "overall" else auc >= floor, (kind, auc)


def test_auc_definition(bench: Any) -> None:
    assert bench.auc([0.9, 0.8], [0.1, 0.2]) == 1.0
    assert bench.auc([0.5], [0.5]) == 0.5
    assert bench.auc([0.1], [0.9, 0.05]) == 0.5

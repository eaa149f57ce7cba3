"""Every hostile input through the CLI, in a subprocess with a timeout: a clear error naming the
input (exit 2) or a finding, never a traceback or a hang. ``-m slow`` runs the full battery
(100 PDF truncations, 10 MB documents, 1,000,000 records)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile.battery import all_cases, run_case

QUICK = all_cases(quick=True)
FAST = [c for c in QUICK if not (c.name.startswith("truncated at byte") and QUICK.index(c) >= 3)]
SLOW = [c for c in all_cases() if c not in FAST]


def _check(case: object, tmp_path: Path) -> None:
    outcome = run_case(case, tmp_path, timeout=90)  # type: ignore[arg-type]
    detail = f"{outcome.kind} rc={outcome.rc}: {outcome.problems}\n{outcome.stderr[-1500:]}"
    assert outcome.kind in outcome.case.expect, detail
    assert not outcome.problems, detail


@pytest.mark.parametrize("case", FAST, ids=lambda c: f"{c.category}: {c.name}")
def test_hostile_input(case: object, tmp_path: Path) -> None:
    _check(case, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("case", SLOW, ids=lambda c: f"{c.category}: {c.name}")
def test_hostile_input_slow(case: object, tmp_path: Path) -> None:
    _check(case, tmp_path)

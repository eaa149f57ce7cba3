"""Support judgment on hand-written claims (issue 25), through the real pipeline.

``tests/cases/judge-claims/dev.json`` is the tuning set: every meaning change in it must not be
called ``supported``. ``heldout.json`` was written before the rules and never tuned on: its AUC
and its count of meaning changes called supported are floors pinned at the measured figures
(raise them, never lower them). ``python benchmarks/judge_claims.py`` prints the full report.
"""

from __future__ import annotations

import pytest

from benchmarks.judge_claims import auc, judge_set, load
from tests.shared import available

pytestmark = pytest.mark.skipif(not available(), reason="needs ../shared/corpora")

HELDOUT_AUC_FLOOR = 0.83
HELDOUT_SUPPORTED_CEILING = 21
"""Measured on the held-out set after the third round of rules: AUC 0.839, 21 of 96 meaning
changes called supported (after the second round: 0.856 and 22; before any: 0.769 and 32). The
issue's targets, AUC >= 0.9 and none supported, are not reached."""


@pytest.fixture(scope="module")
def dev() -> list[dict[str, object]]:
    return judge_set(load("dev"))[0]


@pytest.fixture(scope="module")
def heldout() -> list[dict[str, object]]:
    return judge_set(load("heldout"))[0]


def test_every_quote_is_located_in_its_cited_section(
    dev: list[dict[str, object]], heldout: list[dict[str, object]]
) -> None:
    assert {r["status"] for r in dev + heldout} == {"located"}


def test_no_meaning_change_of_the_tuning_set_is_supported(dev: list[dict[str, object]]) -> None:
    wrong = [r["claim"] for r in dev if r["gold"] != "supported" and r["verdict"] == "supported"]
    assert wrong == []
    pos = [float(r["score"]) for r in dev if r["gold"] == "supported"]  # type: ignore[arg-type]
    neg = [float(r["score"]) for r in dev if r["gold"] != "supported"]  # type: ignore[arg-type]
    assert auc(pos, neg) >= 0.95


def test_heldout_floors(heldout: list[dict[str, object]]) -> None:
    pos = [float(r["score"]) for r in heldout if r["gold"] == "supported"]  # type: ignore[arg-type]
    neg = [float(r["score"]) for r in heldout if r["gold"] != "supported"]  # type: ignore[arg-type]
    assert auc(pos, neg) >= HELDOUT_AUC_FLOOR
    wrong = sum(r["gold"] != "supported" and r["verdict"] == "supported" for r in heldout)
    assert wrong <= HELDOUT_SUPPORTED_CEILING


def test_every_structure_verdict_names_its_evidence(dev: list[dict[str, object]]) -> None:
    for r in dev:
        if r["verdict"] == "contradicted":
            assert any(": claim: " in e or "section:" in e for e in r["evidence"]), r  # type: ignore[attr-defined]

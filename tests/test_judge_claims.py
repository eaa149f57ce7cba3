"""Support judgment on hand-written claims (issue 25), through the real pipeline.

``tests/cases/judge-claims/dev.json`` is the tuning set: no meaning change in it may be called
``supported`` but the two of its last batch (dev5) the rules do not read, named below.
``heldout2.json`` (written before the fourth round of rules, measured once before it and once after)
and ``heldout.json`` (the first held-out set, seen three times before the fourth round, reported apart):
their AUC and their count of meaning changes called supported are floors pinned at the measured
figures (raise them, never lower them). ``python benchmarks/judge_claims.py`` prints the full report.
"""

from __future__ import annotations

import pytest

from benchmarks.judge_claims import auc, judge_set, load
from tests.shared import available

pytestmark = pytest.mark.skipif(not available(), reason="needs ../shared/corpora")

HELDOUT2_AUC_FLOOR = 0.74
HELDOUT2_SUPPORTED_CEILING = 36
"""Measured on heldout2 (325 claims, 199 meaning changes): before the fourth round of rules AUC 0.702
and 51 supported; after it 0.748 [0.689, 0.801] and 36. The issue's targets (AUC >= 0.9, none
supported) are not reached."""
HELDOUT_AUC_FLOOR = 0.85
HELDOUT_SUPPORTED_CEILING = 19
"""The first held-out set (158 claims, 96 meaning changes), seen: 0.769 and 32 before any rule, 0.839
and 21 after the third round, 0.858 and 19 after the fourth."""
KNOWN_TUNING_MISSES = frozenset({
    # the actor after an inverted verb ("Responde ... o titular que"), not an opening subject
    "Responde pelos danos decorrentes da violação da segurança dos dados o titular que der causa ao dano.",
    # two names traded around "takes precedence over"; an order check on predicates flagged
    # hundreds of faithful reorderings in the controls, so none is made
    "If-Modified-Since takes precedence over If-None-Match.",
})


@pytest.fixture(scope="module")
def dev() -> list[dict[str, object]]:
    return judge_set(load("dev"))[0]


@pytest.fixture(scope="module")
def heldout() -> list[dict[str, object]]:
    return judge_set(load("heldout"))[0]


@pytest.fixture(scope="module")
def heldout2() -> list[dict[str, object]]:
    return judge_set(load("heldout2"))[0]


def test_every_quote_is_located_in_its_cited_section(
    dev: list[dict[str, object]], heldout: list[dict[str, object]], heldout2: list[dict[str, object]]
) -> None:
    assert {r["status"] for r in dev + heldout + heldout2} == {"located"}


def test_no_meaning_change_of_the_tuning_set_is_supported(dev: list[dict[str, object]]) -> None:
    wrong = {r["claim"] for r in dev if r["gold"] != "supported" and r["verdict"] == "supported"}
    assert wrong <= KNOWN_TUNING_MISSES, wrong - KNOWN_TUNING_MISSES
    pos = [float(r["score"]) for r in dev if r["gold"] == "supported"]  # type: ignore[arg-type]
    neg = [float(r["score"]) for r in dev if r["gold"] != "supported"]  # type: ignore[arg-type]
    assert auc(pos, neg) >= 0.94  # measured 0.951 over the five batches


def _floors(rows: list[dict[str, object]], auc_floor: float, ceiling: int) -> None:
    pos = [float(r["score"]) for r in rows if r["gold"] == "supported"]  # type: ignore[arg-type]
    neg = [float(r["score"]) for r in rows if r["gold"] != "supported"]  # type: ignore[arg-type]
    assert auc(pos, neg) >= auc_floor
    wrong = sum(r["gold"] != "supported" and r["verdict"] == "supported" for r in rows)
    assert wrong <= ceiling


def test_heldout2_floors(heldout2: list[dict[str, object]]) -> None:
    _floors(heldout2, HELDOUT2_AUC_FLOOR, HELDOUT2_SUPPORTED_CEILING)


def test_heldout_floors(heldout: list[dict[str, object]]) -> None:
    _floors(heldout, HELDOUT_AUC_FLOOR, HELDOUT_SUPPORTED_CEILING)


def test_every_structure_verdict_names_its_evidence(dev: list[dict[str, object]]) -> None:
    for r in dev:
        if r["verdict"] == "contradicted":
            assert any(": claim: " in e or "section:" in e for e in r["evidence"]), r  # type: ignore[attr-defined]

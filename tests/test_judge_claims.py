"""Support judgment on hand-written claims (issue 25), through the real pipeline.

The three first sets in ``tests/cases/judge-claims/`` were all read while writing the fifth round
of rules (the alignment of the claim with the quote's own sentence, :mod:`ipsis.judge.align`):
``dev.json`` (five batches), ``heldout.json`` and ``heldout2.json``, each written before a round
of rules and measured first as a held-out set. ``fresh5.json`` was written after that round's
rules, measured once (0.629, 7 of 25 meaning changes supported) and then read for the general
fixes it showed. Their AUC and their count of meaning changes called ``supported`` are floors
pinned at the figures measured at the end of the fifth round (raise them, never lower them); the
honest figure for new wordings is a set none of the rules saw (a third held-out set is measured
apart). ``python benchmarks/judge_claims.py`` prints the report.
"""

from __future__ import annotations

import pytest

from benchmarks.judge_claims import auc, judge_set, load
from tests.shared import available

pytestmark = pytest.mark.skipif(not available(), reason="needs ../shared/corpora")

DEV_AUC_FLOOR = 0.955
"""dev.json (261 claims, 159 meaning changes): 0.951 before the fifth round, 0.960 [0.932, 0.981] after."""
HELDOUT2_AUC_FLOOR = 0.92
HELDOUT2_SUPPORTED_CEILING = 8
"""heldout2.json (325 claims, 199 meaning changes): 0.702 and 51 supported when first measured
(held out), 0.748 and 36 after the fourth round, 0.923 [0.889, 0.953] and 8 after the fifth."""
HELDOUT_AUC_FLOOR = 0.92
HELDOUT_SUPPORTED_CEILING = 5
"""heldout.json (158 claims, 96 meaning changes): 0.769 and 32 when first measured, 0.858 and 19
after the fourth round, 0.924 [0.873, 0.966] and 5 after the fifth."""
FRESH5_AUC_FLOOR = 0.93
FRESH5_SUPPORTED_CEILING = 1
"""fresh5.json (42 claims, 25 meaning changes): 0.629 [0.449, 0.789] and 7 supported when first
measured (written after the fifth round's rules), 0.934 [0.847, 0.991] and 1 after the fixes it
showed."""
KNOWN_TUNING_MISSES = frozenset({
    # the actor after an inverted verb ("Responde ... o titular que"), not an opening subject
    "Responde pelos danos decorrentes da violação da segurança dos dados o titular que der causa ao dano.",
    # two hyphenated names traded around "takes precedence over": the alignment reads names in
    # parts, so the mirror check sees no two one-word slots
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


@pytest.fixture(scope="module")
def fresh5() -> list[dict[str, object]]:
    return judge_set(load("fresh5"))[0]


def test_every_quote_is_located_in_its_cited_section(
    dev: list[dict[str, object]], heldout: list[dict[str, object]], heldout2: list[dict[str, object]]
) -> None:
    assert {r["status"] for r in dev + heldout + heldout2} == {"located"}


def test_no_meaning_change_of_the_tuning_set_is_supported(dev: list[dict[str, object]]) -> None:
    wrong = {r["claim"] for r in dev if r["gold"] != "supported" and r["verdict"] == "supported"}
    assert wrong <= KNOWN_TUNING_MISSES, wrong - KNOWN_TUNING_MISSES
    pos = [float(r["score"]) for r in dev if r["gold"] == "supported"]  # type: ignore[arg-type]
    neg = [float(r["score"]) for r in dev if r["gold"] != "supported"]  # type: ignore[arg-type]
    assert auc(pos, neg) >= DEV_AUC_FLOOR


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


def test_fresh5_floors(fresh5: list[dict[str, object]]) -> None:
    assert {r["status"] for r in fresh5} == {"located"}
    _floors(fresh5, FRESH5_AUC_FLOOR, FRESH5_SUPPORTED_CEILING)


def test_every_structure_verdict_names_its_evidence(dev: list[dict[str, object]]) -> None:
    for r in dev:
        if r["verdict"] == "contradicted":
            assert any(": claim: " in e or "section:" in e for e in r["evidence"]), r  # type: ignore[attr-defined]


def test_faithful_paraphrases_are_mostly_supported(heldout2: list[dict[str, object]]) -> None:
    # the fifth round fixed false contradictions rather than trading them for fewer supported
    # meaning changes: 62 of 126 faithful paraphrases were supported before it, 81 after
    assert sum(r["gold"] == "supported" and r["verdict"] == "supported" for r in heldout2) >= 81

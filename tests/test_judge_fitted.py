"""The fitted combination of the cues (ipsis/judge/fitted.py): its weights file and its explanation."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from ipsis.errors import InputError
from ipsis.judge.cues import CueJudge
from ipsis.judge.features import FEATURES, SIGNS, vector
from ipsis.judge.fitted import WEIGHTS, Model, WeightsError, default_model, load, parse

SECTION = ("Artigo 28.º\n\n1. A detenção será submetida, no prazo máximo de quarenta e oito horas, a apreciação "
           "judicial, salvo nos casos previstos na lei.")


def _shipped() -> dict[str, Any]:
    return json.loads(WEIGHTS.read_text(encoding="utf-8"))


def test_the_shipped_weights_match_the_feature_list_and_are_monotone() -> None:
    model = default_model()
    assert model is not None and model.features == FEATURES
    for w, sign, name in zip(model.weights, SIGNS, FEATURES, strict=True):
        assert w * sign >= 0, name  # no cue raises support, no coverage lowers it
    about = model.about
    assert about["leave_one_document_out_auc"] > about["rules_auc_same_folds"]  # adopted only if it beats the rules


def _edited(change: Any) -> dict[str, Any]:
    data = _shipped()
    change(data)
    return data


CASES = [
    ("a feature dropped", lambda d: (d["features"].pop(), d["mean"].pop(), d["scale"].pop(), d["weights"].pop()),
     "its features do not match this judge's (missing words_soft)"),
    ("a feature renamed", lambda d: d["features"].__setitem__(0, "overlap"),
     "its features do not match this judge's (unknown overlap; missing coverage)"),
    ("two features swapped", lambda d: d["features"].__setitem__(slice(0, 2), d["features"][1::-1]),
     "its features do not match this judge's (another order)"),
    ("a weight edited by hand", lambda d: d["weights"].__setitem__(0, 9.0), "the fingerprint does not match"),
    ("no bias", lambda d: d.pop("bias"), "missing or bad field 'bias'"),
]


@pytest.mark.parametrize(("label", "change", "said"), CASES, ids=[c[0] for c in CASES])
def test_a_weights_file_that_does_not_fit_is_refused_with_the_fix(
    label: str, change: Any, said: str, tmp_path: Path
) -> None:
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(_edited(change)), encoding="utf-8")
    with pytest.raises(WeightsError) as err:
        load(path)
    msg = str(err.value)
    assert str(path) in msg and said in msg and "benchmarks/fit_judge.py --write" in msg, msg
    assert isinstance(err.value, InputError)  # the CLI's exit code 2, never a traceback


def test_an_unreadable_weights_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "weights.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(WeightsError, match="cannot read the cue judge's weights"):
        load(path)


def test_the_score_is_the_logistic_of_the_standardised_features() -> None:
    model = parse(_shipped(), "shipped")
    r = CueJudge(model=None).read("A detenção é apreciada por um juiz em 48 horas, salvo nos casos da lei.", SECTION)
    x = vector(r)
    z = model.bias + sum(w * (v - m) / s for w, v, m, s in zip(model.weights, x, model.mean, model.scale, strict=True))
    p, said = model.explain(r)
    assert p == pytest.approx(1 / (1 + math.exp(-z)))
    assert said.startswith(f"fitted: {p:.2f}")


QUOTE = (SECTION.index("A detenção"), len(SECTION))


def test_a_hard_cue_stays_decisive_and_lowers_the_score() -> None:
    judge = CueJudge()
    faithful = judge.answer("A detenção é apreciada por um juiz em quarenta e oito horas, salvo nos casos da lei.",
                            SECTION, QUOTE)
    changed = judge.answer("A detenção é apreciada por um juiz em setenta e duas horas, salvo nos casos da lei.",
                           SECTION, QUOTE)
    assert changed.answer == "contradicts" and changed.evidence[0].startswith("number: claim: setenta e duas horas")
    assert changed.score is not None and faithful.score is not None and changed.score < faithful.score
    line = next(e for e in changed.evidence if e.startswith("fitted: "))
    assert "against: " in line and "hard number cue" in line  # the top features, in words


def test_the_hand_rules_remain_available() -> None:
    claim = "A detenção é apreciada por um juiz em 48 horas, salvo nos casos da lei."
    assert not any(e.startswith("fitted:") for e in CueJudge(model=None).answer(claim, SECTION, QUOTE).evidence)
    # without a located quote (a retrieved passage) the rules score: the combination was fitted on quotes
    assert not any(e.startswith("fitted:") for e in CueJudge().answer(claim, SECTION).evidence)
    assert any(e.startswith("fitted:") for e in CueJudge().answer(claim, SECTION, QUOTE).evidence)
    assert isinstance(CueJudge().model, Model)


@pytest.mark.parametrize("lang", ["pt", "es"])
def test_every_feature_reads_in_the_report_language(lang: str) -> None:
    from ipsis.judge.fitted import words_for
    from ipsis.report.messages import evidence_parts

    for name in FEATURES:
        for value in (0.0, 1.0):
            said = words_for(name, value)
            cue, _, parts = evidence_parts(f"fitted: 0.50; against: {said} (-0.4)", lang)
            assert cue in ("pontuação ajustada", "puntuación ajustada")
            side, words = parts[1]
            assert side != "against" and said not in words, (name, value, words)

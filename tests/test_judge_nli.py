"""The nli judge: labels by name from the model config, clear errors, no download."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from ipsis.errors import InputError
from ipsis.judge import make_judge
from ipsis.judge.nli import answer_from_logits, label_ids
from ipsis.judge.support import MissingExtraError

# id2label as published in two real NLI model configs, in different orders.
CROSS_ENCODER = {"id2label": {"0": "contradiction", "1": "entailment", "2": "neutral"}}
ROBERTA_MNLI = {"id2label": {"0": "CONTRADICTION", "1": "NEUTRAL", "2": "ENTAILMENT"}}


def test_labels_by_name_not_index() -> None:
    a, b = label_ids(CROSS_ENCODER), label_ids(ROBERTA_MNLI)
    assert a["supports"] == 1 and b["supports"] == 2
    assert answer_from_logits([0.1, 3.0, 0.2], a).answer == "supports"
    assert answer_from_logits([0.1, 3.0, 0.2], b).answer == "says_nothing"


def test_config_without_nli_labels() -> None:
    with pytest.raises(InputError, match="lack"):
        label_ids({"id2label": {"0": "LABEL_0", "1": "LABEL_1"}})
    with pytest.raises(InputError, match="no id2label"):
        label_ids({})


def test_model_folder_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="--nli-model"):
        make_judge("nli")
    with pytest.raises(InputError, match=r"config\.json does not exist"):
        make_judge("nli", model_path=tmp_path)
    (tmp_path / "config.json").write_text(json.dumps(CROSS_ENCODER), encoding="utf-8")
    if importlib.util.find_spec("transformers") is None:
        with pytest.raises(MissingExtraError, match=r"ipsis\[nli\]"):
            make_judge("nli", model_path=tmp_path)

"""A judge from a local cross-encoder NLI model (optional extra ``ipsis[nli]``; never downloads).

The model folder must hold a Hugging Face ``config.json`` whose ``id2label`` names the labels;
they are looked up by name (entailment / contradiction / neutral), never by index, because
models order them differently.

>>> label_ids({"id2label": {"0": "CONTRADICTION", "1": "ENTAILMENT", "2": "NEUTRAL"}})
{'contradicts': 0, 'supports': 1, 'says_nothing': 2}
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from ipsis.errors import InputError, MissingExtraError
from ipsis.judge.support import Answer

LABEL_NAMES = {
    "supports": ("entailment", "entails", "entail"),
    "contradicts": ("contradiction", "contradicts", "contradict"),
    "says_nothing": ("neutral",),
}


def label_ids(config: dict[str, Any], where: str = "config.json") -> dict[str, int]:
    """Map each answer to the model's output index by label name."""
    raw = config.get("id2label")
    if not isinstance(raw, dict) or not raw:
        msg = f"{where} has no id2label; an NLI model must name its labels (entailment, neutral, contradiction)"
        raise InputError(msg)
    out: dict[str, int] = {}
    for idx, label in raw.items():
        name = str(label).strip().lower()
        for answer, names in LABEL_NAMES.items():
            if name in names:
                out[answer] = int(idx)
    missing = [a for a in LABEL_NAMES if a not in out]
    if missing:
        msg = f"{where} labels {sorted(map(str, raw.values()))} lack {', '.join(missing)}; is this an NLI model?"
        raise InputError(msg)
    return out


def answer_from_logits(logits: list[float], ids: dict[str, int]) -> Answer:
    """Softmax the logits; the answer is the most probable label, with its probability."""
    top = max(logits)
    exps = [math.exp(x - top) for x in logits]
    total = sum(exps)
    probs = {a: exps[i] / total for a, i in ids.items()}
    best = max(probs, key=lambda a: probs[a])
    shown = ", ".join(f"{a} {p:.2f}" for a, p in probs.items())
    return Answer(best, probs[best], (f"nli: {shown}",), probs["supports"])


class NliJudge:
    """Premise = passage, hypothesis = claim; loaded lazily from ``model_path``."""

    name = "nli"

    def __init__(self, model_path: str | Path | None = None, max_length: int = 512) -> None:
        if not model_path:
            msg = "the nli judge needs --nli-model DIR (a local cross-encoder NLI model folder)"
            raise InputError(msg)
        self.path = Path(model_path)
        cfg = self.path / "config.json"
        if not cfg.is_file():
            msg = f"{cfg} does not exist; --nli-model must be a local model folder with config.json (no downloads)"
            raise InputError(msg)
        self.ids = label_ids(json.loads(cfg.read_text(encoding="utf-8")), str(cfg))
        self.max_length = max_length
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        try:
            import torch
            from transformers import AutoModelForSequenceClassification, AutoTokenizer
        except ImportError as exc:
            msg = "the nli judge needs the optional extra: pip install 'ipsis[nli]' (transformers and torch)"
            raise MissingExtraError(msg) from exc
        self._torch = torch  # pragma: no cover - needs the extra and a model
        self._tok = AutoTokenizer.from_pretrained(str(self.path), local_files_only=True)  # pragma: no cover
        self._model = AutoModelForSequenceClassification.from_pretrained(  # pragma: no cover
            str(self.path), local_files_only=True
        ).eval()

    def answer(self, claim: str, passage: str) -> Answer:  # pragma: no cover - needs the extra and a model
        enc = self._tok(passage, claim, truncation="only_first", max_length=self.max_length, return_tensors="pt")
        with self._torch.no_grad():
            logits = self._model(**enc).logits[0].tolist()
        return answer_from_logits(logits, self.ids)

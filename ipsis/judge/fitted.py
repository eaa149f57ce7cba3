"""The fitted combination of the cues: a logistic regression stored as JSON, run with the standard library.

The weights are fitted offline (``python benchmarks/fit_judge.py``) on every hand-written claim
the project has seen, and the file lists the features it was fitted on (:data:`FEATURES
<ipsis.judge.features.FEATURES>`, in order), the standardisation of each, the weights, the bias
and a fingerprint of all that. A file whose features are not this code's, or whose fingerprint
does not match its content, is refused with a message naming the file and the fix: a weight read
against the wrong feature would score every claim wrongly and silently.

The score of a claim is ``1 / (1 + exp(-(bias + sum(w_i * (x_i - mean_i) / scale_i))))``; the
bias is shifted when fitting so that the threshold chosen by cross-validation reads as the
policy's default auto-accept threshold (0.8). The explanation names the features that moved the
score most, each in words: ``fitted: 0.31; against: hard limiter cue (-1.9), …; for: …``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ipsis.errors import InputError
from ipsis.judge.cues import Reading
from ipsis.judge.features import FEATURES, vector

WEIGHTS = Path(__file__).with_name("weights.json")
"""The combination shipped with the package (absent: the hand rules score every claim)."""

WORDS: dict[str, str] = {
    "coverage": "claim words in the quote's sentences",
    "coverage_passage": "claim words in the section",
    "coverage_quote": "claim words in the quote",
    "restated": "quote's sentences restated by the claim",
    "order_kept": "word order kept",
    "missing_words": "claim words the section lacks",
    "rule_score": "hand rules' score",
    "cue_count": "number of cues",
}
"""Each base feature in words (``<kind>_hard`` reads "hard <kind> cue", ``<kind>_soft`` "<kind> cue")."""
TOP = 3
"""Features named in an explanation."""


class WeightsError(InputError):
    """A weights file that cannot be used (unreadable, another feature list, altered)."""


def words_for(name: str, value: float = 1.0) -> str:
    """A feature in words; a cue that did not fire (``value`` 0) reads ``no <kind> cue``."""
    kind, _, strength = name.rpartition("_")
    if name in WORDS:
        return WORDS[name]
    said = f"hard {kind} cue" if strength == "hard" else f"{kind} cue"
    return said if value else f"no {said}"


def fingerprint(features: list[str], mean: list[float], scale: list[float], weights: list[float], bias: float) -> str:
    """sha256 over the fitted numbers, rounded as stored, and the feature names."""
    payload = json.dumps([features, mean, scale, weights, bias], separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Model:
    """A fitted combination: ``probability(x)`` and ``explain(reading)``."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    about: dict[str, Any]

    def contributions(self, x: list[float]) -> list[float]:
        return [w * (v - m) / s for w, v, m, s in zip(self.weights, x, self.mean, self.scale, strict=True)]

    def probability(self, x: list[float]) -> float:
        z = self.bias + sum(self.contributions(x))
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))

    def explain(self, r: Reading) -> tuple[float, str]:
        """The score of a reading and its evidence line: the features that moved it most."""
        x = vector(r)
        p = self.probability(x)
        named = zip(self.contributions(x), self.features, x, strict=True)
        parts = sorted(named, key=lambda t: -abs(t[0]))[:TOP]
        against = [f"{words_for(n, v)} ({c:+.1f})" for c, n, v in parts if c < -0.05]
        for_ = [f"{words_for(n, v)} ({c:+.1f})" for c, n, v in parts if c > 0.05]
        said = f"fitted: {p:.2f}"
        if against:
            said += "; against: " + ", ".join(against)
        if for_:
            said += "; for: " + ", ".join(for_)
        return p, said

    def to_json(self) -> dict[str, Any]:
        mean, scale, weights = list(self.mean), list(self.scale), list(self.weights)
        return {
            "about": self.about,
            "features": list(self.features),
            "mean": mean,
            "scale": scale,
            "weights": weights,
            "bias": self.bias,
            "fingerprint": fingerprint(list(self.features), mean, scale, weights, self.bias),
        }


def parse(data: Any, where: str) -> Model:
    """A :class:`Model` from a weights file's JSON, checked against this code's feature list."""
    fix = "refit it with `python benchmarks/fit_judge.py --write` (or remove it to use the hand rules)"
    try:
        features = [str(f) for f in data["features"]]
        mean = [float(v) for v in data["mean"]]
        scale = [float(v) for v in data["scale"]]
        weights = [float(v) for v in data["weights"]]
        bias = float(data["bias"])
        stamp = str(data["fingerprint"])
    except (KeyError, TypeError, ValueError) as exc:
        msg = f"{where}: not a weights file of the cue judge (missing or bad field {exc}); {fix}"
        raise WeightsError(msg) from None
    if features != list(FEATURES):
        extra = [f for f in features if f not in FEATURES]
        lacking = [f for f in FEATURES if f not in features]
        said = f"unknown {', '.join(extra)}" if extra else ""
        said += ("; " if said and lacking else "") + (f"missing {', '.join(lacking)}" if lacking else "")
        msg = (f"{where}: its features do not match this judge's ({said or 'another order'}); "
               f"the weights were fitted on other cues; {fix}")
        raise WeightsError(msg)
    if not len(mean) == len(scale) == len(weights) == len(features) or any(s <= 0 for s in scale):
        msg = f"{where}: mean, scale and weights must have one positive-scaled entry per feature; {fix}"
        raise WeightsError(msg)
    if fingerprint(features, mean, scale, weights, bias) != stamp:
        msg = f"{where}: the fingerprint does not match the weights (the file was edited by hand); {fix}"
        raise WeightsError(msg)
    return Model(tuple(features), tuple(mean), tuple(scale), tuple(weights), bias, dict(data.get("about") or {}))


def load(path: Path) -> Model:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        msg = f"{path}: cannot read the cue judge's weights ({exc})"
        raise WeightsError(msg) from None
    return parse(data, str(path))


@functools.cache
def default_model() -> Model | None:
    """The shipped combination, or None when the package has none (the hand rules decide)."""
    return load(WEIGHTS) if WEIGHTS.exists() else None


__all__ = ["WEIGHTS", "Model", "WeightsError", "default_model", "fingerprint", "load", "parse", "words_for"]

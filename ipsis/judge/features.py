"""The cue judge's cues as a feature vector: what the fitted combination (:mod:`ipsis.judge.fitted`) reads.

Each feature is the strength of one cue the rules already compute (:meth:`CueJudge.read
<ipsis.judge.cues.CueJudge.read>`), never a new rule: the claim's coverage by the quote's
sentences, by the passage and by the quote; the share of the quote's sentences the claim restates;
word order kept; the claim's words the section lacks; the hand rules' own score; and per kind of
cue (actor, number, modality, negation, limiter, condition, scope, opposite, roles, bound,
quantifier, name, words) whether a hard cue of that kind fired and how strongly the soft ones
lower support (the sum of ``-log`` of their factors). The names, in this order, are what a weights file must list.

>>> from ipsis.judge.cues import CueJudge
>>> r = CueJudge(model=None).read("A detenção é apreciada por um juiz em 72 horas.",
...     "A detenção será submetida, no prazo máximo de quarenta e oito horas, a apreciação judicial.")
>>> v = dict(zip(FEATURES, vector(r)))
>>> v["number_hard"], v["negation_hard"], round(v["coverage"], 2)
(1.0, 0.0, 0.75)
"""

from __future__ import annotations

import itertools
import math

from ipsis.judge.analysis import Analysis
from ipsis.judge.cues import Reading

KINDS: tuple[str, ...] = (
    "actor", "bound", "condition", "limiter", "modality", "name", "negation", "number", "opposite",
    "quantifier", "roles", "scope", "words",
)
"""Kinds of cue, by the word their evidence starts with (``number: claim: 72 horas; …``)."""

BASE: tuple[str, ...] = (
    "coverage", "coverage_passage", "coverage_quote", "restated", "order_kept", "missing_words", "rule_score",
    "cue_count",
)
FEATURES: tuple[str, ...] = BASE + tuple(f"{k}_{h}" for k in KINDS for h in ("hard", "soft"))
_RAISING = {"coverage", "coverage_passage", "coverage_quote", "restated", "order_kept", "rule_score"}
SIGNS: tuple[int, ...] = tuple(1 if f in _RAISING else -1 for f in FEATURES)
"""The sign each feature's weight may take (the combination is monotone in every cue): more of the
claim found, restated or in order never lowers support; a cue, a missing word, never raises it.
The claim's length is not a feature: it separated the sets (their faithful paraphrases are longer
summaries) but says nothing of a claim's meaning, and it marked short faithful restatements down."""


def _restated(claim: Analysis, text: Analysis) -> float:
    """Share of ``text``'s content words the claim has (the section covered by the claim)."""
    return len(text.stem_set & claim.stem_set) / max(1, len(text.stem_set))


def _bigrams(a: Analysis) -> set[tuple[str, str]]:
    seq = [s for s in a.stems if s]
    return set(itertools.pairwise(seq))


def _order_kept(claim: Analysis, text: Analysis) -> float:
    """Share of the claim's pairs of consecutive content words that ``text`` has consecutive too."""
    mine = _bigrams(claim)
    return len(mine & _bigrams(text)) / len(mine) if mine else 0.0


def vector(r: Reading) -> list[float]:
    """The feature values of a reading, in the order of :data:`FEATURES`."""
    from ipsis.judge.cues import coverage

    quote = r.quote if r.quote is not None else r.near
    missing = len(r.claim.stem_set - r.passage.stem_set)
    out = {
        "coverage": r.coverage,
        "coverage_passage": coverage(r.claim, r.passage),
        "coverage_quote": coverage(r.claim, quote),
        "restated": _restated(r.claim, r.near),
        "order_kept": _order_kept(r.claim, r.core),
        "missing_words": math.log1p(missing),
        "rule_score": r.rule_score,
        "cue_count": float(len(r.cues)),
    }
    for k in KINDS:
        out[f"{k}_hard"] = out[f"{k}_soft"] = 0.0
    for text, factor, hard in r.cues:
        kind = text.split(":", 1)[0]
        if kind not in KINDS:
            continue
        if hard:
            out[f"{kind}_hard"] = 1.0
        else:
            out[f"{kind}_soft"] += -math.log(max(factor, 1e-3))
    return [out[name] for name in FEATURES]


__all__ = ["FEATURES", "KINDS", "SIGNS", "vector"]

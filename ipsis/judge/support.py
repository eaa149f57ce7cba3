"""The support record and the verdict policy (the judge errors live in :mod:`ipsis.errors`).

A judge answers one of three things about a claim and a passage: it ``supports`` it,
``contradicts`` it or ``says_nothing`` about it, with a confidence. The verdict policy turns
that into the vocabulary users see; ``supported`` is given only at or above the auto-accept
threshold, everything else that would have been ``supported`` is ``needs_review``.

>>> verdict_for("supports", 0.93, 0.8), verdict_for("supports", 0.61, 0.8)
('supported', 'needs_review')
>>> verdict_for("contradicts", 0.9, 0.8), verdict_for("says_nothing", 0.7, 0.8)
('contradicted', 'no_support')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ipsis.errors import JudgeError, JudgeReplyError, JudgeUnavailableError, MissingExtraError

SUPPORTED = "supported"
CONTRADICTED = "contradicted"
NO_SUPPORT = "no_support"
NEEDS_REVIEW = "needs_review"
VERDICTS: tuple[str, ...] = (SUPPORTED, CONTRADICTED, NO_SUPPORT, NEEDS_REVIEW)

ANSWERS: tuple[str, ...] = ("supports", "contradicts", "says_nothing")
"""The three options every judge chooses from."""

MIN_NEGATIVE_CONFIDENCE = 0.5
"""Below this, a ``contradicts`` or ``says_nothing`` answer is reported as ``needs_review``."""


@dataclass(frozen=True, slots=True)
class Answer:
    """What a judge answered: one of :data:`ANSWERS`, a confidence in [0, 1], the evidence."""

    answer: str
    confidence: float
    evidence: tuple[str, ...] = ()
    score: float | None = None
    """Probability-like support score in [0, 1] when the judge has one (for ranking and AUC)."""


@dataclass(frozen=True, slots=True)
class Passage:
    """The text a judge read: ``text == document.text[start:end]``; ``section`` is its id."""

    start: int
    end: int
    text: str
    section: str | None = None
    label: str | None = None
    quote: tuple[int, int] | None = field(default=None, compare=False)
    """The located quote's ``[start, end)`` in document offsets, when the passage is around one:
    the cue judge reads the quote's sentence first and the rest only for limiters."""

    @property
    def focus(self) -> tuple[int, int] | None:
        """The quote's span relative to :attr:`text`, or None."""
        if self.quote is None:
            return None
        lo, hi = max(self.quote[0], self.start), min(self.quote[1], self.end)
        return (lo - self.start, hi - self.start) if lo < hi else None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"start": self.start, "end": self.end}
        if self.section:
            out["section"] = self.section
        if self.label:
            out["label"] = self.label
        return out


@dataclass(frozen=True, slots=True)
class Support:
    """The second-stage verdict on one claim, printed as ``support`` in a result's JSON."""

    verdict: str
    confidence: float
    judge: str
    evidence: tuple[str, ...] = ()
    passage: Passage | None = None
    score: float = field(default=0.0, compare=False)
    """Probability-like support score in [0, 1] (higher = more support); used to rank and for AUC."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "verdict": self.verdict,
            "confidence": round(self.confidence, 3),
            "evidence": list(self.evidence),
            "judge": self.judge,
        }
        if self.passage is not None:
            out["passage"] = self.passage.to_json()
        return out


def verdict_for(answer: str, confidence: float, threshold: float) -> str:
    """The verdict for a judge's answer under the auto-accept ``threshold``."""
    if answer == "supports":
        return SUPPORTED if confidence >= threshold else NEEDS_REVIEW
    if confidence < MIN_NEGATIVE_CONFIDENCE:
        return NEEDS_REVIEW
    if answer == "contradicts":
        return CONTRADICTED
    return NO_SUPPORT


__all__ = [
    "ANSWERS",
    "CONTRADICTED",
    "NEEDS_REVIEW",
    "NO_SUPPORT",
    "SUPPORTED",
    "VERDICTS",
    "Answer",
    "JudgeError",
    "JudgeReplyError",
    "JudgeUnavailableError",
    "MissingExtraError",
    "Passage",
    "Support",
    "verdict_for",
]

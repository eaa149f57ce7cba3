"""The one policy object shared by ``locate``, ``verify``, ``check`` and the report.

>>> Policy().fingerprint() == Policy().fingerprint()
True
>>> Policy(max_tier="case").fingerprint() != Policy().fingerprint()
True
>>> Policy(judge="cues").fingerprint() != Policy(judge="cues", accept_threshold=0.9).fingerprint()
True
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import Any

from ipsis.errors import InputError
from ipsis.ingest.normalize import PIPELINE, TIERS, tier_rank

MATCHER_REVISION = 4
"""Bumped whenever matching rules change, so that a fingerprint names reproducible behaviour."""

DEFAULT_ERROR_RATE = 0.2
"""Edits per character of the nearest-passage search when the policy sets no rate."""


@dataclass(frozen=True, slots=True)
class Policy:
    """What counts as ``located``.

    - ``max_tier``: the last normalization tier accepted (default ``typography``); a match found
      only in a later (lossy) tier is ``not_found`` with a diagnosis.
    - ``min_length``: a uniquely found quote shorter than this (after normalization) is
      ``too_short``; 0 disables.
    - ``boundaries``: a match never starts or ends inside a word or number; False gives plain
      W3C substring semantics.
    - ``position_breaks_ties``: a position hint may choose between equal candidates.
    - ``disabled_steps``: normalization steps switched off.
    - ``context_cap``: most characters of prefix/suffix context a proposed selector may use.
    - ``max_error_rate``: edit budget of the nearest-passage search that explains a
      ``not_found`` (edits per quote character). Unset (None), the rate is
      :data:`DEFAULT_ERROR_RATE` and quotes shorter than 60 characters get a proportionally
      smaller one; given explicitly, it is the budget at every length (a 5-character quote
      with rate 0.2 may differ by one edit). Beyond it there is no ``nearest``; 0 disables
      the search. A near miss is never ``located``, whatever the rate.
    - ``elision_max_gap``: most characters of source text an inner ellipsis (``...``, ``…``,
      ``[...]``, ``(...)``) may stand for between two fragments of a quote.
    - ``ocr_noise``: on pages known or detected to be OCR text (``ocr`` marks: pages ipsis
      OCR'd, OCR text layers of other tools), a quote whose every difference from the source is
      OCR noise (specks, accents, joined/split words, glyph confusions; never a digit or another
      letter) is ``located`` in the ``ocr`` tier with the differences listed
      (:mod:`ipsis.verify.ocr`). False keeps OCR pages to ``max_tier`` like any other text.
    - ``judge``: the support judge (``cues``, ``llm``, ``nli``) or None for no second stage.
    - ``accept_threshold``: a judge's ``supports`` becomes ``supported`` only at or above this
      confidence, else ``needs_review``. Both are in the fingerprint when a judge is set.
    """

    max_tier: str = "typography"
    min_length: int = 15
    boundaries: bool = True
    position_breaks_ties: bool = False
    disabled_steps: tuple[str, ...] = field(default=())
    context_cap: int = 200
    max_error_rate: float | None = None
    elision_max_gap: int = 1500
    ocr_noise: bool = True
    judge: str | None = None
    accept_threshold: float = 0.8

    def __post_init__(self) -> None:
        tier_rank(self.max_tier)
        if self.min_length < 0:
            msg = f"min_length must be 0 or more, got {self.min_length}"
            raise InputError(msg)
        if self.max_error_rate is not None:  # 0 and 0.0: one fingerprint
            object.__setattr__(self, "max_error_rate", float(self.max_error_rate))
        if self.max_error_rate is not None and not 0 <= self.max_error_rate < 1:
            msg = f"max_error_rate must be at least 0 and below 1 (edits per character), got {self.max_error_rate}"
            raise InputError(msg)
        if self.elision_max_gap < 0:
            msg = f"elision_max_gap must be 0 or more characters, got {self.elision_max_gap}"
            raise InputError(msg)
        if not 0.0 <= self.accept_threshold <= 1.0:
            msg = f"accept_threshold must be between 0 and 1, got {self.accept_threshold}"
            raise InputError(msg)
        unknown = [s for s in self.disabled_steps if s not in PIPELINE]
        if unknown:
            msg = f"unknown normalization step(s) {', '.join(unknown)}; known: {', '.join(PIPELINE)}"
            raise InputError(msg)

    @property
    def error_rate(self) -> float:
        """The nearest-passage edit rate in force (the default when none was given)."""
        return DEFAULT_ERROR_RATE if self.max_error_rate is None else self.max_error_rate

    @property
    def strict_context(self) -> bool:
        """The literal W3C reading (``max_tier="exact"`` and no token boundaries): the selection
        is where prefix + exact + suffix occur, so a given prefix/suffix must be there. Any
        other policy treats a context that is not found as a warning on the result."""
        return self.max_tier == "exact" and not self.boundaries

    @property
    def accepted_tiers(self) -> tuple[str, ...]:
        return TIERS[: tier_rank(self.max_tier) + 1]

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["disabled_steps"] = list(self.disabled_steps)
        if self.ocr_noise:  # the default: fingerprints of runs without the option stay comparable
            del out["ocr_noise"]
        if self.judge is None:  # no second stage: the fingerprint stays what it was before judges
            del out["judge"], out["accept_threshold"]
        return out

    def fingerprint(self) -> str:
        """A short hash of the policy and the matcher revision, printed with every result."""
        payload = json.dumps({"policy": self.to_json(), "matcher": MATCHER_REVISION}, sort_keys=True)
        return hashlib.sha256(payload.encode()).hexdigest()[:12]


DEFAULT_POLICY = Policy()

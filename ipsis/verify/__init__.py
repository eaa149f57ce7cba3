"""Verification: locate quotes, describe ranges, verify citation records."""

from __future__ import annotations

from ipsis.verify.describe import describe
from ipsis.verify.locate import locate
from ipsis.verify.policy import DEFAULT_POLICY, Policy
from ipsis.verify.records import parse_records, verify_records
from ipsis.verify.result import STATUSES, Match, Result
from ipsis.verify.selectors import TextPositionSelector, TextQuoteSelector

__all__ = [
    "DEFAULT_POLICY",
    "STATUSES",
    "Match",
    "Policy",
    "Result",
    "TextPositionSelector",
    "TextQuoteSelector",
    "describe",
    "locate",
    "parse_records",
    "verify_records",
]

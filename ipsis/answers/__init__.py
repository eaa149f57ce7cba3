"""Check whole answers: read any provider's wire format, then check every citation in it.

>>> from ipsis.answers import parse_answer
>>> parse_answer("Meals up to €50 per day [1].").citations[0].refs[0].value
1
"""

from __future__ import annotations

from ipsis.answers.detect import FORMATS, detect, parse_answer
from ipsis.answers.model import Citation, Finding, Offsets, ParsedAnswer, Ref, StreamError
from ipsis.answers.sentences import split_sentences
from ipsis.answers.sources import (
    Source,
    Sources,
    load_sources,
    sources_from_json,
    sources_from_text,
)

__all__ = [
    "FORMATS",
    "Citation",
    "Finding",
    "Offsets",
    "ParsedAnswer",
    "Ref",
    "Source",
    "Sources",
    "StreamError",
    "check_answer",
    "detect",
    "load_sources",
    "parse_answer",
    "sources_from_json",
    "sources_from_text",
    "split_sentences",
]


def __getattr__(name: str) -> object:
    """``ipsis.answers.check_answer``, imported on first use (it pulls in the matcher and judges)."""
    if name == "check_answer":
        from ipsis.answers.check import check_answer

        return check_answer
    raise AttributeError(name)

"""The one result record of a citation, and the status vocabulary.

Statuses (DESIGN.md), in the priority ``locate`` applies them: ``invalid_record``,
``unknown_source``, ``empty_quote``, ``not_found``, ``ambiguous``, ``too_short``, ``located``.
``located`` means the text is there (exactly one place), never that it supports a claim.
``retrieved`` is the one status of a record without a quote (a ``claim`` only, ``--judge``): its
passage was retrieved for the claim; it never means that any text was quoted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ipsis.verify.selectors import TextQuoteSelector

MAX_ELSEWHERE = 10
"""Most places listed in ``found_elsewhere`` per quote (the store's look-up and ``check``'s
look-up in the answer's other sources)."""

LOCATED = "located"
AMBIGUOUS = "ambiguous"
NOT_FOUND = "not_found"
UNKNOWN_SOURCE = "unknown_source"
EMPTY_QUOTE = "empty_quote"
TOO_SHORT = "too_short"
INVALID_RECORD = "invalid_record"
RETRIEVED = "retrieved"

STATUSES: tuple[str, ...] = (
    LOCATED,
    AMBIGUOUS,
    NOT_FOUND,
    UNKNOWN_SOURCE,
    EMPTY_QUOTE,
    TOO_SHORT,
    INVALID_RECORD,
    RETRIEVED,
)


@dataclass(slots=True)
class Match:
    """One place of the quote in the document text: ``text == document.text[start:end]``."""

    start: int
    end: int
    text: str
    line: int | None = None
    page: int | None = None
    selector: TextQuoteSelector | None = None
    unique: bool = True
    section: dict[str, Any] | None = None
    flags: list[str] = field(default_factory=list)
    boxes: list[dict[str, Any]] = field(default_factory=list)
    """Where a PDF prints the match: ``{page, x0, y0, x1, y1}`` per line run (:mod:`ipsis.pdfboxes`)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "line": self.line,
            "page": self.page,
            "selector": self.selector.to_json() if self.selector else None,
        }
        if not self.unique:
            out["unique"] = False
        if self.section is not None:
            out["section"] = self.section
        if self.flags:
            out["flags"] = list(self.flags)
        if self.boxes:
            out["boxes"] = list(self.boxes)
        return out


@dataclass(slots=True)
class Result:
    """What ipsis says about one citation (the record the CLI prints and tests check).

    ``nearest`` explains a ``not_found`` (span, source text, reason); ``prepared`` lists what
    quote preparation took off the quote (wrapping quotes, Markdown emphasis, ``[sic]`` ...);
    ``warnings`` are findings that do not change the status; ``found_elsewhere`` lists other
    places (sections or sources) where a not-found quote is.
    """

    citation_id: str | None
    source_id: str | None
    quote: Any
    status: str
    tier: str | None = None
    steps: list[str] = field(default_factory=list)
    matches: list[Match] = field(default_factory=list)
    message: str = ""
    nearest: dict[str, Any] | None = None
    prepared: list[str] = field(default_factory=list)
    warnings: list[dict[str, Any]] = field(default_factory=list)
    found_elsewhere: list[dict[str, Any]] = field(default_factory=list)
    field_name: str | None = None
    section: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def located(self) -> bool:
        return self.status == LOCATED

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "citation_id": self.citation_id,
            "source_id": self.source_id,
            "quote": self.quote,
            "status": self.status,
            "tier": self.tier,
            "steps": list(self.steps),
            "matches": [m.to_json() for m in self.matches],
            "message": self.message,
        }
        if self.nearest is not None:
            out["nearest"] = self.nearest
        if self.prepared:
            out["prepared"] = list(self.prepared)
        if self.warnings:
            out["warnings"] = list(self.warnings)
        if self.found_elsewhere:
            out["found_elsewhere"] = list(self.found_elsewhere)
        if self.field_name:
            out["field"] = self.field_name
        if self.section is not None:
            out["section"] = self.section
        out.update(self.extra)
        return out

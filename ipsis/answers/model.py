"""Records shared by the answer readers and the checker.

A reader turns a provider's wire shape into one :class:`ParsedAnswer`: the answer text (what
the user sees, reassembled from streams and blocks), the citations found in it, and the
signals around it (truncation, stream errors, the "no information" flag). Every span is a
half-open range of code points into ``ParsedAnswer.text``; provider offsets in other units are
kept as :class:`Offsets` with their unit and converted by the checker, never assumed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ipsis.spans import Span

RefKind = Literal["number", "index0", "id", "url", "file_id", "title", "label", "artifact", "chunk"]
"""How an answer names a source:

- ``number``: the 1-based number the user and the prompt use (``[2]``, ``indice: 2``).
- ``index0``: a provider's 0-based position in the sources sent (Anthropic ``document_index``,
  Gemini ``groundingChunkIndices``); mapped to ``number = index0 + 1``, never guessed.
- ``id``, ``url``, ``file_id``, ``title``: matched exactly against the sources' fields.
- ``label``: free text naming a source ("Source 3", "Travel Expense Policy").
- ``artifact``: something the model generated (a container file); it is not a source.
- ``chunk``: a piece a retrieval tool gave the model (a Gemini ``retrievedContext``): it is the
  source with its ``url`` or title, else the source its text (the citation's quote) is in.
"""

Unit = Literal["code_point", "utf8", "utf16"]

FindingKind = Literal[
    "unknown_source",
    "quote_not_found",
    "quote_ambiguous",
    "quote_revoked",
    "quote_too_short",
    "quote_empty",
    "offset_mismatch",
    "uncited_sentence",
    "unused_source",
    "no_citations",
    "truncated",
    "stream_error",
    "no_information_conflict",
    "claim_contradicted",
    "claim_unsupported",
    "claim_needs_review",
]
"""``quote_revoked``: the quote is located only in text the source prints as revoked (struck
or superseded wordings kept beside the one in force). ``claim_*`` come from ``ipsis check
--judge``: the cited source contradicts the claim, says
nothing on it (``no_support``), or the judge is not confident enough (``needs_review``)."""


@dataclass(frozen=True, slots=True)
class Ref:
    """One way an answer points at a source; ``label`` is how the answer wrote it."""

    kind: RefKind
    value: str | int
    label: str
    url: str | None = None  # a Gemini chunk's URI: it decides when a source has that URL
    title: str | None = None  # a retrieved chunk's title (the file it came from)


@dataclass(frozen=True, slots=True)
class Offsets:
    """A provider's claim about where something is, in its own unit.

    ``where`` is ``answer`` (Cohere ``start``/``end``, Gemini segments, OpenAI url_citation) or
    ``source`` (Anthropic ``char_location``). ``expected`` is the text the provider says is
    there (``cited_text``, Cohere ``text``, Gemini ``segment.text``, the Markdown link), or None
    when nothing can be checked. ``kind`` is ``chars`` for a range, ``blocks`` for Anthropic
    ``content_block_location`` and ``pages`` for ``page_location`` (1-based, end exclusive).
    """

    start: int
    end: int
    where: Literal["answer", "source"]
    unit: Unit = "code_point"
    expected: str | None = None
    kind: Literal["chars", "blocks", "pages"] = "chars"
    base: int = 0  # code point offset of the part the provider counted from (Gemini partIndex)


@dataclass(frozen=True, slots=True)
class Citation:
    """One citation as the answer makes it.

    ``answer_span`` is where the citation sits in the answer (a marker, an annotated span, a
    claim); ``claim_span`` is the text it supports when the wire shape says so. ``quote`` is
    the source text the answer claims to reproduce (a quoted passage, ``cited_text``, a claim
    JSON ``quote``), checked with :func:`ipsis.verify.locate`; ``quote_span`` is where that
    quote is written in the answer when it is written there.
    """

    citation_id: str
    refs: tuple[Ref, ...]
    answer_span: Span | None = None
    claim_span: Span | None = None
    quote: str | None = None
    quote_span: Span | None = None
    offsets: Offsets | None = None
    origin: str = "marker"
    note: str = ""


@dataclass(frozen=True, slots=True)
class StreamError:
    """An ``{"error": ...}`` event inside a stream, at ``offset`` of the answer text."""

    message: str
    offset: int
    line: int


@dataclass(frozen=True, slots=True)
class ParsedAnswer:
    """An answer in any wire format, reassembled and read.

    ``units`` decides what must carry a citation: ``sentences`` (split the text),
    ``claims`` (each span in ``claim_spans``) or ``none`` (claim JSON whose citations are
    answer-level). ``no_information`` is the ``sin_informacion`` flag when the format has one.
    """

    format: str
    text: str
    citations: tuple[Citation, ...] = ()
    truncated: bool = False
    truncation_reason: str = ""
    stream_errors: tuple[StreamError, ...] = ()
    units: Literal["sentences", "claims", "none"] = "sentences"
    claim_spans: tuple[Span, ...] = ()
    no_information: bool | None = None
    exclude_spans: tuple[Span, ...] = ()  # footnote definitions and the like: not prose
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Finding:
    """Something in the answer that needs review."""

    kind: FindingKind
    message: str
    answer_span: Span | None = None
    source: int | None = None
    quote: str | None = None
    citation_id: str | None = None
    extra: tuple[tuple[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "message": self.message,
            "answer_span": list(self.answer_span) if self.answer_span is not None else None,
            "source": self.source,
            "quote": self.quote,
        }
        if self.citation_id is not None:
            out["citation_id"] = self.citation_id
        out.update(dict(self.extra))
        return out

"""The document record every stage shares.

A :class:`Document` is the *document text* (what ``ipsis text`` prints; every offset ipsis
reports is a code point into it) plus what the reader learnt about it: page starts, marked spans
(revoked text, amendment notes, page furniture, footnote calls) and structural hints for the
section segmenter. Readers in :mod:`ipsis.ingest` build it; nothing here does I/O.

>>> doc = Document("returns-v1", "Returns are accepted within 30 days.\\nA receipt is required.")
>>> doc.line_of(40), doc.page_of(40)
(2, None)
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ipsis.spans import Span

MarkKind = Literal[
    "revoked",
    "note",
    "furniture",
    "footnote_call",
    "superscript",
    "script",
    "toc",
    "unmapped_glyph",
    "form_field",
    "annotation",
    "ocr",
]
"""What a marked span is:

- ``revoked``: struck-through or "(Revogado)" text, kept but flagged.
- ``note``: amendment notes such as "(Redação dada pela Lei nº 13.853, de 2019)" or BOE ``nota_pie``.
- ``furniture``: running headers/footers and page numbers; skipped by the typography view.
- ``footnote_call``: a footnote number glued to a word (``Lei:1``); skipped by the typography view.
- ``superscript``: a run of raised small digits or note symbols (``Ermäßigte²``, ``R²``), from
  the PDF's character boxes; skipped by the typography view like a footnote call.
- ``script``: a raised or lowered letter or sign on its line (``Rⁿ``, ``3ème``, ``f⁻¹``, ``x₀``),
  from the character boxes: kept in the text and in matching (a quote that sets it apart by
  spaces, ``R n``, is found too).
- ``toc``: a table of contents.
- ``unmapped_glyph``: U+FFFD runs from fonts without a Unicode map.
- ``form_field``: the visible value of a PDF form field (AcroForm widget).
- ``annotation``: the visible text of a PDF annotation (free text, stamp ...).
- ``ocr``: a page whose text is OCR text (ipsis's own OCR or another tool's invisible text
  layer); its words, boxes and confidences are in ``meta["ocr"]`` (:mod:`ipsis.ingest.ocr`).
"""

SKIPPED_IN_MATCHING: frozenset[str] = frozenset({"furniture", "footnote_call", "superscript"})
FLAGGED_IN_RESULTS: frozenset[str] = frozenset({"revoked", "note", "form_field", "annotation"})
"""Mark kinds a match inside which says so (``Match.flags``)."""
_NEWLINE = re.compile("\n")
LINE_STARTS = ("line_starts",)
"""The ``doc.cache`` key of the offsets where the text's lines start, when a store keeps them
(:mod:`ipsis.store.views`); else :meth:`Document.line_of` finds them on first use."""


@dataclass(frozen=True, slots=True)
class Mark:
    """A span of the document text with a meaning (see :data:`MarkKind`)."""

    kind: str
    start: int
    end: int
    note: str = ""

    @property
    def span(self) -> Span:
        return Span(self.start, self.end)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "start": self.start, "end": self.end}
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True, slots=True)
class Hint:
    """A structural hint from the source markup, for the section segmenter.

    ``kind`` examples: ``anchor`` (Planalto ``<a name="art5">``, value ``art5``), ``class``
    (Senado ``<p class="artigo">``, value ``artigo``), ``block`` (BOE ``<bloque id="a13">``),
    ``section`` (RFCXML ``<section anchor=...>``; value the section number), ``heading``.
    The span covers the element's text in the document text.
    """

    kind: str
    value: str
    start: int
    end: int
    attrs: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "value": self.value, "start": self.start, "end": self.end}
        if self.attrs:
            out["attrs"] = dict(self.attrs)
        return out


def line_starts(text: str) -> list[int]:
    """The offset where each line of ``text`` starts (after each ``\\n``).

    >>> line_starts("a\\nbc\\n")
    [0, 2, 5]
    """
    return [0, *map(re.Match.end, _NEWLINE.finditer(text))]


class Cache(dict[Any, Any]):
    """``Document.cache``: values built once per document (normalized views, ...), some of which
    a store may *provide* instead: :meth:`provide` registers a loader for a few keys, called on the
    first look-up of any of them; it returns their values, or None (then they are computed, as
    for a document without a store). A value already set is never replaced by a loaded one.

    >>> c = Cache()
    >>> c.provide([("view", "t")], lambda: {("view", "t"): "loaded"})
    >>> ("view", "t") in c, c.get(("view", "t")), c.get("other", 0)
    (True, 'loaded', 0)
    """

    __slots__ = ("_loaders",)

    def __init__(self) -> None:
        super().__init__()
        self._loaders: dict[Any, Callable[[], Mapping[Any, Any] | None]] = {}

    def provide(self, keys: Iterable[Any], loader: Callable[[], Mapping[Any, Any] | None]) -> None:
        for key in keys:
            self._loaders[key] = loader

    def _fill(self, key: Any) -> bool:
        loader = self._loaders.get(key)
        if loader is None:
            return False
        for k, v in list(self._loaders.items()):  # a snapshot: another thread may fill at once
            if v is loader:
                self._loaders.pop(k, None)
        for k, v in (loader() or {}).items():
            self.setdefault(k, v)
        return dict.__contains__(self, key)

    def get(self, key: Any, default: Any = None) -> Any:
        if dict.__contains__(self, key) or (self._loaders and self._fill(key)):
            return dict.__getitem__(self, key)
        return default

    def __missing__(self, key: Any) -> Any:
        if self._loaders and self._fill(key):
            return dict.__getitem__(self, key)
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or bool(self._loaders and self._fill(key))


@dataclass(slots=True, eq=False)
class Document:
    """Text plus what the reader knows about it. Offsets are code points into ``text``.

    ``page_starts[k]`` is the offset where page ``k + 1`` begins (PDF); empty when unknown.
    ``meta`` holds reader facts for ``ipsis text --format json``: ``encoding``, ``extractor``,
    ``extractor_version``, ``media_type``, ``sha256``, ``path``, ``versions`` (BOE) ...
    """

    id: str
    text: str
    page_starts: tuple[int, ...] = ()
    marks: tuple[Mark, ...] = ()
    hints: tuple[Hint, ...] = ()
    meta: dict[str, Any] = field(default_factory=dict)
    sections: Any = None  # filled by ipsis.sections (a SectionTree) when segmented
    _line_starts: Sequence[int] | None = field(default=None, repr=False)
    _cache: Cache = field(default_factory=Cache, repr=False)

    def line_of(self, offset: int) -> int:
        """1-based line number of ``offset``."""
        if self._line_starts is None:  # after each "\n" (the positions taken in C), or as stored
            kept = self._cache.get(LINE_STARTS)
            self._line_starts = kept if kept is not None else line_starts(self.text)
        return bisect_right(self._line_starts, offset)

    def page_of(self, offset: int) -> int | None:
        """1-based page number of ``offset``, or None when the document has no pages."""
        if not self.page_starts:
            return None
        return max(1, bisect_right(self.page_starts, offset))

    def marks_of(self, kinds: frozenset[str] | set[str]) -> list[Mark]:
        return [m for m in self.marks if m.kind in kinds]

    def marks_overlapping(self, span: Span, kinds: frozenset[str] | set[str] | None = None) -> list[Mark]:
        return [
            m for m in self.marks if (kinds is None or m.kind in kinds) and m.start < span.end and span.start < m.end
        ]

    @property
    def cache(self) -> Cache:
        """Per-document cache of normalized views (built once, reused by every quote; a stored
        version's are loaded from the store when it kept them)."""
        return self._cache

"""Spaces that differ only where a raised or lowered script begins or ends.

Extractors space formulas differently: ``pdftotext`` sets ``S 1 = {z ∈ C}`` and ``e2πit`` in
one line, and ``Ts S`` for TₛS, where ipsis's text reads ``S1``, ``e2πit`` and ``TsS``. A
quote copied from such a text spaces some scripts and not others, so neither the view (scripts
glued) nor the ``spaced`` view (every script set apart) holds it.

The ``script_spacing`` search ignores spaces on both sides, then keeps a place only when every
space the quote and the text disagree on sits at a script boundary: one neighbour inside a
``script`` or ``superscript`` mark (from the PDF's character boxes) and the other outside it or
in another one (a space the text has and the quote leaves out only where a script begins: after
one it is a word space), or next to a mathematical symbol of the document's text (``−``, ``∞``: the few
spaces by a symbol that ``symbol_spacing`` keeps, those by a minus sign the view reads as a
hyphen). A space between two ordinary letters or digits still counts: ``1, 5`` is not ``1,5``
and ``I - o`` is not ``Io``.

>>> from ipsis.document import Document, Mark
>>> doc = Document("d", "Y = S1 = {z} und f(t) = e2πit.", marks=(Mark("script", 5, 6), Mark("script", 25, 26)))
>>> v = document_view(doc, "typography", skip_marks=False)
>>> [v.text[s:e] for s, e in script_spacing_hits(doc, v, "Y=S 1={z} und f(t)=e2πit.")]
['Y=S1={z} und f(t)=e2πit.']
>>> script_spacing_hits(doc, v, "Y=S1={z} undf(t)=e2πit.")
[]
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
from dataclasses import dataclass

from ipsis.document import Document
from ipsis.ingest.normalize import Normalized, tier_rank
from ipsis.verify.match import SCRIPTS, _cuts_token, _mark_kinds, document_view

SCRIPT_SPACING = "script_spacing"
"""The name of the search, listed in a result's ``steps`` when a place needed it."""
SPACING_NOTE = "its spaces differ from the text's only where a raised or lowered script begins or ends (S 1 for S¹)"


def has_scripts(doc: Document) -> bool:
    """The document marks raised or lowered scripts (the search has something to go by)."""
    return bool(_mark_kinds(doc) & SCRIPTS)


@dataclass(frozen=True, slots=True)
class _Spaceless:
    """A view without its spaces: ``text``, and where each of its characters is in the view
    (``k + bisect_right(shift, k)``), with the script marks' spans of the document text."""

    text: str
    shift: list[int]
    starts: list[int]
    ends: list[int]

    def at(self, k: int) -> int:
        return k + bisect_right(self.shift, k)


def spaceless(doc: Document, view: Normalized) -> _Spaceless:
    """The spaceless form of ``view`` (a view of ``doc``, cached on the document)."""
    key = ("spaceless", id(view))
    cached = doc.cache.get(key)
    if cached is not None and cached[0] is view:
        found: _Spaceless = cached[1]
        return found
    text = view.text
    shift: list[int] = []
    i = text.find(" ")
    while i != -1:
        shift.append(i - len(shift))
        i = text.find(" ", i + 1)
    marks = sorted((m.start, m.end) for m in doc.marks if m.kind in SCRIPTS)
    made = _Spaceless(text.replace(" ", ""), shift, [s for s, _ in marks], [e for _, e in marks])
    doc.cache[key] = (view, made)
    return made


def script_spacing_hits(doc: Document, view: Normalized, q: str, boundaries: bool = True) -> list[tuple[int, int]]:
    """The places ``(start, end)`` in ``view`` (a view of ``doc`` that keeps its scripts) of the
    normalized quote ``q`` whose spaces differ from the view's only at script boundaries."""
    if not doc.marks or not q.strip():
        return []
    s = spaceless(doc, view)
    chars = q.replace(" ", "")
    gaps: set[int] = set()  # k: the quote has a space before its spaceless character k
    k = 0
    for ch in q.strip(" "):
        if ch == " ":
            gaps.add(k)
        else:
            k += 1
    out: list[tuple[int, int]] = []
    n = len(chars)
    h = s.text.find(chars)
    while h != -1:
        start, end = s.at(h), s.at(h + n - 1) + 1
        if not (boundaries and _cuts_token(view.text, start, end, chars)) and _agrees(s, doc, view, h, n, gaps):
            out.append((start, end))
        h = s.text.find(chars, h + 1)
    return out


def _agrees(s: _Spaceless, doc: Document, view: Normalized, h: int, n: int, gaps: set[int]) -> bool:
    """Every space the quote and the view disagree on, in the place of ``n`` spaceless
    characters at ``h``, sits at a script's edge or next to a symbol."""
    before = s.at(h)
    for j in range(1, n):
        here = s.at(h + j)
        spaced = here - before > 1
        if spaced != (j in gaps) and not _boundary(s, doc, view, before, here, spaced):
            return False
        before = here
    return True


def _boundary(s: _Spaceless, doc: Document, view: Normalized, a: int, b: int, spaced: bool) -> bool:
    """The view's characters ``a`` and ``b`` (neighbours but for spaces) are on the two sides
    of a script's edge, or one of them is a mathematical symbol in the document's own text (a
    minus sign, U+2212, that the view reads as a hyphen: ``y2 −x3`` is ``y 2 − x3``). A space
    the text has (``spaced``) and the quote leaves out is excused only where a script begins
    (``α 2`` for α₂): after one, it is the word space the page shows (``Uₓ um`` is not ``Uxum``)."""
    i, j = view.offsets.to_source(a), view.offsets.to_source(b)
    if _symbol(doc.text[i]) or _symbol(doc.text[j]):
        return True
    left, right = _mark(s, i), _mark(s, j)
    return left != right and (right != -1 or not spaced)


def _mark(s: _Spaceless, i: int) -> int:
    """The index of the script mark holding document offset ``i`` (-1: none)."""
    k = bisect_right(s.starts, i) - 1
    return k if k >= 0 and i < s.ends[k] else -1


def _symbol(c: str) -> bool:
    """A mathematical symbol (Sm: ``−`` ``∞`` ``=``); not ``°``, whose space by a digit stays."""
    return unicodedata.category(c) == "Sm"


def spaceless_text(doc: Document, tier: str, disabled: tuple[str, ...] | list[str] = ()) -> str:
    """The spaceless text the search looks in at ``tier`` ("" when the document marks no
    scripts or the tier is below ``typography``: no search)."""
    if tier_rank(tier) < tier_rank("typography") or not has_scripts(doc):
        return ""
    return spaceless(doc, scripts_view(doc, tier, disabled)).text


def scripts_view(doc: Document, tier: str, disabled: tuple[str, ...] | list[str] = ()) -> Normalized:
    """The view the search runs on: scripts and superscripts kept (page furniture skipped)."""
    return document_view(doc, tier, tuple(disabled), skip_marks=False)

"""The passage a judge reads around a located quote: its section, bounded by a window.

When the document has a section tree (``document.sections``, built by :mod:`ipsis.sections` on
first use), the passage is the innermost section holding the quote that is not a bare heading.
Without one, it is the paragraph block around the quote (blank-line separated). Either way it is
cut to at most ``window`` characters on each side
of the quote, at line or sentence ends where possible: a judge never reads pages of text.

>>> from ipsis.document import Document
>>> doc = Document("d", "Intro.\\n\\nUse of this claim is OPTIONAL. The value is a string.\\n\\nNext.")
>>> p = passage_around(doc, 9, 38)
>>> p.text, doc.text[p.start:p.end] == p.text
('Use of this claim is OPTIONAL. The value is a string.', True)
"""

from __future__ import annotations

import re
from typing import Any

from ipsis.document import Document
from ipsis.judge.support import Passage
from ipsis.sections import segment

DEFAULT_WINDOW = 1500
"""Characters of context on each side of the quote, at most."""
MIN_SECTION = 80
"""A section shorter than this (a heading, an inciso label) gives way to its parent."""

TINY_PARAGRAPH = 40
"""A paragraph shorter than this (a list item, a heading) is read with its neighbours."""

_BLANK = re.compile(r"\n[ \t\f]*\n")


def _tree(document: Document) -> Any:
    if document.sections is not None:
        return document.sections
    try:
        return segment(document)
    except Exception:  # pragma: no cover - segmentation is best effort for the judge
        return None


def _section_bounds(document: Document, start: int, end: int) -> tuple[int, int, str | None, str | None] | None:
    tree = _tree(document)
    if tree is None or not hasattr(tree, "innermost_at"):
        return None
    sec = tree.innermost_at(start)
    while sec is not None and (sec.end < end or sec.end - sec.start < MIN_SECTION):
        sec = tree.get(sec.parent) if sec.parent else None
    if sec is None:
        return None
    return sec.start, sec.end, sec.id, getattr(sec, "label", None)


def _paragraph_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    s = 0
    for m in _BLANK.finditer(text, 0, start):
        s = m.end()
    m2 = _BLANK.search(text, end)
    e = m2.start() if m2 else len(text)
    return s, e


def _clip(text: str, lo: int, hi: int, start: int, end: int, window: int) -> tuple[int, int]:
    """Cut ``[lo, hi)`` to ``window`` characters around ``[start, end)``, at a line or sentence end."""
    if start - lo > window:
        floor = start - window
        cut = max(text.rfind("\n", floor, start), text.rfind(". ", floor, start))
        lo = cut + 1 if cut >= floor else floor
    if hi - end > window:
        ceil = end + window
        cands = [p for p in (text.find("\n", end, ceil), text.find(". ", end, ceil)) if p != -1]
        hi = max(cands) + 1 if cands else ceil
    return lo, hi


def passage_around(document: Document, start: int, end: int, window: int = DEFAULT_WINDOW) -> Passage:
    """The section (or paragraph) around ``[start, end)``, at most ``window`` characters each side."""
    text = document.text
    found = _section_bounds(document, start, end)
    section = label = None
    if found is not None:
        lo, hi, section, label = found
    else:
        lo, hi = _paragraph_bounds(text, start, end)
        if hi - lo < TINY_PARAGRAPH:
            lo2, _ = _paragraph_bounds(text, max(0, lo - 2), max(0, lo - 2))
            _, hi2 = _paragraph_bounds(text, min(len(text), hi + 2), min(len(text), hi + 2))
            lo, hi = min(lo, lo2), max(hi, hi2)
    lo, hi = min(lo, start), max(hi, end)
    lo, hi = _clip(text, lo, hi, start, end, window)
    while lo < start and text[lo].isspace():
        lo += 1
    while hi > end and text[hi - 1].isspace():
        hi -= 1
    return Passage(lo, hi, text[lo:hi], section, label, quote=(start, end))

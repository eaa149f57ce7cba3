"""A quote's compound hyphens against hyphens at the source's line ends.

A hyphen at a line end (``case-\\nsensitive``, ``application-\\nlevel``; soft ones too, which
extractors write for every line-end hyphen) may be a real hyphen or a break inside a word
(``regu-\\nlamento``): the typography view joins it (``dehyphenate``), so a quote of the word
without the hyphen is found there. A quote that writes the hyphen (``case-sensitive``) is
searched in the compound view (the typography view with its inline compound hyphens taken out
too, ``hyphenated_words``) with its own compound hyphens taken out, and a place is kept only
when each hyphen of the quote stands where the source has one and each inline hyphen of the
source is in the quote: a line-end hyphen may be written or not, any other hyphen is text
(``re-cover`` is not ``recover``, ``ausentarse`` not ``ausentar-se``). One quote may hold an
inline compound (``Equipara-se``), a compound at a line end (``co-\\nletividade``) and a word
broken at another (``regu-\\nlamento``).

>>> from ipsis.document import Document
>>> from ipsis.verify.match import document_view
>>> doc = Document("d", "Equipara-se o regu-\\nlamento do bem-\\nestar e o re-cover")
>>> view = compound_view(doc, document_view(doc, "typography"))
>>> hits = compound_hits(doc, view, "Equipara-se o regulamento do bem-estar")
>>> [doc.text[s:e] for s, e in (view.offsets.span_to_source(Span(*h)) for h in hits)]
['Equipara-se o regu-\\nlamento do bem-\\nestar']
>>> compound_hits(doc, view, "Equiparase o regulamento"), compound_hits(doc, view, "e o recover")
([], [])
"""

from __future__ import annotations

import regex

from ipsis.document import Document
from ipsis.ingest.hyphens import _BREAK_AFTER, CONTROL_HYPHENS, LINE_END_HYPHENS
from ipsis.ingest.normalize import Normalized, run_steps
from ipsis.lazy import LazyPattern
from ipsis.spans import Span
from ipsis.verify.match import find_all

_COMPOUND = LazyPattern("regex", r"(?<=\p{L})-(?=\p{L})")
_HYPHEN = LazyPattern("regex", lambda: "[" + regex.escape(LINE_END_HYPHENS + CONTROL_HYPHENS) + "]")
_INLINE = LazyPattern("regex", r"\p{L}[-\u2010\u2011](?=\p{L})")
"""A hyphen right between two letters in the source: text, which the quote must write."""
_AT_LINE_END = LazyPattern("regex", lambda: "[" + regex.escape(LINE_END_HYPHENS + CONTROL_HYPHENS) + "]" + _BREAK_AFTER)


def may_hold_compound(quote: str) -> bool:
    """``quote`` (as written) holds a sign its view may read as a hyphen."""
    return any(c in quote for c in "-\u2010\u2011\u2012\u2013\u2014\u2212")


def has_compound(q: str) -> bool:
    """``q`` (a quote's view) holds a hyphen between two letters."""
    return "-" in q and _COMPOUND.search(q) is not None


def fold_compounds(q: str) -> str:
    """``q`` without its compound hyphens (what :func:`compound_hits` searches)."""
    return _COMPOUND.sub("", q)


def compound_view(doc: Document, view: Normalized) -> Normalized:
    """``view`` with its inline compound hyphens taken out too (kept on the document)."""
    key = ("compound_view", id(view))
    kept = doc.cache.get(key)
    if kept is None or kept[0] is not view:
        kept = doc.cache[key] = (view, run_steps(doc.text, ("hyphenated_words",), after=view))
    folded: Normalized = kept[1]
    return folded


def compound_hits(doc: Document, view: Normalized, q: str, boundaries: bool = True) -> list[tuple[int, int]]:
    """Places ``(start, end)`` in ``view`` (a :func:`compound_view`) of ``q`` (a quote's view)
    read with its compound hyphens where the source has hyphens (see the module docstring)."""
    cuts = [m.start() for m in _COMPOUND.finditer(q)]
    if not cuts:
        return []
    folded = fold_compounds(q)
    at = [c - k for k, c in enumerate(cuts)]  # where each hyphen was, in the folded quote
    text = doc.text
    out = []
    for h in find_all(view.text, folded, boundaries=boundaries):
        inline = 0
        for k in at:
            src = view.offsets.span_to_source(Span(h + k - 1, h + k + 1))
            if not _HYPHEN.search(text, src.start, src.end):
                break  # a hyphen the source does not have
            inline += not _AT_LINE_END.search(text, src.start, src.end)
        else:
            whole = view.offsets.span_to_source(Span(h, h + len(folded)))
            if len(_INLINE.findall(text, whole.start, whole.end)) == inline:  # none left out
                out.append((h, h + len(folded)))
    return out

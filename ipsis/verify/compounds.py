"""A quote's compound hyphens against hard hyphens at the source's line ends.

A hard hyphen at a line end (``case-\\nsensitive``, ``application-\\nlevel``) may be a real
hyphen or a break inside a word (``regu-\\nlamento``): the typography view joins it
(``dehyphenate``), so a quote of the word without the hyphen is found. A quote that writes the
hyphen (``case-sensitive``) is then searched with its compound hyphens taken out, and a place is
kept only when the source has a line-end hyphen at each of them: never where the source has no
hyphen (``re-cover`` is not ``recover``, ``ausentarse`` not ``ausentar-se``; inline hyphens
stay in the view, so they must be quoted). One quote may hold both kinds (``bem-estar`` at one
line end and ``regu-lamento`` joined at another).

>>> from ipsis.document import Document
>>> from ipsis.verify.match import document_view
>>> doc = Document("d", "o regu-\\nlamento do bem-\\nestar e o re-cover")
>>> view = document_view(doc, "typography")
>>> hits = compound_hits(doc, view, "o regulamento do bem-estar")
>>> [doc.text[s:e] for s, e in (view.offsets.span_to_source(Span(*h)) for h in hits)]
['o regu-\\nlamento do bem-\\nestar']
>>> plain = Document("e", "o bemestar")
>>> compound_hits(doc, view, "o recover"), compound_hits(plain, document_view(plain, "typography"), "o bem-estar")
([], [])
"""

from __future__ import annotations

import regex

from ipsis.document import Document
from ipsis.ingest.normalize import Normalized
from ipsis.spans import Span
from ipsis.verify.match import find_all

_COMPOUND = regex.compile(r"(?<=\p{L})-(?=\p{L})")
_LINE_END_HYPHEN = regex.compile(r"[-\u2010\u2011\u2212][ \t]*(?:\r\n|[\n\r\x0b\x0c\x85\u2028\u2029])")


def has_compound(q: str) -> bool:
    """``q`` (a quote's view) holds a hyphen between two letters."""
    return "-" in q and _COMPOUND.search(q) is not None


def fold_compounds(q: str) -> str:
    """``q`` without its compound hyphens (what :func:`compound_hits` searches)."""
    return _COMPOUND.sub("", q)


def compound_hits(doc: Document, view: Normalized, q: str, boundaries: bool = True) -> list[tuple[int, int]]:
    """Places in ``view`` of ``q`` (a quote's view) read with its compound hyphens at the
    source's line-end hyphens (see the module docstring)."""
    cuts = [m.start() for m in _COMPOUND.finditer(q)]
    if not cuts:
        return []
    folded = fold_compounds(q)
    at = [c - k for k, c in enumerate(cuts)]  # where each hyphen was, in the folded quote
    text = doc.text
    out = []
    for h in find_all(view.text, folded, boundaries=boundaries):
        for k in at:
            src = view.offsets.span_to_source(Span(h + k - 1, h + k + 1))
            if not _LINE_END_HYPHEN.search(text, src.start, src.end):
                break
        else:
            out.append((h, h + len(folded)))
    return out

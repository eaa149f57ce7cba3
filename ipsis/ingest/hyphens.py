"""Hyphens: line-end hyphenation joined (``regu-\nlamento``), control characters read as soft
hyphens, and the compound view's step (``case-sensitive`` = ``casesensitive``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ipsis.ingest.fixkit import _cut, _cut_spans, _span
from ipsis.lazy import LazyPattern
from ipsis.spans import Edit

CONTROL_HYPHENS = "".join(map(chr, [*range(0x01, 0x09), *range(0x0E, 0x1C), 0x7F]))
"""C0 control characters that PDF text carries where the page shows a line-end hyphen: PDFium
(Chrome, Claude's ``cited_text``) gives U+0002 (``self\u0002improvement``), other extractors keep a
font's raw code. Whitespace controls (tab, line breaks, U+001C–U+001F) are not among them."""
_CONTROL_HYPHEN = LazyPattern("re", "[" + CONTROL_HYPHENS + "]")


def _control_hyphens(text: str) -> tuple[str, Sequence[Edit]]:
    """A control character used as a hyphen becomes a soft hyphen (same length: no offset
    edit), which :func:`_dehyphenate` and the ``invisible`` step then treat as any soft hyphen.

    >>> _control_hyphens("self\\u0002improvement")[0] == "self\\u00adimprovement"
    True
    """
    if not any(c in text for c in CONTROL_HYPHENS):
        return text, []
    return _CONTROL_HYPHEN.sub("\u00ad", text), []


WHITE_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
"""The Unicode White_Space characters as a class body: what ``regex`` means by ``\\s`` (stdlib
``re`` adds U+001C..U+001F), so a pattern moved to ``re`` for speed matches the same text."""

LINE_END_HYPHENS = "-\u2010\u2011\u2212\u00ad\ufffe"
_BREAK_AFTER = "[ \t]*(?:\r\n|[\n\r\x0b\x0c\x85\u2028\u2029])[" + WHITE_SPACE + "]*"
_HYPHEN_BREAK = LazyPattern("re", "[" + LINE_END_HYPHENS + "]" + _BREAK_AFTER)
# letters on both sides are checked in Python: a lookbehind here is slow; stdlib re: 2x faster
# here than regex. One pattern per hyphen (each opening with its literal, which re finds at
# memory speed instead of testing a class at every character), run only when it is in the text;
# their matches are those of _HYPHEN_BREAK (a match holds one hyphen, then whitespace only).
_HARD_HYPHENS = "-\u2010\u2011\u2212"
_CLOSING = ")]'\u2019"  # a hyphen after these is no word break (``(2-piridil)-``, ``5,5'-``)
_HYPHEN_BREAKS = tuple((h, LazyPattern("re", re.escape(h) + _BREAK_AFTER)) for h in LINE_END_HYPHENS)


def _dehyphenate(text: str) -> tuple[str, Sequence[Edit]]:
    """Join words split at a line end by a hyphen (``-``, U+2212, soft hyphen, pypdfium2's
    U+FFFE); real hyphens elsewhere stay (``Brief-, Post- und``).

    A hard line-end hyphen in a PDF or an RFC cannot be told from a real one ("case-\\nsensitive"
    is ``case-sensitive``; "regu-\\nlamento" is ``regulamento``): the view joins it, and a quote
    that writes the hyphen is found there only where the source has it at a line end
    (:mod:`ipsis.verify.compounds`). A hyphen written nowhere in the source (``re-cover`` for
    ``recover``, ``ausentarse`` for ``ausentar-se``) is never typography.

    A break at a real hyphen that repeats it at the start of the next line (the Portuguese
    and Spanish rule: ``levando-\\n-se``) is that one hyphen: ``levando-se``.

    A hard hyphen with a digit on one side, or after a closing bracket, breaks no word: it is
    part of the token (``artículo 3-\\n08``, ``ASTM-\\n335``, ``(2-piridil)-\\n2H``), so only the
    line break goes: ``3-08`` (a space before the hyphen keeps the break: ``Petroleros -``).

    >>> _dehyphenate("Ελ\\u2212\\nλήνων")[0], _dehyphenate("levando-\\n-se em dar-\\n\\u2212se-á")[0]
    ('Ελλήνων', 'levando-se em dar-se-á')
    >>> _dehyphenate("art. 3-\\n08, ASTM-\\n335, 4-\\ntrifluoro, (b,f)-\\noxacepina, Petroleros -\\nexcluye")[0]
    'art. 3-08, ASTM-335, 4-trifluoro, (b,f)-oxacepina, Petroleros -\\nexcluye'
    >>> _dehyphenate("The docu-\\n1The note")[0]  # a footnote's number, then its note
    'The docu-\\n1The note'
    """
    n = len(text)
    spans = []
    for h, pattern in _HYPHEN_BREAKS:
        if h not in text:
            continue
        for s, e in map(_span, pattern.finditer(text)):
            if s == 0 or e >= n:
                continue
            before, after = text[s - 1], text[e]
            if not before.isalpha():
                if h in _HARD_HYPHENS and (before.isdigit() or before in _CLOSING) and after.isalnum():
                    spans.append((s + 1, e))  # a hyphen of the token: the break goes, the hyphen stays
                continue
            if after.isalpha():
                spans.append((s, e))
            elif h in _HARD_HYPHENS and after.isdigit() and not _glued_word(text, e):
                spans.append((s + 1, e))
            elif h in _HARD_HYPHENS and after in _HARD_HYPHENS and e + 1 < n and text[e + 1].isalpha():
                spans.append((s + 1, e + 1))  # the hyphen repeated on the next line
    spans.sort()
    return _cut_spans(text, spans, "")


def _glued_word(text: str, at: int) -> bool:
    """The digits at ``at`` run into a word (``docu-\\n1The``: a footnote number printed at the
    start of the next line, then its note): no token goes on after the hyphen."""
    j = at
    while j < len(text) and text[j].isdigit():
        j += 1
    return j < len(text) and text[j].isalpha()


_COMPOUND_HYPHEN = LazyPattern("regex", r"(-)(?<=\p{L}-)(?=\p{L})")


def _hyphenated_words(text: str) -> tuple[str, Sequence[Edit]]:
    """``case-sensitive`` -> ``casesensitive``: the step of the compound view only
    (:mod:`ipsis.verify.compounds`), never of a tier (a hyphen is text: ``re-cover`` is not
    ``recover``). Only a hyphen between two letters: ``Art. 55-A``, ``I - o`` stay.

    >>> _hyphenated_words("case-sensitive e Art. 55-A e Brief-, Post- und")[0]
    'casesensitive e Art. 55-A e Brief-, Post- und'
    """
    return _cut(_COMPOUND_HYPHEN, "")(text)

"""RFC and generic heading patterns, TOC/revoked/note text, roman numerals (compiled once).

The legal families' markers are built from the data tables in :mod:`ipsis.sections.grammar`.
Every marker pattern matches at a *line start*: after the start of the text or a line break
(``\\n``, ``\\r``, form feed, U+2028/U+2029), then optional indentation (spaces, tabs, NBSP).
Each pattern carries a comment with one real example from ``corpora/`` (file in parentheses).

>>> RFC_MARKERS.search("\\n4.1.2.  \\"sub\\" (Subject) Claim\\n").group("num")
'4.1.2'
"""

from __future__ import annotations

import re

# Line start: the match consumes the break itself, so ``m.start("x")`` is the marker start.
_BOL = r"(?:\A|[\n\r\f\v\u2028\u2029])[ \t\u00a0\u2000-\u200a\u202f]*"

# ---------------------------------------------------------------- RFC
RFC_MARKERS = re.compile(
    r"(?:\A|[\n\f])(?:"
    # `4.1.2.  "sub" (Subject) Claim` (rfc7519.txt), `4.1.2. "sub"` (its PDF: one space),
    # `1.\u00a0Introduction` (HTML renderings put an NBSP between number and title)
    + r"(?P<num>\d{1,2}(?:\.\d{1,2})*)\.[ \u00a0]{1,3}(?P<title>\S[^\n\r]*?)"
    # `Appendix A.  JWT Examples` (rfc7519.txt)
    + r"|Appendix (?P<app>[A-Z])\.[ \u00a0]{1,3}(?P<atitle>\S[^\n\r]*?)"
    # `A.1.  Example Encrypted JWT` (rfc7519.txt)
    + r"|(?P<sub>[A-Z]\.\d{1,2}(?:\.\d{1,2})*)\.[ \u00a0]{1,3}(?P<stitle>\S[^\n\r]*?)"
    # `Status of This Memo`, `Authors' Addresses` (rfc9111.txt): unnumbered headings
    + r"|(?P<unn>Abstract|Status of This Memo|Copyright Notice|Table of Contents"
    + r"|Acknowledge?ments|Authors?' Addresses|Index|Contributors)"
    + r")[ \t]*\r?(?=\n|\f|\Z)"
)

# ---------------------------------------------------------------- generic dotted headings
# `2.5.2.1 Tratamento de dados` (guia-boas-praticas-lgpd PDF): number, optional dot, title
GENERIC_MARKERS = re.compile(
    _BOL
    + r"(?P<num>\d{1,2}(?:\.\d{1,2})+\.?|\d{1,2}\.)[ \t\u00a0]+(?P<title>[^\W\d_][^\n\r]{0,150}?)"
    + r"[ \t\u00a0]*\r?(?=[\n\f]|\Z)"
)

# A table-of-contents line: dot leaders then a page number (`TÍTULO I. De los derechos ... 4`)
TOC_LINE = re.compile(r"(?:\.\s?){4,}\s*\d{1,4}\s*$|\s\.\s\.\s\.\s")

# `(Revogado)`, `(Revogada pela Lei nº …)`, `(Revogado).` (Senado HTML),
# `§ 1o (Revogado)` (LGPD Senado PDF)
REVOKED_TEXT = re.compile(r"\((?:Revogad[oa]s?|REVOGAD[OA]S?|Suprimid[oa]|Derogad[oa])\b")
# `(Redação dada pela Lei nº 13.853, de 2019)`, `(Incluído pela …)`, `(Vide Decreto nº …)`,
# `(Inciso com redação dada pela …)`, `(Parágrafo acrescido pela …)` (CEDI), `(VETADO)`
NOTE_TEXT = re.compile(
    r"\((?:Reda[çc][ãa]o dada|Inclu[íi]d[oa]|Vide\b|VETAD[OA]|Vetad[oa]|Renumerad|Regulamento"
    r"|(?:Artigo|Par[áa]grafo|Inciso|Al[íi]nea|Item|Cap[íi]tulo|Se[çc][ãa]o|T[íi]tulo)"
    r" (?:com reda|acrescid|revogad|inclu)|Produ[çc][ãa]o de efeito|Vig[êe]ncia)"
)

ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def roman_to_int(s: str) -> int | None:
    """Value of a well-formed roman numeral, else None.

    >>> roman_to_int("XXIX"), roman_to_int("IIII"), roman_to_int("IC")
    (29, None, None)
    """
    total = 0
    prev = 0
    for ch in reversed(s.upper()):
        v = ROMAN_VALUES.get(ch)
        if v is None:
            return None
        if v < prev:
            total -= v
        else:
            total += v
            prev = v
    return total if int_to_roman(total) == s.upper() else None


def int_to_roman(n: int) -> str:
    """``int_to_roman(14) == 'XIV'``."""
    out = []
    for v, sym in (
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ):
        while n >= v:
            out.append(sym)
            n -= v
    return "".join(out)

"""Numbering patterns of every family, compiled once (data only; ``segment.py`` consumes them).

Every marker pattern matches at a *line start*: after the start of the text or a line break
(``\\n``, ``\\r``, form feed, U+2028/U+2029), then optional indentation (spaces, tabs, NBSP).
Each pattern carries a comment with one real example from ``corpora/`` (file in parentheses).

>>> bool(BR_MARKERS.search("\\nArt.\\u00a0103-A. O Supremo"))
True
>>> RFC_MARKERS.search("\\n4.1.2.  \\"sub\\" (Subject) Claim\\n").group("num")
'4.1.2'
"""

from __future__ import annotations

import re

# Line start: the match consumes the break itself, so ``m.start("x")`` is the marker start.
_BOL = r"(?:\A|[\n\r\f\v\u2028\u2029])[ \t\u00a0\u2000-\u200a\u202f]*"
# Spaces allowed inside a marker, including line breaks (`Art. \n\t2º`, lei-14133 HTML).
_SP = r"[\s\u00a0]*"
_SP1 = r"[ \t\u00a0\u202f]"
# Ordinal sign: `1º` (U+00BA), `1o` (superscript o extracted as plain o), `1°` (U+00B0), `1.º`.
_ORD = r"(?:\.?[º°ª]|o(?![a-zà-ú]))"
_ROMAN = r"[IVXLC]{1,7}"
_LOWER = r"[a-zñ]"

_ORDINAL_WORDS = (
    "primera segunda tercera cuarta quinta sexta séptima octava novena décima undécima "
    "duodécima decimotercera decimocuarta decimoquinta decimosexta decimoséptima "
    "decimoctava decimonovena vigésima"
)
SPANISH_ORDINALS: dict[str, int] = {
    w: i
    for i, w in enumerate(
        _ORDINAL_WORDS.split(),
        1,
    )
}
SPANISH_ORDINALS.update({w.replace("á", "a").replace("é", "e"): i for w, i in SPANISH_ORDINALS.items()})
SPANISH_ORDINALS.update({"única": 1, "unica": 1})
# masculine forms for chapters: "CAPÍTULO SEGUNDO" (constitucion-espanola-boe PDF)
SPANISH_ORDINALS.update({w[:-1] + "o": i for w, i in list(SPANISH_ORDINALS.items()) if w.endswith("a")})
SPANISH_ORDINALS.update({"primer": 1, "tercer": 3})
_ES_ORD_WORD = "|".join(sorted(SPANISH_ORDINALS, key=len, reverse=True))

# ---------------------------------------------------------------- Brazil
BR_MARKERS = re.compile(
    _BOL
    + r"(?:"
    # `ATO DAS DISPOSIÇÕES CONSTITUCIONAIS TRANSITÓRIAS` (cf88 Câmara PDF), alone on its line as
    # `Ato das Disposições Constitucionais Transitórias` (cf88-senado-compilado, `class="ementa"`)
    + r"(?P<adct>ATO DAS DISPOSI[CÇ][OÕ]ES CONSTITUCIONAIS TRANSIT[OÓ]RIAS"
    + r"|Ato das Disposi[cç][oõ]es Constitucionais Transit[oó]rias)"
    + r"[ \t\u00a0]*(?=[\r\n\f]|\Z)"
    # `TÍTULO I` / `Título I` (cf88 PDF), `CAPÍTULO I – Disposições Preliminares` (LGPD Senado PDF)
    + r"|(?P<ckind>T[ÍI]TULO|T[íi]tulo|CAP[ÍI]TULO|Cap[íi]tulo|SE[ÇC][ÃA]O|Se[çc][ãa]o"
    + r"|SUBSE[ÇC][ÃA]O|Subse[çc][ãa]o|LIVRO|Livro"
    + r"|PARTE (?:GERAL|ESPECIAL)|Parte (?:Geral|Especial))"
    + r"(?:"
    + _SP1
    + r"+(?P<cnum>"
    + _ROMAN
    + r"|[ÚU]NIC[OA]|[ÚúUu]nic[oa])\b)?"
    # `Art. 5º Todos são iguais` (cf88 PDF), `Art. 10. O legítimo` , `Art. 55-A.` (LGPD)
    + r"|(?P<art>Art\."
    + _SP
    + r"(?P<anum>\d{1,4})"
    + r"(?:"
    + _ORD
    + r")?"
    + r"(?:"
    + _SP1
    + r"*[-–]"
    + _SP1
    + r"*(?P<alet>[A-Z]{1,2})\b)?\.?)(?=[\s\u00a0]|\Z)"
    # `§ 1º Consideram-se coletados` (LGPD), `§\u00a01º` (cf88-senado-compilado)
    + r"|(?P<par>§"
    + _SP
    + r"(?P<pnum>\d{1,3})(?:"
    + _ORD
    + r")?(?:-(?P<plet>[A-Z]))?\.?)(?=[\s\u00a0])"
    # `Parágrafo único. As normas gerais` (LGPD), `Parágrafo\u00a0único.` (cf88-senado-compilado)
    + r"|(?P<paru>Par[áa]grafo"
    + _SP1
    + r"+[úu]nico|PAR[ÁA]GRAFO"
    + _SP1
    + r"+[ÚU]NICO)\.?"
    # `I - o respeito à privacidade;` (Planalto), `I – o respeito` (LGPD Senado PDF),
    # `III \n\t- locação` (lei-14133)
    + r"|(?P<inc>(?P<inum>"
    + _ROMAN
    + r")(?:-(?P<ilet>[A-Z]))?)"
    + _SP
    + r"[-–—](?=[\s\u00a0])"
    # `a) jornalístico e artísticos; ou` (LGPD)
    + r"|(?P<ali>(?P<alet2>"
    + _LOWER
    + r")\))(?=[\s\u00a0])"
    + r")"
)

# ---------------------------------------------------------------- Portugal
PT_MARKERS = re.compile(
    _BOL
    + r"(?:"
    # `PARTE I` / `TÍTULO I` / `CAPÍTULO I` / `SECÇÃO I`, title on the next line (crp)
    + r"(?P<ckind>PARTE|T[ÍI]TULO|CAP[ÍI]TULO|SEC[ÇC][ÃA]O|SUBSEC[ÇC][ÃA]O)"
    + _SP1
    + r"+(?P<cnum>"
    + _ROMAN
    + r"|[ÚU]NIC[OA])[ \t\u00a0]*(?=[\r\n\f]|\Z)"
    # `Artigo 8.º` alone on its line, epigraph on the next (crp)
    + r"|(?P<art>Artigo"
    + _SP1
    + r"+(?P<anum>\d{1,4})"
    + _ORD
    + r"?(?:-(?P<alet>[A-Z]))?)"
    + r"[ \t\u00a0]*(?=[\r\n\f]|\Z)"
    # `1. A soberania, una e indivisível, reside no povo` (crp)
    + r"|(?P<num>(?P<nnum>\d{1,3})\.)(?="
    + _SP1
    + r")"
    # `a) Garantir a independência nacional` (crp)
    + r"|(?P<ali>(?P<alet2>"
    + _LOWER
    + r")\))(?=[\s\u00a0])"
    + r")"
)

# ---------------------------------------------------------------- Spain
ES_MARKERS = re.compile(
    _BOL
    + r"(?:"
    # `TÍTULO PRELIMINAR`, `TÍTULO I. De los derechos`, `CAPÍTULO SEGUNDO` (CE BOE PDF)
    + r"(?P<ckind>T[ÍI]TULO|CAP[ÍI]TULO|Secci[óo]n|SECCI[ÓO]N|LIBRO)"
    + _SP1
    + r"+(?P<cnum>PRELIMINAR|"
    + _ROMAN
    + r"|\d{1,2}\.?[ªa]|(?i:"
    + _ES_ORD_WORD
    + r"))\b"
    # `DISPOSICIONES ADICIONALES` (group), `DISPOSICION DEROGATORIA` (single) (CE BOE PDF)
    + r"|(?P<dgroup>DISPOSICI[ÓO]N(?:ES)?"
    + _SP1
    + r"+(?P<dkind>ADICIONAL|TRANSITORIA|DEROGATORIA|FINAL)"
    + r"(?:ES|S)?)[ \t\u00a0]*(?=[\r\n\f]|\Z)"
    # `Disposición adicional primera.` (CE BOE XML `<p class="articulo">`)
    + r"|(?P<disp>Disposici[óo]n"
    + _SP1
    + r"+(?P<dkind2>adicional|transitoria|derogatoria|final)"
    + r"(?:"
    + _SP1
    + r"+(?P<dord>(?i:"
    + _ES_ORD_WORD
    + r")))?\b\.?)"
    # `Primera.` alone on its line inside a DISPOSICIONES group (CE BOE PDF)
    + r"|(?P<dword>(?P<dord2>(?i:"
    + _ES_ORD_WORD
    + r"))\.)[ \t\u00a0]*(?=[\r\n\f]|\Z)"
    # `Artículo 13.` (CE BOE PDF), `Artículo 13` (XML), `Artículo 14 bis.`
    + r"|(?P<art>Art[íi]culo"
    + _SP1
    + r"+(?P<anum>\d{1,4})"
    + r"(?:"
    + _SP1
    + r"+(?P<asuf>bis|ter|quater|quinquies|sexies))?\.?)(?=[\s\u00a0]|\Z)"
    # `1. Los extranjeros gozarán en España` (CE BOE PDF)
    + r"|(?P<num>(?P<nnum>\d{1,3})\.)(?="
    + _SP1
    + r")"
    # `a) A expresar y difundir libremente` (CE BOE PDF)
    + r"|(?P<ali>(?P<alet2>"
    + _LOWER
    + r")\))(?=[\s\u00a0])"
    + r")"
)

# ---------------------------------------------------------------- Latin America
LATAM_MARKERS = re.compile(
    _BOL
    + r"(?:"
    + r"(?P<ckind>T[ÍI]TULO|CAP[ÍI]TULO|Cap[íi]tulo|T[íi]tulo|LIBRO)"
    + _SP1
    + r"+(?P<cnum>PRELIMINAR|"
    + _ROMAN
    + r"|\d{1,3}|(?i:"
    + _ES_ORD_WORD
    + r"))\b"
    # `ARTICULO 1º.-`, `Artículo 14 bis.-`, `Artículo 1-01:` (issue 3 examples)
    + r"|(?P<art>ART[ÍI]CULO|Art[íi]culo|Art\.)"
    + _SP1
    + r"*(?P<anum>\d{1,4}(?:-\d{1,3})?)"
    + r"(?:"
    + _ORD
    + r")?(?:"
    + _SP1
    + r"+(?P<asuf>bis|ter|quater))?"
    + _SP1
    + r"*(?P<asep>\.-|\.–|\.—|:|\.|-)"
    # bare `1°.-` articles (issue 3 example)
    + r"|(?P<bare>(?P<bnum>\d{1,4})[º°]\.-)"
    # `PRIMERA.-` transitory provisions (issue 3 example)
    + r"|(?P<dword>(?P<dord2>"
    + _ES_ORD_WORD.upper()
    + r")\.-)"
    + r"|(?P<ali>(?P<alet2>"
    + _LOWER
    + r")\))(?=[\s\u00a0])"
    + r")"
)

# ---------------------------------------------------------------- RFC
RFC_MARKERS = re.compile(
    r"(?:\A|[\n\f])(?:"
    # `4.1.2.  "sub" (Subject) Claim` (rfc7519.txt), `4.1.2. "sub"` (its PDF: one space)
    + r"(?P<num>\d{1,2}(?:\.\d{1,2})*)\.[ ]{1,3}(?P<title>\S[^\n\r]*?)"
    # `Appendix A.  JWT Examples` (rfc7519.txt)
    + r"|Appendix (?P<app>[A-Z])\.[ ]{1,3}(?P<atitle>\S[^\n\r]*?)"
    # `A.1.  Example Encrypted JWT` (rfc7519.txt)
    + r"|(?P<sub>[A-Z]\.\d{1,2}(?:\.\d{1,2})*)\.[ ]{1,3}(?P<stitle>\S[^\n\r]*?)"
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


def letter_rank(s: str | None) -> int:
    """Order of a suffix: ``None`` 0, ``A``/``bis`` 1, ``B``/``ter`` 2 ...

    >>> letter_rank("C"), letter_rank("bis"), letter_rank(None)
    (3, 1, 0)
    """
    if not s:
        return 0
    latin = {"bis": 1, "ter": 2, "quater": 3, "quinquies": 4, "sexies": 5}
    if s.lower() in latin:
        return latin[s.lower()]
    rank = 0
    for ch in s.upper():
        rank = rank * 26 + (ord(ch) - 64)
    return rank

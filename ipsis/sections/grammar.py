"""One marker grammar for legal norms; each numbering family is a table of data (no code).

A *marker* is what opens a section at a line start. Every legal family fits one grammar::

    line     := BOL decoration? marker rest
    BOL      := start of text or a line break (\\n \\r \\f \\v U+2028 U+2029), then spaces/tabs/NBSP
    decoration := Markdown heading "#{1,6} " | bold "**" / "__"      (legalize Markdown, wikis)
    marker   := container | article | sub-marker | family extras
    container:= KEYWORD NUMBER ([ .:–—-] title)?       "TÍTULO I", "Capítulo II – Do Tratamento",
              | NUMBER ". " KEYWORD ":" title           "2. Kapitel: Grundrechte" (Fedlex)
    article  := KEYWORD SP NUMBER ORDINAL? SUFFIX? SEP? (title | body)?
    SUFFIX   := "-"? LETTERS                            "55-A", "7-A", "102-B", "37.º-A", "5a"
              | " " LATIN (" " LETTER ")")?             "14 bis", "570 quáter", "283 bis a)"
    SEP      := "." | ".-" | ".–" | ":" | "-"
    rest     := nothing, a separator, or a capitalised title/body — never running lowercase text
                ("Artículo 1 de la Ley 31988, publicada…" at a line start is a reference, not a marker)

``KEYWORD`` lists, number forms, which suffixes and sub-markers a family takes, and whether its
titles sit on the marker line are the family's :class:`Table` in :data:`TABLES`. Suffix words
(:data:`LATIN_SUFFIXES`, bis…vicies, accented or not) and Spanish ordinal words
(:func:`spanish_ordinal`: primera…quincuagésima novena, joined or spaced, accents optional) are
data shared by all families. To add a family, add a :class:`Table` (and its detection evidence
in :data:`EVIDENCE`); :func:`compile_family` builds its pattern and
:func:`ipsis.sections.families.candidates` reads every match through the same group names.

Above the marker level, the segmenter (:mod:`ipsis.sections.segmenter`) handles what is not a
property of one line: index/TOC regions (a run of bodiless article lines whose numbers come again
later), norm boundaries (numbering restarting at 1 opens a new top-level norm ``part-2``; a
marker written as the first norm's and continuing its numbering returns to it), and footnote
digits glued to a number by PDF extraction (``Art. 6324`` after ``Art. 63a`` is Art. 63 +
footnote 24).

>>> spanish_ordinal("vigésima primera"), spanish_ordinal("VIGESIMOSEGUNDA"), spanish_ordinal("decimoctava")
(21, 22, 18)
>>> suffix_rank("quáter"), suffix_rank("bis"), suffix_rank("B")
(3, 1, 2)
>>> bool(compile_family("es").search("\\n##### Artículo 7. Consentimiento de los menores."))
True
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# ---------------------------------------------------------------- shared data
# Latin multiplicative suffixes, in order: `14 bis` (CN Argentina), `127 septies`, `570 quáter`
# (Código Penal BOE PDF), `778 quáter` (LEC). Accented spellings are the same suffix.
LATIN_SUFFIXES = (
    "bis",
    "ter",
    "quater",
    "quinquies",
    "sexies",
    "septies",
    "octies",
    "nonies",
    "decies",
    "undecies",
    "duodecies",
    "terdecies",
    "quaterdecies",
    "quindecies",
    "sexdecies",
    "septdecies",
    "octodecies",
    "novodecies",
    "vicies",
)
_SUFFIX_ALIASES = {"quáter": "quater", "novies": "nonies", "quinques": "quinquies"}
_SUFFIX_WORDS = sorted({*LATIN_SUFFIXES, *_SUFFIX_ALIASES}, key=len, reverse=True)
LATIN_RX = "|".join(_SUFFIX_WORDS)

# Spanish ordinals as stems: units, the tens, and the special teens (`undécima`, `duodécima`).
_UNITS = {
    "primer": 1,
    "segund": 2,
    "tercer": 3,
    "cuart": 4,
    "quint": 5,
    "sext": 6,
    "septim": 7,
    "setim": 7,
    "octav": 8,
    "noven": 9,
}
_TENS = {"decim": 10, "vigesim": 20, "trigesim": 30, "cuadragesim": 40, "quincuagesim": 50, "sexagesim": 60}
_TEENS = {"undecim": 11, "duodecim": 12}
_A = {"a": "[aá]", "e": "[eé]", "i": "[ií]", "o": "[oó]", "u": "[uú]"}


def _accent_free(stem: str) -> str:
    return "".join(_A.get(ch, ch) for ch in stem)


_UNIT_RX = "|".join(_accent_free(s) for s in sorted(_UNITS, key=len, reverse=True))
_TENS_RX = "|".join(_accent_free(s) for s in sorted(_TENS, key=len, reverse=True))
_TEEN_RX = "|".join(_accent_free(s) for s in _TEENS)
# `primera`, `primer`, `décima`, `vigésima primera`, `vigésimo sexta`, `VIGESIMOSEGUNDA`,
# `decimoctava` (tens + unit joined, the unit's o eaten), `única`
SPANISH_ORDINAL_RX = (
    r"(?i:(?:(?:" + _TENS_RX + r")[oa]?[ \t\u00a0]?)?(?:" + _UNIT_RX + r")[oa]?"
    r"|(?:" + _TEEN_RX + r")[oa]|(?:" + _TENS_RX + r")[oa]|[úu]nic[oa])(?![a-záéíóúñ])"
)


def fold(s: str) -> str:
    """``s`` lowercased, accents removed: ``fold("Constitución") == "constitucion"``."""
    return "".join(ch for ch in unicodedata.normalize("NFD", s.lower()) if not unicodedata.combining(ch))


def spanish_ordinal(word: str) -> int | None:
    """Value of a Spanish ordinal word (masculine or feminine, joined or spaced), else None.

    >>> spanish_ordinal("Primera"), spanish_ordinal("vigésimo novena"), spanish_ordinal("única")
    (1, 29, 1)
    """
    s = re.sub(r"[\s\u00a0]+", "", fold(word))
    if s in ("unica", "unico"):
        return 1
    for stem, v in _TEENS.items():
        if s in (stem + "a", stem + "o"):
            return v
    tens = 0
    for stem, v in _TENS.items():
        if s.startswith(stem):
            tens, s = v, s[len(stem) :]
            break
    if tens and s in ("", "a", "o"):
        return tens
    for rest in (s, s[1:] if tens and s[:1] in "ao" else None):
        for stem, v in _UNITS.items():
            if rest in (stem, stem + "a", stem + "o"):
                return tens + v
    return None


_LETTERS = "ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"


def suffix_rank(s: str | None) -> int:
    """Order of an article suffix: ``None`` 0, ``bis``/``A`` 1, ``ter``/``B`` 2, ``quáter`` 3…"""
    if not s:
        return 0
    low = _SUFFIX_ALIASES.get(s.lower(), s.lower())
    if low in LATIN_SUFFIXES:
        return LATIN_SUFFIXES.index(low) + 1
    rank = 0
    for ch in s.upper():  # the Spanish alphabet: `XXIX-Ñ.` comes between `XXIX-N.` and `XXIX-O.`
        rank = rank * 27 + (_LETTERS.find(ch) + 1 if ch in _LETTERS else ord(ch) - 64)
    return rank


def suffix_token(s: str) -> str:
    """The id spelling of a suffix: latin words unaccented lowercase, letters as written."""
    low = _SUFFIX_ALIASES.get(s.lower(), s.lower())
    return low if low in LATIN_SUFFIXES else s


# ---------------------------------------------------------------- grammar pieces
_BOL = r"(?:\A|[\n\r\f\v\u2028\u2029])[ \t\u00a0\u2000-\u200a\u202f]*(?:#{1,6}[ \t]+|\*\*|__)?"
_SP = r"[\s\u00a0]*"  # inside a marker, line breaks included (`Art. \n\t2º`, lei-14133 HTML)
_SP1 = r"[ \t\u00a0\u202f]"
_ORD = r"(?:\.?[º°ª]|o(?![a-zà-ú]))"
ROMAN = r"[IVXLC]{1,7}"
_EOL = r"[ \t\u00a0*_]*(?=[\r\n\f]|\Z)"
# after a marker: end of line, a separator, or anything but running lowercase text / a comma
_NOT_PROSE = r"(?=[ \t\u00a0]*(?:[\r\n\f]|\Z|[^\s,;a-zà-ÿ]))"


def _cased(*words: str) -> str:
    """``TÍTULO|Título`` for each word (upper and capitalised), unaccented variants included."""
    out = []
    for w in words:
        for v in {w, fold(w)}:
            out += [v.upper(), v[:1].upper() + v[1:]]
    return "|".join(dict.fromkeys(out))


@dataclass(frozen=True, slots=True)
class Table:
    """The data of one numbering family (see the module docstring for the grammar).

    ``containers``: heading keyword -> container kind; ``container_numbers``: what may number a
    heading; ``container_alone``: the heading's title is on the next line (nothing after the
    number); ``number_first``: headings written ``2. Kapitel:``; ``article``: keyword
    alternation; ``article_number``: the number form; ``letter_suffix``/``latin_suffix``/
    ``glued_letter``: which suffixes; ``article_alone``: nothing may follow the marker on its
    line (Portugal: epigraph on the next line); ``subs``: sub-markers by name
    (:data:`SUB_MARKERS`); ``extras``: family-specific alternatives (named groups).
    """

    containers: dict[str, str]
    container_numbers: str
    article: str
    article_number: str = r"\d{1,4}"
    letter_suffix: bool = False
    latin_suffix: bool = False
    glued_letter: bool = False
    article_alone: bool = False
    container_alone: bool = False
    number_first: dict[str, str] | None = None
    subs: tuple[str, ...] = ()
    extras: tuple[str, ...] = ()


_PT_BR_CONTAINERS = {
    _cased("Subtítulo"): "subtitulo",  # `Subtítulo II` (CT DRE)
    _cased("Título"): "titulo",
    _cased("Capítulo"): "capitulo",
    _cased("Subseção", "Subsecção"): "subsecao",
    _cased("Seção", "Secção"): "secao",
    _cased("Livro"): "livro",
    _cased("Parte"): "parte",
}
_ES_CONTAINERS = {
    _cased("Título"): "titulo",
    _cased("Capítulo"): "capitulo",
    _cased("Sección"): "secao",
    _cased("Libro"): "livro",
    _cased("Parte"): "parte",
}

# Sub-markers: one alternative each, with its own group names (see families.candidates).
SUB_MARKERS = {
    # `§ 1º Consideram-se coletados` (LGPD), `§\u00a01º` (cf88-senado-compilado)
    "paragrafo": r"(?P<par>§" + _SP + r"(?P<pnum>\d{1,3})(?:" + _ORD + r")?(?:-(?P<plet>[A-Z]))?\.?)(?=[\s\u00a0*])",
    # `Parágrafo único. As normas gerais` (LGPD)
    "par_unico": r"(?P<paru>Par[áa]grafo" + _SP1 + r"+[úu]nico|PAR[ÁA]GRAFO" + _SP1 + r"+[ÚU]NICO)\.?",
    # `I - o respeito` (Planalto), `I – o respeito` (LGPD Senado PDF), `III \n\t- locação` (lei-14133)
    "inciso": r"(?P<inc>(?P<inum>" + ROMAN + r")(?:-(?P<ilet>[A-Z]))?)" + _SP + r"[-–—](?=[\s\u00a0*])",
    # `1. As normas` (crp), `1 – Quem` (Código Penal LegiX, en dash), `1 - Os n.os 1` (CT DRE)
    "numero": r"(?P<num>(?P<nnum>\d{1,3})(?:\.|" + _SP1 + r"+[-–])(?=" + _SP1 + r"))",
    # numerales closed by a parenthesis, a list that starts at 1 (families.Cand.consecutive):
    # `1º)` … `9º)`, then `10)` on a line of its own (Uruguay's parlamento HTML: art. 85's numerales),
    # `10) Destituir los empleados` (Uruguay's IMPO text: art. 168), `1) El Defensor del Pueblo` (Peru)
    "numeral": r"(?P<npar>(?P<npnum>\d{1,3})(?:[º°]\)(?=\s)|\)(?=[ \t]*\r?\n|" + _SP1 + r"+[A-ZÁÉÍÓÚÑ¿«\"“])))",
    # `1. Los extranjeros gozarán` (CE BOE PDF)
    "apartado": r"(?P<apt>(?P<anum2>\d{1,3})\.)(?=" + _SP1 + r")",
    # `1 Alle Menschen sind` (Bundesverfassung: Absatz numbers as bare leading digits)
    "absatz": r"(?P<abs>(?P<absnum>\d{1,2}))(?=" + _SP1 + r"[A-ZÄÖÜ])",
    # `a) jornalístico` (LGPD), `a ) primazia` (ECA PDF: a space before the parenthesis)
    "alinea": r"(?P<ali>(?P<alet2>[a-zñ])" + _SP1 + r"?\))(?=[\s\u00a0*])",
    # `III. Queda prohibida`, `I.- Los`, `II) …` (CPEUM fracciones: a roman numeral and a dot,
    # dot-dash or parenthesis, then text); a lone `C.` after `B.` is read as an apartado
    # `XXIX-A.`, `XXIII Bis.` (art. 73: fracciones added between two); `XI (sic 05-12-1960).`
    # (art. 123 B: fracción IX printed with the number the 1960 decree gave it)
    "fraccion": r"(?P<frac>(?P<fnum>"
    + ROMAN
    + r")(?:-(?P<flet>[A-ZÑ])|"
    + _SP1
    + r"(?P<fsuf>(?i:"
    + LATIN_RX
    + r")))?(?P<fsic>"
    + _SP1
    + r"\(sic[^)\n]{0,40}\))?(?:\.-|\.–|\.|\)))(?="
    + _SP1
    + r"+[^\s\d])",
    # `A. Entre los obreros`, `B. Entre los Poderes` (CPEUM apartados: a capital and a dot, then
    # a capitalised word); `Apartado A. El Instituto` (CPEUM art. 41: inside a fracción); `A) Son
    # mexicanos por nacimiento:` (CPEUM art. 30), `A) Del Poder Ejecutivo` (Uruguay's literales)
    # `H)` alone on its line, the text on the next (Uruguay's parlamento HTML: the transitory
    # provisions A) … Z), then `Z')` and `Z")`); letters past J only inside a group of
    # transitory provisions (families._legal)
    "apartado_letra": r"(?P<aptl>(?:Apartado"
    + _SP1
    + r"+)?(?P<aletr>[A-Z])(?:\.|(?P<aprime>'|\"|'')?\)))"
    + r"(?="
    + _SP1
    + r"+[A-ZÁÉÍÓÚÑ¿«\"“]|(?<=\))[ \t\u00a0]*\r?\n)",
    # `a. jede Person` (Bundesverfassung: Buchstaben)
    "buchstabe": r"(?P<ali>(?P<alet2>[a-z])\.)(?=" + _SP1 + r")",
}

TABLES: dict[str, Table] = {
    "br": Table(
        # `Parte Especial` (ECA PDF) before the numbered `PARTE I`: a part named, not numbered
        containers={
            r"(?:PARTE (?:GERAL|ESPECIAL)|Parte (?:Geral|Especial))(?=[ \t]*(?:[\r\n]|\Z))": "parte",
            **_PT_BR_CONTAINERS,
        },
        container_numbers=ROMAN + r"|[ÚU]NIC[OA]|[ÚúUu]nic[oa]",
        # `Art. 5º Todos são iguais` (cf88 PDF), `Art. 10. O legítimo`, `Art. 55-A.` (LGPD)
        article=r"Art\.",
        letter_suffix=True,
        subs=("paragrafo", "par_unico", "inciso", "alinea"),
        extras=(
            # `ATO DAS DISPOSIÇÕES CONSTITUCIONAIS TRANSITÓRIAS` (cf88 Câmara PDF)
            r"(?P<adct>ATO DAS DISPOSI[CÇ][OÕ]ES CONSTITUCIONAIS TRANSIT[OÓ]RIAS"
            r"|Ato das Disposi[cç][oõ]es Constitucionais Transit[oó]rias)[ \t\u00a0]*(?=[\r\n\f]|\Z)",
        ),
    ),
    "pt": Table(
        containers=_PT_BR_CONTAINERS,
        container_numbers=ROMAN + r"|[ÚU]NIC[OA]|[Úú]nic[oa]",
        container_alone=True,
        # `Artigo 8.º` (crp), `Artigo 1º` (Código Penal LegiX), `Artigo 37.º-A` (CT DRE)
        article=r"Artigo",
        letter_suffix=True,
        article_alone=True,
        subs=("numero", "numeral", "alinea"),
    ),
    "es": Table(
        containers=_ES_CONTAINERS,
        container_numbers=r"PRELIMINAR|Preliminar|" + ROMAN + r"|\d{1,2}\.?[ªa]|" + SPANISH_ORDINAL_RX,
        # `Artículo 13.` (CE BOE PDF), `Artículo 1. Principio de legalidad procesal.` (LEC),
        # `##### Artículo 7. …` (LOPDGDD legalize), `Artículo 283 bis a).` (LEC)
        article=r"Art[íi]culo|ART[ÍI]CULO",
        latin_suffix=True,
        letter_suffix=True,
        subs=("apartado", "numeral", "alinea"),
        extras=("dispositions",),
    ),
    "latam": Table(
        containers={**_ES_CONTAINERS, _cased("Sección"): "secao"},
        container_numbers=r"PRELIMINAR|Preliminar|" + ROMAN + r"|\d{1,3}|" + SPANISH_ORDINAL_RX,
        # `ARTICULO 1º.-` (InfoLEG), `Artículo 14 bis.-`, `Artículo 1-01:` (DOF), `Artículo 1o.`
        # (CPEUM), `Artículo 1. [Defensa de la persona humana]` (Peru), `Artículo 7-A.`
        article=r"ART[ÍI]CULO|Art[íi]culo|Art\.",
        article_number=r"\d{1,4}(?:-\d{2,3}(?!\d))?",
        latin_suffix=True,
        letter_suffix=True,
        subs=("fraccion", "apartado_letra", "numero", "numeral", "alinea"),
        extras=(
            # bare `1°.-` articles (issue 3 example)
            r"(?P<bare>(?P<bnum>\d{1,4})[º°]\.-)",
            # `DISPOSICIONES TRANSITORIAS Y ESPECIALES` on a line of its own (Uruguay's parlamento
            # HTML): a group of provisions, lettered `A)` … `Z)` there
            r"(?P<dgroup>(?:DISPOSICIONES|Disposiciones)"
            + _SP1
            + r"+(?P<dkind>TRANSITORIA|[Tt]ransitoria)[Ss](?:"
            + _SP1
            + r"+(?:Y|y)"
            + _SP1
            + r"+(?:ESPECIALES|[Ee]speciales))?)[ \t\u00a0]*(?=[\r\n\f]|\Z)",
            # `PRIMERA.-`, `VIGESIMA PRIMERA.-` transitory provisions (LeyChile)
            r"(?P<dword>(?P<dord2>" + SPANISH_ORDINAL_RX + r")\.-?)(?=[ \t\u00a0]|[\r\n]|\Z)",
        ),
    ),
    "ch": Table(
        containers={},
        container_numbers=r"\d{1,2}",
        number_first={"Titel": "titulo", "Kapitel": "capitulo", "Abschnitt": "secao", "Titre": "titulo"},
        # `Art. 8   Rechtsgleichheit` (Bundesverfassung PDF), `Art. 5a2` (5a + footnote 2)
        article=r"Art\.",
        glued_letter=True,
        subs=("absatz", "buchstabe"),
    ),
}

_DISPOSITIONS = (
    # `DISPOSICIONES ADICIONALES` (group), `DISPOSICION DEROGATORIA` (single) (CE BOE PDF)
    r"(?P<dgroup>DISPOSICI[ÓO]N(?:ES)?" + _SP1 + r"+(?P<dkind>ADICIONAL|TRANSITORIA|DEROGATORIA|FINAL)"
    r"(?:ES|S)?)[ \t\u00a0]*(?=[\r\n\f]|\Z)"
    # `Disposición adicional primera.` (CE BOE XML), `Disposición final vigésimo novena.` (LEC)
    r"|(?P<disp>Disposici[óo]n" + _SP1 + r"+(?P<dkind2>adicional|transitoria|derogatoria|final)"
    r"(?:" + _SP1 + r"+(?P<dord>" + SPANISH_ORDINAL_RX + r"))?\b\.?)"
    # `Primera.` alone on its line inside a DISPOSICIONES group (CE BOE PDF)
    r"|(?P<dword>(?P<dord2>" + SPANISH_ORDINAL_RX + r")\.)[ \t\u00a0]*(?=[\r\n\f]|\Z)"
)


def _article(t: Table) -> str:
    suffix = ""
    if t.letter_suffix:
        # `55-A`, `7-A`, `37.º-A`, `Art. 29 - A` (spaced dash)
        suffix += r"(?:" + _SP1 + r"*[-–]" + _SP1 + r"*(?P<alet>[A-Z]{1,2})\b)?"
    if t.latin_suffix:
        suffix += r"(?:" + _SP1 + r"+(?P<asuf>(?i:" + LATIN_RX + r"))\b(?:" + _SP1 + r"*(?P<asl>[a-z])\))?)?"
    if t.glued_letter:
        suffix += r"(?P<alow>[a-z])?(?P<afn>\d{1,3})?"
    head = r"(?P<art>(?P<akw>" + t.article + r")" + _SP + r"(?P<anum>" + t.article_number + r")"
    head += r"(?:" + _ORD + r")?" + suffix + r")"
    if t.article_alone:
        return head + _EOL
    return head + r"(?P<asep>" + _SP1 + r"*(?:\.-|\.–|\.—|\.|:|-(?!\d)))?" + _NOT_PROSE


def compile_family(name: str) -> re.Pattern[str]:
    """The compiled marker pattern of family ``name`` (built from its :class:`Table`)."""
    t = TABLES[name]
    alts = [x for x in t.extras if x != "dispositions"]
    if t.containers:
        kinds = "|".join(t.containers)
        # the title may follow on the line, never running prose (`Sección III considerándose…`)
        tail = _EOL if t.container_alone else r"\b" + _NOT_PROSE
        alts.append(r"(?P<ckind>" + kinds + r")(?:" + _SP1 + r"+(?P<cnum>" + t.container_numbers + r")" + tail + r")?")
    if t.number_first:
        alts.append(r"(?P<cnum_pre>\d{1,2})\." + _SP1 + r"+(?P<ckind_pre>" + "|".join(t.number_first) + r")\b:?")
    if "dispositions" in t.extras:
        alts.append(_DISPOSITIONS)
    alts.append(_article(t))
    alts.extend(SUB_MARKERS[s] for s in t.subs)
    return re.compile(_BOL + r"(?:" + "|".join(alts) + r")")


MARKERS: dict[str, re.Pattern[str]] = {name: compile_family(name) for name in TABLES}

# Evidence for family detection: (pattern, weight) per family, counted over the whole text.
# Evidence for family detection: (pattern, weight) per family, counted over the whole text; each
# pattern starts at a line start, after the same optional decoration as the markers (`##### `, `**`)
# A line start is a literal newline (the text is scanned with one prepended): the regex engine
# then jumps from newline to newline instead of trying every position (``^`` with ``re.M``).
_EV = r"\n[ \t\u00a0]*(?:#{1,6}[ \t]+|\*\*|__)?"


def _ev(pattern: str) -> re.Pattern[str]:
    return re.compile(_EV + "(?:" + pattern + ")")


EVIDENCE: dict[str, tuple[tuple[re.Pattern[str], int], ...]] = {
    "br": (
        (_ev(r"Art\.[\s\u00a0]*\d+(?:º|°|o)?[ \u00a0.*]"), 1),
        (_ev(r"§[ \u00a0]*\d|Par[áa]grafo [úu]nico"), 2),
        (_ev(r"[IVX]{1,5}[ \u00a0]*[-–][ \u00a0]"), 1),
    ),
    "pt": (
        (_ev(r"Artigo \d+\.?º(?:-[A-Z])?[ \t*]*(?=\r?\n|\Z)"), 3),
        # `Artigo 1` alone (treaties annexed to a Brazilian decree, numbered without the sign)
        (_ev(r"Artigo \d+[ \t*]*(?=\r?\n|\Z)"), 2),
    ),
    "es": (
        (_ev(r"Art[íi]culo \d+(?: bis| ter)?\.?[ \t*]*(?=\r?\n|\Z)"), 2),
        (_ev(r"Art[íi]culo \d+(?: [a-z]+)?\.(?:\*\*)? [A-ZÁÉÍÓÚ][^\n]{0,120}\.[ \t*]*(?=\r?\n|\Z)"), 2),
        (_ev(r"Disposici[óo]n (?:adicional|transitoria|final|derogatoria)"), 2),
    ),
    "latam": (
        (
            _ev(
                r"(?:ART[IÍ]CULO|Art[íi]culo)[ \u00a0]\d+(?:[º°]|o\b)?(?: bis| ter)?[ ]?\.-"
                r"|\d+[°º]\.-|Art[íi]culo \d+-\d+:|Art[íi]culo \d+o\. "
                r"|Art[íi]culo \d+(?:-[A-Z])?\.[ \u00a0]*\["
            ),
            3,
        ),
        (_ev(r"Art[íi]culo \d+[ \t*]*(?=\r?\n|\Z)"), 1),
    ),
    "ch": (
        (_ev(r"\d{1,2}\. (?:Titel|Kapitel|Abschnitt):? "), 8),
        (_ev(r"Art\. \d+[a-z]?\d{0,3}(?: {2,}[A-ZÄÖÜ]|[ \t]*(?=\r?\n|\Z))"), 1),
    ),
}

# A norm's heading line (the title of a new top-level norm in a booklet): `LEI Nº 10.962, DE 11
# DE OUTUBRO DE 2004` (CDC booklet), `DECRETO Nº 2.181` , `Anexo` + `CÓDIGO DO TRABALHO` (CT DRE),
# `ANEXO I` (Ley 26.994), `CONSTITUCION DE LA NACION ARGENTINA` (InfoLEG)
NORM_HEADING = re.compile(
    r"^[ \t\u00a0]*(?:#{1,6} )?(?:(?:LEI|DECRETO(?:-LEI)?|LEY|DECRETO LEGISLATIVO|MEDIDA PROVIS[ÓO]RIA"
    r"|C[ÓO]DIGO|CONSTITUCI[ÓO]N|CONSTITUI[ÇC][ÃA]O|ANEXO|TRATADO|ACUERDO|ACORDO|CONVEN[ÇC][ÃA]O|CONVENCI[ÓO]N"
    r"|CONVENIO|PROTOCOLO|REGULAMENTO|REGLAMENTO)\b[^\n]{0,160}"
    r"|(?:Lei|Ley|Decreto(?:-Lei)?|Anexo|C[óo]digo)"
    r"(?:[ \u00a0]+(?:n\.?[ \u00a0]?[º°o]|N[º°o]|[IVX]+\b|\d)[^\n]{0,160})?"
    r")[ \t]*$",
    re.M,
)

"""Numbers, periods, units and month names in pt/es/en text, normalised for comparison.

``72 horas``, ``setenta e duas horas`` and ``três dias`` all become quantities that compare in
code: the first two are equal, and the third equals them too once periods are turned into
seconds. Words that are also articles or prepositions (``um``, ``una``, ``dos``, ``one``) count as
numbers only inside a longer number or right before a unit.

>>> [(q.value, q.unit) for q in quantities("no prazo máximo de setenta e duas horas")]
[(72.0, 'hour')]
>>> [(q.value, q.unit) for q in quantities("en el plazo de 3 días y forty-eight hours")]
[(3.0, 'day'), (48.0, 'hour')]
>>> same_quantity(quantities("72 horas")[0], quantities("three days")[0])
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_UNITS_PT = "0 zero 1 um 1 uma 2 dois 2 duas 3 três 4 quatro 5 cinco 6 seis 7 sete 8 oito 9 nove 10 dez"
_UNITS_PT += " 11 onze 12 doze 13 treze 14 catorze 14 quatorze 15 quinze 16 dezasseis 16 dezesseis"
_UNITS_PT += " 17 dezassete 17 dezessete 18 dezoito 19 dezanove 19 dezenove 20 vinte 30 trinta"
_UNITS_PT += " 40 quarenta 50 cinquenta 60 sessenta 70 setenta 80 oitenta 90 noventa 100 cem 100 cento"
_UNITS_PT += " 200 duzentos 200 duzentas 300 trezentos 300 trezentas 400 quatrocentos 500 quinhentos"
_UNITS_PT += " 400 quatrocentas 500 quinhentas 600 seiscentos 600 seiscentas 700 setecentos 700 setecentas"
_UNITS_PT += " 800 oitocentos 800 oitocentas 900 novecentos 900 novecentas"
_UNITS_ES = "0 cero 1 uno 1 una 1 un 2 dos 3 tres 4 cuatro 5 cinco 6 seis 7 siete 8 ocho 9 nueve 10 diez"
_UNITS_ES += " 11 once 12 doce 13 trece 14 catorce 15 quince 16 dieciséis 17 diecisiete 18 dieciocho"
_UNITS_ES += " 19 diecinueve 20 veinte 21 veintiuno 21 veintiún 21 veintiuna 22 veintidós 23 veintitrés"
_UNITS_ES += " 24 veinticuatro 25 veinticinco 26 veintiséis 27 veintisiete 28 veintiocho 29 veintinueve"
_UNITS_ES += " 30 treinta 40 cuarenta 50 cincuenta 60 sesenta 70 setenta 80 ochenta 90 noventa"
_UNITS_ES += " 100 cien 100 ciento 200 doscientos 200 doscientas 300 trescientos 300 trescientas"
_UNITS_ES += " 400 cuatrocientos 400 cuatrocientas 500 quinientos 500 quinientas 600 seiscientos 600 seiscientas"
_UNITS_ES += " 700 setecientos 700 setecientas 800 ochocientos 800 ochocientas 900 novecientos 900 novecientas"
_UNITS_EN = "0 zero 1 one 2 two 3 three 4 four 5 five 6 six 7 seven 8 eight 9 nine 10 ten 11 eleven"
_UNITS_EN += " 12 twelve 13 thirteen 14 fourteen 15 fifteen 16 sixteen 17 seventeen 18 eighteen"
_UNITS_EN += " 19 nineteen 20 twenty 30 thirty 40 forty 50 fifty 60 sixty 70 seventy 80 eighty 90 ninety"


def _table(*specs: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for spec in specs:
        parts = spec.split()
        for value, word in zip(parts[::2], parts[1::2], strict=True):
            out[word] = int(value)
    return out


NUMBER_WORDS: dict[str, int] = _table(_UNITS_PT, _UNITS_ES, _UNITS_EN)
"""Number words of pt/es/en (``setenta`` 70, ``veintidós`` 22, ``forty`` 40)."""
MULTIPLIERS: dict[str, int] = {
    "hundred": 100,
    "mil": 1000,
    "thousand": 1000,
    "milhão": 10**6,
    "milhões": 10**6,
    "millón": 10**6,
    "millones": 10**6,
    "million": 10**6,
    "millions": 10**6,
    "bilhão": 10**9,  # pt-BR short scale
    "bilhões": 10**9,
    "billion": 10**9,
    "billions": 10**9,
    "bilião": 10**12,  # pt-PT long scale (10^9 is "mil milhões")
    "biliões": 10**12,
    "billón": 10**12,  # es long scale (10^9 is "mil millones")
    "billones": 10**12,
    "trilhão": 10**12,
    "trilhões": 10**12,
    "trillion": 10**12,
    "trillions": 10**12,
}
"""Multiplier words; ``mil milhões`` / ``mil millones`` compose (10^3 x 10^6)."""
CONNECTORS = frozenset({"e", "y", "and"})
AMBIGUOUS = frozenset({"um", "uma", "un", "una", "uno", "one", "dos", "once", "doce", "cento", "cem"})
"""Number words that are also ordinary words (``dos direitos``, ``once``): numbers only in context."""

UNITS: dict[str, str] = {}
for _unit, _words in {
    "second": "segundo segundos second seconds",
    "minute": "minuto minutos minute minutes",
    "hour": "hora horas hour hours",
    "day": "dia dias día días day days",
    "week": "semana semanas week weeks",
    "month": "mês meses mes month months",
    "year": "ano anos año años year years",
    "percent": "% percent por_cento por_ciento",
    "third": "terço terços tercio tercios third thirds",
    "fifth": "quinto quintos fifth fifths",
    "member": "deputados diputados senadores membros miembros members juízes jueces judges",
    "bit": "bit bits byte bytes octet octets",
}.items():
    for _w in _words.split():
        UNITS[_w] = _unit
PERIOD_UNITS = frozenset({"second", "minute", "hour", "day", "week", "month", "year", "percent"})
SECONDS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400, "week": 604800}
"""Periods that convert exactly; months and years do not."""

MONTHS: dict[str, int] = {}
for _i, _names in enumerate(
    [
        "janeiro enero january",
        "fevereiro febrero february",
        "março marzo march",
        "abril april",
        "maio mayo may",
        "junho junio june",
        "julho julio july",
        "agosto august",
        "setembro septiembre september",
        "outubro octubre october",
        "novembro noviembre november",
        "dezembro diciembre december",
    ],
    1,
):
    for _w in _names.split():
        MONTHS[_w] = _i

DIGITS = re.compile(r"(?<![\w.,])(\d{1,3}(?:[.,\u00a0 ]\d{3})+|\d+(?:[.,]\d+)?)(?![\w])(?:\.?[ºª°])?")
ISO_DATE = re.compile(r"(?<!\d)(\d{4}-\d{2}-\d{2})(?:T\d{2}:\d{2}(?::\d{2})?Z?)?")
DOTTED = re.compile(r"(?<![\w.])(?!\d{1,3}(?:\.\d{3})+(?![\d.]))\d+(?:\.\d+){2,}")
"""Section numbers such as ``4.1.2`` are identifiers, not quantities (``2.000.000`` is a number)."""
WORDISH = re.compile(r"\w+|%")
PER_UNIT = re.compile(
    r"\b(?:vez|vezes|veces|once|twice|times)\s+"
    r"((?:al|ao|por|cada|no|en\s+el)\s+(?:año|ano|mes|mês|día|dia|semana)|(?:a|per|each)\s+(?:year|month|week|day))(?!\w)",
    re.IGNORECASE,
)
"""The period of a frequency with its ``one`` unsaid (``una vez al año``, ``uma vez por ano``, ``once
a year``): one of that unit, which ``seis meses`` is not. (``8 horas por dia`` is a rate, not read.)"""
MULTIPLES = {"dobro": 2, "triplo": 3, "quádruplo": 4, "quíntuplo": 5, "doble": 2, "triple": 3, "cuádruple": 4,
             "quíntuple": 5}
MULTIPLE = re.compile(r"(?<!\w)(?:o|ao|do|em|el|al|del)\s+(" + "|".join(MULTIPLES) + r")(?!\w)", re.IGNORECASE)
"""A multiple after its article (``o dobro``, ``em dobro``, ``el triple``): ``doble nacionalidad`` is no number."""
FRACTION_UNITS = frozenset({"third", "fifth"})
DENOMINATORS = {"third": 3, "fifth": 5}
"""Fractions compare as one unit: ``um terço`` is 1/3, ``dos tercios`` 2/3, ``metade`` 1/2."""
HALF = re.compile(r"(?<!\w)(?:metade|mitad|half)(?!\w)", re.IGNORECASE)
"""Units a lone ``um``/``una``/``dos`` counts before (``um terço``, ``dos tercios``), though it is no
number before a noun (``dos deputados`` is "of the deputies")."""


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number found in a text: ``surface == text[start:end]``, ``unit`` canonical or None."""

    value: float
    unit: str | None
    surface: str
    start: int
    end: int

    @property
    def seconds(self) -> float | None:
        return self.value * SECONDS[self.unit] if self.unit in SECONDS else None


def _digit_value(s: str) -> float:
    """``86,400`` / ``86.400`` / ``86 400`` -> 86400; ``1,5`` / ``1.5`` -> 1.5."""
    if re.fullmatch(r"\d{1,3}(?:[.,\u00a0 ]\d{3})+", s):
        return float(re.sub(r"\D", "", s))
    return float(s.replace(",", "."))


def _words_value(words: list[str]) -> int:
    """The value of a run of number words: the largest multiplier splits it into how many of it
    (the words before, 1 when none) and the rest (``dos mil millones`` = (dos mil) x 10^6,
    ``one million two hundred thousand`` = 1 x 10^6 + (two hundred) x 10^3)."""
    if not words:
        return 0
    top = max(range(len(words)), key=lambda k: (MULTIPLIERS.get(words[k], 0), -k))
    m = MULTIPLIERS.get(words[top], 0)
    if not m:
        return sum(NUMBER_WORDS[w] for w in words)
    return max(_words_value(words[:top]), 1) * m + _words_value(words[top + 1 :])


def _joins(last: str, nxt: str) -> bool:
    """Whether ``last e nxt`` is one number: a multiplier, or a smaller part after a larger one
    (``vinte e um``, ``cento e vinte``, ``mil e quinhentos``); ``treinta y sesenta`` is two."""
    if nxt in MULTIPLIERS:
        return True
    if nxt not in NUMBER_WORDS:
        return False
    if last in MULTIPLIERS:
        return True
    a, b = NUMBER_WORDS.get(last, 0), NUMBER_WORDS[nxt]
    return b < a and len(str(b)) < len(str(a))


def _unit_after(text: str, end: int) -> tuple[str | None, int]:
    """The canonical unit right after ``end`` (skipping one space or hyphen) and its end."""
    m = re.match(r"[\s\-]{0,2}(%|\w+(?:\s+(?:cento|ciento))?)", text[end:])
    if not m:
        return None, end
    word = m.group(1).casefold().replace(" ", "_")
    word = re.sub(r"_+", "_", word)
    if word in UNITS:
        return UNITS[word], end + m.end()
    first = word.split("_")[0]
    if first in UNITS:
        return UNITS[first], end + m.start(1) + len(first)
    return None, end


def quantities(text: str) -> list[Quantity]:
    """Numbers (digits or words) and month names of ``text``, each with its unit, in order."""
    found: list[Quantity] = []
    taken: list[tuple[int, int]] = []
    for m in ISO_DATE.finditer(text):
        found.append(Quantity(float(re.sub(r"\D", "", m.group(1))), "date", m.group(), m.start(), m.end()))
        taken.append((m.start(), m.end()))
    dotted = [(m.start(), m.end()) for m in DOTTED.finditer(text)]
    for m in DIGITS.finditer(text):
        if any(s <= m.start() < e for s, e in dotted + taken):
            continue
        unit, end = _unit_after(text, m.end())
        found.append(Quantity(_digit_value(m.group(1)), unit, text[m.start() : end], m.start(), end))
        taken.append((m.start(), end))
    # the pre-2009 Portuguese spelling "cinqüenta" is "cinquenta"
    words = [(w.group().casefold().replace("ü", "u"), w.start(), w.end()) for w in WORDISH.finditer(text)]
    i = 0
    while i < len(words):
        run: list[int] = []
        j = i
        while j < len(words):
            w = words[j][0]
            if w in NUMBER_WORDS or w in MULTIPLIERS:
                run.append(j)
                j += 1
            elif (
                w in CONNECTORS
                and run
                and j + 1 < len(words)
                and _joins(words[run[-1]][0], words[j + 1][0])
            ):
                j += 1
            else:
                break
        # English hyphenated tens ("forty-eight") arrive as two consecutive words.
        if run:
            start, end = words[run[0]][1], words[run[-1]][2]
            ws = [words[k][0] for k in run]
            unit, uend = _unit_after(text, end)
            lone_ambiguous = len(ws) == 1 and ws[0] in AMBIGUOUS
            counted = not (lone_ambiguous and unit not in PERIOD_UNITS | FRACTION_UNITS)
            if counted and not any(s < end and start < e for s, e in taken):
                found.append(Quantity(float(_words_value(ws)), unit, text[start:uend], start, uend))
            i = j if j > i else i + 1
            continue
        w, s, e = words[i]
        if w in MONTHS and not (w == "may" and not _month_context(text, s, e)):
            found.append(Quantity(float(MONTHS[w]), "month_name", text[s:e], s, e))
        i += 1
    for m in PER_UNIT.finditer(text):
        unit, _ = _unit_after(text, m.end(1) - len(m.group(1).split()[-1]))
        found.append(Quantity(1.0, unit, m.group(1), m.start(1), m.end(1)))
    for m in HALF.finditer(text):
        found.append(Quantity(0.5, "fraction", m.group(), m.start(), m.end()))
    found = [
        Quantity(q.value / DENOMINATORS[q.unit], "fraction", q.surface, q.start, q.end) if q.unit in DENOMINATORS else q
        for q in found
    ]
    for m in MULTIPLE.finditer(text):
        found.append(Quantity(float(MULTIPLES[m.group(1).casefold()]), "times", m.group(1), m.start(1), m.end(1)))
    found.sort(key=lambda q: q.start)
    return found


def _month_context(text: str, start: int, end: int) -> bool:
    """English ``May`` is a month only when capitalised next to a number (``May 2015``)."""
    return text[start].isupper() and bool(re.match(r"\s+\d", text[end:]) or re.search(r"\d\s+$", text[:start]))


def same_quantity(a: Quantity, b: Quantity) -> bool:
    """Equal values with compatible units, or equal durations (``72 horas`` = ``3 días``)."""
    if a.seconds is not None and b.seconds is not None:
        return abs(a.seconds - b.seconds) < 1e-9
    if (a.unit == "month_name") != (b.unit == "month_name"):
        return False
    if a.unit and b.unit and a.unit != b.unit:
        return False
    return a.value == b.value


def comparable(a: Quantity, b: Quantity) -> bool:
    """Two quantities that talk about the same kind of thing (same unit, or both periods)."""
    if a.seconds is not None and b.seconds is not None:
        return True
    return a.unit is not None and a.unit == b.unit

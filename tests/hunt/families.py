"""The edit families: a real passage -> its near-miss (or typography-only) variants."""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable, Iterator

import regex

from ipsis.document import Document
from ipsis.lexicon import CONDITIONS, LIMITERS, NEGATORS
from tests.hunt.core import _ROMAN, _WORD, MISS, NEG, NEG_ADD, SAME, _vocabulary

# --- families: passage -> variants -------------------------------------------------------------

Family = Callable[[str, str, random.Random, Document], Iterator[str]]


def _at(p: str, m: regex.Match[str], new: str) -> str:
    return p[: m.start()] + new + p[m.end() :]


def digit_changed(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    for m in regex.finditer(r"\d", p):
        yield _at(p, m, str((int(m.group()) + rng.randint(1, 8)) % 10))


def digit_added(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    for m in regex.finditer(r"\d+", p):
        yield _at(p, m, m.group() + "0")


def digit_removed(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    for m in regex.finditer(r"\d{2,}", p):
        yield _at(p, m, m.group()[1:])


def separators(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    for m in regex.finditer(r"\d{1,3}(?:[.,  ]\d{3})+|\d+[.,]\d+|\d{4,}", p):
        g = m.group()
        if regex.fullmatch(r"\d{4,}", g):
            yield _at(p, m, regex.sub(r"(?<=\d)(?=(?:\d{3})+$)", ".", g))
            continue
        yield _at(p, m, regex.sub(r"[.,  ]", "", g))
        yield _at(p, m, g.translate(str.maketrans({".": ",", ",": "."})))
        yield _at(p, m, regex.sub(r"[.,]", " ", g))


def negation_dropped(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    for m in regex.finditer(rf"\b(?:{NEG[lang]})\b\s+", p, regex.I):
        yield _at(p, m, "")


def negation_added(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    pat, fmt = NEG_ADD[lang]
    for m in regex.finditer(rf"\b(?:{pat})\b", p):
        if not regex.search(rf"\b(?:{NEG[lang]})\s*$", p[: m.start()], regex.I):
            yield _at(p, m, fmt.format(m.group()))


def roman(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    for m in regex.finditer(r"\b(?:X{0,1}(?:IX|IV|V?I{0,3}))\b", p):
        if m.group() in _ROMAN:
            i = _ROMAN.index(m.group())
            yield _at(p, m, _ROMAN[(i + 1) % len(_ROMAN)])


def ordinal(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    for m in regex.finditer(r"(?<=\d)(?:\.?[ºª°]|o(?!\w))", p):
        for new in ("", "o", "a", "°", ".º", "º", "ª", ".o"):
            if new != m.group():
                yield _at(p, m, new)


def _bare(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def _neighbours(word: str, vocab: frozenset[str]) -> Iterator[str]:
    letters = "abcdefghijklmnopqrstuvwxyzáéíóúâêôãõçñü"
    for i in range(len(word)):
        for c in letters:
            if c != word[i]:
                w = word[:i] + c + word[i + 1 :]
                if w in vocab and _bare(w) != _bare(word):  # an accent alone is the accents family
                    yield w
    for pre in ("in", "des", "i", "un", "im", "ir", "dis", "non"):
        if word.startswith(pre) and word[len(pre) :] in vocab:
            yield word[len(pre) :]
        if pre + word in vocab:
            yield pre + word


def letter_word(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """One letter (or a negative prefix) that makes another word of the same document."""
    vocab = _vocabulary(doc)
    for m in _WORD.finditer(p):
        if len(m.group()) >= 3:
            for w in _neighbours(m.group(), vocab):
                yield _at(p, m, w)


_MODAL = {
    "pt": {"deve": "pode", "deverá": "poderá", "pode": "deve", "poderá": "deverá", "devem": "podem", "podem": "devem"},
    "es": {"debe": "puede", "deberá": "podrá", "puede": "debe", "podrá": "deberá", "deben": "pueden"},
    "en": {"MUST": "MAY", "MAY": "MUST", "SHOULD": "MUST", "may": "must", "must": "may", "shall": "may"},
}


def modal(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    for m in _WORD.finditer(p):
        if m.group() in _MODAL[lang]:
            yield _at(p, m, _MODAL[lang][m.group()])


def hyphen(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """``não-residente`` written ``não residente``, and two words joined by a hyphen."""
    for m in regex.finditer(r"(?<=\p{L})-(?=\p{L})", p):
        yield _at(p, m, " ")
    for m in regex.finditer(r"(?<=\p{L}{3}) (?=\p{L}{3})", p):
        yield _at(p, m, "-")


_PREFIXES = ("re", "co", "pre", "pro", "anti", "sub", "semi", "auto", "inter", "contra", "multi", "non", "pré", "pós")


def hyphen_joined(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """``não-residente`` written ``nãoresidente``, ``re-cover`` written ``recover``."""
    for m in regex.finditer(r"(?<=\p{L})-(?=\p{L})", p):
        yield _at(p, m, "")


def hyphen_inserted(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """``recover`` written ``re-cover``, ``preexisting`` written ``pre-existing``."""
    for m in regex.finditer(r"\b\p{Ll}{6,}\b", p):
        w = m.group()
        for pre in _PREFIXES:
            if w.startswith(pre) and len(w) - len(pre) >= 4:
                yield _at(p, m, pre + "-" + w[len(pre) :])


def word_dropped(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    words = list(regex.finditer(r"(?<= )\S*[\p{L}\d]\S* ", p))  # a word, not a lone dash or speck
    for m in words[1:-1]:
        yield _at(p, m, "")


def word_added(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    extra = {"pt": ("todos", "apenas", "sempre"), "es": ("todos", "solo", "siempre"), "en": ("all", "only", "always")}
    spaces = [m for m in regex.finditer(r"(?<=\p{L}) (?=\p{L})", p)]
    for m in spaces[1:-1]:
        yield _at(p, m, f" {rng.choice(extra[lang])} ")


def accents(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """One accent taken off, put on or changed (``é``/``e``, ``está``/``esta``, ``más``/``mas``)."""
    strip = str.maketrans("áéíóúâêôãõàüñç", "aeiouaeoaoaunc")
    put = {"e": "é", "a": "á", "o": "ó", "i": "í", "u": "ú"}
    for m in regex.finditer(r"[áéíóúâêôãõàü]", p):
        yield _at(p, m, m.group().translate(strip))
    for m in regex.finditer(r"\b(?:e|esta|si|mas|el|tu|se|de|mi|a|o|te)\b", p):
        w = m.group()
        i = max(j for j, c in enumerate(w) if c in put)
        yield _at(p, m, w[:i] + put[w[i]] + w[i + 1 :])


def case(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    for m in regex.finditer(r"(?<=\s)\p{L}", p):
        c = m.group()
        yield _at(p, m, c.lower() if c.isupper() else c.upper())


def punctuation(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    swap = {";": ",", ",": ";", ":": ",", "(": "", ")": ""}
    for m in regex.finditer(r"[;,:()](?=.)", p):
        yield _at(p, m, swap[m.group()])


def comma_dropped(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    for m in regex.finditer(r",(?= )", p):
        yield _at(p, m, "")


def elision_hides_negation(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    for m in regex.finditer(rf"(?<=.{{15}}) (?:{NEG[lang]})\b(?=.{{15}})", p, regex.I):
        for mark in (" [...]", " …", " (...)"):
            yield _at(p, m, mark)


def quote_marks(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """Typography only: straight/curly quote marks, guillemets, and wrapping quote marks."""
    if '"' in p:
        parts = p.split('"')
        yield "".join(x + ("\u201c" if i % 2 == 0 else "\u201d") for i, x in enumerate(parts[:-1])) + parts[-1]
        yield "".join(x + ("\u00ab" if i % 2 == 0 else "\u00bb") for i, x in enumerate(parts[:-1])) + parts[-1]
    for a, b in (("\u201c", '"'), ("\u201d", '"'), ("\u2019", "'"), ("'", "\u2019"), ("\u00ab", '"'), ("\u00bb", '"')):
        if a in p:
            yield p.replace(a, b)
    yield f"\u201c{p}\u201d"
    yield f"«{p}»"


def dashes(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    for a, b in ((" - ", " \u2013 "), (" \u2013 ", " - "), (" \u2014 ", " - "), (" - ", " \u2014 "), ("\u2212", "-")):
        if a in p:
            yield p.replace(a, b, 1)


_HIDES = {
    lang: "|".join(
        [
            *NEGATORS[lang],
            *(regex.escape(w) for w in (*LIMITERS[lang], *CONDITIONS[lang])),
            "sin",
            "sem",
            "si",
            "se",
            "caso",
        ]
    )
    for lang in ("pt", "es", "en")
}
"""What an elision must not hide (DESIGN.md's negations and limiters, the conditions)."""


def elision_plain(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """An elision of words holding no negation, limiter or number (DESIGN: located, elided)."""
    words = list(regex.finditer(r"(?<= )\p{Ll}+(?= )", p))
    if len(words) >= 8:
        a, b = words[3], words[4]
        gap = p[a.start() : b.end()]
        if not regex.search(rf"\b(?:{_HIDES[lang]})\b|\d", gap, regex.I):
            yield p[: a.start()].rstrip() + " [...] " + p[b.end() :].lstrip()


FAMILIES: dict[str, tuple[str, Family]] = {
    "digit_changed": (MISS, digit_changed),
    "digit_added": (MISS, digit_added),
    "digit_removed": (MISS, digit_removed),
    "separators": (MISS, separators),
    "negation_dropped": (MISS, negation_dropped),
    "negation_added": (MISS, negation_added),
    "roman": (MISS, roman),
    "ordinal": (MISS, ordinal),
    "letter_word": (MISS, letter_word),
    "modal": (MISS, modal),
    "hyphen": (MISS, hyphen),
    "hyphen_joined": (MISS, hyphen_joined),
    "hyphen_inserted": (MISS, hyphen_inserted),
    "word_dropped": (MISS, word_dropped),
    "word_added": (MISS, word_added),
    "accents": (MISS, accents),
    "case": (MISS, case),
    "punctuation": (MISS, punctuation),
    "comma_dropped": (MISS, comma_dropped),
    "elision_hides_negation": (MISS, elision_hides_negation),
    "quote_marks": (SAME, quote_marks),
    "dashes": (SAME, dashes),
    "elision_plain": (SAME, elision_plain),
}
"""Per family: what DESIGN.md requires (``miss`` never located; ``same`` located at the span)."""

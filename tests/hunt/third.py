"""The third hunt's families: roles swapped across a verb, a list item dropped or elided,
numbers grouped another way, percent spacing, ordinals in words, a cross-reference's number
changed, a note merged into the text, a whole word in another case.

Edit families are in :data:`THIRD`; the ones that need a policy or a document's marks are built
by :func:`third_structural`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import regex

from ipsis.document import Document
from ipsis.verify.policy import Policy
from tests.hunt.core import LOSSY, LOSSY_FOUND, MISS, SAME, Case, _flat, _flat_text
from tests.hunt.families import _HIDES, Family, _at, ordinal

_DET = {"pt": r"o|a|os|as", "es": r"el|la|los|las", "en": r"the"}
_TO = {"pt": r"o|a|os|as|ao|à|aos|às", "es": r"el|la|los|las|al", "en": r"the|to the"}


def roles_swapped(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """Subject and object swapped across a verb (``o controlador informará o titular`` ->
    ``o titular informará o controlador``, ``the client sends the server``)."""
    pat = rf"\b(?:{_DET[lang]}) (\p{{L}}{{4,}}) ((?:\p{{L}}+ ){{1,2}}?)(?:{_TO[lang]}) (\p{{L}}{{4,}})\b"
    for m in regex.finditer(pat, p):
        a, b = m.group(1), m.group(3)
        if a.casefold() != b.casefold():
            yield p[: m.start(1)] + b + p[m.end(1) : m.start(3)] + a + p[m.end(3) :]


_CONJ = {"pt": r"e|ou", "es": r"y|e|o|u", "en": r"and|or"}


def _items(p: str, lang: str) -> Iterator[regex.Match[str]]:
    """The items of an enumeration before its last ``e``/``ou``/``and`` (``a, b e c``: ``b``)."""
    yield from regex.finditer(rf"(?<=\p{{L}}), ([^,;:.()\[\]\d]{{3,50}}?)(?=,? (?:{_CONJ[lang]}) \p{{L}})", p)


def list_item_dropped(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """``a, b e c`` quoted ``a e c``: an item of an enumeration left out without a mark."""
    for m in _items(p, lang):
        yield p[: m.start()] + p[m.end(1) :].removeprefix(",")


def list_item_elided(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """``a, b e c`` quoted ``a, [...] e c``: the omission is marked; the item holds no negation,
    limiter, condition or number (those elisions are refused), so it is located, elided."""
    for m in _items(p, lang):
        if not regex.search(rf"\b(?:{_HIDES[lang]})\b|\d", m.group(1), regex.I) and len(p[: m.start()]) >= 20:
            yield p[: m.start(1)] + "[...]" + p[m.end(1) :]


def grouping(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """A number's grouping or decimal separator written another way (``1.000`` -> ``1,000``,
    ``1 000``, ``1000``; ``1000`` -> ``1 000``; ``10,5`` -> ``10.5``): the value changes in
    another locale (``1.000`` is one in English), so none is typography."""
    for m in regex.finditer(r"(?<![\d.,])\d{1,3}(?:[.,\u00a0\u202f ]\d{3})+(?![\d]|[.,]\d)", p):
        g = m.group()
        for sep in (".", ",", " ", "\u00a0", "\u202f", ""):
            new = regex.sub(r"[.,\u00a0\u202f ]", sep, g)
            if new != g and regex.sub(r"[\u00a0\u202f ]", " ", new) != regex.sub(r"[\u00a0\u202f ]", " ", g):
                yield _at(p, m, new)
    for m in regex.finditer(r"(?<![\d.,])\d{4,6}(?![\d]|[.,]\d)", p):
        if not 1900 <= int(m.group()) <= 2100:  # a year is never grouped
            yield _at(p, m, regex.sub(r"(?<=\d)(?=(?:\d{3})+$)", "\u00a0", m.group()))
    for m in regex.finditer(r"(?<![\d.,])\d+([.,])\d{1,2}(?![\d]|[.,]\d)", p):
        yield p[: m.start(1)] + ("." if m.group(1) == "," else ",") + p[m.end(1) :]


def grouping_spaces(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """A number grouped by a space quoted with another space (``1 000`` / NBSP / thin space):
    typography, located at the passage's span."""
    for m in regex.finditer(r"(?<=\d)[\u00a0\u202f\u2009 ](?=\d{3}\b)", p):
        for sp in (" ", "\u00a0", "\u202f"):
            if sp != m.group():
                yield _at(p, m, sp)


_PERCENT_WORDS = {"pt": "por cento", "es": "por ciento", "en": "percent"}


def percent_words(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """``10%`` written ``10 por cento``: words for a sign, not typography."""
    for m in regex.finditer(r"(?<=\d)\s?%", p):
        yield _at(p, m, " " + _PERCENT_WORDS[lang])


def percent_spacing(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """``10%`` written ``10 %`` (or with a no-break space), and back: spacing only."""
    for m in regex.finditer(r"(?<=\d)(\s?)%", p):
        for new in (" %", "\u00a0%", "%"):
            if new != m.group():
                yield _at(p, m, new)


_ORDINAL_WORDS = {
    "pt": ("primeiro", "segundo", "terceiro", "quarto", "quinto", "sexto", "sétimo", "oitavo", "nono", "décimo"),
    "es": ("primero", "segundo", "tercero", "cuarto", "quinto", "sexto", "séptimo", "octavo", "noveno", "décimo"),
    "en": ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"),
}


def ordinal_words(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """An ordinal in words for its number (``1º`` -> ``primeiro``, ``1.º`` -> ``primero``,
    ``1st`` -> ``first``) and back: not typography, not the ``ordinals`` tier."""
    words = _ORDINAL_WORDS[lang]
    for m in regex.finditer(r"(?<![\d.,])(\d{1,2})(?:\.?[ºª°]|o\b|st\b|nd\b|rd\b|th\b)", p):
        n = int(m.group(1))
        if 1 <= n <= 10:
            yield _at(p, m, words[n - 1])
    for m in regex.finditer(rf"\b(?:{'|'.join(words)})\b", p, regex.I):
        n = [w.casefold() for w in words].index(m.group().casefold()) + 1
        yield _at(p, m, {"pt": f"{n}º", "es": f"{n}.º", "en": f"{n}th"}[lang])


_REF = (
    r"(?:\b(?:art|arts|Art|Arts)\.|\b(?:artigo|Artigo|artículo|Artículo|Section|Sections|section|"
    r"Sección|sección|inciso|alínea|apartado|Appendix|número|n\.º)|§{1,2})\s?"
)


def xref_changed(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """A cross-reference inside the quote pointing elsewhere (``art. 5º`` -> ``art. 6º``,
    ``Section 4.1`` -> ``4.2``, ``4.1`` -> ``4`` or ``4.1.1``, ``Appendix A`` -> ``B``)."""
    for m in regex.finditer(rf"{_REF}(\d+(?:\.\d+)*|[A-Z](?:\.\d+)*)", p):
        num = m.group(1)
        s, e = m.start(1), m.end(1)
        head, _, last = num.rpartition(".")
        bumped = str(int(last) + 1) if last.isdigit() else chr(ord(last) + 1) if last < "Z" else "A"
        yield p[:s] + (f"{head}." if head else "") + bumped + p[e:]
        if head:
            yield p[:s] + head + p[e:]
        if p[e : e + 1] not in ("º", "°", "ª", "-") and not p[e : e + 2].startswith(".º"):
            yield p[:s] + num + ".1" + p[e:]


def _whole_case(p: str, lang: str) -> Iterator[str]:
    for m in regex.finditer(r"\b\p{Lu}{2,}\b", p):  # MUST, SHALL, JWT, LGPD
        yield _at(p, m, m.group().lower())
        yield _at(p, m, m.group().title())
    for m in regex.finditer(r"(?<=\p{L}\p{P}? )\p{Lu}\p{Ll}{2,}\b", p):  # Lei, Estado, Union inside a sentence
        yield _at(p, m, m.group().lower())
        yield _at(p, m, m.group().upper())


def word_case(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """A whole word in another case where case may change meaning (``MUST`` -> ``must``, an
    acronym, ``Lei``/``Estado`` -> ``lei``/``estado``): the lossy ``case`` tier, never plain."""
    yield from _whole_case(p, lang)


THIRD: dict[str, tuple[str, Family]] = {
    "roles_swapped": (MISS, roles_swapped),
    "list_item_dropped": (MISS, list_item_dropped),
    "list_item_elided": (SAME, list_item_elided),
    "grouping": (MISS, grouping),
    "grouping_spaces": (SAME, grouping_spaces),
    "ordinal_words": (MISS, ordinal_words),
    "xref_changed": (MISS, xref_changed),
    "word_case": (MISS, word_case),
}


def _note_merged(doc: Document, lang: str, spans: list[tuple[int, int]], rng: random.Random) -> Iterator[Case]:
    """A note or footnote of the document (``(Redação dada pela Lei …)``, a BOE ``nota_pie``)
    merged into another passage of the text, at a word boundary: never text of the source."""
    notes = [m for m in doc.marks if m.kind == "note" and 15 <= m.end - m.start <= 200]
    if not notes:
        return
    for s, e in spans:
        note = rng.choice(notes)
        p = doc.text[s:e]
        cuts = [m.start() for m in regex.finditer(r"(?<=\p{L}) (?=\p{L})", p)]
        if len(cuts) < 4:
            continue
        at = cuts[len(cuts) // 2]
        body = " ".join(doc.text[note.start : note.end].split())
        yield Case("note_merged", MISS, lang, doc, (s, e), f"{p[:at]} {body} {p[at + 1 :]}")


def masculine_sign(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """A masculine ordinal's sign written another way or left out (``6º`` -> ``6°``, ``6o``,
    ``6.º``, ``6.o``, ``6``): the ``ordinals`` tier's own variants."""
    for m in regex.finditer(r"(?<=\d)(?:\.?[º°]|\.?o(?!\w))", p):
        for new in ("º", "°", "o", ".º", ".o", ""):
            if new != m.group():
                yield _at(p, m, new)


def _lossy_tiers(doc: Document, lang: str, spans: list[tuple[int, int]], rng: random.Random) -> Iterator[Case]:
    """An ordinal marker changed under a policy accepting ``ordinals``, a whole word's case under
    one accepting ``case``: located only with the lossy tier and its steps named."""
    for s, e in spans:
        p = doc.text[s:e]
        for name, family, tier, expect in (
            ("lossy_ordinals", ordinal, "ordinals", LOSSY),
            ("lossy_case", word_case, "case", LOSSY),
            ("ordinal_sign_folded", masculine_sign, "ordinals", LOSSY_FOUND),
        ):
            vs = [v for v in family(p, lang, rng, doc) if v != p]
            if vs:
                yield Case(name, expect, lang, doc, (s, e), rng.choice(vs), policy=Policy(max_tier=tier))


_CLAUSE_END = regex.compile(r"[.;:](?=\s)|\n")


def _percent(doc: Document, lang: str, rng: random.Random) -> Iterator[Case]:
    """The percent families on the sentences that hold a percent sign (few of the sampled
    passages do): its spacing (``same``) and the sign in words (``miss``)."""
    text, flat = doc.text, _flat_text(doc)
    for m in regex.finditer(r"\d\s?%", text):
        before = list(_CLAUSE_END.finditer(text, max(0, m.start() - 300), m.start()))
        s = before[-1].end() if before else max(0, m.start() - 300)
        after = _CLAUSE_END.search(text, m.end())
        e = after.start() if after else len(text)
        while s < e and text[s].isspace():
            s += 1
        e = s + len(text[s:e].rstrip())
        p = text[s:e]
        if not 40 <= len(p) <= 300 or flat.count(_flat(p)) != 1:
            continue
        for name, expect, family in (
            ("percent_spacing", SAME, percent_spacing),
            ("percent_words", MISS, percent_words),
        ):
            vs = [v for v in family(p, lang, rng, doc) if v != p]
            if vs:
                yield Case(name, expect, lang, doc, (s, e), rng.choice(vs))


def _cut_snippets(doc: Document, lang: str, spans: list[tuple[int, int]], rng: random.Random) -> Iterator[Case]:
    """A passage cut inside its last word with ``...``, as search tools cut snippets (``same``:
    located up to the last whole word); and the cut letters of another word (``miss``)."""
    text = doc.text
    for s, e in spans:
        p = text[s:e]
        words = list(regex.finditer(r"(?<=\s)\p{L}{5,}(?=[\s,;.]|$)", p))
        if len(words) < 3:
            continue
        w = words[-2]
        keep = p[: w.start()].rstrip()
        if len(keep) < 30 or not regex.search(r"[\p{L}\d.,;:)]$", keep):
            continue
        cut = w.group()[: rng.randint(1, len(w.group()) - 2)]
        yield Case("cut_word", SAME, lang, doc, (s, s + len(keep)), f"{keep} {cut}...")
        other = "x" + cut[1:] if not cut.startswith("x") else "q" + cut[1:]
        yield Case("cut_word_other", MISS, lang, doc, (s, s + len(keep)), f"{keep} {other}...")


def third_structural(doc: Document, lang: str, spans: list[tuple[int, int]], rng: random.Random, n: int) -> list[Case]:
    out = list(_note_merged(doc, lang, spans, rng))[:n]
    snippets = list(_cut_snippets(doc, lang, spans, rng))
    for fam in ("cut_word", "cut_word_other"):
        out += [c for c in snippets if c.family == fam][:n]
    percent = list(_percent(doc, lang, rng))
    for fam in ("percent_spacing", "percent_words"):
        out += [c for c in percent if c.family == fam][:n]
    lossy = list(_lossy_tiers(doc, lang, spans, rng))
    for fam in ("lossy_ordinals", "lossy_case", "ordinal_sign_folded"):
        out += [c for c in lossy if c.family == fam][:n]
    return out

"""Lists and ranges of cited subdivisions, as norms and people write them (pure): `incisos II e
V do caput do art. 3º`, `incisos I a IV`, `alíneas a), b) e c) do n.º 2`, `alíneas d) a f)`,
`letras g), h) e i) del artículo 9`, `apartados 2 y 3 del artículo 28`, `números 1º ó 2º del
artículo 10`, `fracciones I a IV`, `§§ 1º e 2º`, `artículos 5 a 7`.

:func:`expand_list` turns such a reference into one reference per item (the rest of the words
unchanged), so the one reference reader (:mod:`ipsis.sections.refs`) reads each; before, only
the first item was read and the others were dropped without a word (a quote of the second item
was reported not found in the cited section).

>>> expand_list("incisos II e V do caput do art. 3º")
['inciso II do caput do art. 3º', 'inciso V do caput do art. 3º']
>>> expand_list("alíneas d) a f) do artigo 2.º")
['alínea d) do artigo 2.º', 'alínea e) do artigo 2.º', 'alínea f) do artigo 2.º']
>>> expand_list("artículo 5º, inciso segundo")
['artículo 5º, inciso segundo']
"""

from __future__ import annotations

import re
from itertools import pairwise

from ipsis.sections.patterns import int_to_roman, roman_to_int

# plural word -> the singular the reader takes
_WORDS = {
    "incisos": "inciso",
    "fracciones": "fracción",
    "fracciónes": "fracción",
    "alíneas": "alínea",
    "alineas": "alínea",
    "letras": "letra",
    "literales": "literal",
    "números": "número",
    "numeros": "número",
    "numerales": "numeral",
    "apartados": "apartado",
    "parágrafos": "parágrafo",
    "paragrafos": "parágrafo",
    "§§": "§",
    "n.os": "n.º",
    "n.ºs": "n.º",
    "nºs": "nº",
    "artículos": "artículo",
    "articulos": "artículo",
    "artigos": "artigo",
    "arts.": "art.",
}
_WORD_RX = r"(?i:incisos|fracci[óo]n(?:es)|al[íi]neas|letras|literales|n[úu]meros|numerales|apartados|par[áa]grafos"
_WORD_RX += r"|art[íi]culos|artigos|arts\.|n\.os|n\.?[º°]s)|§§"
_ROMAN = r"[IVXLC]{1,7}(?:-[A-ZÑ])?"
_NUMBER = r"\d{1,4}(?:\.?\s?[º°]|o\b)?(?:-[A-Z]\b)?\)?"
_LETTER = r"[\"“]?[a-z][\"”]?(?:\s?\))?"
_LABEL = r"(?:" + _ROMAN + r"|" + _NUMBER + r"|" + _LETTER + r")(?![\w\"“])"
# `, `, `, y `, ` e `, ` ó `, ` ou `; a range: ` a `, ` al `, ` a la `, ` hasta `, ` até `
_SEP = r"(?:\s*,\s*(?:(?:y|e|ó|o|ou)\s+)?|\s+(?:y|e|ó|o|ou|a(?:\s+la|l)?|hasta|at[ée])\s+)"
LIST = re.compile(r"(?<![\w§])(?P<word>" + _WORD_RX + r")\s*(?P<items>" + _LABEL + r"(?:" + _SEP + _LABEL + r")+)")
_ITEM = re.compile(r"(?P<sep>" + _SEP + r")?(?P<label>" + _LABEL + r")")
_RANGE = re.compile(r"\s*(?:a(?:\s+la|l)?|hasta|at[ée])\s*", re.I)


def _key(label: str) -> tuple[str, int, str] | None:
    """What a label counts in (roman, number, letter), its value, and how to write it back."""
    bare = label.strip('"“”) ').rstrip("º°o. ")
    if re.fullmatch(r"[IVXLC]+", bare) and roman_to_int(bare):
        return "roman", roman_to_int(bare) or 0, ""
    if bare.isdigit():
        return "number", int(bare), label[len(bare) :].strip()
    if re.fullmatch(r"[a-z]", bare):
        return "letter", ord(bare), ")" if ")" in label else ""
    return None


def _between(a: str, b: str) -> list[str] | None:
    """The labels strictly between ``a`` and ``b`` of a range (`I a IV`, `d) a f)`, `5 a 7`)."""
    ka, kb = _key(a), _key(b)
    if ka is None or kb is None or ka[0] != kb[0] or not ka[1] < kb[1] or kb[1] - ka[1] > 60:
        return None
    kind, tail = ka[0], kb[2]
    if kind == "roman":
        return [int_to_roman(n) for n in range(ka[1] + 1, kb[1])]
    if kind == "number":
        return [f"{n}{tail}" for n in range(ka[1] + 1, kb[1])]
    return [f"{chr(n)}{tail}" for n in range(ka[1] + 1, kb[1])]


# an article named in a reference (`art. 5º`, `artigo 52.º`, `artículo 19`): each one after the first
# starts a reference of its own in a compound one
_ARTICLE = re.compile(r"\b(?i:art(?:igo|ículo|iculo)?s?\.?)\s*\d+(?:\.?\s?[º°]|o\b)?(?:-[A-Z]\b)?")
# what joins two references: `, e `, ` e `, ` y `, `; `, ` and `
_JOIN = re.compile(r"\s*(?:;|,?\s+(?:e|y|and|ou|o|ó)\s+|,)\s*")
# what may follow an article's number inside its own reference: the norm it belongs to
_OWN_TAIL = re.compile(
    r"(?i)(?:\s*,?\s*(?:d[aoe]l?|de la)\s+(?:Constitui[çc][ãa]o|Constituci[óo]n|Lei|Ley|C[óo]digo)"
    r"(?:\s+(?!(?:e|y|ou|o|ó|and)\b)[^\s,;]+){0,8})?"
)


def split_compound(ref: str) -> list[str]:
    """A reference naming two articles cut into one reference per article, each with its own
    subdivisions: `incisos I e II do art. 5º e alíneas a) e b) do art. 7º` (article last: cut
    after each article but the last), `art. 5º, inciso I, e art. 7º, inciso III` (article first:
    cut before each article but the first). Before, the subdivisions of both were read against
    both articles (`inciso III do art. 7º` also read as art. 7's inciso I, a false "located").

    >>> split_compound("incisos I e II do art. 5º e alíneas a) e b) do art. 7º")
    ['incisos I e II do art. 5º', 'alíneas a) e b) do art. 7º']
    >>> split_compound("art. 5º, inciso I, e art. 7º, inciso III")
    ['art. 5º, inciso I', 'art. 7º, inciso III']
    >>> split_compound("artículos 5 y 7")
    ['artículos 5 y 7']
    """
    arts = list(_ARTICLE.finditer(ref))
    if len(arts) < 2:
        return [ref]
    cuts: list[tuple[int, int]] = []
    article_first = not ref[: arts[0].start()].strip()
    for a, b in pairwise(arts):
        tail = _OWN_TAIL.match(ref, a.end())
        at = tail.end() if tail else a.end()
        join = _JOIN.match(ref, at)
        if not article_first and join is not None and join.end() <= b.start():
            cuts.append((at, join.end()))  # article last: `… do art. 5º e alíneas … do art. 7º`
            continue
        joins = [j for j in _JOIN.finditer(ref, a.end(), b.start()) if j.end() == b.start()]
        if not joins:
            return [ref]  # `§ 1º do art. 5º do art. 7º`: no join between the two
        cuts.append((joins[-1].start(), joins[-1].end()))
    parts, pos = [], 0
    for end, nxt in cuts:
        parts.append(ref[pos:end].strip(" ,;"))
        pos = nxt
    parts.append(ref[pos:].strip(" ,;"))
    return [p for p in parts if p]


def expand_list(ref: str) -> list[str]:
    """One reference per item of the first list or range in ``ref``, and per article of a
    compound reference (:func:`split_compound`); ``[ref]`` when it has neither."""
    parts = split_compound(ref)
    if len(parts) > 1:
        return [x for p in parts for x in expand_list(p)][:MAX_ITEMS]
    m = LIST.search(ref)
    if m is None:
        return [ref]
    word = m.group("word")
    singular = _WORDS.get(word.lower().replace("°", "º"), word)
    labels: list[str] = []
    for it in _ITEM.finditer(m.group("items")):
        label = it.group("label").strip()
        if it.group("sep") and _RANGE.fullmatch(it.group("sep")) and labels:
            inner = _between(labels[-1], label)
            if inner is None:  # `a` between labels of two kinds: not a range
                return [ref]
            labels += inner
        labels.append(label)
    if len({k[0] for k in map(_key, labels) if k is not None}) > 1:
        return [ref]  # items of two kinds (`incisos I e a)`): no list the reader can take apart
    head, tail = ref[: m.start()], ref[m.end() :]
    out = [f"{head}{singular} {label.strip(_QUOTES)}{tail}" for label in dict.fromkeys(labels)]
    return out[:MAX_ITEMS]


MAX_ITEMS = 60
"""Items of one list read at most (`incisos I a LX`); the first list of a reference is expanded
here, a second one when each item is read (`alíneas a) e b) dos incisos XII e XIII`)."""
_QUOTES = '"“”'

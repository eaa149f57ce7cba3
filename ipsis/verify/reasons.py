"""Why a near miss is not the source: machine-readable reason flags with the words involved.

A near miss is compared word by word with the source's own words (:func:`word_diff`), and the
difference is classified (:func:`classify`). Hard refusal flags come first: ``number_changed``
(digits, number words, months, units, percentages, money), ``negation_changed``,
``limiter_dropped`` / ``limiter_changed``, ``modality_changed``; then ``ocr_noise`` (only known
OCR confusions), ``words_changed`` and ``punctuation_changed``. The negation, limiter and modal
word lists (pt, es, en) are shared with the support judge (:mod:`ipsis.lexicon`).

>>> q, s = tokens("O prazo é de 60 dias."), tokens("O prazo é de 30 dias.")
>>> [r["flag"] for r in classify(q, s)], classify(q, s)[0]["quote"], classify(q, s)[0]["source"]
(['number_changed'], ['60'], ['30'])
>>> [r["flag"] for r in classify(tokens("is required"), tokens("is not required"))]
['negation_changed']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from itertools import islice
from typing import Any, NamedTuple

from ipsis.ingest.normalize import normalize
from ipsis.language import detect_language
from ipsis.lazy import LazyPattern
from ipsis.lexicon import CONDITIONS, LIMITERS, MODAL_WORDS, NEGATORS

_TOKEN = LazyPattern("regex", r"\d+(?:[.,]\d+)*(?:\.?[ºª°])?%?|[\w]+(?:[ºª])?|[^\w\s]")


class Token(NamedTuple):
    """A word, a number or one punctuation sign, with its span in the text it came from."""

    text: str
    start: int
    end: int


def tokens(text: str) -> list[Token]:
    """Words, numbers (``13.709``, ``5º``, ``20%`` as one token) and punctuation signs.

    >>> [t.text for t in tokens("Lei nº 13.709, art. 5º: 20%")]
    ['Lei', 'nº', '13.709', ',', 'art', '.', '5º', ':', '20%']
    """
    return [Token(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def _words(*groups: str) -> frozenset[str]:
    return frozenset(w for g in groups for w in g.split())


NUMBER_WORDS = _words(
    # pt
    "zero dois duas três quatro cinco seis sete oito nove dez onze doze treze catorze quatorze"
    " quinze dezesseis dezasseis dezessete dezassete dezoito dezenove dezanove vinte trinta quarenta"
    " cinquenta sessenta setenta oitenta noventa cem cento duzentos trezentos quatrocentos quinhentos"
    " mil milhão milhões bilhão primeiro primeira segundo segunda terceiro terceira quarto quarta"
    " quinto quinta sexto décimo metade dobro triplo",
    # es
    "uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciséis"
    " veinte treinta cuarenta cincuenta sesenta setenta ochenta noventa cien ciento mil millón millones"
    " primero primera segundo segunda tercero tercera cuarto cuarta quinto quinta mitad",
    # en
    "one two three four five six seven eight nine ten eleven twelve thirteen fifteen twenty thirty"
    " forty fifty sixty seventy eighty ninety hundred thousand million billion first second third"
    " fourth fifth half twice double once",
)
MONTHS = _words(
    "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
    "enero febrero marzo mayo junio julio septiembre octubre noviembre diciembre",
    "january february march april june july august september october november december",
)
UNITS = _words(
    "dia dias mês meses ano anos hora horas minuto minutos segundos semana semanas",
    "día días año años mes meses horas semanas",
    "day days month months year years hour hours minute minutes second seconds week weeks",
    "% percent reais real euros euro dólares dollars dollar r$ us$ € $",
    "octets octet bytes byte bits bit seconds ms",
)
NEGATIONS = NEGATORS
"""Negation words per language (:data:`ipsis.lexicon.NEGATORS`)."""
MODALITY = MODAL_WORDS
HARD_FLAGS = ("number_changed", "negation_changed", "limiter_dropped", "limiter_changed", "modality_changed")


def guess_language(words: Iterable[str]) -> str:
    """``pt``, ``es`` or ``en`` of a word sequence (:func:`ipsis.language.detect_language`).

    >>> guess_language("o prazo é de trinta dias".split()), guess_language("the claim is not".split())
    ('pt', 'en')
    """
    return detect_language(" ".join(words))


def document_language(doc: Any, text: str) -> str:
    """The language of a document (cached on it), from a sample of its text: the quote alone
    is too short to tell ``no`` (es/en negation) from ``no`` (pt: "em o")."""
    key = ("language",)
    lang = doc.cache.get(key)
    if lang is None:
        mid = len(text) // 2
        sample = text[:20000] + " " + text[mid : mid + 20000]
        lang = guess_language(_TOKEN.findall(sample))  # the tokens' texts, without their spans
        doc.cache[key] = lang
    return str(lang)


def _is_number(w: str) -> bool:
    return w[0].isdigit() or w in NUMBER_WORDS or w in MONTHS or w in UNITS


def _phrases(words: Sequence[str], phrases: Iterable[str]) -> Counter[str]:
    """How many times each (one- or two-word) phrase occurs in ``words`` (casefolded)."""
    words = list(words)
    present = set(words)
    out = Counter[str]()
    for p in phrases:
        parts = _parts(p)
        if not present.issuperset(parts):
            continue  # most phrases: a word of theirs is not there at all
        n = len(parts)
        if n == 1:
            found = words.count(parts[0])
        else:
            first = parts[0]
            found = sum(1 for i in range(len(words) - n + 1) if words[i] == first and words[i : i + n] == parts)
        if found:
            out[p] += found
    return out


@lru_cache(maxsize=1024)
def _parts(phrase: str) -> list[str]:
    return phrase.split()


def _delta(q: Counter[str], s: Counter[str]) -> tuple[list[str], list[str]]:
    return sorted((q - s).elements()), sorted((s - q).elements())


def _ocr_equal(a: str, b: str) -> bool:
    # the ocr view reads speck punctuation as a space: two signs it blanks are not "equal"
    folded = _ocr_folded(a)
    return a != b and bool(folded) and folded == _ocr_folded(b)


@lru_cache(maxsize=4096)
def _ocr_folded(word: str) -> str:
    """A word's ocr view (words of near misses repeat: each is normalized once)."""
    return normalize(word, "ocr").text.strip()


def word_diff(quote: Sequence[Token], source: Sequence[Token]) -> Sequence[tuple[str, int, int, int, int]]:
    """difflib opcodes over the two token lists (words compared as written)."""
    import difflib  # only a not-found quote's diagnosis

    sm = difflib.SequenceMatcher(None, [t.text for t in quote], [t.text for t in source], autojunk=False)
    return sm.get_opcodes()


def classify(
    quote: Sequence[Token],
    source: Sequence[Token],
    lang: str | None = None,
    opcodes: Sequence[tuple[str, int, int, int, int]] | None = None,
) -> list[dict[str, Any]]:
    """Reason flags for the differences between the quote's tokens and the source's tokens
    (``opcodes``: their :func:`word_diff`, when the caller has it already)."""
    qw = [t.text.casefold() for t in quote]
    sw = [t.text.casefold() for t in source]
    lang = lang or guess_language(qw + sw)
    out: list[dict[str, Any]] = []

    def flag(name: str, q: list[str], s: list[str]) -> None:
        out.append({"flag": name, "quote": q, "source": s})

    explained: set[str] = set()
    nq, ns = _delta(Counter(w for w in qw if _is_number(w)), Counter(w for w in sw if _is_number(w)))
    if nq or ns:
        flag("number_changed", nq, ns)
        explained |= {*nq, *ns}
    neg = NEGATIONS[lang]
    gq, gs = _delta(Counter(w for w in qw if w in neg), Counter(w for w in sw if w in neg))
    if gq or gs:
        flag("negation_changed", gq, gs)
        explained |= {*gq, *gs}
    lq, ls = _delta(_phrases(qw, LIMITERS[lang]), _phrases(sw, LIMITERS[lang]))
    if ls and not lq:
        flag("limiter_dropped", [], ls)
    elif lq or ls:
        flag("limiter_changed", lq, ls)
    explained |= {w for p in lq + ls for w in p.split()}
    mq, ms = _delta(_phrases(qw, MODALITY[lang]), _phrases(sw, MODALITY[lang]))
    if mq or ms:
        flag("modality_changed", mq, ms)
        explained |= {*mq, *ms}

    ocr_q: list[str] = []
    ocr_s: list[str] = []
    rest_q: list[str] = []
    rest_s: list[str] = []
    punct_q: list[str] = []
    punct_s: list[str] = []
    for op, i1, i2, j1, j2 in word_diff(quote, source) if opcodes is None else opcodes:
        if op == "equal":
            continue
        a = [t.text for t in quote[i1:i2]]
        b = [t.text for t in source[j1:j2]]
        if op == "replace" and len(a) == len(b) and all(_ocr_equal(x, y) for x, y in zip(a, b, strict=True)):
            ocr_q += a
            ocr_s += b
            continue
        for words, rest, punct in ((a, rest_q, punct_q), (b, rest_s, punct_s)):
            for w in words:
                if not w[0].isalnum():
                    punct.append(w)
                elif w.casefold() not in explained:
                    rest.append(w)
    if ocr_q:
        flag("ocr_noise", ocr_q, ocr_s)
    if rest_q or rest_s:
        flag("words_changed", rest_q, rest_s)
    if (punct_q or punct_s) and not out:
        flag("punctuation_changed", punct_q, punct_s)
    return out


def starts_with_limiter(text: str, lang: str | None = None) -> str | None:
    """The limiter that opens ``text`` (after spaces and commas), if any.

    >>> starts_with_limiter(", salvo quando autorizado"), starts_with_limiter(" e outros")
    ('salvo', None)
    """
    # only the first words can open a limiter: as many as its longest has, not the whole text
    tops = (m.group() for m in _TOKEN.finditer(text[:80]))
    kept = (w for w in tops if w not in ",;:-–—(")
    first = next(kept, "").casefold()
    if first not in _first_words():
        return None  # most texts: no limiter begins with their first word
    words = [first, *(w.casefold() for w in islice(kept, _most_words() - 1))]
    langs = [lang] if lang else list(LIMITERS)
    for lg in langs:
        for p, parts in _longest_first(lg):
            if words[: len(parts)] == parts:
                return p
    return None


@cache
def _most_words() -> int:
    return max(len(p.split()) for ps in LIMITERS.values() for p in ps)


@cache
def _first_words() -> frozenset[str]:
    return frozenset(p.split()[0] for ps in LIMITERS.values() for p in ps)


@cache
def _longest_first(lang: str) -> tuple[tuple[str, list[str]], ...]:
    """The limiters of ``lang``, longest first, each with its words (sorted once, not per call)."""
    return tuple((p, p.split()) for p in sorted(LIMITERS[lang], key=len, reverse=True))


def has_negation_or_limiter(text: str, lang: str) -> list[str]:
    """Negation and limiter words in ``text`` (for elided text and omitted clauses).

    >>> has_negation_or_limiter("não se aplica, salvo", "pt")
    ['não', 'salvo']
    """
    words = [t.text.casefold() for t in tokens(text)]
    found = [w for w in words if w in NEGATIONS[lang]]
    found += sorted(_phrases(words, LIMITERS[lang]).elements())
    return found


def has_condition(text: str, lang: str) -> list[str]:
    """Condition phrases in ``text`` (:data:`ipsis.lexicon.CONDITIONS`: ``quando``, ``if``,
    ``en caso de``), and a clause opened by a bare ``se``/``caso``/``si`` (:data:`_OPENERS`).

    >>> has_condition(", si lo confirma", "es"), has_condition("lo confirma", "es"), has_condition("e, caso", "pt")
    (['si'], [], ['caso'])
    """
    words = [t.text.casefold() for t in tokens(text)]
    found = sorted(_phrases(words, CONDITIONS[lang]).elements())
    return found + [m.group(1).casefold() for m in _OPENERS[lang].finditer(text)] if lang in _OPENERS else found


_OPENERS = {
    "pt": LazyPattern("regex", r"(?:^\s|[,;(])\s*(se|caso)\b", flags=("I",)),
    "es": LazyPattern("regex", r"(?:^\s|[,;(]|\by\b)\s*(si)\b", flags=("I",)),
}
"""A conditional clause the judge's lexicon leaves out: ``se``/``caso``/``si`` opening a clause
(after a comma or a bracket, at a gap's start after a space, ``y si``; elsewhere ``se`` is
mostly a pronoun, ``caso`` a noun)."""

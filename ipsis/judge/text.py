"""Words for the judges: tokens with offsets, pt/es/en stopwords, a light stemmer, language guess.

Accents are kept (``é`` is not ``e``: ``é vedado`` and ``e vedado`` differ); case is folded.
The stemmer only truncates and folds the pre-1990 Portuguese spelling (``acção`` = ``ação``,
``efectivação`` = ``efetivação``) so that a claim in the current spelling still meets the CRP.

>>> [t.text for t in tokens("O Estado não aliena, salvo rectificação.")]
['O', 'Estado', 'não', 'aliena', 'salvo', 'rectificação']
>>> stem("efectivação") == stem("efetivação"), stem("cidadãos") == stem("cidadão")
(True, True)
>>> guess_language("A detenção será submetida a apreciação judicial"), guess_language("The claim is OPTIONAL")
('pt', 'en')
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from ipsis.language import detect_language
from ipsis.lexicon import words

WORD = re.compile(r"\w+(?:['’]\w+)?", re.UNICODE)
"""A word: letters/digits, with one inner apostrophe (``don't``, ``d'Água``)."""


STOPWORDS_PT = words("""a à às ao aos as o os um uma uns umas de do da dos das dum duma em no na nos nas num numa
    por pelo pela pelos pelas para com sem sob sobre entre até após ante perante desde e ou nem mas
    que quem qual quais cujo cuja cujos cujas onde quando como se lhe lhes lo la los las me te nos
    vos seu sua seus suas este esta estes estas esse essa esses essas aquele aquela aqueles aquelas
    isto isso aquilo ele ela eles elas é são ser será serão sendo sido foi foram era está estão estar
    ter tem têm há haver mais menos muito muitos toda todo todas todos também já ainda assim bem
    qualquer quaisquer outro outra outros outras mesmo mesma próprio própria demais
    """)
STOPWORDS_ES = words("""a al ante bajo con contra de del desde durante en entre hacia hasta mediante para por según
    sin so sobre tras el la lo los las un una unos unas y e o u ni pero sino que quien quienes cual
    cuales cuyo cuya cuyos cuyas donde cuando como se le les su sus este esta estos estas ese esa
    esos esas aquel aquella aquellos aquellas esto eso es son ser será serán sido fue fueron era
    está están estar ha han haber hay más menos muy mucho muchos toda todo todas todos también ya
    aún así bien cualquier cualesquiera otro otra otros otras mismo misma propio propia demás
    él ella ello ellos ellas
    """)
STOPWORDS_EN = words("""a an the and or nor but of to in on at by for from with without into onto over under about
    as is are was were be been being am it its this that these those there their them they he she
    his her we our you your i me my which who whom whose what when where how than then so such
    do does did done has have had having will would can could shall should may might must also
    any all each every some other another same own more most less very just only if
    """)
STOPWORDS: frozenset[str] = STOPWORDS_PT | STOPWORDS_ES | STOPWORDS_EN

_OLD_SPELLING = re.compile(r"(?<=[aeiouáéíóú])[cp](?=[çt])")


@dataclass(frozen=True, slots=True)
class Token:
    """One word of a text: ``text == source[start:end]``; ``low`` is its casefolded form."""

    text: str
    start: int
    end: int
    low: str


def tokens(text: str) -> list[Token]:
    """Words of ``text`` with their offsets."""
    return [Token(m.group(), m.start(), m.end(), m.group().casefold()) for m in WORD.finditer(text)]


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light stem: casefold, old-spelling fold (``acção``, ``cinqüenta``), then truncate to 6 characters."""
    w = _OLD_SPELLING.sub("", word.casefold()).replace("ü", "u")
    if w.endswith("ões") or w.endswith("ães"):
        w = w[:-3] + "ão"
    elif len(w) > 3 and w.endswith("s"):
        w = w[:-1]
    return w[:6]


def fold(word: str) -> str:
    """``word`` without accents (``sólo`` → ``solo``, ``judiciária`` → ``judiciaria``)."""
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def is_content(low: str) -> bool:
    """A word that carries meaning (not a stopword, not a bare number)."""
    return low not in STOPWORDS and not low.isdigit() and len(low) > 1


def content_stems(text: str) -> list[str]:
    """Stems of the content words of ``text``, in order."""
    return [stem(t.low) for t in tokens(text) if is_content(t.low)]


def guess_language(text: str) -> str:
    """``pt``, ``es`` or ``en`` (:func:`ipsis.language.detect_language`)."""
    return detect_language(text)


SENTENCE_END = re.compile(
    r"(?<=[.;:!?])\s+(?=[\"“«(]?[A-ZÀ-Þ0-9a-z])|\n\s*\n|\n(?=\s*(?:\d+\.|[a-z]\)|[IVXL]+ ?[-–]) )"
)


def sentences(text: str, base: int = 0) -> list[tuple[int, int]]:
    """Sentence-ish spans of ``text`` (offsets shifted by ``base``), split at ``. ; : ! ?``,
    blank lines and numbered lines; short fragments stay with their neighbours."""
    out: list[tuple[int, int]] = []
    start = 0
    for m in SENTENCE_END.finditer(text):
        piece = text[start : m.start()]
        if len(piece.strip()) >= 12:
            out.append((start, m.start()))
            start = m.end()
    if text[start:].strip():
        out.append((start, len(text)))
    spans = []
    for s, e in out:
        seg = text[s:e]
        lead = len(seg) - len(seg.lstrip())
        trail = len(seg) - len(seg.rstrip())
        spans.append((base + s + lead, base + e - trail))
    return spans

"""The one language guess of ipsis: ``en``, ``pt`` or ``es`` for a quote, a claim or a document.

Used by the support judge (which words are negators and modals), the near-miss reasons, the
model feedback and the report labels, so that a text is in the same language everywhere.

Each language scores its own frequent words that are rare or absent in the other two (``de``,
``que``, ``a``, ``no``, ``todos`` are shared and left out), plus spellings only one of them uses
(``ção``/``ões``/``ã``/``lh`` in Portuguese; ``ción``/``ñ``/``¿`` in Spanish). Ties go to
``default``.

>>> detect_language("Todos tienen derecho a la vida.")
'es'
>>> detect_language("Todos têm direito à vida.")
'pt'
>>> detect_language("Each principal MUST identify itself.")
'en'
>>> detect_language("A detenção será submetida a apreciação judicial")
'pt'
>>> detect_language("El Gobierno dirige la política interior y exterior del Estado")
'es'
>>> detect_language("12345", default="pt")
'pt'
"""

from __future__ import annotations

import re

LANGUAGES = ("en", "pt", "es")
SAMPLE = 20000
"""Characters of a long text that are enough to tell its language."""


def _words(s: str) -> frozenset[str]:
    return frozenset(s.split())


FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "en": _words(
        "the of and to is in that it for be are with this by as or not shall must may an which "
        "has have was were its their any each all if when from at on should will can"
    ),
    "pt": _words(
        "o os da do das dos não é são em um uma ao aos à às pelo pela pelos pelas nos nas ou seu sua "
        "seus suas será deve devem também foi como mais lei têm tem pode podem está estão há ele ela "
        "nenhum nenhuma isso este esta qualquer sem quando após até cada assim outro outra"
    ),
    "es": _words(
        "el la los las del y es un una al por su sus será debe deben también fue como más ley tiene "
        "tienen puede pueden está están hay ninguna ningún ni sin cuando tras hasta cada así otro "
        "otra según este esta cualquier ser serán"
    ),
}
"""Each language's frequent words that are rare or absent in the other two."""
SPELLINGS = {
    "pt": re.compile(r"ção|ções|ão\b|ões\b|[ãõç]|lh|nh", re.IGNORECASE),
    "es": re.compile(r"ción|ciones|[ñ¿¡]|\bll", re.IGNORECASE),
}
"""Letters and endings only one of pt/es uses (English has none of them)."""
SPELLING_WEIGHT = 2
_WORD = re.compile(r"\w+")


def language_scores(text: str) -> dict[str, int]:
    """The evidence for each language: function words plus weighted spellings."""
    sample = text[:SAMPLE]
    words = [w.casefold() for w in _WORD.findall(sample)]
    score = {lang: sum(w in stop for w in words) for lang, stop in FUNCTION_WORDS.items()}
    for lang, rx in SPELLINGS.items():
        score[lang] += SPELLING_WEIGHT * len(rx.findall(sample))
    return score


def detect_language(text: str, default: str = "en") -> str:
    """``en``, ``pt`` or ``es`` for ``text``; ``default`` when nothing tells them apart."""
    score = language_scores(text)
    top = max(score.values())
    if top == 0:
        return default
    leaders = [lang for lang in LANGUAGES if score[lang] == top]
    return default if len(leaders) > 1 and default in leaders else leaders[0]

"""Adversarial near-miss quotes built from real passages of the corpus, by families.

Each family makes the smallest edit of a real passage (a sentence found once in its document)
and says what DESIGN.md requires of it: ``miss`` families change the meaning or the text (a
digit, a number's separators, a negation, a roman numeral or ordinal, one letter that makes
another word, a hyphen, a dropped or added word, an accent, a letter's case, punctuation, two
sentences glued over the one between them, an elision hiding a negation, the quote cited to
another section) and must never come out ``located`` (nor ``ambiguous``: that also claims the
text is there); ``same`` families change typography only (quote marks, dashes, wrapping quote
marks, an elision that hides nothing) and must be ``located`` at the passage's own span.

A ``miss`` variant that is real text of the document (as written, whitespace collapsed) is not
used: it would not be a near miss. Run as a command for the per-family figures; the held-out
documents (:data:`HELD_OUT`) are run apart with ``--held-out``::

    python -m tests.hunt [--quick] [--held-out] [--show FAMILY]
"""

from tests.hunt.build import build, run
from tests.hunt.core import (
    DOCS,
    HELD_OUT,
    LOSSY,
    MISS,
    NOT_PLAIN,
    OCR_DOCS,
    OCR_NOISE,
    SAME,
    WARN,
    Case,
    Outcome,
    _load,
    passages,
)  # fmt: skip
from tests.hunt.families import FAMILIES

__all__ = [
    "DOCS", "FAMILIES", "HELD_OUT", "LOSSY", "MISS", "NOT_PLAIN", "OCR_DOCS", "OCR_NOISE", "SAME", "WARN", "Case",
    "Outcome", "_load", "build", "passages", "run",
]  # fmt: skip

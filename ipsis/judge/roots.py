"""Roots of words for the cue judge: one root for a word's inflections and its nominalisation.

The judge's stems (:func:`ipsis.judge.text.stem`) cut a word to six characters, so ``comunicar``
and ``comunicação`` already share one, but ``remunerado``/``remuneração``, ``fomentar``/``fomentarán``
or ``garantía``/``garantizar`` do not. :func:`root` strips the inflectional and derivational
endings of pt/es/en (verb endings, participles, ``-ção``/``-ción``/``-tion``, ``-mento``/``-miento``/
``-ment``, ``-ância``/``-encia``) and keeps at least four letters: a hand rule, deterministic, with
no data to load. :func:`claim_roots_found` is the share of a claim's content words whose root the
text has.

:func:`roots_found` was tried as a feature of the fitted combination, with these roots and with a
lemmatiser's (``simplemma``, deterministic, no model), on the same leave-one-document-out folds
(``python benchmarks/fit_judge.py --roots hand --sets all``, ``--roots simplemma``): both are a
trial, not part of the shipped judge (docs/judge-errors.md has the figures), so its verdicts never
depend on what is installed.

>>> root("comunicação"), root("comunicar"), root("comunicará")
('comunic', 'comunic', 'comunic')
>>> root("remunerado") == root("remuneração"), root("notification") == root("notify")
(True, False)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from ipsis.judge.text import fold
from ipsis.lexicon import SYNONYMS, words

if TYPE_CHECKING:
    from ipsis.judge.analysis import Analysis

ENDINGS: tuple[str, ...] = tuple(
    sorted(
        words("""izacoes izacao izaciones izacion izations ization acoes acao aciones acion ations ation icoes icao
        iciones icion itions ition coes cao ciones cion tions tion mentos mento mientos miento ments ment
        ancias ancia encias encia ances ance ences ence idades idade idad ities ity aremos eremos iremos
        arao erao irao aran eran iran ara era ira arem erem irem aram eram iram ando endo indo ados adas
        ado ada idos idas ido ida ados ing ed ar er ir am em an en as es os is a e o s"""),
        key=len,
        reverse=True,
    )
)
"""Endings stripped, longest first (accents folded: ``-ção`` is ``cao``)."""
MIN_ROOT = 4


@functools.lru_cache(maxsize=65536)
def root(word: str) -> str:
    """The word's root: casefolded, accents folded, one ending stripped when four letters remain."""
    w = fold(word.casefold())
    for end in ENDINGS:
        if w.endswith(end) and len(w) - len(end) >= MIN_ROOT:
            return w[: -len(end)]
    return w


def _simplemma(lang: str) -> Callable[[str], str]:
    import simplemma  # type: ignore[import-not-found,unused-ignore]  # measured only, never shipped

    def lemma_root(word: str) -> str:
        return root(simplemma.lemmatize(word, lang=lang))

    return lemma_root


ROOTERS = ("hand", "simplemma")
ROOTER = "hand"
"""Which root :func:`claim_roots_found` uses: ``hand`` (shipped) or ``simplemma`` (a measurement)."""


def roots_found(claim: Analysis, text: Analysis) -> float:
    """Share of the claim's content words whose root (or a synonym's) the text's content words have."""
    mine = [claim.low[k] for k, s in enumerate(claim.stems) if s]
    theirs = [text.low[k] for k, s in enumerate(text.stems) if s]
    return claim_roots_found(mine, theirs, claim.lang)


def claim_roots_found(claim_words: list[str], text_words: list[str], lang: str) -> float:
    """Share of the claim's content words whose root is among the text's roots (1.0 when none)."""
    if not claim_words:
        return 1.0
    rooter = root if ROOTER == "hand" else _simplemma(lang if lang in ("pt", "es", "en") else "en")
    have = {rooter(w) for w in text_words}
    groups = [g for g in _SYNONYM_ROOTS if g & have]
    return sum(rooter(w) in have or any(rooter(w) in g for g in groups) for w in claim_words) / len(claim_words)


_SYNONYM_ROOTS = tuple(frozenset(root(w) for w in g) for g in SYNONYMS)
"""The synonym groups of :data:`ipsis.lexicon.SYNONYMS` as roots: a word of the group found by another."""


__all__ = ["ENDINGS", "ROOTERS", "claim_roots_found", "root", "roots_found"]

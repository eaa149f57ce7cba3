"""A cheap proof that a quote is not in a lossy view, before its lossy views are built.

The diagnosis of a ``not_found`` quote looks for it in the ``case``, ``accents`` and
``ordinals`` views of the source. Building a quote's lossy views runs their steps with offset
maps (``case``, ``accents``, ``ordinals``, then ``tidy`` each time); most not-found quotes are
in none of them. The lossy steps after ``casefold`` and ``strip accents`` change only a few
characters: ``tidy`` deletes spaces and hyphens, shortens runs of spaces and of a leader's dots, ``ordinals``
replaces ``o``/``a``/``°``/``.º``... after a digit by ``º``/``ª``. With those characters
deleted from both sides (:data:`IGNORED`), the quote's view becomes exactly the quote's
casefolded (and accent-stripped) typography text, and a place of the quote in the source's
view becomes a place of it in the source's view with them deleted. So when that text is not
in the source's view with them deleted, the quote is not in the view at all (same diagnosis,
without building its views).

>>> from ipsis.document import Document
>>> doc = Document("d", "Art. 1º Todos são iguais perante a lei.")
>>> not_in_lossy_view(doc, "TODOS SÃO IGUAIS", "case"), not_in_lossy_view(doc, "todos sao iguais", "case")
(False, True)
>>> not_in_lossy_view(doc, "todos sao iguais", "accents"), not_in_lossy_view(doc, "art. 1o todos", "ordinals")
(False, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ipsis.document import Document
from ipsis.ingest.folds import _casefold, _strip_accents
from ipsis.ingest.normalize import steps_for
from ipsis.verify import batch
from ipsis.verify.match import _typography_of, document_view

LOSSY_STEPS = {
    "case": ("case", "tidy"),
    "accents": ("case", "accents", "tidy"),
    "ordinals": ("case", "accents", "ordinals", "tidy"),
}
"""The steps each lossy tier runs after ``typography`` (the shortcut holds for these only)."""

_TIDIED = " -."  # tidy deletes spaces and a leader's dots (hyphens too is still a sound superset)
IGNORED = {
    "case": _TIDIED,
    "accents": _TIDIED,
    "ordinals": _TIDIED + ".oaº°ᵒªᵃ",
}
"""Per tier, the characters its steps after casefolding and accent stripping may add, delete or
replace (each by another of them): ``tidy``'s spaces, hyphens and leader dots, ``ordinals``'
suffixes."""


def not_in_lossy_view(doc: Document, quote: str, tier: str, disabled: Sequence[str] = ()) -> bool:
    """True when ``quote`` surely has no place in ``doc``'s view at the lossy ``tier`` (the
    view of :func:`~ipsis.verify.match.quote_view` is not in that of
    :func:`~ipsis.verify.match.document_view`); False when it may (then search). Never True
    on the per-quote reference path."""
    dis = tuple(sorted(disabled))
    if batch.reference.on or not _holds(tier, dis):
        return False
    casefolded, stripped = _folded(quote, dis)
    return _without(casefolded if tier == "case" else stripped, tier) not in _skeleton(doc, tier, dis)


@lru_cache(maxsize=64)
def _holds(tier: str, disabled: tuple[str, ...]) -> bool:
    """The shortcut holds for ``tier``: its steps after ``typography`` are :data:`LOSSY_STEPS`
    (no step of it disabled)."""
    if tier not in LOSSY_STEPS:
        return False
    return steps_for(tier, disabled) == steps_for("typography", disabled) + LOSSY_STEPS[tier]


@lru_cache(maxsize=1024)
def _folded(quote: str, disabled: tuple[str, ...]) -> tuple[str, str]:
    """The quote's typography text casefolded, and that without accents (one each per quote,
    for the three tiers)."""
    casefolded = _casefold(_typography_of(quote, disabled).text)[0]
    return casefolded, _strip_accents(casefolded)[0]


def _without(text: str, tier: str) -> str:
    """``text`` without the characters :data:`IGNORED` at ``tier`` (``str.replace`` in C: a
    deleting ``str.translate`` looks each character up in Python's table, ten times slower)."""
    for c in IGNORED[tier]:
        if c in text:
            text = text.replace(c, "")
    return text


def _skeleton(doc: Document, tier: str, disabled: tuple[str, ...]) -> str:
    """The view of ``doc`` at ``tier`` without the characters :data:`IGNORED` (kept on it)."""
    key = ("lossy_skeleton", tier, disabled)
    kept = doc.cache.get(key)
    if kept is None:
        kept = doc.cache[key] = _without(document_view(doc, tier, disabled).text, tier)
    return str(kept)

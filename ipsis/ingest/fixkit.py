"""The machinery of the text repairs: :class:`Fix` and the appliers that build them
(one regex pass, one ``split`` pass, a table of characters), each returning the text and the
:class:`~ipsis.spans.Edit` list of its length changes."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from ipsis.spans import Cuts, Edit, apply_edits

Applier = Callable[[str], tuple[str, Sequence[Edit]]]


@dataclass(frozen=True, slots=True)
class Fix:
    """A named repair. ``tier`` is the normalization tier it belongs to."""

    name: str
    tier: str
    apply: Applier
    doc: str
    needs: frozenset[str] = frozenset()
    """Characters of which a text must hold one for this fix to change it (empty: any text may
    change). ``run_steps`` skips the fix on a short text that holds none."""

    def __call__(self, text: str) -> str:
        return self.apply(text)[0]


def _sub(pattern: Any, repl: Callable[[Any], str]) -> Applier:
    """An applier that replaces every match of ``pattern`` by ``repl(match)``."""

    def apply(text: str) -> tuple[str, Sequence[Edit]]:
        edits = []
        for m in pattern.finditer(text):
            new = repl(m)
            if new != m.group():
                edits.append(Edit(m.start(), m.end(), new))
        if not edits:
            return text, []
        # only length changes need to be in the map; equal-length edits are still applied
        out = apply_edits(text, edits)
        return out, [e for e in edits if len(e.replacement) != e.end - e.start]

    return apply


def _cut(pattern: Any, replacement: str) -> Applier:
    """An applier that replaces every match of ``pattern`` (never empty, never equal to
    ``replacement``; one capturing group around the whole pattern) by ``replacement``.

    One ``split`` pass: the text is the kept pieces joined, and the cut points come from the
    pieces' lengths summed up in C (:class:`~ipsis.spans.Cuts`), with no Python object per match.

    >>> import re
    >>> _cut(re.compile("(  +)"), " ")("a  b   c")
    ('a b c', Cuts(2 edits -> ' '))
    """

    def apply(text: str) -> tuple[str, Sequence[Edit]]:
        parts = pattern.split(text)
        if len(parts) == 1:
            return text, []
        bounds = list(accumulate(map(len, parts)))
        cuts = Cuts(bounds[0:-1:2], bounds[1::2], replacement)
        return replacement.join(parts[0::2]), cuts

    return apply


_span = operator.methodcaller("span")
_start = operator.methodcaller("start")


def _cut_spans(text: str, spans: list[tuple[int, int]], replacement: str) -> tuple[str, Sequence[Edit]]:
    """``text`` with every ``(start, end)`` of ``spans`` (sorted, disjoint) replaced."""
    if not spans:
        return text, []
    starts, ends = zip(*spans, strict=True)
    cuts = Cuts(starts, ends, replacement)
    return apply_edits(text, cuts), cuts


def _when_present(chars: str, applier: Applier) -> Applier:
    """Skip ``applier`` (a regex pass) when none of ``chars`` is in the text: ``in`` scans at
    memory speed, a regex pass does not."""

    def apply(text: str) -> tuple[str, Sequence[Edit]]:
        if not any(c in text for c in chars):
            return text, []
        return applier(text)

    return apply


def _chars(mapping: dict[str, str]) -> Applier:
    """A length-preserving applier: one character for another, with chained ``str.replace``."""

    def apply(text: str) -> tuple[str, Sequence[Edit]]:
        for old, new in mapping.items():
            if old in text:
                text = text.replace(old, new)
        return text, []

    return apply


def _literal_spans(text: str, literal: str) -> list[tuple[int, int]]:
    """Every non-overlapping place of ``literal``, left to right, with ``str.find`` (a regex
    without a literal to open it tests every character: 50x slower on a page of text)."""
    spans = []
    n = len(literal)
    i = text.find(literal)
    while i >= 0:
        spans.append((i, i + n))
        i = text.find(literal, i + n)
    return spans

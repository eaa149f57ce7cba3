"""The machinery of the text repairs: :class:`Fix` and the appliers that build them
(one regex pass, one ``split`` pass, a table of characters), each returning the text and the
:class:`~ipsis.spans.Edit` list of its length changes."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import Any, AnyStr

from ipsis.lazy import LazyPattern
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
    change). ``run_steps`` skips the fix on a text that holds none."""
    writes: frozenset[str] | None = None
    """Every character the fix may write where it changes the text (empty: it only deletes;
    None: any), so that what a text holds after it is known without reading the text again."""

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


class _chars:  # noqa: N801 - an applier, named as the others
    """A length-preserving applier: one character for another, with chained ``str.replace``.

    :meth:`held` does the same looking only for the characters of a set that holds every one
    the text has (``run_steps``' :func:`held_chars`): ``in`` scans the whole text for each
    character it lacks.

    >>> _chars({"“": '"', "”": '"', "–": "-"}).held("“a”", {"“", "”"})
    ('"a"', [])
    """

    __slots__ = ("mapping",)

    def __init__(self, mapping: dict[str, str]) -> None:
        self.mapping = mapping

    def __call__(self, text: str) -> tuple[str, Sequence[Edit]]:
        for old, new in self.mapping.items():
            if old in text:
                text = text.replace(old, new)
        return text, []

    def held(self, text: str, chars: set[str]) -> tuple[str, Sequence[Edit]]:
        for old, new in self.mapping.items():
            if old in chars and old in text:
                text = text.replace(old, new)
        return text, []


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


OUTSIDE_LATIN1 = ord("?")
"""The byte every character outside Latin-1 becomes in :func:`latin1_classes` (the ``replace``
error handler's)."""


def class_table(classify: Callable[[str], bytes], outside: bytes) -> bytes:
    """A :meth:`bytes.translate` table: the class byte ``classify(c)`` of each Latin-1 character,
    and ``outside`` at ``?``, where every character outside Latin-1 lands (``?`` itself among them:
    ``outside`` must be a class that holds it)."""
    table = bytearray(classify(chr(b))[0] for b in range(256))
    table[OUTSIDE_LATIN1] = outside[0]
    return bytes(table)


LATIN1_SHARE = 32
""":func:`latin1_classes` gives up on a text with more than one character in this many outside
Latin-1 (Greek, Cyrillic, CJK): each of them is a place to check in Python, and a regex pass
is faster there."""


def latin1_classes(text: str, table: bytes) -> bytes | None:
    """One class byte a character of ``text`` (``table``: :func:`class_table`), so that a step
    finds its few candidate places with :meth:`bytes.split` at memory speed instead of trying a
    pattern at every space; None when the text is mostly outside Latin-1.

    Encoding to Latin-1 copies the text's bytes (its characters are one byte each in memory);
    a character outside it reads as ``?``, whose class must hold every character, so the
    candidates are a superset to check on the text itself.

    >>> table = class_table(lambda c: b"p" if c in "()?" else b" " if c == " " else b"w", b"p")
    >>> latin1_classes("Art. 5º (β)?" + 30 * " texto", table)[:16]
    b'wwww ww pppp www'
    >>> latin1_classes("Art. 5º (β)?", table) is None  # one character in 12 is outside Latin-1
    True
    """
    proxy = text.encode("latin-1", "replace")
    many = len(text) // LATIN1_SHARE
    if proxy.count(b"?") > many and proxy.count(b"?") - text.count("?") > many:
        return None
    return proxy.translate(table)


def _places(text: AnyStr, literal: AnyStr) -> list[int]:
    """The start of every place of ``literal`` (left to right, never overlapping: ``split``'s),
    from the lengths of the pieces between them summed in C: no Python step a place. Fast when
    the literal's last character is rare (a needle ending in a space is not)."""
    parts = text.split(literal)
    if len(parts) == 1:
        return []
    ends = accumulate(map(len, parts[:-1]))
    return list(map(operator.add, ends, range(0, len(literal) * (len(parts) - 1), len(literal))))


def pair_starts(classes: bytes, pair: bytes) -> list[int]:
    """The start of every place of the two-byte ``pair`` in ``classes`` (two different bytes:
    places never overlap).

    >>> pair_starts(b"w xw x x", b" x")
    [1, 4, 6]
    """
    return _places(classes, pair)


ALWAYS_HELD = frozenset(" -.")
""":func:`held_chars` counts these as held without looking: nearly every text has them."""


@lru_cache(maxsize=64)
def _latin1_deletions(wanted: frozenset[str]) -> tuple[bytes, frozenset[str], frozenset[str]]:
    """For :func:`held_chars`: the bytes to delete from a Latin-1 copy so that only the rare wanted
    ones remain, the wanted outside Latin-1, and the always-held ones."""
    rare = {c for c in wanted if c <= "\xff"} - ALWAYS_HELD
    delete = bytes(b for b in range(256) if chr(b) not in rare)
    return delete, frozenset(c for c in wanted if c > "\xff"), wanted & ALWAYS_HELD


_NON_LATIN1_CHAR = LazyPattern("regex", r"[^\x00-\xff]")


def held_chars(text: str, wanted: frozenset[str]) -> set[str]:
    """The characters of ``wanted`` that ``text`` may hold (a superset: never one it holds left
    out): the rare Latin-1 ones are what a :meth:`bytes.translate` of a Latin-1 copy leaves
    (one pass in C instead of one scan a character), the others are read from the few
    characters outside Latin-1 (all of them counted held when there are many), and
    :data:`ALWAYS_HELD` without looking.

    >>> sorted(held_chars("a\u2019b ﬁ" + "x" * 90, frozenset("\u2019\u201c\x95&-")))
    ['-', '’']
    """
    delete, outside, always = _latin1_deletions(wanted)
    proxy = text.encode("latin-1", "replace")
    held = set(always)
    held.update(map(chr, set(proxy.translate(None, delete))))
    if outside and b"?" in proxy:
        if proxy.count(b"?") - text.count("?") > len(text) // LATIN1_SHARE:
            held |= outside
        else:
            held |= outside.intersection(_NON_LATIN1_CHAR.findall(text))
    return held

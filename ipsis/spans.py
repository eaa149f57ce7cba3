"""Shared records: half-open spans, edits and the offset map of a normalized view.

Every position ipsis reports is a half-open ``[start, end)`` range of code points into the
*document text*. Normalized views (whitespace collapsed, typography folded, ...) are searched,
and their positions go back to the document text through an :class:`OffsetMap`.

An ``OffsetMap`` keeps change points only: the list of :class:`Edit` records where a step
changed the *length* of the text. Between edits the mapping is a plain shift, so a 5 MB text
with a few thousand line breaks costs a few thousand entries, not five million.

>>> m = OffsetMap.from_edits([Edit(2, 4, " ")], source_length=6)   # "ab\\n\\ncd" -> "ab cd"
>>> [m.to_source(i) for i in range(len(m) + 1)]
[0, 1, 2, 4, 5, 6]
>>> m.span_to_source(Span(2, 4))
Span(start=2, end=5)
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, repeat
from operator import add, sub
from typing import NamedTuple, overload


class Span(NamedTuple):
    """A half-open ``[start, end)`` range of code points."""

    start: int
    end: int

    @property
    def length(self) -> int:
        return self.end - self.start

    def slice(self, text: str) -> str:
        """``text[start:end]``.

        >>> Span(5, 10).slice("Art. 5º caput")
        '5º ca'
        """
        return text[self.start : self.end]

    def overlaps(self, other: Span) -> bool:
        """True when the two spans share at least one code point."""
        return self.start < other.end and other.start < self.end

    def to_json(self) -> list[int]:
        return [self.start, self.end]


class Edit(NamedTuple):
    """Replace ``source[start:end]`` with ``replacement`` (a change of length, or a deletion)."""

    start: int
    end: int
    replacement: str


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """Apply sorted, non-overlapping edits.

    >>> apply_edits("regu-\\nlamento", [Edit(4, 6, "")])
    'regulamento'
    """
    if not edits:
        return text
    if isinstance(edits, Cuts):  # the kept pieces, sliced and joined in C
        pieces = map(text.__getitem__, map(slice, (0, *edits.ends), (*edits.starts, len(text))))
        return edits.replacement.join(pieces)
    parts: list[str] = []
    pos = 0
    for e in edits:
        parts.append(text[pos : e.start])
        parts.append(e.replacement)
        pos = e.end
    parts.append(text[pos:])
    return "".join(parts)


class Cuts(Sequence[Edit]):
    """Edits in bulk: ``source[starts[k]:ends[k]]`` becomes ``replacement``, the same string for
    every edit (a whitespace run -> one space, a line-end hyphen -> nothing).

    A whole-text step finds its places with one regex or ``str.find`` pass and keeps them as two
    lists of cut points; the offset map is built from those lists with C-level ``map`` and
    ``accumulate``, never one Python object per edit. It reads as the list of :class:`Edit`
    records it stands for.

    >>> c = Cuts([2, 7], [4, 10], " ")
    >>> list(c), len(c)
    ([Edit(start=2, end=4, replacement=' '), Edit(start=7, end=10, replacement=' ')], 2)
    >>> OffsetMap.identity(12).then(c) == OffsetMap.identity(12).then(list(c))
    True
    """

    __slots__ = ("ends", "replacement", "starts")

    def __init__(self, starts: Sequence[int], ends: Sequence[int], replacement: str) -> None:
        self.starts = starts
        self.ends = ends
        self.replacement = replacement

    def __len__(self) -> int:
        return len(self.starts)

    @overload
    def __getitem__(self, k: int) -> Edit: ...
    @overload
    def __getitem__(self, k: slice) -> list[Edit]: ...
    def __getitem__(self, k: int | slice) -> Edit | list[Edit]:
        if isinstance(k, slice):
            return [Edit(s, e, self.replacement) for s, e in zip(self.starts[k], self.ends[k], strict=True)]
        return Edit(self.starts[k], self.ends[k], self.replacement)

    def __repr__(self) -> str:
        return f"Cuts({len(self)} edits -> {self.replacement!r})"


@dataclass(frozen=True, slots=True)
class _Layer:
    """One step's edits, in output coordinates (``o_*``) and input coordinates (``i_*``)."""

    o_starts: Sequence[int]
    o_ends: Sequence[int]
    i_starts: Sequence[int]
    i_ends: Sequence[int]

    @classmethod
    def from_edits(cls, edits: Sequence[Edit]) -> _Layer:
        o_starts: list[int] = []
        o_ends: list[int] = []
        shift = 0
        for e in edits:
            o = e.start + shift
            o_starts.append(o)
            o_ends.append(o + len(e.replacement))
            shift += len(e.replacement) - (e.end - e.start)
        return cls(tuple(o_starts), tuple(o_ends), tuple(e.start for e in edits), tuple(e.end for e in edits))

    @classmethod
    def from_cuts(cls, cuts: Cuts) -> _Layer:
        """The same layer as :meth:`from_edits`, computed over whole lists: the output start of
        edit ``k`` is its input start, minus the characters the edits before it removed, plus
        ``k`` replacements."""
        starts, ends, r = tuple(cuts.starts), tuple(cuts.ends), len(cuts.replacement)
        removed = accumulate(map(sub, ends, starts), initial=0)  # removed before edit k
        o_starts = map(sub, starts, removed)
        if r:
            o_starts = map(add, o_starts, range(0, r * len(starts), r))
            first = tuple(o_starts)
            return cls(first, tuple(map(add, first, repeat(r))), starts, ends)
        first = tuple(o_starts)
        return cls(first, first, starts, ends)

    @classmethod
    def of(cls, edits: Sequence[Edit]) -> _Layer:
        return cls.from_cuts(edits) if isinstance(edits, Cuts) else cls.from_edits(edits)

    @staticmethod
    def delta(edits: Sequence[Edit]) -> int:
        """The change of length the edits make."""
        if isinstance(edits, Cuts):
            return len(edits.replacement) * len(edits) - (sum(edits.ends) - sum(edits.starts))
        return sum(len(e.replacement) - (e.end - e.start) for e in edits)

    def start(self, o: int) -> int:
        k = bisect_right(self.o_starts, o) - 1
        if k < 0:
            return o
        if o < self.o_ends[k]:
            return self.i_starts[k]
        return self.i_ends[k] + (o - self.o_ends[k])

    def end(self, o: int) -> int:
        if o <= 0:
            return self.start(o)
        last = o - 1
        k = bisect_right(self.o_starts, last) - 1
        if k >= 0 and last < self.o_ends[k]:
            return self.i_ends[k]
        return self.start(last) + 1


class Pieces(NamedTuple):
    """A map of positions in pieces: on ``[starts[k], starts[k + 1])`` the value is ``values[k]``,
    plus the distance from ``starts[k]`` where ``shifts[k]`` is 1 (``starts[0]`` is 0). Every
    layer of an :class:`OffsetMap` is such a map, and so is a chain of them: :class:`Flat`.

    >>> Pieces([0, 2, 4], [0, 2, 5], [1, 0, 1]).at(3), Pieces([0, 2, 4], [0, 2, 5], [1, 0, 1]).at(6)
    (2, 7)
    """

    starts: Sequence[int]
    values: Sequence[int]
    shifts: Sequence[int]

    def at(self, i: int) -> int:
        k = bisect_right(self.starts, i) - 1
        return self.values[k] + (i - self.starts[k]) * self.shifts[k]

    def then(self, after: Pieces, length: int) -> Pieces:
        """``after.at(self.at(i))`` for every ``0 <= i <= length``, in pieces (several may start
        at one position: ``at`` reads the last; :meth:`merged` leaves them out). One walk over
        both: the inputs of ``after`` only go forward, as offset maps are monotone (a look-up
        by bisection if one went back)."""
        o_starts: list[int] = []
        o_values: list[int] = []
        o_shifts: list[int] = []
        put_s, put_v, put_h = o_starts.append, o_values.append, o_shifts.append
        starts, values, shifts = self.starts, self.values, self.shifts
        a_starts, a_values, a_shifts = after.starts, after.values, after.shifts
        n, n_after = len(starts), len(a_starts)
        k = 0
        for j in range(n):
            b, v = starts[j], values[j]
            if a_starts[k] > v:  # pragma: no cover - never for the maps of normalization steps
                k = bisect_right(a_starts, v) - 1
            while k + 1 < n_after and a_starts[k + 1] <= v:
                k += 1
            put_s(b)
            put_v(a_values[k] + (v - a_starts[k]) * a_shifts[k])
            if not shifts[j]:
                put_h(0)
                continue
            put_h(a_shifts[k])
            end = v + ((starts[j + 1] if j + 1 < n else length + 1) - b)  # the inputs [v, end)
            m = k + 1
            while m < n_after and a_starts[m] < end:
                put_s(b + a_starts[m] - v)
                put_v(a_values[m])
                put_h(a_shifts[m])
                m += 1
        return Pieces(o_starts, o_values, o_shifts)

    def merged(self) -> Pieces:
        """The same map with, of several pieces at one start, the last kept (the one ``at``
        reads), and a piece that continues the one before (both shifts, its value where the
        shift leads) left out."""
        starts: list[int] = []
        values: list[int] = []
        shifts: list[int] = []
        last_s = last_v = -1
        last_h = 0
        for s, v, h in zip(self.starts, self.values, self.shifts, strict=True):
            if s == last_s:  # the later piece at one start replaces the earlier
                starts.pop(), values.pop(), shifts.pop()
                last_s, last_v, last_h = (starts[-1], values[-1], shifts[-1]) if starts else (-1, -1, 0)
            if h and last_h and last_v + s - last_s == v:
                continue
            starts.append(s)
            values.append(v)
            shifts.append(h)
            last_s, last_v, last_h = s, v, h
        return Pieces(starts, values, shifts)


class _PieceList:
    """Pieces added in order of their start; a piece at the start of the last one replaces it,
    and one that continues the last one's shift is left out."""

    __slots__ = ("shifts", "starts", "values")

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.values: list[int] = []
        self.shifts: list[int] = []

    def add(self, start: int, value: int, shift: int) -> None:
        starts, shifts = self.starts, self.shifts
        if starts and starts[-1] == start:
            starts.pop(), self.values.pop(), shifts.pop()
        if starts and shift and shifts[-1] and self.values[-1] + start - starts[-1] == value:
            return
        starts.append(start)
        self.values.append(value)
        shifts.append(shift)

    def pieces(self) -> Pieces:
        return Pieces(self.starts, self.values, self.shifts)


def _layer_pieces(layer: _Layer) -> tuple[Pieces, Pieces]:
    """The pieces of :meth:`_Layer.start` and of :meth:`_Layer.end` (at 0 the end is the start)."""
    start, end = _PieceList(), _PieceList()
    start.add(0, 0, 1)
    end.add(0, layer.start(0), 0)
    end.add(1, 1, 1)
    for o_s, o_e, i_s, i_e in zip(layer.o_starts, layer.o_ends, layer.i_starts, layer.i_ends, strict=True):
        if o_e > o_s:  # the characters an edit wrote: each maps to the edit's start, and ends at its end
            start.add(o_s, i_s, 0)
            end.add(o_s + 1, i_e, 0)
        start.add(o_e, i_e, 1)
        end.add(o_e + 1, i_e + 1, 1)
    return start.pieces(), end.pieces()


@dataclass(frozen=True, slots=True)
class Flat:
    """An offset map's layers chained into one map for :meth:`OffsetMap.to_source` and one for
    :meth:`OffsetMap.to_source_end`: one bisection per look-up instead of one per layer. Built
    once (:meth:`OffsetMap.flat_of`) where a map is used for many look-ups: the view a store
    keeps with a version (:mod:`ipsis.store.views`)."""

    start: Pieces
    end: Pieces


@dataclass(frozen=True, slots=True)
class OffsetMap:
    """Maps every position of a normalized view (and its end) back to the source text.

    Built from the edits of each step, applied in order. ``to_source(i)`` gives the source
    position of view character ``i`` (``i == len(view)`` gives the end entry); a character that
    an edit inserted or expanded (a ligature ``ﬁ`` -> ``fi``) points at the source character it
    came from, and a span end covering it reaches the end of that source character.
    """

    length: int
    source_length: int
    layers: tuple[_Layer, ...] = ()
    flat: Flat | None = field(default=None, compare=False, repr=False)
    """The layers chained (:class:`Flat`), when built: the same positions in one look-up."""

    @classmethod
    def identity(cls, length: int) -> OffsetMap:
        return cls(length, length)

    @classmethod
    def from_edits(cls, edits: Sequence[Edit], source_length: int) -> OffsetMap:
        if not edits:
            return cls.identity(source_length)
        return cls(source_length + _Layer.delta(edits), source_length, (_Layer.of(edits),))

    def then(self, edits: Sequence[Edit]) -> OffsetMap:
        """The map of this view after one more step's edits (in this view's coordinates)."""
        if not edits:
            return self
        return OffsetMap(self.length + _Layer.delta(edits), self.source_length, (_Layer.of(edits), *self.layers))

    def __len__(self) -> int:
        return self.length

    def flat_of(self) -> Flat:
        """The layers chained into one map each for starts and ends (:class:`Flat`).

        >>> m = OffsetMap.identity(7).then([Edit(1, 3, "")]).then([Edit(0, 2, "XYZ")])
        >>> f = m.flat_of()
        >>> [f.start.at(i) for i in range(len(m) + 1)] == [m.to_source(i) for i in range(len(m) + 1)]
        True
        """
        if not self.layers:
            return Flat(Pieces([0], [0], [1]), Pieces([0], [0], [1]))
        start, end = _layer_pieces(self.layers[0])
        for layer in self.layers[1:]:
            s, e = _layer_pieces(layer)
            start, end = start.then(s, self.length), end.then(e, self.length)
        return Flat(start.merged(), end.merged())

    def with_flat(self, flat: Flat | None = None) -> OffsetMap:
        """This map with its layers chained (``flat``: as :meth:`flat_of` built them before)."""
        return OffsetMap(self.length, self.source_length, self.layers, flat or self.flat_of())

    @property
    def is_identity(self) -> bool:
        return not self.layers

    def to_source(self, i: int) -> int:
        """Source position of view position ``i`` (0 <= i <= len)."""
        if not 0 <= i <= self.length:
            msg = f"view position {i} is outside 0..{self.length}"
            raise IndexError(msg)
        if self.flat is not None:
            return self.flat.start.at(i)
        for layer in self.layers:  # _Layer.start, inlined (a run maps thousands of places)
            k = bisect_right(layer.o_starts, i) - 1
            if k >= 0:
                end = layer.o_ends[k]
                i = layer.i_starts[k] if i < end else layer.i_ends[k] + (i - end)
        return i

    def to_source_end(self, i: int) -> int:
        """Source end (exclusive) of the view range ending at ``i``."""
        if not 0 <= i <= self.length:
            msg = f"view position {i} is outside 0..{self.length}"
            raise IndexError(msg)
        if self.flat is not None:
            return self.flat.end.at(i)
        for layer in self.layers:  # _Layer.end, inlined with its one bisection
            last = i - 1 if i > 0 else i
            k = bisect_right(layer.o_starts, last) - 1
            if k >= 0:
                end = layer.o_ends[k]
                if last >= end:  # after the edit: shifted
                    i = layer.i_ends[k] + (i - end)
                elif i > 0:  # the character before i is inside the edit: its end
                    i = layer.i_ends[k]
                else:  # position 0 inside an edit at the start: as to_source
                    i = layer.i_starts[k]
        return i

    def span_to_source(self, span: Span) -> Span:
        """Map a view span back to a source span (never leaks view offsets)."""
        start = self.to_source(span.start)
        end = self.to_source_end(span.end) if span.end > span.start else start
        return Span(start, max(start, end))

    def __getitem__(self, i: int) -> int:
        return self.to_source(i)

    def change_points(self) -> Iterable[tuple[int, int]]:
        """``(view_start, source_start)`` of every edit of the outermost layer (for debugging)."""
        if not self.layers:
            return iter(())
        layer = self.layers[0]
        return zip(layer.o_starts, (self.to_source(o) for o in layer.o_starts), strict=False)

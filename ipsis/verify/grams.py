"""A 4-gram index of a view's bytes: the nearest-passage search's first look on a long source.

numpy (the ``speed`` extra) sorts every 4-gram of the text once; a quote's 4-grams are then
found by binary search and counted per bin, and by the q-gram lemma only the bins that hold
enough of them can hold a passage within the edit budget. Without numpy the search reads the
whole text with edlib instead; the places are the same.
"""

from __future__ import annotations

from typing import Any

from ipsis.document import Document

GRAM = 4
"""Characters per q-gram of the first look's filter (:class:`Grams`)."""
GRAM_BIN = 64
"""Characters per bin in which the filter counts a quote's q-grams."""
GRAMS_AFTER = 16
"""Searches of one view before its :class:`Grams` are built (about 75 ns per character once,
against about 5 ns per character that each search's first look saves: a source searched a few
times keeps the edlib look)."""
MAX_GRAMS = 16_000_000
"""Longest view (characters) given :class:`Grams` (4 bytes per character)."""


class Grams:
    """Every 4-gram of a view's bytes, sorted (numpy, built once per view): the positions where
    any of a quote's 4-grams occurs are gathered by binary search, so the first look of
    :func:`~ipsis.verify.nearest.search` reads only those places instead of the whole text.

    The q-gram lemma makes it exact: a passage within ``k`` edits of a quote of ``m`` bytes
    keeps at least ``m - 4 + 1 - 4k`` of the quote's 4-grams (an edit breaks at most 4), each at
    a place of its own inside the passage, which is at most ``m + k`` long. Where a run of bins
    that long holds fewer occurrences, nothing ends within the budget (:meth:`live`)."""

    __slots__ = ("_np", "keys", "order", "starts")

    def __init__(self, data: bytes, np: Any) -> None:
        self._np = np
        codes = self._codes(data)
        order = np.argsort(codes, kind="stable")
        self.keys, first = np.unique(codes[order], return_index=True)  # each 4-gram and where its places start
        self.starts = np.append(first, len(codes)).astype(np.int64)
        self.order = order.astype(np.int32)  # the places, 4-gram by 4-gram, each in text order

    def _codes(self, data: bytes) -> Any:
        np = self._np
        a = np.frombuffer(data, np.uint8).astype(np.uint32)
        n = len(a) - GRAM + 1
        codes = a[:n].copy()
        for i in range(1, GRAM):
            codes |= a[i : n + i] << (8 * i)
        return codes

    def live(self, query: bytes, k: int, size: int) -> list[tuple[int, int]] | None:
        """The ranges of the text (``[start, end)`` of alignment *ends*) where an alignment of
        ``query`` within ``k`` edits may end; None when the lemma says nothing (a short quote,
        a large budget)."""
        np, m = self._np, len(query)
        need = m - GRAM + 1 - GRAM * k
        if need <= 0 or len(self.keys) == 0:
            return None
        grams = np.unique(self._codes(query))
        at = np.minimum(np.searchsorted(self.keys, grams), len(self.keys) - 1)
        at = at[self.keys[at] == grams]  # the quote's 4-grams that the text has
        spans = [(a, z) for a, z in zip(self.starts[at].tolist(), self.starts[at + 1].tolist(), strict=True)]
        if not spans:
            return []
        places = np.concatenate([self.order[a:z] for a, z in spans])
        width = m + k  # the longest alignment within k
        run = -(-width // GRAM_BIN) + 1  # bins an alignment that long can touch
        per_bin = np.bincount(places // GRAM_BIN, minlength=max(run, size // GRAM_BIN + 1))
        sums = np.convolve(per_bin, np.ones(run, np.int64), "valid")  # sums[w]: bins w .. w + run - 1
        out: list[tuple[int, int]] = []
        for w in np.flatnonzero(sums >= need).tolist():
            a, z = w * GRAM_BIN, min(size, (w + run) * GRAM_BIN)
            if out and a <= out[-1][1]:
                out[-1] = (out[-1][0], z)
            else:
                out.append((a, z))
        return out


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:  # pragma: no cover - depends on the installation
        return None
    return numpy


def grams_of(doc: Document, data: bytes, key: Any, *, now: bool = False) -> Grams | None:
    """The :class:`Grams` of a view's ``data`` (kept on the document) once it has been searched
    :data:`GRAMS_AFTER` times (or ``now``), else None, as without numpy or past
    :data:`MAX_GRAMS`: then the first look reads the whole text with edlib (same places)."""
    ck = ("grams", key)
    kept = doc.cache.get(ck)
    if isinstance(kept, Grams) or kept is False:
        return kept or None
    searches = (kept or 0) + 1
    if searches < GRAMS_AFTER and not now:
        doc.cache[ck] = searches
        return None
    np = _numpy()
    usable = np is not None and GRAM <= len(data) <= MAX_GRAMS
    doc.cache[ck] = Grams(data, np) if usable else False
    return doc.cache[ck] or None

"""Minimal unique context for every place of a quote at once, without comparing each place
with every other character by character.

The context before each place (read backwards) and after it are cut at ``cap + 1`` characters
and sorted; the common length of two contexts is then the smallest common length of the
neighbours between them in that order (the longest-common-prefix property of sorted strings).
For one place, walking outwards in the order of the text *before* it visits the other places
from the longest shared prefix down, which is the order in which the candidate prefix lengths
drop; a sparse table answers each shared-suffix length in constant time, and the walk stops
as soon as no shorter context can exist. The result is exactly
:func:`ipsis.verify.match.minimal_context` for each place (that per-pair function stays as the
reference the tests compare against).

>>> v = "Contact support. Read the guide. Contact support."
>>> minimal_contexts(v, [(0, 16), (33, 49)], [(0, 16), (33, 49)], 200)
{(0, 16): (0, 1, True), (33, 49): (1, 0, True)}
"""

from __future__ import annotations

from collections.abc import Sequence

from ipsis.verify.match import _back, _fwd

Place = tuple[int, int]


def common_length(a: str, b: str) -> int:
    """Length of the common prefix of ``a`` and ``b`` by halving (slice comparisons run in C).

    >>> common_length("guide. Contact", "guide. Read"), common_length("abc", "abc"), common_length("", "x")
    (7, 3, 0)
    """
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    lo, hi = 0, n - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


class _SortedKeys:
    """Keys in sorted order, each key's rank, the common length of neighbours, and a sparse
    table for the smallest common length over a range of ranks."""

    def __init__(self, keys: Sequence[str]) -> None:
        self.order = sorted(range(len(keys)), key=keys.__getitem__)
        self.rank = [0] * len(keys)
        for r, i in enumerate(self.order):
            self.rank[i] = r
        ks = [keys[i] for i in self.order]
        self.lcp = [common_length(ks[r], ks[r + 1]) for r in range(len(ks) - 1)]
        self._table = [self.lcp]
        width = 1
        while 2 * width <= len(self.lcp):
            prev = self._table[-1]
            self._table.append([min(prev[r], prev[r + width]) for r in range(len(prev) - width)])
            width *= 2

    def common(self, i: int, j: int) -> int:
        """Common length of the keys of items ``i`` and ``j`` (``i != j``)."""
        a, b = self.rank[i], self.rank[j]
        if a > b:
            a, b = b, a
        level = (b - a).bit_length() - 1
        row = self._table[level]
        return min(row[a], row[b - (1 << level)])

    def best_neighbour(self, i: int) -> int:
        """The longest common length of item ``i``'s key with any other key."""
        r = self.rank[i]
        left = self.lcp[r - 1] if r > 0 else -1
        right = self.lcp[r] if r < len(self.lcp) else -1
        return max(left, right)


def minimal_contexts(
    view: str, places: Sequence[Place], targets: Sequence[Place], cap: int
) -> dict[Place, tuple[int, int, bool]]:
    """For each of ``targets`` (some of ``places``), the fewest prefix/suffix characters that single
    it out among the other ``places``, as ``(prefix, suffix, unique)``; see
    :func:`ipsis.verify.match.minimal_context` for the rules."""
    index = {pl: i for i, pl in enumerate(places)}
    places = list(places)
    for t in targets:
        if t not in index:
            index[t] = len(places)
            places.append(t)
    if len(places) < 2:
        return {t: (0, 0, True) for t in targets}
    n, width = len(view), cap + 1
    ends = [_back(view, s) for s, _ in places]
    starts = [_fwd(view, e) for _, e in places]
    before = _SortedKeys([view[max(0, a - width) : a][::-1] for a in ends])
    after = _SortedKeys([view[b : b + width] for b in starts])
    return {t: _one(index[t], before, after, min(ends[index[t]], cap), min(n - starts[index[t]], cap)) for t in targets}


def _one(h: int, before: _SortedKeys, after: _SortedKeys, max_p: int, max_s: int) -> tuple[int, int, bool]:
    """Walk the other places outwards from ``h`` in the order of their context before, from the
    longest shared one down: before a group sharing ``c`` characters joins, every place seen so
    far shares more than ``c``, so a prefix of ``c + 1`` characters leaves exactly them, and the
    suffix must beat the longest shared context after among them. (The shared context after is
    :meth:`_SortedKeys.common`, inlined: the walk runs once per step for every place.)"""
    s_all = after.best_neighbour(h) + 1  # prefix 0: every other place must be told apart by the suffix
    best_p, best_s = (0, s_all) if s_all <= max_s else (-1, -1)  # -1: none yet
    order, lcp = before.order, before.lcp
    a_rank, table = after.rank, after._table
    ra = a_rank[h]
    r = before.rank[h]
    left, right = r - 1, r + 1
    n = len(order)
    left_c = lcp[left] if left >= 0 else -1
    right_c = lcp[r] if right < n else -1
    seen_max = -1  # longest context after shared with a place seen so far
    group = None
    while left_c >= 0 or right_c >= 0:
        c = left_c if left_c >= right_c else right_c
        if c != group:  # a prefix of c + 1 characters leaves the places seen so far
            group = c
            p, s = c + 1, seen_max + 1
            if s >= s_all or s > max_s or (best_p >= 0 and s > best_p + best_s):
                break  # every shorter prefix needs at least this suffix: nothing better remains
            if p <= max_p and (best_p < 0 or p + s < best_p + best_s or (p + s == best_p + best_s and p < best_p)):
                best_p, best_s = p, s
        if left_c >= right_c:
            other = order[left]
            left -= 1
            left_c = (left_c if left_c <= lcp[left] else lcp[left]) if left >= 0 else -1
        else:
            other = order[right]
            right += 1
            right_c = (right_c if right_c <= lcp[right - 1] else lcp[right - 1]) if right < n else -1
        a, b = ra, a_rank[other]
        if a > b:
            a, b = b, a
        level = (b - a).bit_length() - 1
        row = table[level]
        x, y = row[a], row[b - (1 << level)]
        common = x if x <= y else y
        if common > seen_max:
            seen_max = common
    if best_p < 0:
        return max_p, max_s, False
    return best_p, best_s, True

"""Paired tags (``<cite …>…</cite>``, ``<document …>…</document>``) found in linear time.

A lazy ``<tag\\b[^>]*>(.*?)</tag>`` regex rescans the rest of the text from every unclosed
opening tag: 20,000 ``<cite`` cost minutes. Here the opening and closing tags are each found in
one pass and paired in order: an opening tag followed by another before any closing one is left
unclosed, as a browser would not nest them either.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

MAX_ATTRS = 2_000
"""Longest attribute text read in one opening tag."""


@dataclass(frozen=True, slots=True)
class Tag:
    """``text[start:end]`` is the whole element, ``text[inner_start:inner_end]`` its content."""

    start: int
    inner_start: int
    inner_end: int
    end: int
    attrs: str


@lru_cache(maxsize=16)
def _patterns(name: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    n = re.escape(name)
    return (
        re.compile(rf"<{n}\b([^<>]{{0,{MAX_ATTRS}}})>", re.IGNORECASE),
        re.compile(rf"</{n}[ \t\r\n]{{0,20}}>", re.IGNORECASE),
    )


def paired(text: str, name: str, start: int = 0, end: int | None = None) -> Iterator[Tag]:
    """Each ``<name …>…</name>`` in ``text[start:end]``, in order.

    >>> [(t.attrs, "a <cite id='1'>b</cite> <cite>c"[t.inner_start:t.inner_end])
    ...  for t in paired("a <cite id='1'>b</cite> <cite>c", "cite")]
    [(" id='1'", 'b')]
    """
    stop = len(text) if end is None else end
    opening, closing = _patterns(name)
    opens = list(opening.finditer(text, start, stop))
    closes = [m.span() for m in closing.finditer(text, start, stop)]
    j = 0
    for i, o in enumerate(opens):
        while j < len(closes) and closes[j][0] < o.end():
            j += 1
        if j == len(closes):
            return
        nxt = opens[i + 1].start() if i + 1 < len(opens) else stop
        c_start, c_end = closes[j]
        if c_start > nxt:
            continue  # another opening tag comes first: this one is unclosed
        yield Tag(o.start(), o.end(), c_start, c_end, o.group(1))
        j += 1

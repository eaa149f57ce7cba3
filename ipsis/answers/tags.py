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
    opens = opening.finditer(text, start, stop)  # two lazy scans merged: nothing is stored
    closes = closing.finditer(text, start, stop)
    o = next(opens, None)
    c = next(closes, None)
    while o is not None:
        while c is not None and c.start() < o.end():
            c = next(closes, None)
        if c is None:
            return
        n = next(opens, None)
        if n is not None and n.start() < c.start():
            o = n  # another opening tag comes first: this one is unclosed
            continue
        yield Tag(o.start(), o.end(), c.start(), c.end(), o.group(1))
        c = next(closes, None)
        o = n

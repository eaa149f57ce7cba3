"""Stream framing: NDJSON lines and Server-Sent Events, read strictly.

Each yielded payload carries its 1-based line number so that a parse error, an ``error``
event or a garbage line is reported where it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ipsis.answers.jsonio import loads_strict
from ipsis.errors import InputError

SSE_FIELDS = frozenset({"data", "event", "id", "retry"})
SSE_LINE_END = re.compile(r"\r\n|\r|\n")
"""The SSE specification's line ends (CRLF, LF or CR); never U+2028 or U+0085, which ``str.splitlines``
also breaks at."""


def iter_ndjson(text: str, name: str = "input") -> Iterator[tuple[int, Any]]:
    """``(line_number, value)`` for each non-blank line.

    >>> list(iter_ndjson('{"done": false}\\n\\n{"done": true}\\n'))
    [(1, {'done': False}), (3, {'done': True})]
    """
    lines = text.split("\n")  # NDJSON: \n only; U+2028, U+0085 and \f inside a JSON string are text
    numbered = [(i, line) for i, line in enumerate(lines, start=1) if line.strip()]
    try:
        # one C-speed decode of the whole stream; on any error, re-read line by line to say where
        values = loads_strict("[" + ",".join(line for _, line in numbered) + "]", name)
    except InputError:
        values = None
    if values is not None and len(values) == len(numbered):
        yield from zip((i for i, _ in numbered), values, strict=True)
        return
    for i, line in numbered:
        yield i, _line(line, name, i)


def _line(line: str, name: str, number: int) -> Any:
    try:
        return loads_strict(line, name)
    except InputError as exc:
        msg = str(exc).replace(f"{name}: invalid JSON at line 1,", f"{name}: invalid JSON at line {number},", 1)
        raise InputError(msg) from None


@dataclass(frozen=True, slots=True)
class SseEvent:
    """One dispatched event: ``event`` name (``message`` by default) and its ``data``."""

    event: str
    data: str
    line: int  # line of the first data field

    def json(self, name: str = "input") -> Any:
        try:
            return loads_strict(self.data, name)
        except InputError as exc:
            msg = str(exc).replace(f"{name}: invalid JSON at line 1,", f"{name}: invalid JSON at line {self.line},", 1)
            raise InputError(msg) from None


def iter_sse(text: str, name: str = "input") -> Iterator[SseEvent]:
    """Events of an SSE stream (``event:``/``data:`` fields, blank line dispatches).

    Lines that are neither a known field, a comment (``:``) nor blank are refused with their
    line number: they mean the capture is corrupt (a log prefix, a proxy's error page).

    >>> [(e.event, e.data) for e in iter_sse("event: ping\\ndata: {}\\n\\ndata: [DONE]\\n")]
    [('ping', '{}'), ('message', '[DONE]')]
    """
    event = ""
    data: list[str] = []
    first = 0
    for i, line in enumerate(SSE_LINE_END.split(text), start=1):
        if not line.strip():
            if data:
                yield SseEvent(event or "message", "\n".join(data), first)
            event, data = "", []
            continue
        if line.startswith(":"):
            continue
        field, sep, value = line.partition(":")
        if not sep or field not in SSE_FIELDS:
            shown = line if len(line) <= 60 else line[:57] + "..."
            msg = (
                f"{name}: line {i} is not a server-sent event field ({shown!r}); "
                "expected 'event: ...' or 'data: ...' lines separated by blank lines"
            )
            raise InputError(msg)
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            event = value
        elif field == "data":
            if not data:
                first = i
            data.append(value)
    if data:
        yield SseEvent(event or "message", "\n".join(data), first)

"""Little-endian arrays for the payloads ipsis keeps in the store (page boxes, view offset maps):
the bytes are the same on every machine.

>>> data = to_le(array("I", [1, 70000])) + to_le(array("f", [0.5]))
>>> read_le(data, 0, "I", 2), read_le(data, 8, "f", 1)
((array('I', [1, 70000]), 8), (array('f', [0.5]), 12))
>>> cols, end = read_columns(data, 0, "II", 1)
>>> cols, end
([array('I', [1]), array('I', [70000])], 8)
>>> check_consumed(data, end, "demo")
Traceback (most recent call last):
ValueError: not a demo payload (4 bytes left over)
"""

from __future__ import annotations

import sys
from array import array
from typing import Any


def to_le(values: array[Any]) -> bytes:
    """``values`` as little-endian bytes."""
    if sys.byteorder == "big":  # pragma: no cover - the payload is little-endian everywhere
        values = array(values.typecode, values)
        values.byteswap()
    return values.tobytes()


def read_le(data: bytes, pos: int, code: str, n: int) -> tuple[array[Any], int]:
    """``n`` items of 4-byte type ``code`` from ``data[pos:]`` and the position after them
    (ValueError when the bytes run out)."""
    out = array(code)
    out.frombytes(data[pos : pos + out.itemsize * n])
    if len(out) != n:
        msg = "truncated"
        raise ValueError(msg)
    if sys.byteorder == "big":  # pragma: no cover
        out.byteswap()
    return out, pos + out.itemsize * n


def read_columns(data: bytes, pos: int, codes: str, n: int) -> tuple[list[array[Any]], int]:
    """One column of ``n`` items per type code in ``codes``, read one after the other from
    ``data[pos:]``, and the position after the last."""
    cols = []
    for code in codes:
        col, pos = read_le(data, pos, code, n)
        cols.append(col)
    return cols, pos


def check_consumed(data: bytes, pos: int, what: str) -> None:
    """ValueError unless a ``what`` payload read up to ``pos`` used every byte of ``data``."""
    if pos != len(data):
        msg = f"not a {what} payload ({len(data) - pos} bytes left over)"
        raise ValueError(msg)

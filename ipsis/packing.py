"""Little-endian arrays for the payloads ipsis keeps in the store (page boxes, view offset maps):
the bytes are the same on every machine.

>>> data = to_le(array("I", [1, 70000])) + to_le(array("f", [0.5]))
>>> read_le(data, 0, "I", 2), read_le(data, 8, "f", 1)
((array('I', [1, 70000]), 8), (array('f', [0.5]), 12))
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

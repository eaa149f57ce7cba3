"""Checks on raw PDF bytes before a PDF engine sees them.

A decompression bomb (a few hundred kilobytes of Flate data that inflate to gigabytes of
content stream) makes PDFium allocate the whole inflated stream. :func:`check_streams` inflates
each Flate stream that is not an image, counting bytes without keeping them, and refuses the
file once one stream passes the input-size limit.
"""

from __future__ import annotations

import re
import zlib

from ipsis.errors import InputError
from ipsis.limits import MB, Limits

_STREAM = re.compile(rb"stream\r?\n")
_OBJ = re.compile(rb"(\d+)\s+\d+\s+obj\b")
_CHUNK = 1 << 16


def inflated_size(data: bytes, start: int, cap: int) -> int:
    """Bytes that the zlib stream at ``data[start:]`` inflates to, counting stops past ``cap``.

    >>> blob = zlib.compress(b" " * 100_000)
    >>> inflated_size(blob + b"endstream", 0, 1 << 20), inflated_size(blob, 0, 1000) > 1000
    (100000, True)
    """
    d = zlib.decompressobj()
    total = 0
    pos = start
    try:
        while pos < len(data) and not d.eof:
            chunk = data[pos : pos + _CHUNK]
            pos += len(chunk)
            out = d.decompress(chunk, _CHUNK)
            total += len(out)
            while d.unconsumed_tail and not d.eof and out and total <= cap:
                out = d.decompress(d.unconsumed_tail, _CHUNK)
                total += len(out)
            if total > cap:
                break
    except zlib.error:
        pass  # damaged or encrypted data: the engine decides
    return total


def check_streams(data: bytes, name: str, limits: Limits) -> None:
    """Refuse a PDF with a non-image Flate stream that inflates past ``limits.max_input_bytes``."""
    cap = limits.max_input_bytes
    if not cap:
        return
    for m in _STREAM.finditer(data):
        head = data[max(0, m.start() - 1024) : m.start()]
        objs = list(_OBJ.finditer(head))
        if objs:
            head = head[objs[-1].start() :]
        if b"/FlateDecode" not in head or b"/Image" in head:
            continue
        size = inflated_size(data, m.end(), cap)
        if size > cap:
            obj = f"object {objs[-1].group(1).decode()}" if objs else f"at byte {m.start()}"
            msg = (
                f"{name}: a stream ({obj}) inflates to more than {cap / MB:.1f} MB (a decompression bomb?); "
                "raise --max-input-mb if the file is genuine"
            )
            raise InputError(msg)

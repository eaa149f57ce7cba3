"""Offsets in other units, converted explicitly to code points.

Gemini counts UTF-8 bytes, JavaScript tools count UTF-16 code units; ipsis reports code
points. A conversion that lands inside a character gives None, never a rounded guess.
"""

from __future__ import annotations

from ipsis.answers.model import Unit


def to_code_points(text: str, offset: int, unit: Unit) -> int | None:
    """Code point index of ``offset`` counted in ``unit`` over ``text``; None when invalid.

    >>> t = "up to €50 per day"
    >>> to_code_points(t, 9, "utf8"), to_code_points(t, 7, "utf8")
    (7, None)
    >>> to_code_points(t, 9, "code_point")
    9
    """
    if offset < 0:
        return None
    if unit == "code_point":
        return offset if offset <= len(text) else None
    codec, width = ("utf-8", 1) if unit == "utf8" else ("utf-16-le", 2)
    data = text.encode(codec, errors="surrogatepass")
    if offset * width > len(data):
        return None
    try:
        return len(data[: offset * width].decode(codec))
    except UnicodeDecodeError:
        return None


def from_code_points(text: str, index: int, unit: Unit) -> int:
    """``index`` (code points) counted in ``unit``.

    >>> from_code_points("€50", 1, "utf8"), from_code_points("😀a", 1, "utf16")
    (3, 2)
    """
    if unit == "code_point":
        return index
    codec, width = ("utf-8", 1) if unit == "utf8" else ("utf-16-le", 2)
    return len(text[:index].encode(codec, errors="surrogatepass")) // width

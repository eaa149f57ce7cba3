"""How a JSON value's type is named in error messages (one table for every parser).

>>> json_type_name(None), json_type_name([1]), json_type_name([1], array="a list")
('null', 'an array', 'a list')
"""

from __future__ import annotations

from typing import Any

_NAMES: dict[type, str] = {
    bool: "a boolean",
    int: "a number",
    float: "a number",
    str: "a string",
    dict: "an object",
}


def json_type_name(value: Any, array: str = "an array") -> str:
    """``null``, ``a boolean``, ``a number``, ``a string``, ``an object`` or ``array``."""
    if value is None:
        return "null"
    if type(value) is list:
        return array
    return _NAMES.get(type(value), type(value).__name__)

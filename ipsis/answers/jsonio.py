"""Strict JSON reading with errors that name the line, column and field.

Answers come from the network and from files people edit by hand; a truncated download or a
wrong type must give a message that says where and what to do, never a traceback.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ipsis.errors import InputError
from ipsis.jsontypes import json_type_name


def _reject_constant(name: str) -> Any:
    msg = f"{name} is not valid JSON"
    raise ValueError(msg)


MAX_DIGITS = 50
"""Longest integer read: source numbers, indices and offsets are small; a 4,401-digit number is
refused with its own message (Python's int limit would otherwise speak of sys internals)."""


class _BadNumberError(ValueError):
    pass


def _parse_int(s: str) -> int:
    digits = len(s.lstrip("-"))
    if digits > MAX_DIGITS:
        msg = f"a number with {digits} digits is not a source number, index or offset"
        raise _BadNumberError(msg)
    return int(s)


_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_int=_parse_int)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def loads_strict(text: str, name: str = "input", line_offset: int = 0) -> Any:
    """Parse JSON; NaN/Infinity are refused. Errors carry the line and column.

    >>> loads_strict('{"answer": "ok"}')
    {'answer': 'ok'}
    >>> try:
    ...     loads_strict('{"answer": "ok"', name="a.json")
    ... except ValueError as exc:
    ...     print(exc)
    a.json: invalid JSON at line 1, column 16: Expecting ',' delimiter
        (the input ends early: is it truncated?)
    """
    try:
        value = _DECODER.decode(text)
    except RecursionError:
        msg = f"{name}: the JSON is nested too deeply to read; pass the provider's response as it was sent"
        raise InputError(msg) from None
    except _BadNumberError as exc:
        msg = f"{name}: {exc}; pass the provider's response as it was sent"
        raise InputError(msg) from None
    except json.JSONDecodeError as exc:
        hint = " (the input ends early: is it truncated?)" if exc.pos >= len(text.rstrip()) else ""
        msg = f"{name}: invalid JSON at line {exc.lineno + line_offset}, column {exc.colno}: {exc.msg}{hint}"
        raise InputError(msg) from None
    except ValueError as exc:
        msg = f"{name}: {exc}; use null or a number"
        raise InputError(msg) from None
    if _SURROGATE_ESCAPE.search(text):
        _refuse_lone_surrogates(value, name)
    return value


def _refuse_lone_surrogates(value: Any, name: str) -> None:
    """A ``\\ud83d`` escape without its pair decodes to no character: it cannot be printed or
    written as UTF-8, so it is refused here, naming the field (iteratively: no recursion)."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        path, v = stack.pop()
        if isinstance(v, str):
            m = LONE_SURROGATE.search(v)
            if m:
                where = f"field {path}" if path else "the top-level string"
                msg = (
                    f"{name}: {where} holds a lone surrogate (U+{ord(m.group()):04X}), half of a "
                    "UTF-16 pair and not a character; pass the text as it was sent, complete"
                )
                raise InputError(msg)
        elif isinstance(v, dict):
            stack.extend((f"{path}.{k}" if path else str(k), x) for k, x in v.items())
            stack.extend((f"{path} key", k) for k in v if LONE_SURROGATE.search(k))
        elif isinstance(v, list):
            stack.extend((f"{path}[{i}]", x) for i, x in enumerate(v))


class Fields:
    """Typed access to a JSON object with a path for messages (``choices[0].message``)."""

    __slots__ = ("name", "obj", "path")

    def __init__(self, obj: Any, path: str, name: str = "input") -> None:
        if not isinstance(obj, dict):
            msg = f"{name}: {path or 'the top level'} must be an object, got {json_type_name(obj)}"
            raise InputError(msg)
        self.obj: dict[str, Any] = obj
        self.path = path
        self.name = name

    def _where(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def _fail(self, key: str, want: str, value: Any) -> InputError:
        msg = f"{self.name}: field {self._where(key)} must be {want}, got {json_type_name(value)}"
        return InputError(msg)

    def has(self, key: str) -> bool:
        return key in self.obj

    def raw(self, key: str) -> Any:
        return self.obj.get(key)

    def string(self, key: str, default: str | None = None, *, required: bool = False) -> str:
        value = self.obj.get(key)
        if value is None:
            if required or default is None:
                if required:
                    msg = f"{self.name}: field {self._where(key)} is missing; it must be a string"
                    raise InputError(msg)
                return ""
            return default
        if not isinstance(value, str):
            raise self._fail(key, "a string", value)
        return value

    def opt_str(self, key: str) -> str | None:
        value = self.obj.get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            raise self._fail(key, "a string", value)
        return value

    def integer(self, key: str, default: int | None = None) -> int:
        value = self.obj.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            if value is None:
                msg = f"{self.name}: field {self._where(key)} is missing; it must be an integer"
                raise InputError(msg)
            raise self._fail(key, "an integer", value)
        return value

    def flag(self, key: str) -> bool | None:
        value = self.obj.get(key)
        if value is None:
            return None
        if not isinstance(value, bool):
            raise self._fail(key, "true or false", value)
        return value

    def array(self, key: str, *, required: bool = False) -> list[Any]:
        value = self.obj.get(key)
        if value is None:
            if required:
                msg = f"{self.name}: field {self._where(key)} is missing; it must be an array"
                raise InputError(msg)
            return []
        if not isinstance(value, list):
            raise self._fail(key, "an array", value)
        return value

    def obj_at(self, key: str, *, required: bool = False) -> Fields | None:
        value = self.obj.get(key)
        if value is None:
            if required:
                msg = f"{self.name}: field {self._where(key)} is missing; it must be an object"
                raise InputError(msg)
            return None
        return Fields(value, self._where(key), self.name)

    def items(self, key: str, *, required: bool = False) -> list[Fields]:
        """The objects of the array at ``key``, each with its indexed path."""
        where = self._where(key)
        return [Fields(v, f"{where}[{i}]", self.name) for i, v in enumerate(self.array(key, required=required))]

"""Request limits and the JSON error every refusal is answered with.

Every error the API returns is ``{"error": CODE, "message": TEXT, ...details}`` with a 4xx status;
the message names the field or limit and the fix. Nothing from a traceback ever reaches a body.

>>> err = ApiError(413, "too_many_records", "1001 records; the limit is 1000")
>>> err.to_json()
{'error': 'too_many_records', 'message': '1001 records; the limit is 1000'}
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from ipsis.errors import InputError


class ApiError(Exception):
    """An HTTP error answered as JSON: ``status``, a stable ``code`` and a message."""

    def __init__(self, status: int, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details

    def to_json(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.details}


@dataclass(frozen=True, slots=True)
class Limits:
    """What one request may ask for.

    - ``max_body_bytes``: request body size (413 ``body_too_large``).
    - ``max_records``: citation records per ``/v1/verify`` (413 ``too_many_records``).
    - ``max_sources``: sources per request (413 ``too_many_sources``).
    - ``max_quote_chars``: characters in one quote (413 ``quote_too_long``).
    - ``max_seconds``: wall time per request (422 ``time_limit_exceeded``; 422 rather than 408,
      which browsers and proxies may retry on their own).
    """

    max_body_bytes: int = 5_000_000
    max_records: int = 1000
    max_sources: int = 100
    max_quote_chars: int = 5000
    max_seconds: float = 30.0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Limits:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


@dataclass(frozen=True, slots=True)
class ServeConfig:
    """Everything a worker process needs (passed to uvicorn workers through the environment).

    Against slow or stalled clients (each refusal closes the connection or answers at once):

    - ``header_timeout``: seconds a connection may take to send a request's headers (it is
      closed past them; a slowloris client holds nothing).
    - ``body_timeout``: seconds to send the whole body (408 ``body_timeout``).
    - ``max_connections``: open connections per worker; one more is answered 503 and closed.
    - ``max_buffered_bytes``: request bytes all requests together may hold while their bodies
      arrive (503 ``server_busy`` with ``Retry-After`` past it), so stalled uploads cannot pile up.
    - ``allowed_hosts``: ``Host`` names served without ``--tokens`` besides loopback ones
      (``localhost``, ``*.localhost``, ``127.0.0.1``, ``[::1]``); any other is refused (DNS rebinding).
    """

    store_dir: str | None = None
    tokens_file: str | None = None
    limits: Limits = field(default_factory=Limits)
    cache_documents: int = 64
    cache_chars: int = 200_000_000
    threads: int = 4
    header_timeout: float = 10.0
    body_timeout: float = 30.0
    max_connections: int = 200
    max_buffered_bytes: int = 64_000_000
    allowed_hosts: tuple[str, ...] = ()

    def to_env(self) -> str:
        data = asdict(self)
        return json.dumps(data)

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> ServeConfig:
        raw = (environ if environ is not None else os.environ).get(ENV_CONFIG)
        if not raw:
            return cls()
        data = json.loads(raw)
        data["limits"] = Limits.from_json(data.get("limits") or {})
        data["allowed_hosts"] = tuple(data.get("allowed_hosts") or ())
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


ENV_CONFIG = "IPSIS_SERVE_CONFIG"


def json_error_position(text: str, exc: json.JSONDecodeError) -> tuple[int, int]:
    """Line and column (1-based, code points) of a JSON error.

    >>> try:
    ...     json.loads('{\\n  "quote": "x",\\n}')
    ... except json.JSONDecodeError as exc:
    ...     json_error_position('{\\n  "quote": "x",\\n}', exc)
    (3, 1)
    """
    return exc.lineno, exc.colno


def _reject_constant(name: str) -> Any:
    msg = f"{name} is not valid JSON; use null or a number"
    raise InputError(msg)


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def parse_json_body(body: bytes) -> Any:
    """Decode a request body as strict JSON, or raise a 400 ``ApiError`` naming line and column."""
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        msg = f"the body is not UTF-8 (byte {exc.start}: {exc.reason}); send JSON encoded as UTF-8"
        raise ApiError(400, "invalid_encoding", msg, byte=exc.start) from None
    if not text.strip():
        raise ApiError(400, "empty_body", "the body is empty; send a JSON object")
    try:
        data = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        line, col = json_error_position(text, exc)
        hint = " (the body ends early: is it truncated?)" if exc.pos >= len(text.rstrip()) else ""
        msg = f"invalid JSON at line {line}, column {col}: {exc.msg}{hint}"
        raise ApiError(400, "invalid_json", msg, line=line, column=col) from None
    except InputError as exc:
        raise ApiError(400, "invalid_json", str(exc)) from None
    except RecursionError:
        msg = f"the JSON is nested more than {MAX_DEPTH} levels deep; flatten it"
        raise ApiError(400, "invalid_json", msg) from None
    except ValueError as exc:  # an integer past Python's 4,300-digit limit
        raise ApiError(400, "invalid_json", f"{exc}; send long numbers as strings") from None
    check_shape(data)
    return data


MAX_DEPTH = 64
"""Deepest nesting of arrays and objects a body may have (real provider responses use about 10)."""
_SURROGATE = re.compile("[\ud800-\udfff]")


def check_shape(data: Any) -> None:
    r"""Refuse (400) nesting past :data:`MAX_DEPTH` and lone UTF-16 surrogates (``"\ud800"``),
    which no UTF-8 response could carry back; both are found without recursion.

    >>> check_shape({"answer": "ok", "sources": [["a"]]})
    >>> try:
    ...     check_shape({"answer": chr(0xD800)})
    ... except ApiError as exc:
    ...     print(exc.message[:49])
    answer has a lone surrogate \ud800 at character 0
    """
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if isinstance(value, str):
            m = _SURROGATE.search(value)
            if m:
                name = where or "the body"
                msg = (
                    f"{name} has a lone surrogate \\u{ord(m.group()):04x} at character {m.start()}; "
                    "send valid Unicode (escape a character outside the BMP as a surrogate pair)"
                )
                raise ApiError(400, "invalid_json", msg, field=name)
        elif isinstance(value, (dict, list)):
            if depth >= MAX_DEPTH:
                msg = f"{where or 'the body'} is nested more than {MAX_DEPTH} levels deep; flatten it"
                raise ApiError(400, "invalid_json", msg)
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                sub = f"{where}.{key}" if isinstance(key, str) else f"{where}[{key}]"
                if isinstance(key, str):
                    stack.append((key, f"{where or 'the body'} (a key)", depth + 1))
                stack.append((item, sub.lstrip("."), depth + 1))

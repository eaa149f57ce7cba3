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
    """Everything a worker process needs (passed to uvicorn workers through the environment)."""

    store_dir: str | None = None
    tokens_file: str | None = None
    limits: Limits = field(default_factory=Limits)
    cache_documents: int = 64
    cache_chars: int = 200_000_000
    threads: int = 4

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
        return _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        line, col = json_error_position(text, exc)
        hint = " (the body ends early: is it truncated?)" if exc.pos >= len(text.rstrip()) else ""
        msg = f"invalid JSON at line {line}, column {col}: {exc.msg}{hint}"
        raise ApiError(400, "invalid_json", msg, line=line, column=col) from None
    except InputError as exc:
        raise ApiError(400, "invalid_json", str(exc)) from None
    except RecursionError:
        raise ApiError(400, "invalid_json", "the JSON is nested too deeply; flatten it") from None

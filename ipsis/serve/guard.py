"""What a request must look like before any endpoint runs, and how its body is read.

- **Host** (without ``--tokens``): only loopback names are served (``localhost``, ``*.localhost``,
  loopback IP literals) plus ``--allow-host`` names. A web page that rebinds its own DNS name to
  127.0.0.1 sends its own name as ``Host``, so it is refused (403 ``forbidden_host``) and cannot
  read the sources through the browser of someone running ``ipsis serve``.
- **Content type**: every ``POST`` must be ``application/json`` (415 otherwise). A form or a
  ``text/plain`` fetch from another site is a "simple" cross-site request a browser sends
  without asking; JSON needs a CORS preflight, which this server never grants (CSRF).
- **Body**: read within ``body_timeout`` (408) and under a budget of bytes shared by every
  request still uploading (503 ``server_busy``), so stalled uploads cannot pile up memory.

>>> host_allowed("127.0.0.1:8765", ()), host_allowed("[::1]:80", ()), host_allowed("app.localhost", ())
(True, True, True)
>>> host_allowed("attacker.example:8765", ()), host_allowed("attacker.example", ("attacker.example",))
(False, True)
>>> is_json_type("application/json; charset=utf-8"), is_json_type("text/plain"), is_json_type("")
(True, False, False)
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from ipsis.serve.limits import ApiError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def host_allowed(host: str, allowed: tuple[str, ...]) -> bool:
    """True when a ``Host`` header names this machine's loopback or an ``allowed`` name."""
    name = host.strip().lower()
    if name.startswith("["):  # [::1]:8765
        name = name[1 : name.find("]")] if "]" in name else name[1:]
    elif name.count(":") == 1:
        name = name.partition(":")[0]
    name = name.rstrip(".")
    if name == "localhost" or name.endswith(".localhost") or name in {a.lower() for a in allowed}:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def is_json_type(content_type: str) -> bool:
    """``application/json`` or ``application/<something>+json``, any parameters."""
    kind = content_type.partition(";")[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


class RequestGuard:
    """ASGI middleware: the Host rule (without tokens) and JSON-only POSTs, before any endpoint."""

    def __init__(self, app: App, *, check_host: bool, allowed_hosts: tuple[str, ...] = ()) -> None:
        self.app = app
        self.check_host = check_host
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        err = self.refusal(scope, headers)
        if err is None:
            await self.app(scope, receive, send)
            return
        body = json.dumps(err.to_json()).encode()
        await send(
            {
                "type": "http.response.start",
                "status": err.status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"cache-control", b"no-store"),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    def refusal(self, scope: Scope, headers: dict[str, str]) -> ApiError | None:
        host = headers.get("host")
        if self.check_host and host is not None and not host_allowed(host, self.allowed_hosts):
            msg = (
                f"Host {host!r} is not a loopback name: without --tokens only localhost, 127.0.0.1 and [::1] "
                "are served (a page that rebinds its DNS name to this machine is refused); "
                "use one of them, pass --allow-host NAME, or run with --tokens"
            )
            return ApiError(403, "forbidden_host", msg)
        if scope.get("method") == "POST" and not is_json_type(headers.get("content-type", "")):
            got = headers.get("content-type") or "none"
            msg = f"send the body as JSON with 'Content-Type: application/json' (got {got!r})"
            return ApiError(415, "unsupported_media_type", msg)
        return None


class BodyBudget:
    """Bytes buffered by the requests still uploading, shared by all of them (thread-safe)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0
        self._lock = threading.Lock()

    def take(self, n: int) -> None:
        with self._lock:
            if self.used + n > self.limit:
                msg = "the server is holding too many uploads at once; retry in a moment"
                raise ApiError(503, "server_busy", msg)
            self.used += n

    def give(self, n: int) -> None:
        with self._lock:
            self.used -= n


async def read_body(chunks: Any, *, limit: int, declared: str, timeout: float, budget: BodyBudget) -> bytes:
    """The request body from ``chunks`` (Starlette's ``request.stream()``) within ``limit`` bytes,
    ``timeout`` seconds and the shared ``budget``."""
    if declared.isdigit() and int(declared) > limit:
        raise too_large(int(declared), limit)
    parts: list[bytes] = []
    size = 0
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    stream = chunks.__aiter__()
    try:
        while True:
            try:
                chunk = await asyncio.wait_for(stream.__anext__(), max(0.0, end - loop.time()))
            except StopAsyncIteration:
                break
            except asyncio.TimeoutError:
                msg = f"the body did not arrive within {timeout:g} s ({size} bytes came); send it at once"
                raise ApiError(408, "body_timeout", msg) from None
            size += len(chunk)
            if size > limit:
                raise too_large(size, limit)
            budget.take(len(chunk))
            parts.append(chunk)
    finally:
        budget.give(sum(map(len, parts)))
    return b"".join(parts)


def too_large(size: int, limit: int) -> ApiError:
    msg = f"the body has {size} bytes or more; the limit is {limit}: send fewer records or sources per request"
    return ApiError(413, "body_too_large", msg, limit=limit)

"""uvicorn's HTTP/1.1 protocol with the two limits uvicorn lacks: a header read timeout and a cap
on open connections (``ipsis serve`` passes this class as uvicorn's ``http`` protocol).

- A connection that has not sent a whole request head ``header_timeout`` seconds after it opened
  (or after its previous response) is closed, so a slowloris client holding hundreds of sockets
  open with half a request line holds nothing for long. Once the head is in, the body has its own
  limit (``body_timeout``, :func:`ipsis.serve.guard.read_body`) and the work its own
  (``--timeout``).
- Past ``max_connections`` open connections per worker, a new one is answered
  ``503 server_busy`` and closed before anything of it is read.

Request heads are bounded by h11 itself (16 KB); bodies by ``--max-body`` and the shared upload
budget; responses wait on the socket's flow control.
"""

from __future__ import annotations

import asyncio
import json
import os
from functools import lru_cache
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from ipsis.serve.limits import ENV_CONFIG, ServeConfig


@lru_cache(maxsize=4)
def _config(raw: str | None) -> ServeConfig:
    return ServeConfig.from_env({} if raw is None else {ENV_CONFIG: raw})


def _busy_response() -> bytes:
    body = json.dumps(
        {"error": "server_busy", "message": "the server has too many open connections; retry in a moment"}
    ).encode()
    head = (
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\n"
        f"connection: close\r\ncontent-length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


class GuardedH11Protocol(H11Protocol):
    """:class:`H11Protocol` plus a header timeout and a connection cap (from ``IPSIS_SERVE_CONFIG``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        serve = _config(os.environ.get(ENV_CONFIG))
        self.header_timeout = serve.header_timeout
        self.max_connections = serve.max_connections
        self._header_timer: asyncio.TimerHandle | None = None
        self._refused = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            self._refused = True
            transport.write(_busy_response())
            transport.close()
            return
        self._arm()

    def data_received(self, data: bytes) -> None:
        if not self._refused:
            super().data_received(data)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout, self._header_expired)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _header_expired(self) -> None:
        self._header_timer = None
        waiting = self.cycle is None or self.cycle.response_complete
        if waiting and not self.transport.is_closing():
            self.transport.close()

"""The Starlette application: routes, bearer-token users, body limits and JSON errors.

Starlette (not FastAPI): the endpoints take the library's own JSON records, which are already
validated by the library with messages that name the field, so a model layer would duplicate
them; the OpenAPI document is written by hand (:mod:`ipsis.serve.openapi`) and tested against
the running server instead of being generated from annotations.

Library calls run in a bounded thread pool (:mod:`ipsis.serve.tasks`, which stops them when
their time is up); the event loop only reads bodies and writes responses, so a slow request
never blocks ``/v1/health``. :mod:`ipsis.serve.guard` refuses foreign Host names (without
tokens) and non-JSON POSTs first; :mod:`ipsis.serve.protocol` closes connections that stall.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ipsis import __version__
from ipsis.doccache import DocumentCache
from ipsis.serve import api
from ipsis.serve.catalog import Catalog
from ipsis.serve.guard import BodyBudget, RequestGuard, read_body
from ipsis.serve.limits import ApiError, ServeConfig, parse_json_body
from ipsis.serve.openapi import openapi_document
from ipsis.serve.page import page_html
from ipsis.serve.tasks import ClientGoneError, Deadline, Workers
from ipsis.serve.tokens import load_tokens, user_for

log = logging.getLogger(__name__)

Handler = Callable[[Any, api.Context], "dict[str, Any] | str"]
HEADERS = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}
PAGE_CSP = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
    "connect-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


class Json(JSONResponse):
    """JSON as UTF-8; a lone surrogate the client sent inside some text (which UTF-8 cannot
    carry) comes back escaped as it came, ``\\ud800``, instead of failing the response."""

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")


def error_response(err: ApiError, headers: dict[str, str] | None = None) -> JSONResponse:
    return Json(err.to_json(), status_code=err.status, headers={**HEADERS, **(headers or {})})


class Service:
    """State shared by the requests of one worker process."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.tokens = load_tokens(config.tokens_file) if config.tokens_file else None
        self.catalog = Catalog(DocumentCache(config.cache_documents, config.cache_chars), config.store_dir)
        self.workers = Workers(config.threads)
        self.budget = BodyBudget(max(config.max_buffered_bytes, config.limits.max_body_bytes))

    def user(self, request: Request) -> str | None:
        """The request's user (None without ``--tokens``); 401 for a missing or unknown token."""
        if self.tokens is None:
            return None
        user = user_for(self.tokens, request.headers.get("authorization"))
        if user is None:
            msg = "send 'Authorization: Bearer TOKEN' with a token from the server's tokens file"
            raise ApiError(401, "unauthorized", msg)
        return user

    async def body(self, request: Request) -> Any:
        raw = await read_body(
            request.stream(),
            limit=self.config.limits.max_body_bytes,
            declared=request.headers.get("content-length", ""),
            timeout=self.config.body_timeout,
            budget=self.budget,
        )
        return parse_json_body(raw)

    def deadline(self) -> Deadline:
        return Deadline(self.config.limits.max_seconds)

    async def run(self, fn: Callable[[], Any], deadline: Deadline | None = None, request: Request | None = None) -> Any:
        """Run ``fn`` in the pool; past the time limit the client gets a 422 and the work stops,
        as it does when the client of ``request`` disconnects."""
        gone = _disconnected(request) if request is not None else None
        return await self.workers.run(fn, deadline or self.deadline(), gone)

    def context(self, user: str | None) -> api.Context:
        return api.Context(self.catalog, user, self.config.limits, self.deadline())


async def _disconnected(request: Request) -> None:
    """Returns when the client goes away (the body has been read: only a disconnect can come)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


def json_endpoint(service: Service, handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        user = service.user(request)
        body = await service.body(request)
        ctx = service.context(user)
        payload = await service.run(functools.partial(handler, body, ctx), ctx.deadline, request)
        if isinstance(payload, str):  # the HTML report; its own CSP allows no network at all
            return HTMLResponse(payload.encode("utf-8", "replace"), headers=HEADERS)
        return Json(payload, headers=HEADERS)

    return endpoint


def create_app(config: ServeConfig | None = None) -> Starlette:
    """The ASGI application for ``config`` (defaults: no store, no tokens, default limits)."""
    service = Service(config or ServeConfig())

    async def health(request: Request) -> Response:
        out: dict[str, Any] = {"status": "ok", "version": __version__, "auth": service.tokens is not None}
        user = None if service.tokens is None else user_for(service.tokens, request.headers.get("authorization"))
        if service.tokens is None or user is not None:  # the counters of the caller's own requests
            out.update(service.catalog.stats(user))
            out["busy"] = service.workers.busy
            out["threads"] = service.workers.threads
        out["limits"] = service.config.limits.to_json()
        return Json(out, headers=HEADERS)

    async def sources(request: Request) -> Response:
        user = service.user(request)
        reader = api.ANONYMOUS if user is None else user
        found = await service.run(lambda: service.catalog.versions(reader))
        return Json({"sources": found}, headers=HEADERS)

    async def sections(request: Request) -> Response:
        user = service.user(request)
        sid = request.path_params["source_id"]
        reader = api.ANONYMOUS if user is None else user
        tree = await service.run(lambda: service.catalog.sections(sid, reader))
        if tree is None:
            raise ApiError(404, "unknown_source", f"unknown source {sid!r}", source_id=sid)
        return Json(tree, headers=HEADERS)

    async def openapi(request: Request) -> Response:
        return Json(openapi_document(), headers=HEADERS)

    async def page(request: Request) -> Response:
        headers = {**HEADERS, "Content-Security-Policy": PAGE_CSP, "X-Frame-Options": "DENY"}
        return HTMLResponse(page_html(auth=service.tokens is not None), headers=headers)

    async def api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        extra = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        return error_response(exc, extra)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        msg = {
            404: f"no such endpoint {request.url.path!r}; see /openapi.json",
            405: f"{request.method} is not allowed on {request.url.path}; see /openapi.json",
        }.get(exc.status_code, str(exc.detail))
        return error_response(ApiError(exc.status_code, code, msg), dict(exc.headers or {}))

    async def disconnected(request: Request, exc: Exception) -> Response:
        # the client left mid-body: nobody reads this answer, and it is no error of ours to log
        return Response(status_code=400, headers=HEADERS)

    async def internal_error(request: Request, exc: Exception) -> Response:
        log.exception("internal error on %s %s", request.method, request.url.path)
        msg = "internal error; the server log has the details. Please report it with the request that caused it"
        return Json({"error": "internal_error", "message": msg}, status_code=500, headers=HEADERS)

    routes = [
        Route("/", page, methods=["GET"]),
        Route("/openapi.json", openapi, methods=["GET"]),
        Route("/v1/health", health, methods=["GET"]),
        Route("/v1/sources", sources, methods=["GET"]),
        Route("/v1/sources/{source_id:path}/sections", sections, methods=["GET"]),
        Route("/v1/locate", json_endpoint(service, api.do_locate), methods=["POST"]),
        Route("/v1/verify", json_endpoint(service, api.do_verify), methods=["POST"]),
        Route("/v1/check", json_endpoint(service, api.do_check), methods=["POST"]),
        Route("/v1/describe", json_endpoint(service, api.do_describe), methods=["POST"]),
    ]
    guard = Middleware(RequestGuard, check_host=service.tokens is None, allowed_hosts=service.config.allowed_hosts)
    app = Starlette(
        routes=routes,
        middleware=[guard],
        exception_handlers={
            ApiError: api_error,
            HTTPException: http_error,
            ClientDisconnect: disconnected,
            ClientGoneError: disconnected,
            Exception: internal_error,
        },
    )
    app.state.service = service
    return app


def app_from_env() -> Starlette:
    """The factory uvicorn workers call: the configuration comes from ``IPSIS_SERVE_CONFIG``."""
    return create_app(ServeConfig.from_env())

"""``ipsis serve``: the library over HTTP for pipelines, and a paste-in page for people.

Needs the optional extra: ``pip install 'ipsis[serve]'`` (Starlette and uvicorn). Endpoints:
``POST /v1/locate``, ``/v1/verify``, ``/v1/check``, ``/v1/describe``; ``GET /v1/sources``,
``/v1/sources/{id}/sections``, ``/v1/health``, ``/openapi.json`` and the page at ``/``.
"""

from __future__ import annotations

from ipsis.serve.limits import ApiError, Limits, ServeConfig

__all__ = ["ApiError", "Limits", "ServeConfig", "create_app"]


def create_app(config: ServeConfig | None = None) -> object:
    """The ASGI application (imports Starlette only when called)."""
    from ipsis.serve.app import create_app as _create

    return _create(config)

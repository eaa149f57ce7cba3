"""``GET /``: one self-contained page (inline CSS and JS, no external asset) to paste sources
and an answer, press check, and read the report rendered from ``POST /v1/check``'s JSON."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from ipsis import __version__


@lru_cache(maxsize=1)
def _template() -> str:
    return resources.files("ipsis.serve").joinpath("page.html").read_text(encoding="utf-8")


def page_html(*, auth: bool) -> str:
    """The page; with ``auth`` it shows a token field and sends ``Authorization: Bearer``."""
    config = json.dumps({"auth": auth, "version": __version__})
    return _template().replace("/*CONFIG*/{}", config)

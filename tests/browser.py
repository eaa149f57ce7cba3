"""Headless Debian chromium driven by Playwright, shared by the report and serve browser tests.

No browser is ever downloaded: Playwright launches the system chromium through
``executable_path``. When chromium or Playwright is missing the tests skip loudly, except
under CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


def unavailable(why: str) -> None:
    msg = f"BROWSER TESTS NOT RUN: {why} (install with `apt-get install -y chromium` and `pip install playwright`)"
    if os.environ.get("CI"):
        pytest.fail(msg)
    pytest.skip(msg)


def browser_session() -> Iterator[Any]:
    """A launched chromium for a module-scoped fixture (``yield from browser_session()``)."""
    exe = chromium_path()
    if exe is None:
        unavailable("chromium not found")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("the playwright package is not installed")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=ARGS, headless=True)
        yield b
        b.close()

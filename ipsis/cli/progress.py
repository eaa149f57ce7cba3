"""A progress bar for long PDF extractions, shown on a terminal only (never in pipes)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

LONG_PDF_PAGES = 50  # below this many pages the extraction takes well under a second


@contextmanager
def pdf_progress(min_pages: int = LONG_PDF_PAGES) -> Iterator[Callable[[int, int], None] | None]:
    """Yield a ``progress(done, total)`` callback drawing a bar on stderr when it is a TTY."""
    if not sys.stderr.isatty():
        yield None
        return
    bar: Any = None

    def progress(done: int, total: int) -> None:
        nonlocal bar
        if total < min_pages:
            return
        if bar is None:
            bar = click.progressbar(length=total, label="Extracting pages", file=sys.stderr)
            bar.__enter__()
        bar.update(done - bar.pos)

    try:
        yield progress
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)

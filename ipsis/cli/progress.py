"""A progress bar for long PDF extractions, shown on a terminal only (never in pipes)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

LONG_PDF_PAGES = 50  # below this many pages the extraction takes well under a second


class _Bars:
    """``progress(done, total)`` for page extraction (from :data:`LONG_PDF_PAGES` pages) and
    ``progress.ocr(done, total)`` for OCR, one bar per page from the first (OCR takes seconds
    a page); each bar is closed before the next one opens."""

    def __init__(self, min_pages: int) -> None:
        self.min_pages = min_pages
        self.bar: Any = None
        self.label = ""

    def _draw(self, label: str, done: int, total: int) -> None:
        if self.bar is None or self.label != label:
            self.close()
            self.bar = click.progressbar(length=total, label=label, file=sys.stderr)
            self.bar.__enter__()
            self.label = label
        self.bar.update(done - self.bar.pos)

    def __call__(self, done: int, total: int) -> None:
        if total >= self.min_pages:
            self._draw("Extracting pages", done, total)

    def ocr(self, done: int, total: int) -> None:
        self._draw("OCR pages", done, total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


@contextmanager
def pdf_progress(min_pages: int = LONG_PDF_PAGES) -> Iterator[Callable[[int, int], None] | None]:
    """Yield a ``progress(done, total)`` callback drawing a bar on stderr when it is a TTY (its
    ``ocr`` attribute draws the bar of the OCR pages)."""
    if not sys.stderr.isatty():
        yield None
        return
    bars = _Bars(min_pages)
    try:
        yield bars
    finally:
        bars.close()

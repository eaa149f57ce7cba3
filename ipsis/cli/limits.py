"""The limit options shared by the commands that read inputs, and the hard watchdog.

The library checks time cooperatively (between PDF pages, after parsing); the watchdog is the
CLI's backstop for time spent inside a parser: past the limit plus a grace period, it prints a
clear error and ends the process with exit code 2 instead of hanging.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from ipsis.limits import DEFAULT_LIMITS, MB, Limits

GRACE = 5.0
"""Seconds the watchdog waits past ``--timeout`` before it ends the process."""


def limit_options(f: Any) -> Any:
    """``--max-input-mb``, ``--max-pages``, ``--max-records``, ``--max-quote-chars``, ``--timeout``,
    ``--max-text-ratio``."""
    d = DEFAULT_LIMITS
    options = [
        ("--max-input-mb", click.FloatRange(0), d.max_input_bytes / MB, "Largest input (and inflated PDF stream), MB."),
        ("--max-pages", click.IntRange(0), d.max_pages, "Most pages read from one PDF."),
        ("--max-records", click.IntRange(0), d.max_records, "Most citation records in one input."),
        ("--max-quote-chars", click.IntRange(0), d.max_quote_chars, "Longest quote (and prefix, suffix), characters."),
        ("--timeout", click.FloatRange(0), d.timeout, "Seconds to read one document."),
        ("--max-text-ratio", click.FloatRange(0), d.max_text_ratio, "Most text characters per input byte."),
    ]
    for flag, kind, default, text in reversed(options):
        f = click.option(flag, type=kind, default=default, show_default=True, help=text + " 0 = no limit.")(f)
    return f


def make_limits(
    max_input_mb: float,
    max_pages: int,
    max_records: int,
    max_quote_chars: int,
    timeout: float,
    max_text_ratio: float = DEFAULT_LIMITS.max_text_ratio,
) -> Limits:
    return Limits(
        max_input_bytes=int(max_input_mb * MB),
        max_pages=max_pages,
        max_records=max_records,
        max_quote_chars=max_quote_chars,
        timeout=timeout,
        max_text_ratio=max_text_ratio,
    )


def pop_limits(opts: dict[str, Any]) -> Limits:
    """Take the limit options out of a command's ``**opts`` and build the record."""
    keys = ("max_input_mb", "max_pages", "max_records", "max_quote_chars", "timeout", "max_text_ratio")
    return make_limits(*(opts.pop(k) for k in keys))


@contextmanager
def watchdog(seconds: float, name: str) -> Iterator[None]:
    """End the process with a clear message (exit 2) if the block runs past ``seconds`` + grace."""
    if not seconds:
        yield
        return

    def fire() -> None:
        sys.stderr.write(
            f"ipsis: error: {name}: reading took more than {seconds:g} s (stopped by the watchdog); "
            "raise --timeout or split the document\n"
        )
        sys.stderr.flush()
        os._exit(2)

    timer = threading.Timer(seconds + GRACE, fire)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()

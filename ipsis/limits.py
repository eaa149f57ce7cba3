"""Limits on what one run reads: one record shared by the readers, record parsing and the CLI.

Every limit has a clear message that names the input, the limit and the option that raises it
(``--max-input-mb``, ``--max-pages``, ``--max-records``, ``--max-quote-chars``, ``--timeout``,
``--max-text-ratio``);
0 switches a limit off. ``timeout`` is checked between pages and after parsing (a cooperative
:class:`Deadline`); the CLI adds a hard watchdog for time spent inside a parser.

>>> Limits().quote_problem("x" * 10)
>>> Limits(max_quote_chars=5).quote_problem("x" * 10)
'the quote is 10 characters, more than the limit of 5; raise --max-quote-chars or cite a shorter passage'
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ipsis.errors import InputError

MB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Limits:
    """How much one run reads (0 = no limit).

    - ``max_input_bytes``: size of one input file or stream, and of any PDF content stream once
      inflated (a decompression bomb is refused before the PDF engine inflates it).
    - ``max_pages``: pages of one PDF.
    - ``max_records``: citation records in one input.
    - ``max_quote_chars``: characters of one quote (a longer one is an ``invalid_record``).
    - ``timeout``: seconds to read one document.
    - ``max_text_ratio``: characters of text one input byte may yield, past the first
      :data:`TEXT_FLOOR` characters (an amplification bomb: a small PDF whose thousands of pages
      all draw one content stream). Real documents give under 1 (the corpus' most is 0.67).
    """

    max_input_bytes: int = 100 * MB
    max_pages: int = 5_000
    max_records: int = 10_000_000
    max_quote_chars: int = 100_000
    timeout: float = 120.0
    max_text_ratio: float = 100.0

    def __post_init__(self) -> None:
        for name in ("max_input_bytes", "max_pages", "max_records", "max_quote_chars", "timeout", "max_text_ratio"):
            if getattr(self, name) < 0:
                msg = f"limit {name} must be 0 (no limit) or more, got {getattr(self, name)}"
                raise InputError(msg)

    def check_size(self, size: int, name: str, what: str = "") -> None:
        """Refuse an input (or, with ``what``, a part of it) larger than ``max_input_bytes``.

        >>> try:
        ...     Limits(max_input_bytes=MB).check_size(3 * MB, "big.html")
        ... except InputError as exc:
        ...     print(str(exc)[:53])
        big.html is 3.0 MB, more than the limit of 1.0 MB; ra
        """
        if self.max_input_bytes and size > self.max_input_bytes:
            subject = f"{name}: {what}" if what else name
            msg = (
                f"{subject} is {_mb(size)}, more than the limit of {_mb(self.max_input_bytes)}; "
                "raise --max-input-mb if the file is genuine"
            )
            raise InputError(msg)

    def check_pages(self, pages: int, name: str) -> None:
        if self.max_pages and pages > self.max_pages:
            msg = f"{name} has {pages} pages, more than the limit of {self.max_pages}; raise --max-pages or split it"
            raise InputError(msg)

    def check_text(self, chars: int, size: int, name: str, where: str = "") -> None:
        """Refuse ``chars`` characters of text read from ``size`` input bytes past the ratio.

        >>> try:
        ...     Limits().check_text(3_300_000, 32_768, "pages.pdf", "page 540 of 4000")
        ... except InputError as exc:
        ...     print(str(exc)[:85])
        pages.pdf (page 540 of 4000): 3,300,000 characters of text from 32,768 bytes is more
        """
        if self.max_text_ratio and chars > max(TEXT_FLOOR, self.max_text_ratio * size):
            at = f" ({where})" if where else ""
            msg = (
                f"{name}{at}: {chars:,} characters of text from {size:,} bytes is more than "
                f"{self.max_text_ratio:g} per byte (pages or objects drawn over and over: an amplification "
                "bomb?); raise --max-text-ratio if the file is genuine"
            )
            raise InputError(msg)

    def check_records(self, count: int, name: str) -> None:
        if self.max_records and count > self.max_records:
            msg = f"{name} has more than {self.max_records} records; raise --max-records or split the input"
            raise InputError(msg)

    def quote_problem(self, quote: str, what: str = "the quote") -> str | None:
        """Why a quote (or its prefix, suffix, claim) is refused for its length, or ``None``."""
        if self.max_quote_chars and len(quote) > self.max_quote_chars:
            return (
                f"{what} is {len(quote)} characters, more than the limit of {self.max_quote_chars}; "
                "raise --max-quote-chars or cite a shorter passage"
            )
        return None

    def deadline(self, name: str) -> Deadline:
        return Deadline(self.timeout, name)


class Deadline:
    """A cooperative time limit: :meth:`check` raises once ``seconds`` have passed."""

    __slots__ = ("end", "name", "seconds")

    def __init__(self, seconds: float, name: str) -> None:
        self.seconds = seconds
        self.name = name
        self.end = time.monotonic() + seconds if seconds else float("inf")

    def check(self, where: str = "") -> None:
        if time.monotonic() > self.end:
            at = f" ({where})" if where else ""
            msg = f"{self.name}: reading took more than {self.seconds:g} s{at}; raise --timeout or split the document"
            raise InputError(msg)


TEXT_FLOOR = 1_000_000
"""Characters of text any input may yield whatever its size (``max_text_ratio`` counts past them)."""


def _mb(size: int) -> str:
    return f"{size / MB:.1f} MB"


DEFAULT_LIMITS = Limits()

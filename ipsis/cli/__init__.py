"""The ``ipsis`` command line: thin click commands over the library.

Each command lives in a module of this package and registers itself on :data:`main`;
importing the modules below is what adds them.
"""

from __future__ import annotations

from ipsis.cli import check as _check  # noqa: F401  check
from ipsis.cli import core as _core  # noqa: F401  text, locate, describe, verify
from ipsis.cli import history as _history  # noqa: F401  diff, store affected
from ipsis.cli import sections as _sections  # noqa: F401  sections
from ipsis.cli import serve as _serve  # noqa: F401  serve
from ipsis.cli import store as _store  # noqa: F401  ingest, sources, store check
from ipsis.cli._base import main

__all__ = ["main"]

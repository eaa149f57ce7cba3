"""The ``ipsis`` command line: thin click commands over the library.

Each command lives in a module of this package and registers itself on :data:`main`; the
modules are imported when their command runs (:data:`ipsis.cli._base.LAZY_COMMANDS`), so
start-up stays in milliseconds.
"""

from __future__ import annotations

from ipsis.cli._base import main

__all__ = ["main"]

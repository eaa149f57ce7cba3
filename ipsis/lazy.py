"""Re-exports imported on first use (PEP 562), so that importing a package costs only what is used.

A package lists ``{name: module}`` and sets ``__getattr__ = lazy_exports(__name__, EXPORTS)``;
``from ipsis.sections import segment`` then imports the module that defines ``segment`` and
nothing else of the package (a store-backed ``ipsis verify`` never segments, so it does not
compile the section grammars).

>>> import types
>>> mod = types.ModuleType("demo")
>>> mod.__getattr__ = lazy_exports("demo", {"dedent": "textwrap"})
>>> mod.__getattr__("dedent")("  a")
'a'
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package`` that imports ``exports[name]`` on first use and
    keeps the value in the package's namespace (later look-ups are plain attribute reads)."""

    def getattr_(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            msg = f"module {package!r} has no attribute {name!r}"
            raise AttributeError(msg)
        import importlib

        value = getattr(importlib.import_module(module), name)
        owner = sys.modules.get(package)
        if owner is not None:
            setattr(owner, name, value)
        return value

    return getattr_

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


class LazyPattern:
    """A regular expression compiled on first use (importing a module of patterns costs nothing
    for those a run never tries: a store-backed ``ipsis verify`` of found quotes uses a few of
    the normalization steps' patterns, and ``regex`` itself is imported by the first of its
    patterns used). An attribute read once is kept on the instance, so later calls cost what
    they cost on the compiled pattern.

    ``module`` is ``"re"`` or ``"regex"``; ``pattern`` is the text, or a function giving it
    (when building it needs the module: ``regex.escape``); ``flags`` names the module's flags.

    >>> p = LazyPattern("re", r"\\d+", ("IGNORECASE",))
    >>> p.findall("art. 5, art. 12"), p.pattern, p.compiled().flags & 2
    (['5', '12'], '\\\\d+', 2)
    """

    def __init__(self, module: str, pattern: str | bytes | Callable[[], str], flags: tuple[str, ...] = ()) -> None:
        self._source = (module, pattern, flags)

    def compiled(self) -> Any:
        """The compiled pattern (compiled once)."""
        done = self.__dict__.get("_compiled")
        if done is None:
            import importlib

            name, pattern, flags = self._source
            mod = importlib.import_module(name)
            bits = 0
            for flag in flags:
                bits |= getattr(mod, flag)
            done = self.__dict__["_compiled"] = mod.compile(pattern() if callable(pattern) else pattern, bits)
        return done

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # copy, pickle and the like ask for protocol methods: not the pattern's
            raise AttributeError(name)
        value = getattr(self.compiled(), name)
        self.__dict__[name] = value
        return value

    def __reduce__(self) -> tuple[Any, ...]:
        return (LazyPattern, self._source) if not callable(self._source[1]) else (_compiled_again, (self.compiled(),))


def _compiled_again(pattern: Any) -> Any:
    return pattern

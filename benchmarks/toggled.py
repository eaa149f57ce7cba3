"""A step of a module switched off and on in interleaved rounds, so that the machine's load hits
both runs alike; used by ``pdfscripts.py`` and ``pdfspaces.py`` (a step of the sparse PDF
reader replaced by a function that finds nothing)."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar

T = TypeVar("T")


def with_and_without(
    module: ModuleType, off: dict[str, Callable[..., Any]], run: Callable[[], tuple[float, T]], rounds: int
) -> tuple[float, float, T, T]:
    """Median seconds of ``run`` with ``module``'s functions as they are and with those named in
    ``off`` replaced, and what the last run of each returned; the real functions are put back."""
    real = {name: getattr(module, name) for name in off}
    on: list[float] = []
    without: list[float] = []
    try:
        for _ in range(rounds):
            for name, fn in real.items():
                setattr(module, name, fn)
            t, with_value = run()
            on.append(t)
            for name, fn in off.items():
                setattr(module, name, fn)
            t, without_value = run()
            without.append(t)
    finally:
        for name, fn in real.items():
            setattr(module, name, fn)
    return statistics.median(on), statistics.median(without), with_value, without_value

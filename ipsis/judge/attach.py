"""Add the second-stage ``support`` to verification results (kept for callers of ``attach_support``).

The one mechanism is :func:`ipsis.judge.records.finish_records`: only a ``located`` quote reaches
a judge (the passage around that one place); a record with a claim whose quote was not located
gets a ``not_judged`` warning; a record with a claim and no quote gets a retrieved passage.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ipsis.judge import Judge
from ipsis.judge.context import DEFAULT_WINDOW
from ipsis.judge.records import CitedSources, finish_records
from ipsis.verify.policy import Policy
from ipsis.verify.records import Resolver
from ipsis.verify.result import Result


def attach_support(
    records: Iterable[Any],
    results: Iterable[Result],
    resolve: Resolver,
    policy: Policy,
    judge: Judge,
    window: int = DEFAULT_WINDOW,
) -> Iterator[Result]:
    """Yield ``results`` (one per record, in order) with ``support`` added where a claim was judged."""
    yield from finish_records(list(records), results, CitedSources(resolve), policy, judge, window)

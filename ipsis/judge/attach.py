"""Add the second-stage ``support`` to verification results (``ipsis verify --judge``).

Only a ``located`` quote reaches a judge: the judge reads the passage around that one place.
A record with a claim whose quote was not located gets a ``not_judged`` warning instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ipsis.judge import Judge, judge_claim
from ipsis.judge.context import DEFAULT_WINDOW
from ipsis.verify.policy import Policy
from ipsis.verify.records import Resolver
from ipsis.verify.result import LOCATED, Result


def attach_support(
    records: Iterable[Any],
    results: Iterable[Result],
    resolve: Resolver,
    policy: Policy,
    judge: Judge,
    window: int = DEFAULT_WINDOW,
) -> Iterator[Result]:
    """Yield ``results`` (one per record, in order) with ``support`` added where a claim was judged."""
    for record, result in zip(records, results, strict=False):
        claim = record.get("claim") if isinstance(record, dict) else None
        if isinstance(claim, str) and claim.strip():
            if result.status == LOCATED and result.matches and result.source_id is not None:
                doc = resolve(result.source_id)
                if doc is not None:
                    m = result.matches[0]
                    support = judge_claim(claim, doc, (m.start, m.end), policy, judge, window)
                    result.extra["support"] = support.to_json()
            else:
                result.warnings.append(
                    {"kind": "not_judged", "message": f"quote is {result.status}: the claim was not judged"}
                )
        yield result

"""The mutation benchmark at reduced size, with pinned floors (benchmarks/mutations.py).

Floors (issue 6): no meaning-changing case is ever located; at least 98% of faithful cases are
located at the passage's own span; the right reason flag on at least 95% of meaning-changing
cases. Floors are only raised.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.corpus


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("ipsis_bench_mutations", ROOT / "benchmarks" / "mutations.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up while the class is built
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def outcomes() -> Any:
    bench = _bench()
    return bench, bench.run(bench.build(per_kind=4, seed=11))


def test_every_transformation_is_covered(outcomes: Any) -> None:
    bench, out = outcomes
    kinds = {o.case.kind for o in out}
    assert kinds == set(bench.FAITHFUL) | set(bench.MEANING)
    assert len(out) >= 60


def test_meaning_changes_are_never_located(outcomes: Any) -> None:
    bench, out = outcomes
    wrong = [(o.case.kind, o.case.quote, o.result.status) for o in out if o.case.kind in bench.MEANING and o.wrong]
    assert wrong == []


def test_faithful_cases_are_located_at_their_span(outcomes: Any) -> None:
    bench, out = outcomes
    faithful = [o for o in out if o.case.kind in bench.FAITHFUL]
    assert not [o for o in faithful if o.wrong]
    located = sum(o.located for o in faithful)
    assert located >= 0.98 * len(faithful), [(o.case.kind, o.result.message) for o in faithful if not o.located]


def test_meaning_changes_carry_the_right_reason(outcomes: Any) -> None:
    bench, out = outcomes
    meaning = [o for o in out if o.case.kind in bench.MEANING]
    right = sum(o.right_flag for o in meaning)
    misses = [(o.case.kind, o.result.message[:120]) for o in meaning if not o.right_flag]
    assert right >= 0.95 * len(meaning), misses


def test_nearest_spans_are_the_source_text(outcomes: Any) -> None:
    _, out = outcomes
    for o in out:
        n = o.result.nearest
        if n is None:
            continue
        text = o.case.doc.text
        assert text[n["start"] : n["end"]] == n["text"]
        for d in n.get("diff", []):
            assert text[d["start"] : d["end"]] == d["source"]
        for c in n.get("candidates", []):
            assert text[c["start"] : c["end"]] == c["text"]

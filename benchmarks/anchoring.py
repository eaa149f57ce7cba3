"""Anchoring against the public suites of the W3C quote-anchoring engines, side by side.

The cases (tests/cases/anchoring/*.json) are the Hypothesis client's, Apache Annotator's,
dom-anchor-text-quote's and approx-string-match's test cases converted to plain text, plus our
own made from their rules, each naming where it comes from. Two modes:

- exact (``w3c-exact.json``): the literal W3C reading; right when the places selected are
  exactly the expected ones (none, one, or every place of an ambiguous selector).
- fuzzy (``fuzzy.json``): right when the engine points at the expected place (ipsis: the
  located match, or else its nearest passage, which is never called located) or at nothing
  when nothing is expected.

reanchor (``pip install reanchor``), another Python anchoring library, is run on the same cases
when it is installed: exact mode with ``max_method="exact"``, fuzzy mode with its defaults (it
takes no position hint). Prints cases right per engine and mode, the ratio, and µs per case.

    python benchmarks/anchoring.py           # every case, 20 timing rounds
    python benchmarks/anchoring.py --quick   # every case, 2 timing rounds (CI)
    python benchmarks/anchoring.py --show    # also the cases an engine gets wrong
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from ipsis import Document  # noqa: E402
from ipsis.verify import Policy, Result, locate  # noqa: E402

CASES = ROOT / "tests" / "cases" / "anchoring"
MODES = {"exact": "w3c-exact.json", "fuzzy": "fuzzy.json"}

Answer = list[tuple[int, int]] | None
"""The places an engine selects (exact mode), or a one-place list / None (fuzzy mode)."""


def load(mode: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    data = json.loads((CASES / MODES[mode]).read_text(encoding="utf-8"))
    return data, data["cases"]


def policy_for(data: dict[str, Any], case: dict[str, Any]) -> Policy:
    return Policy(**{**data["policy"], **case.get("policy", {})})


def run_ipsis(data: dict[str, Any], case: dict[str, Any]) -> Result:
    doc = Document(case["text"], data["texts"][case["text"]])
    return locate(
        doc,
        case["exact"],
        prefix=case.get("prefix"),
        suffix=case.get("suffix"),
        position=case.get("position"),
        policy=policy_for(data, case),
    )


def ipsis_answer(mode: str, r: Result) -> Answer:
    if mode == "exact":
        return [(m.start, m.end) for m in r.matches] if r.status in ("located", "ambiguous") else []
    if r.status in ("located", "ambiguous"):
        return [(r.matches[0].start, r.matches[0].end)]
    if r.nearest is not None:
        return [(r.nearest["start"], r.nearest["end"])]
    return None


def reanchor_answer(mode: str, data: dict[str, Any], case: dict[str, Any]) -> Answer:
    import reanchor

    sel = reanchor.TextQuoteSelector(case["exact"], case.get("prefix") or "", case.get("suffix") or "")
    text = data["texts"][case["text"]]
    if mode == "exact":
        found = reanchor.resolve_quote(text, sel, reanchor.ResolveOptions(max_method="exact", max_rivals=10_000))
        if found is None:
            return []
        return sorted([(found.start, found.end), *((r.start, r.end) for r in found.rivals)])
    found = reanchor.resolve_quote(text, sel)
    return None if found is None else [(found.start, found.end)]


def right(mode: str, case: dict[str, Any], answer: Answer) -> bool:
    exp = case["expect"]
    if mode == "exact":
        return sorted(answer or []) == sorted(tuple(s) for s in exp["spans"])
    if "any_of" in exp:
        return answer is not None and answer[0] in {tuple(s) for s in exp["any_of"]}
    if exp["span"] is None:
        return answer is None
    return answer is not None and answer[0] == tuple(exp["span"])


def ipsis_right(mode: str, data: dict[str, Any], case: dict[str, Any]) -> tuple[bool, Result]:
    """Right place, and in fuzzy mode ``located`` only when the quote is really there."""
    r = run_ipsis(data, case)
    ok = right(mode, case, ipsis_answer(mode, r))
    if mode == "fuzzy" and ok:
        ok = (r.status == "located") == case["expect"]["located"]
    elif mode == "exact" and ok:
        ok = r.status == case["expect"]["status"]
    return ok, r


def reanchor_available() -> bool:
    try:
        import reanchor  # noqa: F401
    except ImportError:
        return False
    return True


def _timed(fn: Callable[[], Any], rounds: int) -> float:
    t0 = time.perf_counter()
    for _ in range(rounds):
        fn()
    return (time.perf_counter() - t0) / rounds


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="2 timing rounds instead of 20")
    ap.add_argument("--show", action="store_true", help="print the cases each engine gets wrong")
    args = ap.parse_args(argv)
    rounds = 2 if args.quick else 20
    other = reanchor_available()
    if not other:
        print("reanchor is not installed (pip install reanchor): only ipsis is measured")
    print(f"{'mode':6} {'cases':>5} {'ipsis':>6} {'reanchor':>9} {'ipsis µs':>9} {'reanchor µs':>12}")
    for mode in MODES:
        data, cases = load(mode)
        ours = [ipsis_right(mode, data, c) for c in cases]
        n_ours = sum(ok for ok, _ in ours)
        t_ours = _timed(lambda: [run_ipsis(data, c) for c in cases], rounds) / len(cases)  # noqa: B023
        theirs: list[bool] = []
        t_theirs = 0.0
        if other:
            theirs = [right(mode, c, reanchor_answer(mode, data, c)) for c in cases]
            t_theirs = _timed(lambda: [reanchor_answer(mode, data, c) for c in cases], rounds) / len(cases)  # noqa: B023
        cell = f"{sum(theirs):>9}" if other else f"{'-':>9}"
        us = f"{t_theirs * 1e6:>12.0f}" if other else f"{'-':>12}"
        print(f"{mode:6} {len(cases):>5} {n_ours:>6} {cell} {t_ours * 1e6:>9.0f} {us}")
        if other and sum(theirs):
            print(f"       ipsis right / reanchor right = {n_ours / sum(theirs):.2f}")
        if args.show:
            for c, (ok, r) in zip(cases, ours, strict=True):
                if not ok:
                    print(f"  ipsis wrong: {c['label']}: {r.status} {ipsis_answer(mode, r)} ({r.message[:100]})")
            for c, ok in zip(cases, theirs, strict=False):
                if not ok:
                    print(f"  reanchor wrong: {c['label']}: {reanchor_answer(mode, data, c)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

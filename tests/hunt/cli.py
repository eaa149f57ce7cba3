"""The command: per-family figures (``python -m tests.hunt``)."""

from __future__ import annotations

import argparse
import time
from collections import Counter, defaultdict

from tests.hunt.build import build, run
from tests.hunt.core import HELD_OUT_2, HELD_OUT_3, OCR_DOCS, Outcome

_DESCRIPTION = "Near-miss quotes built from real passages, by families: per-family figures."


def table(outcomes: list[Outcome]) -> str:
    by: dict[str, Counter[str]] = defaultdict(Counter)
    expects = {o.case.family: o.case.expect for o in outcomes}
    for o in outcomes:
        by[o.case.family]["cases"] += 1
        by[o.case.family]["WRONG" if o.wrong else "ok"] += 1
        by[o.case.family][o.result.status] += 1
    rows = [f"{'family':24} {'expect':6} {'cases':>5} {'WRONG':>5}  statuses"]
    for fam, c in by.items():
        expect = expects[fam]
        statuses = ", ".join(f"{k} {v}" for k, v in sorted(c.items()) if k not in ("cases", "ok", "WRONG"))
        rows.append(f"{fam:24} {expect:6} {c['cases']:5} {c['WRONG']:5}  {statuses}")
    wrong = sum(o.wrong for o in outcomes)
    rows.append(f"{'total':24} {'':6} {len(outcomes):5} {wrong:5}")
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.hunt", description=_DESCRIPTION)
    ap.add_argument("--quick", action="store_true", help="2 cases per family and document")
    ap.add_argument("--held-out", action="store_true", help="the held-out documents only")
    ap.add_argument("--held-out2", action="store_true", help="the second hunt's held-out documents only")
    ap.add_argument("--held-out3", action="store_true", help="the third hunt's held-out documents only")
    ap.add_argument("--ocr", action="store_true", help="the OCR text layers only (scans/ocr-layer)")
    ap.add_argument("--per-family", type=int, default=12)
    ap.add_argument("--show", action="append", default=[], help="print the wrong cases of FAMILY ('all')")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    docs = OCR_DOCS if args.ocr else HELD_OUT_2 if args.held_out2 else HELD_OUT_3 if args.held_out3 else ()
    cases = build(2 if args.quick else args.per_family, held_out=args.held_out, docs=docs)
    outcomes = run(cases)
    print(table(outcomes))
    print(f"{len(cases)} cases in {time.monotonic() - t0:.1f} s")
    for o in outcomes:
        if o.wrong and ({"all", o.case.family} & set(args.show)):
            s, e = o.case.span
            print(f"\n[{o.case.family}] {o.case.doc.id} -> {o.result.status} ({o.result.tier}, {o.result.steps})")
            print(f"  source: {o.case.doc.text[s:e]!r}")
            print(f"  quote:  {o.case.quote!r}  section={o.case.section!r}")
            print(f"  {o.result.message[:200]}")
    return 1 if any(o.wrong for o in outcomes) else 0

"""Citations across versions: cost of a diff and of each carried citation (issue 24).

Diff: every section of two versions of a norm compared (CF/88 as promulgated in 1988 vs the
2020 compiled text, Senado HTML; with ``--quick`` the BOE XML excerpt on 1978-12-29 vs today),
against the baseline of segmenting both versions in the same run (which a diff needs anyway).
Carry: one quote per section of the older version located there, then carried to the newer one,
against the baseline of locating the same quotes in the older version (what ``verify`` costs).

    python benchmarks/versions.py          # CF/88 1988 -> 2020
    python benchmarks/versions.py --quick  # BOE XML excerpt (CI)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ipsis.document import Document  # noqa: E402
from ipsis.history import diff_documents  # noqa: E402
from ipsis.history.carry import carry  # noqa: E402
from ipsis.ingest import load_document  # noqa: E402
from ipsis.sections import segment  # noqa: E402
from ipsis.sections.versions import document_at  # noqa: E402
from ipsis.verify import Policy, locate  # noqa: E402
from tests.shared import CORPORA  # noqa: E402 - the real documents, never copied


def pair(quick: bool) -> tuple[Document, Document]:
    if quick:
        whole = load_document(CORPORA / "es/constitucion-espanola-boe-api-texto-excerpt.xml", "ce")
        return document_at(whole, "1978-12-29"), whole
    a = load_document(CORPORA / "br/cf88-senado-texto-original-1988.html", "cf88@1988-10-05")
    b = load_document(CORPORA / "br/cf88-senado-compilado-ec108-2020.html", "cf88@2020-08-26")
    return a, b


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the BOE XML excerpt (CI)")
    args = parser.parse_args(argv)
    a, b = pair(args.quick)
    t0 = time.perf_counter()
    for d in (a, b):
        d.sections = None
        segment(d)
    seg = time.perf_counter() - t0
    t0 = time.perf_counter()
    diff = diff_documents(a, b)
    spent = time.perf_counter() - t0
    print(f"{a.id} -> {b.id}: {len(diff.changes)} sections, {diff.counts()}")
    print(f"  diff {spent * 1000:.0f} ms; segmenting both {seg * 1000:.0f} ms (ratio {spent / seg:.1f}x)")
    quotes = []
    for s in a.sections or []:
        line = a.text[s.start : s.end].strip().split("\n")[0]
        if 40 <= len(line) <= 300:
            quotes.append(line)
    quotes = quotes[: 60 if args.quick else 400]
    policy = Policy()
    t0 = time.perf_counter()
    located = [r.matches[0] for r in (locate(a, q, policy=policy) for q in quotes) if r.status == "located"]
    base = time.perf_counter() - t0
    t0 = time.perf_counter()
    statuses: dict[str, int] = {}
    for m in located:
        st = carry(a, m.start, m.end, b, policy)["status"]
        statuses[st] = statuses.get(st, 0) + 1
    spent = time.perf_counter() - t0
    n = max(1, len(located))
    print(f"  carry {len(located)} citations: {spent / n * 1000:.2f} ms each ({statuses})")
    print(f"  baseline locate in the cited version: {base / max(1, len(quotes)) * 1000:.2f} ms each "
          f"(carry/locate {spent / n / max(1e-9, base / max(1, len(quotes))):.1f}x)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Nearest-passage speed: a 200-character quote with a few changes in a 1 MB document.

Prints ms per quote for ipsis (``nearest_passage``: edlib, bounded bit-parallel Myers on a bytes
copy of the view, every local minimum), the ratio to one bare edlib pass over the same bytes
(target <= 1.5x) and to the pass-per-distance search over the whole text it replaced, and, on
the same inputs in the same run, for two obvious baselines: ``difflib.SequenceMatcher``
scoring every window (step 50 characters) and a ``regex`` fuzzy pattern ``(?:quote){e<=k}``.
The baselines are slow, so each gets a time limit and a smaller document if needed; their ms
per quote are scaled to 1 MB (both are linear in the text length), and the scaling is printed.

    python benchmarks/nearest.py           # 20 quotes, 1 MB
    python benchmarks/nearest.py --quick   # 3 quotes, smaller baselines (CI)
"""

from __future__ import annotations

import argparse
import difflib
import random
import statistics
import sys
import time
from pathlib import Path

import edlib
import regex

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from ipsis import Document  # noqa: E402
from ipsis.verify import Policy  # noqa: E402
from ipsis.verify.batch import reference_path  # noqa: E402
from ipsis.verify.grams import grams_of  # noqa: E402
from ipsis.verify.match import document_view, quote_view  # noqa: E402
from ipsis.verify.nearest import _encoded, budget, nearest_passage  # noqa: E402
from tests.shared import SHARED  # noqa: E402 - the real documents, never copied

SOURCES = ["corpora/pt/crp-constituicao-republica-portuguesa.txt", "corpora/rfc/rfc9111.txt", "corpora/rfc/rfc7519.txt"]


def build_text(size: int) -> str:
    base = "\n".join((SHARED / p).read_text(encoding="utf-8-sig") for p in SOURCES)
    parts, total, k = [], 0, 0
    while total < size:
        block = "\n".join(f"[{k}.{i}] {line}" for i, line in enumerate(base.splitlines()))
        parts.append(block)
        total += len(block)
        k += 1
    return "\n".join(parts)[:size]


def mutate(q: str, rng: random.Random, changes: int) -> str:
    chars = list(q)
    for _ in range(changes):
        i = rng.randrange(len(chars))
        chars[i] = rng.choice("xyzqwk")
    return "".join(chars)


def quotes(text: str, n: int, rng: random.Random) -> list[str]:
    out = []
    view = " ".join(text.split())
    while len(out) < n:
        s = view.find(" ", rng.randrange(0, len(view) - 400)) + 1
        out.append(mutate(view[s : s + 200], rng, 6))
    return out


def difflib_best(text: str, q: str, step: int, deadline: float) -> tuple[float, int]:
    best, where = 0.0, -1
    sm = difflib.SequenceMatcher(autojunk=False)
    sm.set_seq2(q)
    for i in range(0, max(1, len(text) - len(q)), step):
        sm.set_seq1(text[i : i + len(q)])
        r = sm.ratio()
        if r > best:
            best, where = r, i
        if time.perf_counter() > deadline:
            return best, -2
    return best, where


def run(size: int, n: int, base_size: int, limit: float) -> None:
    rng = random.Random(5)
    text = build_text(size)
    doc = Document("bench", text)
    policy = Policy()
    t = time.perf_counter()
    document_view(doc, policy.max_tier)
    nearest_passage(doc, "warm up the bytes copy of the view with any quote at all", policy)
    key = (policy.max_tier, ())
    enc = _encoded(doc, document_view(doc, policy.max_tier), key)
    grams = grams_of(doc, enc.data, key, now=True)  # else built after 16 searches of the view
    nearest_passage(doc, "and warm up the 4-gram index's first search with one more quote", policy)
    setup = time.perf_counter() - t
    qs = quotes(text, n, rng)

    def ipsis() -> int:
        return sum(nearest_passage(doc, q, policy) is not None for q in qs)

    def bare() -> int:
        for q in qs:
            qt = quote_view(q, policy.max_tier).text
            edlib.align(enc.encode(qt), enc.data, mode="HW", task="locations", k=budget(len(qt), policy.error_rate))
        return 0

    def without_index() -> int:
        doc.cache[("grams", key)] = False  # the first look with edlib on every chunk
        try:
            return ipsis()
        finally:
            doc.cache[("grams", key)] = grams

    def passes() -> int:
        with reference_path():
            return ipsis()

    wall: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    found = 0
    for _ in range(3):  # interleaved, medians: a busy moment hits every way alike
        for name, fn in (("ipsis", ipsis), ("bare", bare), ("index", without_index), ("passes", passes)):
            t, c = time.perf_counter(), time.process_time()
            out = fn()
            found = out if name == "ipsis" else found
            wall.setdefault(name, []).append((time.perf_counter() - t) / n * 1000)
            cpu.setdefault(name, []).append((time.process_time() - c) / n * 1000)
    w = {k: statistics.median(v) for k, v in wall.items()}
    c = {k: statistics.median(v) for k, v in cpu.items()}
    ours = w["ipsis"]
    k200 = budget(200, 0.2)
    print(f"document {len(text) / 1e6:.2f} M chars; {n} quotes of 200 chars with 6 changes; budget k={k200}")
    once = f"view, bytes and 4-gram index once: {setup:.2f} s"
    print(f"ipsis nearest (edlib, all local minima): {ours:8.1f} ms/quote  ({found}/{n} found; {once})")
    print(
        f"one bare edlib pass (HW, locations, same k):  {w['bare']:8.1f} ms/quote;"
        f" ipsis is {ours / w['bare']:.2f}x it (target <= 1.5x); in CPU time {c['ipsis']:.1f} vs {c['bare']:.1f} ms"
        f" = {c['ipsis'] / c['bare']:.2f}x (medians of 3, interleaved)"
    )
    print(
        f"ipsis nearest without the 4-gram index (edlib on each chunk): {w['index']:6.1f} ms/quote"
        f" = {w['index'] / w['bare']:.2f}x (CPU {c['index'] / c['bare']:.2f}x)"
    )
    print(
        f"ipsis nearest, a pass per distance over the whole text (before): {w['passes']:8.1f} ms/quote"
        f" = {w['passes'] / w['bare']:.2f}x (CPU {c['passes'] / c['bare']:.2f}x)"
    )

    small = text[:base_size]
    scale = len(text) / len(small)
    q = qs[0]
    t = time.perf_counter()
    _, where = difflib_best(small, q, 50, t + limit)
    dt = time.perf_counter() - t
    note = "time limit hit, lower bound" if where == -2 else f"on {len(small) / 1e3:.0f} K chars x{scale:.0f}"
    dl = dt * 1000 * (scale if where != -2 else len(text) / max(1, len(small)))
    print(f"difflib best window (step 50):          {dl:8.0f} ms/quote  ({note}); ratio {dl / ours:,.0f}x")

    tiny = text[: max(2000, base_size // 20)]
    k = 6
    pat = regex.compile(f"(?:{regex.escape(q[:60])}){{e<={k}}}", regex.BESTMATCH)
    t = time.perf_counter()
    pat.search(tiny, timeout=limit)  # type: ignore[call-overload]
    dt = time.perf_counter() - t
    rs = len(text) / len(tiny)
    rf = dt * 1000 * rs * (200 / 60)
    print(
        f"regex fuzzy {{e<={k}}} (60-char head):      {rf:8.0f} ms/quote  (on {len(tiny) / 1e3:.0f} K chars,"
        f" scaled x{rs:.0f} and x3.3 for 200 chars: a lower bound); ratio {rf / ours:,.0f}x"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    if args.quick:
        run(1_000_000, 3, 50_000, 5.0)
    else:
        run(1_000_000, 20, 200_000, 30.0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

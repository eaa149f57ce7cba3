"""Locate speed: 1,000 quotes of 20-300 characters in a 5 MB document.

Prints quotes/second for exact and normalized (typography-tier) quotes, the ratio to the
obvious approach (normalize the text again for each quote, then ``re.finditer``), both run in
this process, and peak memory against the document size. Then, on the speed workload
(``workload.py``), the three ways to find all quotes of one source: a ``str.find`` loop per
quote, one Aho-Corasick pass, and a suffix array (pydivsufsort, optional).

    python benchmarks/locate.py           # full run (5 MB, 1,000 quotes)
    python benchmarks/locate.py --quick   # reduced run for CI
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
import tracemalloc
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from workload import build_text as build_workload  # noqa: E402
from workload import quotes as workload_quotes  # noqa: E402

from ipsis import Document  # noqa: E402
from ipsis.ingest.normalize import normalize  # noqa: E402
from ipsis.verify import Policy, locate  # noqa: E402
from ipsis.verify.batch import find_many  # noqa: E402
from ipsis.verify.match import _cuts_token, document_view, find_all, quote_view  # noqa: E402
from ipsis.verify.nearest import _Encoded  # noqa: E402
from tests.shared import SHARED  # noqa: E402 - the real documents, never copied

SOURCES = ["corpora/rfc/rfc7519.txt", "corpora/rfc/rfc9111.txt", "corpora/pt/crp-constituicao-republica-portuguesa.txt"]


def build_text(size: int) -> str:
    base = "\n".join((SHARED / p).read_text(encoding="utf-8-sig") for p in SOURCES)
    parts, total, k = [], 0, 0
    words = base.split(" ")
    while total < size:
        # each copy differs in every 9th word, as versions of a corpus do, so quotes are mostly unique
        copy = " ".join(f"{w}{k}" if i % 9 == k % 9 and w.isalpha() else w for i, w in enumerate(words))
        block = "\n".join(f"[{k}.{i}] {line}" for i, line in enumerate(copy.splitlines()))
        parts.append(block)
        total += len(block)
        k += 1
    return "\n".join(parts)[:size]


def typographic(q: str) -> str:
    return q.replace('"', "“", 1).replace('"', "”", 1).replace(" ", "\u00a0", 1).replace("\n", " ")


def sample_quotes(text: str, n: int, rng: random.Random) -> list[str]:
    out = []
    while len(out) < n:
        start = rng.randrange(0, len(text) - 400)
        start = text.find(" ", start) + 1
        length = rng.randint(20, 300)
        end = text.rfind(" ", start, start + length)
        q = text[start:end].strip()
        if len(q) >= 20 and "[" not in q[:1]:
            out.append(q)
    return out


def occurrences(text: str, quote: str) -> int:
    """Places of ``quote`` in ``text`` as whole words, counted here without ipsis (a plain
    ``str.find`` loop; a place may not start or end inside a word or a dotted number)."""
    count, i, n = 0, text.find(quote), len(quote)
    while i != -1:
        before = text[i - 1] if i > 0 else " "
        after = text[i + n] if i + n < len(text) else " "
        cut = (quote[0].isalnum() and before.isalnum()) or (quote[-1].isalnum() and after.isalnum())
        cut = cut or (quote[-1].isdigit() and after in ".,-" and text[i + n + 1 : i + n + 2].isdigit())
        cut = cut or (quote[0].isdigit() and before in ".,-" and text[i - 2 : i - 1].isdigit())
        count += not cut
        i = text.find(quote, i + 1)
    return count


def run(size: int, n: int, naive_n: int) -> None:
    rng = random.Random(7)
    text = build_text(size)
    exact = sample_quotes(text, n, rng)
    normal = [typographic(q) for q in exact]
    policy = Policy()

    tracemalloc.start()
    doc = Document("bench", text)
    t0 = time.perf_counter()
    results = [locate(doc, q, policy=policy) for q in exact]
    statuses = Counter(r.status for r in results)
    located = statuses["located"] + statuses["ambiguous"]
    t_exact = time.perf_counter() - t0
    t0 = time.perf_counter()
    located_n = sum(locate(doc, q, policy=policy).status in ("located", "ambiguous") for q in normal)
    t_norm = time.perf_counter() - t0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    t0 = time.perf_counter()
    for q in normal[:naive_n]:
        view = normalize(text, "typography").text
        qn = normalize(q, "typography").text.strip()
        list(re.finditer(re.escape(qn), view))
    t_naive = (time.perf_counter() - t0) / naive_n

    t0 = time.perf_counter()
    for q in exact[:n]:
        text.find(q)
    t_find = (time.perf_counter() - t0) / n

    # independent check: located == the quotes that really occur once, ambiguous == more than once
    counts = [occurrences(text, q) for q in exact]
    once = sum(c == 1 for c in counts)
    wrong = [(q[:60], c, r.status) for q, c, r in zip(exact, counts, results, strict=True) if _expected(c) != r.status]

    mb = len(text.encode()) / 1e6
    print(f"document: {mb:.1f} MB, {len(text):,} code points; {n} quotes of 20-300 characters")
    print(f"exact quotes:       {n / t_exact:9.1f} quotes/s  ({located}/{n} found: {dict(statuses)})")
    print(
        f"independent count:  {once} quotes occur once, {sum(c > 1 for c in counts)} more than once;"
        f" located {statuses['located']}; disagreements {len(wrong)}"
    )
    for w in wrong[:10]:
        print(f"  disagreement: {w}")
    print(f"normalized quotes:  {n / t_norm:9.1f} quotes/s  ({located_n}/{n} found; includes building the views once)")
    print(
        f"naive baseline:     {1 / t_naive:9.2f} quotes/s  (normalize text + re.finditer per quote, {naive_n} quotes)"
    )
    print(f"one str.find pass:  {t_find * 1e3:9.3f} ms/quote; ipsis normalized: {t_norm / n * 1e3:.3f} ms/quote")
    print(f"ratio normalized vs naive: {t_naive / (t_norm / n):.0f}x faster (target >= 10x)")
    print(f"peak memory: {peak / 1e6:.1f} MB = {peak / len(text.encode()):.1f}x the document (target < 10x)")


def batch(text: str, quotes: list[str]) -> None:
    """All quotes of one source together: the str.find loop per quote, one Aho-Corasick pass
    (what ``verify`` does for a block of records), and a suffix array (pydivsufsort, when
    installed): build once, then a binary search per quote. Same places from each."""
    view = document_view(Document("bench", text), "typography").text
    qs = list(dict.fromkeys(quote_view(q, "typography").text for q in quotes))
    t0 = time.perf_counter()
    loop = {q: find_all(view, q) for q in qs}
    t_loop = time.perf_counter() - t0
    t0 = time.perf_counter()
    one = find_many(view, qs, min_quotes=1)
    t_ac = time.perf_counter() - t0
    n = len(qs)
    print(f"{n} distinct quotes of one source, every occurrence, token boundaries:")
    print(f"  str.find loop per quote:        {t_loop / n * 1e3:7.3f} ms/quote")
    print(f"  one Aho-Corasick pass (blocks): {t_ac / n * 1e3:7.3f} ms/quote incl. the automaton; same: {one == loop}")
    try:
        import numpy as np
        import pydivsufsort
    except ImportError:
        print("  suffix array: pydivsufsort not installed (pip install pydivsufsort); skipped")
        return
    t0 = time.perf_counter()
    enc = _Encoded(view)  # one byte per code point, as the nearest-passage search does
    sa = pydivsufsort.divsufsort(enc.data)
    t_build = time.perf_counter() - t0
    t0 = time.perf_counter()
    found = {}
    for q in qs:
        count, left = pydivsufsort.sa_search(enc.data, sa, enc.encode(q))
        starts = np.sort(sa[left : left + count]).tolist()
        found[q] = [s for s in starts if view.startswith(q, s) and not _cuts_token(view, s, s + len(q), q)][:10_000]
    t_sa = time.perf_counter() - t0
    print(
        f"  suffix array: build {t_build:.2f} s ({sa.nbytes / len(view):.0f} bytes per character),"
        f" then {t_sa / n * 1e3:.3f} ms/quote; with the build {(t_build + t_sa) / n * 1e3:.3f} ms/quote;"
        f" same: {found == loop}"
    )


def _expected(count: int) -> str:
    return "located" if count == 1 else "ambiguous" if count > 1 else "not_found"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="reduced run (0.5 MB, 100 quotes)")
    args = ap.parse_args()
    if args.quick:
        run(500_000, 100, 2)
        text = build_workload(500_000)
        batch(text, workload_quotes(text, 100))
    else:
        run(5_000_000, 1000, 3)
        text = build_workload(5_000_000)
        batch(text, workload_quotes(text, 1000))


if __name__ == "__main__":
    main()

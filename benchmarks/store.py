"""Store speed: verify 10,000 records against 1,000 source versions, and the found-elsewhere
look-up against a linear scan of every source, at 100, 1,000 and 10,000 sources.

Sources are generated from the corpus texts (RFC 7519, RFC 9111, the Portuguese constitution):
each is a distinct document of 12 paragraphs of 4 sentences drawn at random from the pooled
sentences (~5 KB), its numbers redrawn (distinct documents cite distinct articles, dates and
amounts), so wording recurs across sources (as it does across versions of a norm) while a
passage that runs across two sentences is, as a rule, in one source only.

Records: 70% quote their cited source, 20% quote another source (not_found, found elsewhere),
10% are altered (a number changed: found nowhere). Figures:

- records/s of ``verify_run`` (locate, found-elsewhere, newer-version check, run record);
- per not_found quote, the found-elsewhere look-up (FTS5 phrase query over the typography view,
  then ``locate`` on the candidates) against a linear scan in the same run (a substring test
  over every source's cached typography view, then ``locate`` on the hits), at each store size.
  The look-up must grow sub-linearly: the script prints the growth exponent.

    python benchmarks/store.py           # full run (10,000 records / 1,000 sources; 100-10,000 sources)
    python benchmarks/store.py --quick   # reduced run for CI
"""

from __future__ import annotations

import argparse
import math
import random
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from ipsis.store import Store, find_elsewhere, verify_run  # noqa: E402
from ipsis.verify import Policy, locate  # noqa: E402
from ipsis.verify.match import document_view, quote_view  # noqa: E402
from ipsis.verify.prepare import prepare_quote  # noqa: E402
from tests.shared import SHARED  # noqa: E402 - the real documents, never copied

TEXTS = ["corpora/rfc/rfc7519.txt", "corpora/rfc/rfc9111.txt", "corpora/pt/crp-constituicao-republica-portuguesa.txt"]
POLICY = Policy()


def sentences() -> list[str]:
    out = []
    for p in TEXTS:
        text = " ".join((SHARED / p).read_text(encoding="utf-8-sig").split())
        out.extend(x for x in re.split(r"(?<=[.;:])\s+(?=[A-ZÁÉÍÓÚ])", text) if 40 < len(x) < 400 and ".." not in x)
    return out


def renumber(sentence: str, rng: random.Random) -> str:
    """Distinct documents cite distinct numbers (articles, sections, dates, amounts)."""
    return re.sub(r"\d+", lambda _: str(rng.randrange(1, 100_000)), sentence)


def make_source(k: int, pool: list[str], rng: random.Random) -> bytes:
    body = "\n\n".join(" ".join(renumber(s, rng) for s in rng.sample(pool, 4)) for _ in range(12))
    return f"Documento {k}\n\n{body}\n".encode()


def across_sentences(text: str, rng: random.Random) -> str:
    """A passage of ~100 characters around a sentence end."""
    ends = [m.end() for m in re.finditer(r"[.;:] (?=[A-ZÁÉÍÓÚ])", text)]
    at = rng.choice(ends)
    s = text.rfind(" ", 0, at - 50) + 1
    e = text.find(" ", at + 50)
    return text[s:e]


def grow(store: Store, start: int, stop: int, pool: list[str], rng: random.Random) -> float:
    t = time.perf_counter()
    for k in range(start, stop):
        store.ingest(make_source(k, pool, rng), f"src{k:05d}", "v1")
    return time.perf_counter() - t


def sample(text: str, rng: random.Random) -> str:
    while True:
        s = text.find(" ", rng.randrange(0, len(text) - 200)) + 1
        e = text.rfind(" ", s, s + rng.randint(60, 160))
        q = text[s:e].strip()
        if len(q) > 40 and ".." not in q and "-\n" not in q:
            return q


def alter(q: str) -> str:
    return re.sub(r"\b(the|a|o|de)\b", "nenhum", q, count=1) if re.search(r"\b(the|a|o|de)\b", q) else "não " + q


def make_records(store: Store, n_sources: int, n: int, rng: random.Random) -> list[dict[str, str]]:
    ids = [f"src{k:05d}-v1" for k in range(n_sources)]
    records = []
    for i in range(n):
        cited = rng.choice(ids)
        kind = i % 10
        own = ids[rng.randrange(len(ids))] if kind in (7, 8) else cited
        doc = store.document(own)
        assert doc is not None
        q = sample(doc.text, rng)
        if kind == 9:
            q = alter(q)
        records.append({"citation_id": f"r{i}", "source_id": cited, "quote": q})
    return records


def linear_scan(store: Store, quote: str, exclude: str, docs: list) -> list[tuple[str, int, int]]:
    prepared, _ = prepare_quote(quote)
    q = quote_view(prepared, POLICY.max_tier).text
    out = []
    for doc in docs:
        if doc.id == exclude or q not in document_view(doc, POLICY.max_tier).text:
            continue
        r = locate(doc, quote, policy=POLICY)
        out.extend((doc.id, m.start, m.end) for m in r.matches if r.status in ("located", "ambiguous"))
    return out


def lookup_figures(store: Store, quotes: list[tuple[str, str]], n_linear: int) -> tuple[float, float, int]:
    docs = [store.document_of(sv) for sv in store.versions()]
    for doc in docs:  # the linear scan gets every view built before timing: it only searches
        document_view(doc, POLICY.max_tier)
    t = time.perf_counter()
    fe_results = [find_elsewhere(store, q, cited, None, POLICY) for cited, q in quotes]
    fe = (time.perf_counter() - t) / len(quotes)
    t = time.perf_counter()
    lin_results = [linear_scan(store, q, cited, docs) for cited, q in quotes[:n_linear]]
    lin = (time.perf_counter() - t) / n_linear
    agree = sum(
        {(sv.id, e["start"], e["end"]) for sv, e in fe_r} == set(lin_r[:10])
        for fe_r, lin_r in zip(fe_results, lin_results)  # noqa: B905 - linear is a prefix
    )
    return fe, lin, agree


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="reduced run for CI")
    args = ap.parse_args()
    sizes = (50, 100, 200) if args.quick else (100, 1_000, 10_000)
    verify_sources, n_records = (100, 300) if args.quick else (1_000, 10_000)
    n_quotes, n_linear = (20, 10) if args.quick else (100, 30)
    rng = random.Random(11)
    pool = sentences()
    with tempfile.TemporaryDirectory() as tmp, Store.open(Path(tmp) / "st", create=True, durable=False) as store:
        built = 0
        # found-elsewhere quotes: from the first sources, cited to a source that lacks them
        lookups: list[tuple[float, float, int, int]] = []
        quotes: list[tuple[str, str]] = []
        for size in sorted({*sizes, verify_sources}):
            took = grow(store, built, size, pool, rng)
            print(f"ingested sources {built:,}..{size:,}: {(size - built) / took:,.0f} versions/s")
            built = size
            if not quotes:
                while len(quotes) < n_quotes:
                    own = store.document(f"src{rng.randrange(size):05d}-v1")
                    assert own is not None
                    q = across_sentences(own.text, rng)
                    cited = f"src{rng.randrange(size):05d}-v1"
                    doc = store.document(cited)
                    if doc is not None and cited != own.id and locate(doc, q).status == "not_found":
                        quotes.append((cited, q))
            if size == verify_sources:
                records = make_records(store, size, n_records, rng)
                t = time.perf_counter()
                run = verify_run(records, store, policy=POLICY)
                took = time.perf_counter() - t
                counts: dict[str, int] = {}
                for r in run.results:
                    counts[r.status] = counts.get(r.status, 0) + 1
                fe = sum(1 for r in run.results if r.found_elsewhere)
                print(
                    f"verify {n_records:,} records against {size:,} source versions: {n_records / took:,.0f} records/s"
                    f" ({took:.1f} s; {counts}; {fe:,} with found_elsewhere)"
                )
            if size in sizes:
                fe_t, lin_t, agree = lookup_figures(store, quotes, n_linear)
                lookups.append((size, fe_t, lin_t, agree))
                print(
                    f"  {size:>6,} sources: found-elsewhere look-up {fe_t * 1000:8.2f} ms/record, "
                    f"linear scan {lin_t * 1000:9.2f} ms/record ({lin_t / fe_t:,.0f}x); "
                    f"same places for {agree}/{n_linear} quotes"
                )
        (n0, f0, l0, _), (n1, f1, l1, _) = lookups[0], lookups[-1]
        exp_fe = math.log(f1 / f0) / math.log(n1 / n0)
        exp_lin = math.log(l1 / l0) / math.log(n1 / n0)
        verdict = "sub-linear" if exp_fe < 1 else "NOT sub-linear"
        print(
            f"growth {n0:,} -> {n1:,} sources: look-up x{f1 / f0:.1f} (exponent {exp_fe:.2f}, {verdict}); "
            f"linear scan x{l1 / l0:.1f} (exponent {exp_lin:.2f})"
        )


if __name__ == "__main__":
    main()

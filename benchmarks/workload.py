"""The shared speed workload: a 5 MB text and 1,000 quotes of 20-300 characters, about a quarter
of them repeated (found in several places), built from the real documents in ../shared.

The text is copies of RFC 7519, RFC 9111 and the Portuguese Constitution; each copy changes every
9th word in three lines out of four (as versions of a corpus differ), and leaves the fourth line
as it is, so a quote taken from such a line is in every copy. ``records`` draws a quarter of the
quotes from those repeated lines. Used by ``locate.py``, ``verify.py`` and the test that compares
the batch path with the per-quote path.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from tests.shared import SHARED  # noqa: E402 - the real documents, never copied

SOURCES = ["corpora/rfc/rfc7519.txt", "corpora/rfc/rfc9111.txt", "corpora/pt/crp-constituicao-republica-portuguesa.txt"]
REPEATED_SHARE = 0.24


def _kept(line_no: int) -> bool:
    return line_no % 4 == 3


def build_text(size: int) -> str:
    base = "\n".join((SHARED / p).read_text(encoding="utf-8-sig") for p in SOURCES)
    lines = base.splitlines()
    parts, total, k = [], 0, 0
    while total < size:
        out = []
        for i, line in enumerate(lines):
            if not _kept(i):
                words = line.split(" ")
                line = " ".join(f"{w}{k}" if j % 9 == k % 9 and w.isalpha() else w for j, w in enumerate(words))
            out.append(line)
        block = "\n".join(out)
        parts.append(block)
        total += len(block) + 1
        k += 1
    return "\n".join(parts)[:size]


def _sample(text: str, rng: random.Random, lo: int, hi: int) -> str | None:
    start = rng.randrange(lo, hi)
    start = text.find(" ", start) + 1
    length = rng.randint(20, 300)
    end = text.rfind(" ", start, start + length)
    q = text[start:end].strip() if end > start else ""
    return q if _clean(q, text[max(0, start - 40) : start]) else None


def _clean(q: str, before: str) -> bool:
    """At least 20 characters, not cut at a line-end hyphen (the view joins ``regu-\nlamento``)
    and not inside a long unbroken token (base64 lines of the RFC examples)."""
    return len(q) >= 20 and not q.endswith("-") and not before.rstrip().endswith("-") and max(map(len, q.split())) < 30


def quotes(text: str, n: int, seed: int = 7) -> list[str]:
    """``n`` quotes, a :data:`REPEATED_SHARE` of them from lines that repeat in every copy."""
    rng = random.Random(seed)
    lines = text.split("\n")
    starts, pos = [], 0
    for i, line in enumerate(lines):
        if _kept(i % (len(lines) or 1)) and len(line) > 60:
            starts.append((pos, pos + len(line)))
        pos += len(line) + 1
    out: list[str] = []
    while len(out) < n:
        q: str | None
        if rng.random() < REPEATED_SHARE and starts:
            a, b = rng.choice(starts)
            q = text[a:b].strip()
            cut = rng.randint(20, 300)
            q = q[:cut].rsplit(" ", 1)[0].strip() if len(q) > cut else q
            q = q if _clean(q, text[max(0, a - 40) : a]) else None
        else:
            q = _sample(text, rng, 0, len(text) - 400)
        if q:
            out.append(q)
    return out


def records(text: str, n: int, source_id: str = "bench", seed: int = 7) -> list[dict[str, str]]:
    return [{"citation_id": f"q{i}", "source_id": source_id, "quote": q} for i, q in enumerate(quotes(text, n, seed))]


def write(folder: Path, size: int, n: int) -> tuple[Path, Path, Path]:
    """The text file, the records (JSONL) and a sources map, written to ``folder``."""
    text = build_text(size)
    src = folder / "workload.txt"
    src.write_text(text, encoding="utf-8")
    recs = folder / "records.jsonl"
    recs.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records(text, n)), encoding="utf-8")
    smap = folder / "sources.json"
    smap.write_text(json.dumps({"bench": str(src)}), encoding="utf-8")
    return src, recs, smap


def main() -> None:
    """Describe the workload (``--quick``: a 0.5 MB one), so that CI runs this module too."""
    import argparse

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="0.5 MB and 100 quotes instead of 5 MB and 1,000")
    args = ap.parse_args()
    size, n = (500_000, 100) if args.quick else (5_000_000, 1000)
    text = build_text(size)
    qs = quotes(text, n)
    repeated = sum(text.find(q) != text.rfind(q) for q in qs)
    print(f"workload: {len(text):,} code points, {n} quotes, {repeated} of them at more than one place")


if __name__ == "__main__":
    main()

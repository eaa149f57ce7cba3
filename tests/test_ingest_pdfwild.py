"""PDFs from the wild (``../shared/corpora/pdf-wild``): every visible word, no invisible ones,
and messages that are true.

Per file, ``tests/cases/pdf-wild/files.json`` pins what a person sees on the page: the quotes
``pdftotext`` reads (:mod:`tests.pdfwild`) are located on their page, except those where
``pdftotext`` itself is wrong (``pdftotext_wrong``, checked against the rendered page) and the
known misses (``known_misses``, each with its reason); ``present`` texts are located on their
page (with the mark kinds they must carry, ``form_field``/``annotation``, and the steps the match
must list, ``script_spacing``), ``printed_furniture``
(a running header or footer quoted by itself) is found on every page it is printed on, flagged
``furniture``, ``absent`` texts (not visible on the page: off the crop box, clipped away) are
never located (a clipped one: ``visible_as`` is what the page shows, found where it is printed);
``warnings``/``error`` are the document warnings and the error the file must give
(``warning_pages``: the pages a warning names; no other file gets a ``garbage_text`` warning,
with any engine). Every engine
reads every file without a traceback or a hang, and an engine named in a message really reads
the file.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from ipsis.errors import IpsisError
from ipsis.ingest import load_document
from ipsis.ingest.pdf import ENGINES
from ipsis.ingest.tesseract import OcrOptions
from ipsis.verify.locate import locate
from tests.pdfwild import check_quotes, have_pdftotext, pdftotext_pages, readable_quotes
from tests.shared import CORPORA

WILD = CORPORA / "pdf-wild"
CASES: list[dict[str, Any]] = json.loads((Path(__file__).parent / "cases" / "pdf-wild" / "files.json").read_text())
BY_FILE = {c["file"]: c for c in CASES}
FAST_QUOTES = 120  # quotes per file in the fast suite (every k-th); the slow run checks all
SMALL = 12  # pages: files up to this size are read with every engine in the fast suite
ENGINE_SECONDS = 120.0  # no engine may take longer than this on one file (a hang)


NO_OCR = OcrOptions(mode="never")
"""The text layers as the PDFs carry them: what the pins describe (OCR of garbage pages, issue 20,
has its own tests; with it TAMReview's control-code pages become readable text)."""


def _load(case: dict[str, Any], engine: str = "pdfium") -> Any:
    return load_document(WILD / case["file"], engine=engine, ocr=NO_OCR)


def _starts(text: str, prefixes: list[dict[str, str]]) -> str | None:
    for p in prefixes:
        if text.startswith(p["text"]):
            return p["text"]
    return None


def _quote_check(case: dict[str, Any], cap: int | None) -> None:
    if not have_pdftotext():
        pytest.fail("pdftotext (poppler-utils) is needed for the pdf-wild measurement; apt-get install poppler-utils")
    quotes = readable_quotes(pdftotext_pages(WILD / case["file"]))
    quotes = [q for q in quotes if _starts(q.text, case.get("pdftotext_wrong", [])) is None]
    if cap and len(quotes) > cap:
        step = len(quotes) / cap
        quotes = [quotes[int(k * step)] for k in range(cap)]
    if case.get("error"):
        return
    doc = _load(case)
    kinds = sorted(w["kind"] for w in doc.meta.get("warnings", []))
    assert kinds == sorted(case.get("warnings", [])), f"{case['file']}: warnings {kinds}"  # none unpinned
    misses = [o for o in check_quotes(doc, quotes) if not o.ok]
    known = case.get("known_misses", [])
    unexplained = [o for o in misses if _starts(o.quote.text, known) is None]
    floor = case.get("min_located_share")
    if floor is not None:  # a file with too many known misses to list (pinned as a share)
        share = 1 - len(misses) / max(1, len(quotes))
        assert share >= floor, f"{case['file']}: {share:.3f} of the quotes located, below {floor}"
        return
    assert not unexplained, f"{case['file']}: " + "; ".join(
        f"p.{o.quote.page} {o.quote.text[:60]!r} -> {o.status} {o.pages}" for o in unexplained[:5]
    )


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_readable_quotes_located_on_their_page(case: dict[str, Any]) -> None:
    _quote_check(case, FAST_QUOTES)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_every_readable_quote(case: dict[str, Any]) -> None:
    _quote_check(case, None)


PINNED = [c for c in CASES if any(c.get(k) for k in ("present", "absent", "printed_furniture", "warnings", "error"))]


@pytest.mark.parametrize("case", PINNED, ids=[c["file"] for c in PINNED])
def test_what_a_person_sees(case: dict[str, Any]) -> None:
    if case.get("error"):
        with pytest.raises(IpsisError, match=case["error"]):
            _load(case)
        return
    doc = _load(case)
    kinds = sorted(w["kind"] for w in doc.meta.get("warnings", []))
    assert kinds == sorted(case.get("warnings", [])), f"{case['file']}: warnings {kinds}"
    for kind, pages in case.get("warning_pages", {}).items():  # the pages a warning names
        assert [w.get("pages") for w in doc.meta["warnings"] if w["kind"] == kind] == [pages], case["file"]
    for item in case.get("present", []):
        r = locate(doc, item["text"])
        assert r.status == "located", f"{case['file']}: {item['text']!r} -> {r.status}: {r.message}"
        m = r.matches[0]
        assert doc.text[m.start : m.end] == m.text
        assert m.page == item["page"], f"{case['file']}: {item['text']!r} on page {m.page}"
        assert set(item.get("flags", [])) <= set(m.flags), f"{case['file']}: flags {m.flags}"
        assert set(item.get("steps", [])) <= set(r.steps), f"{case['file']}: {item['text']!r} steps {r.steps}"
        if kinds:  # a document warning is on every result in it
            assert sorted(w["kind"] for w in r.warnings if w["kind"] in kinds) == kinds
    for item in case.get("printed_furniture", []):  # a running header/footer quoted by itself
        r = locate(doc, item["text"])
        assert r.status == ("ambiguous" if len(item["pages"]) > 1 else "located"), f"{case['file']}: {r.message}"
        assert [m.page for m in r.matches] == item["pages"], f"{case['file']}: {item['text']!r} pages"
        assert all("furniture" in m.flags and doc.text[m.start : m.end] == m.text for m in r.matches)
    for item in case.get("absent", []):
        r = locate(doc, item["text"])
        assert r.status != "located", f"{case['file']}: invisible {item['text']!r} located ({item['why']})"
        if "visible_as" in item:  # clipped: what the page shows is found at each place it is printed
            assert r.status == "not_found", f"{case['file']}: clipped {item['text']!r} -> {r.status}"
            shown = locate(doc, item["visible_as"]["text"])
            assert [m.page for m in shown.matches] == item["visible_as"]["pages"], f"{case['file']}: {shown.message}"
            assert all(doc.text[m.start : m.end] == m.text for m in shown.matches)
        if "visible_once" in item:  # printed once: the visible copy is located, on its page
            r = locate(doc, item["visible_once"]["text"])
            assert r.status == "located", f"{case['file']}: {item['visible_once']['text']!r} -> {r.status}"
            assert r.matches[0].page == item["visible_once"]["page"]


def _pages(case: dict[str, Any]) -> int:
    return int(case.get("pages", 1))


ENGINE_CASES = [(c, e) for c in CASES for e in ENGINES]


def _engine_check(case: dict[str, Any], engine: str) -> None:
    start = time.monotonic()
    try:
        doc = _load(case, engine)
    except IpsisError as exc:
        message = str(exc)
        assert case["file"] in message, f"the message names the file: {message}"
        for other in ENGINES:
            if f"--engine {other} reads" in message:  # a suggested engine must really read it
                _load(case, other)
    else:
        assert doc.text.strip() or doc.meta.get("warnings")
        if "garbage_text" not in case.get("warnings", []):  # no engine warns of garbage where the page reads true
            kinds = [w["kind"] for w in doc.meta.get("warnings", [])]
            assert "garbage_text" not in kinds, f"{case['file']} with {engine}: {doc.meta['warnings']}"
    assert time.monotonic() - start < ENGINE_SECONDS, f"{case['file']} with {engine}: too slow (a hang?)"


@pytest.mark.parametrize(
    ("case", "engine"),
    [(c, e) for c, e in ENGINE_CASES if _pages(c) <= SMALL],
    ids=[f"{c['file']}-{e}" for c, e in ENGINE_CASES if _pages(c) <= SMALL],
)
def test_every_engine_small_files(case: dict[str, Any], engine: str) -> None:
    _engine_check(case, engine)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("case", "engine"),
    [(c, e) for c, e in ENGINE_CASES if _pages(c) > SMALL],
    ids=[f"{c['file']}-{e}" for c, e in ENGINE_CASES if _pages(c) > SMALL],
)
def test_every_engine_large_files(case: dict[str, Any], engine: str) -> None:
    _engine_check(case, engine)


DAMAGED = {
    # no %%EOF and startxref without its offset: pypdf refused the file ("looks truncated")
    "pj_issue6069.pdf": ("Missing value for startxref and junk before magic header", None),
    # /Count 2, but the second kid loops back to itself (qpdf --check: "Loop detected in /Pages
    # structure"; qpdf cannot repair it): one page, the other not in the file
    "pj_Pages-tree-refs.pdf": ("Testcase: ’Pages loop’", "page 2 of 2 is not in the file"),
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("file", list(DAMAGED))
def test_damaged_files_read_as_viewers_read_them(file: str, engine: str) -> None:
    shown, warning = DAMAGED[file]
    doc = _load(BY_FILE[file], engine)
    assert doc.text.strip() == shown  # what pdftoppm renders on the one real page
    messages = [w["message"] for w in doc.meta.get("warnings", []) if w["kind"] == "pages_unreadable"]
    if warning is None or engine == "pdfplumber":  # pdfminer counts the pages it finds: no page missing
        assert messages == []
    else:
        assert len(messages) == 1 and warning in messages[0] and "repair" not in messages[0]

"""Scanned documents: the acceptance of issue 20 on ../shared/corpora/scans (image-only pages,
OCR'd by ipsis) and scans/ocr-layer (Tesseract's own text layer, as OCR tools make it), plus
scans made here from other corpus pages (tests/ocr_cases.py).

Floors: >= 90% of the quotes taken from the original pages' text layer located on the right
page, and no quote whose number, negation, limiter, modal or key word was changed located.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from ipsis.ingest import load_bytes, load_document
from ipsis.verify import locate
from tests import ocr_cases as oc
from tests.shared import CORPORA, corpus

CASES = Path(__file__).parent / "cases" / "ocr" / "scans.json"
SCANS = CORPORA / "scans"
FOLDERS = ("scans", "scans/ocr-layer")
FLOOR = 0.90

needs_tesseract = pytest.mark.skipif(
    shutil.which("tesseract") is None and not os.environ.get("CI"),
    reason="tesseract is not installed (Debian tesseract-ocr); under CI this fails instead",
)
_docs: dict[str, Any] = {}


def scan(rel: str, folder: str) -> Any:
    path = corpus(rel.replace("scans", folder, 1))
    key = str(path)
    if key not in _docs:
        _docs[key] = load_document(path)
    return _docs[key]


def _cases() -> list[Any]:
    data = json.loads(CASES.read_text(encoding="utf-8"))
    return [pytest.param(c, f, id=f"{f}:{c['label']}") for f in FOLDERS for c in data["cases"]]


@needs_tesseract
@pytest.mark.parametrize(("case", "folder"), _cases())
def test_golden_scan_quotes(case: dict[str, Any], folder: str) -> None:
    doc = scan(case["scan"], folder)
    r = locate(doc, case["quote"])
    assert r.status == case["expect"], r.message
    if r.status == "located":
        m = r.matches[0]
        assert m.page == case["page"]
        assert doc.text[m.start : m.end] == m.text
        assert [w["kind"] for w in r.warnings] == case.get("warnings", [])
        if r.tier == "ocr":
            for d in r.extra["ocr"]["differences"]:
                assert d["class"] in ("spacing", "speck", "accent", "glyph")
                assert doc.text[d["start"] : d["end"]] == d["source"]
                assert m.start <= d["start"] <= d["end"] <= m.end
    else:
        assert r.nearest is not None  # a near miss keeps its nearest passage and reasons


@needs_tesseract
@pytest.mark.parametrize("folder", FOLDERS)
def test_scans_floor_and_no_changed_quote_located(folder: str) -> None:
    total = oc.Score()
    for n, (rel, orig, pages, lang) in enumerate(oc.SCANS):
        qs = oc.quotes(oc.page_texts(orig, pages), lang, seed=100 + n)
        oc.score(scan(rel, folder), qs, total)
    assert total.originals >= 24
    assert total.changed_located == 0, total.misses
    assert total.rate >= FLOOR, total.misses


@needs_tesseract
def test_own_ocr_marks_pages_words_and_engine() -> None:
    doc = scan("scans/lgpd-camara-pp2-4-scanned.pdf", "scans")
    ocr = doc.meta["ocr"]
    assert ocr["engine"].startswith("tesseract ") and "tesseract" in doc.meta["extractor_version"]
    assert [p["page"] for p in ocr["pages"]] == [1, 2, 3]
    assert [m.kind for m in doc.marks if m.kind == "ocr"] == ["ocr"] * 3
    for p in ocr["pages"]:
        assert p["dpi"] == 200  # the scan's own resolution (1724 px over 620.64 pt)
        assert 0 < p["confidence"] <= 100
        for s, e, x0, y0, x1, y1, conf in p["words"]:
            word = doc.text[s:e]
            assert word and not any(c.isspace() for c in word)
            assert doc.page_of(s) == p["page"]
            assert 0 <= x0 < x1 <= p["width"] + 1 and 0 <= y0 < y1 <= p["height"] + 1
            assert -1 <= conf <= 100


def test_text_layer_of_another_tool_is_detected_as_ocr_text() -> None:
    doc = scan("scans/constitucion-espanola-pp5-6-scanned.pdf", "scans/ocr-layer")
    assert doc.meta["ocr"]["mode"] == "auto" and "engine" not in doc.meta["ocr"]  # nothing OCR'd here
    assert [p["source"] for p in doc.meta["ocr"]["pages"]] == ["text layer", "text layer"]
    words = doc.meta["ocr"]["pages"][0]["words"]
    assert words and all(doc.text[s:e].strip() == doc.text[s:e] != "" for s, e, *_ in words)
    # a born-digital PDF's text is not OCR text
    born = load_document(corpus("es/constitucion-espanola-boe-consolidado-2024-02-17.pdf"))
    assert "ocr" not in born.meta and not [m for m in born.marks if m.kind == "ocr"]


def test_ocr_noise_needs_ocr_pages_or_the_ocr_tier() -> None:
    doc = scan("scans/lgpd-camara-pp2-4-scanned.pdf", "scans/ocr-layer")
    quote = "Consideram-se coletados no território nacional os dados pessoais cujo titular nele se encontre"
    from ipsis.verify.policy import Policy

    assert locate(doc, quote).status == "located"
    off = locate(doc, quote, policy=Policy(ocr_noise=False))
    assert off.status == "not_found" and off.nearest is not None


def _degraded(sets: tuple[tuple[str, tuple[int, ...], str], ...], seed0: int) -> oc.Score:
    total = oc.Score()
    for n, (rel, pages, lang) in enumerate(sets):
        doc = load_bytes(oc.degrade(rel, pages, seed=seed0 + n), f"d{n}", f"{Path(rel).name}")
        oc.score(doc, oc.quotes(oc.page_texts(rel, pages), lang, seed=seed0 + n), total)
    return total


@pytest.mark.slow
@needs_tesseract
@pytest.mark.parametrize("which", ["dev", "held-out"])
def test_degraded_corpus_pages(which: str) -> None:
    pytest.importorskip("PIL")
    total = _degraded(oc.DEV if which == "dev" else oc.HELD_OUT, 0 if which == "dev" else 50)
    assert total.changed_located == 0, total.misses
    assert total.rate >= 0.85, total.misses

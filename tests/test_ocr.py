"""OCR: Tesseract hOCR into pages, words and characters, the engine and its errors (exit 2 naming the
Debian package), OCR noise classes, the store keeping OCR text with its engine, and the CLI."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ipsis.cli import main
from ipsis.errors import OcrUnavailableError
from ipsis.ingest import load_document
from ipsis.ingest.ocr import OcrOptions, engine, usable
from ipsis.verify.ocr import NOISE_CLASSES, differences
from tests.shared import CORPORA

ROOT = Path(__file__).resolve().parent.parent
CASES = Path(__file__).parent / "cases" / "ocr" / "differences.json"
LGPD_SCAN = CORPORA / "scans" / "lgpd-camara-pp2-4-scanned.pdf"
CE_SCAN = CORPORA / "scans" / "constitucion-espanola-pp5-6-scanned.pdf"
CE_LAYER = CORPORA / "scans" / "ocr-layer" / "constitucion-espanola-pp5-6-scanned.pdf"

needs_tesseract = pytest.mark.skipif(
    shutil.which("tesseract") is None and not os.environ.get("CI"),
    reason="tesseract is not installed (Debian tesseract-ocr); under CI this fails instead",
)


def _difference_cases() -> list[Any]:
    data = json.loads(CASES.read_text(encoding="utf-8"))
    return [pytest.param(c, id=c["quote"][:40]) for c in data["cases"]]


@pytest.mark.parametrize("case", _difference_cases())
def test_difference_classes(case: dict[str, Any]) -> None:
    diffs = differences(case["quote"], case["source"])
    assert [d["class"] for d in diffs] == case["classes"]
    for d in diffs:
        assert case["source"][d["at"] : d["end"]] == d["source"]


def test_digits_and_other_letters_are_never_noise() -> None:
    for q, s in [("art. 10", "art. lo"), ("art. 10", "art. 1O"), ("30 dias", "3o dias"), ("1,5 %", "15 %")]:
        assert all(d["class"] not in NOISE_CLASSES for d in differences(q, s)), (q, s)


def test_usable_text_layer() -> None:
    assert usable("Art. 5º Todos são iguais perante a lei")
    assert not usable("\ufffd" * 40 + " a")
    assert not usable("\ue000\ue001\ue002 \ue003")  # private-use glyph codes of a font without a map
    assert not usable("")


def test_missing_binary_and_language_name_the_debian_packages() -> None:
    with pytest.raises(OcrUnavailableError, match=r"tesseract-ocr .*--ocr never"):
        engine(OcrOptions(binary="no-such-tesseract-here"))
    if shutil.which("tesseract"):
        with pytest.raises(OcrUnavailableError, match=r"--ocr-lang xyz: .*apt-get install tesseract-ocr-xyz"):
            engine(OcrOptions(lang="xyz"))


def test_cli_without_tesseract_exits_2_naming_the_package(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": str(tmp_path), "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "ipsis", "text", str(LGPD_SCAN)], capture_output=True, text=True,
                         env=env, timeout=120, check=False)  # fmt: skip
    assert out.returncode == 2
    assert "tesseract-ocr" in out.stderr and "pages 1-3 need OCR" in out.stderr and "Traceback" not in out.stderr


def test_cli_ocr_never_and_bad_language_exit_2() -> None:
    r = CliRunner().invoke(main, ["text", str(LGPD_SCAN), "--ocr", "never"])
    assert r.exit_code == 2 and "no text layer" in r.output and "--ocr auto" in r.output
    if shutil.which("tesseract"):
        r = CliRunner().invoke(main, ["text", str(LGPD_SCAN), "--ocr-lang", "xyz"])
        assert r.exit_code == 2 and "tesseract-ocr-xyz" in r.output


@needs_tesseract
def test_ocr_always_replaces_a_text_layer_and_names_the_engine() -> None:
    doc = load_document(CE_LAYER, ocr=OcrOptions(mode="always", lang="spa"))
    assert doc.meta["ocr"]["mode"] == "always" and doc.meta["ocr"]["lang"] == "spa"
    assert [p["source"] for p in doc.meta["ocr"]["pages"]] == ["tesseract", "tesseract"]
    assert "Nadie podrá ser obligado a declarar" in doc.text


@needs_tesseract
def test_timeout_applies_to_ocr(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "ipsis", "text", str(LGPD_SCAN), "--timeout", "0.3"],
                         capture_output=True, text=True, env=env, timeout=120, check=False)  # fmt: skip
    assert out.returncode == 2 and "raise --timeout" in out.stderr and "Traceback" not in out.stderr


@needs_tesseract
def test_store_keeps_the_ocr_text_with_its_engine(tmp_path: Path) -> None:
    store = tmp_path / "store"
    r = CliRunner().invoke(
        main, ["ingest", str(CE_SCAN), "--id", "ce-scan", "--store", str(store), "--ocr-lang", "spa"]
    )
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["text", "ce-scan", "--store", str(store), "--format", "json"])
    stored = json.loads(r.output)
    assert "tesseract" in stored["extractor_version"] and stored["ocr"]["lang"] == "spa"
    assert [m["kind"] for m in stored["marks"]].count("ocr") == 2
    import hashlib

    assert stored["ocr"]["text_sha256"] == hashlib.sha256(stored["text"].encode()).hexdigest()
    quote = "Ninguna entrada o registro podrá hacerse en él sin consentimiento del titular"
    r = CliRunner().invoke(main, ["locate", "ce-scan", quote, "--store", str(store), "--format", "json"])
    out = json.loads(r.output)
    assert out["status"] == "located" and out["matches"][0]["page"] == 2
    again = CliRunner().invoke(main, ["ingest", str(CE_SCAN), "--id", "ce-scan", "--store", str(store)])
    assert again.exit_code == 0 and "unchanged" in again.output  # identical bytes: no second OCR run


@needs_tesseract
def test_low_confidence_words_are_named() -> None:
    from ipsis.verify import locate

    doc = load_document(LGPD_SCAN)
    quote = (
        "É vedado o tratamento dos dados a que se refere o inciso III do caput deste artigo por pessoa de"
        " direito privado, exceto em procedimentos sob tutela de pessoa jurídica de direito público"
    )
    r = locate(doc, quote)
    assert r.status == "located" and r.tier == "ocr"
    low = r.extra["ocr"]["low_confidence"]
    words = {(w[0], w[1]): w[6] for p in doc.meta["ocr"]["pages"] for w in p["words"]}
    expected = [k for k, c in words.items() if 0 <= c < 60 and r.matches[0].start <= k[0] < r.matches[0].end]
    assert [(w["start"], w["end"]) for w in low] == sorted(expected)
    assert all(doc.text[w["start"] : w["end"]] == w["text"] for w in low)
    if low:
        assert "low OCR confidence" in r.message
    for d in r.extra["ocr"]["differences"]:  # each difference says how sure Tesseract was there
        confs = [c for (s, e), c in words.items() if s <= d["end"] and d["start"] <= e]
        assert d["confidence"] == min(confs)


def _scan_figures(html: str) -> list[Any]:
    from lxml import html as lhtml

    return lhtml.fromstring(html).xpath("//figure[@class='scan']")


def test_html_report_shows_the_page_image_with_the_quote_word_boxes(tmp_path: Path) -> None:
    import base64
    import struct

    records = tmp_path / "r.jsonl"
    quote = "Ninguna entrada o registro podrá hacerse en él sin consentimiento del titular o resolución judicial"
    changed = "Este derecho podrá ser limitado por motivos políticos."
    rows = [
        {"citation_id": "c1", "source_id": "ce", "quote": quote},
        {"citation_id": "c2", "source_id": "ce", "quote": changed},
    ]
    records.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    out = tmp_path / "r.html"
    r = CliRunner().invoke(
        main, ["verify", str(records), "--source", f"ce={CE_LAYER}", "--format", "html", "-o", str(out)]
    )
    assert r.exit_code == 1, r.output
    [fig] = _scan_figures(out.read_text(encoding="utf-8"))  # the located quote only; a not_found gets none
    assert fig.get("data-page") == "2"
    img = fig.xpath(".//img")[0]
    png = base64.b64decode(img.get("src").removeprefix("data:image/png;base64,"))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (int(img.get("width")), int(img.get("height")))
    doc = load_document(CE_LAYER)
    from ipsis.verify import locate

    m = locate(doc, quote).matches[0]
    words = [w for p in doc.meta["ocr"]["pages"] for w in p["words"] if w[0] < m.end and m.start < w[1]]
    titles = [s.get("title") for s in fig.xpath(".//span[contains(@class, 'ocrbox')]")]
    assert titles == [doc.text[w[0] : w[1]] for w in words]


@needs_tesseract
def test_html_report_crop_from_a_stored_scan(tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert CliRunner().invoke(main, ["ingest", str(CE_SCAN), "--id", "ce", "--store", str(store)]).exit_code == 0
    records = tmp_path / "r.jsonl"
    quote = "Nadie podrá ser obligado a declarar sobre su ideología, religión o creencias."
    records.write_text(json.dumps({"citation_id": "c1", "source_id": "ce", "quote": quote}), encoding="utf-8")
    out = tmp_path / "r.html"
    r = CliRunner().invoke(main, ["verify", str(records), "--store", str(store), "--format", "html", "-o", str(out)])
    assert r.exit_code == 0, r.output
    [fig] = _scan_figures(out.read_text(encoding="utf-8"))
    boxes = fig.xpath(".//span[contains(@class, 'ocrbox')]")
    assert [b.get("title").split(" (")[0] for b in boxes][:2] == ["Nadie", "podrá"]  # Tesseract's words, confidences


def test_progress_bars_switch_from_pages_to_ocr(capsys: pytest.CaptureFixture[str]) -> None:
    from ipsis.cli.progress import _Bars

    bars = _Bars(min_pages=50)
    bars(3, 10)  # a short PDF: no extraction bar
    assert bars.bar is None
    bars.ocr(1, 3)
    assert bars.label == "OCR pages" and bars.bar is not None
    bars.ocr(3, 3)
    bars.close()
    assert "OCR pages" in capsys.readouterr().err


def test_verify_takes_the_ocr_options_for_its_pdf_sources(tmp_path: Path) -> None:
    records = tmp_path / "r.jsonl"
    quote = "Nadie podrá ser obligado a declarar sobre su ideología, religión o creencias."
    records.write_text(json.dumps({"citation_id": "c1", "source_id": "ce", "quote": quote}), encoding="utf-8")
    r = CliRunner().invoke(
        main, ["verify", str(records), "--source", f"ce={CE_SCAN}", "--ocr", "never", "--format", "json"]
    )
    # an unreadable source gives its records a clear result and the run goes on (issue 18)
    (res,) = json.loads(r.output[r.output.index("{") :])["results"]
    assert r.exit_code == 1 and res["status"] == "unknown_source"
    assert "no text layer" in res["message"] and "--ocr auto" in res["message"]
    r = CliRunner().invoke(main, ["verify", str(records), "--source", f"ce={CE_LAYER}", "--ocr", "never"])
    assert r.exit_code == 0, r.output  # an OCR text layer is read (and matched as OCR text) without OCR


def test_an_ocr_layer_read_by_pypdf_is_ocr_text_too() -> None:
    doc = load_document(CE_LAYER, engine="pypdf")
    pages = doc.meta["ocr"]["pages"]
    assert [p["source"] for p in pages] == ["text layer", "text layer"]
    for p in pages:  # word boxes are PDFium's: kept only when the page text is PDFium's own
        assert all(doc.text[s:e].strip() == doc.text[s:e] != "" for s, e, *_ in p["words"])


@needs_tesseract
def test_low_confidence_characters_are_named() -> None:
    from ipsis.ingest.tesseract import LOW_CHAR_CONFIDENCE
    from ipsis.verify.ocr import match_ocr
    from ipsis.verify.policy import Policy

    doc = load_document(LGPD_SCAN)
    chars = [(o, c) for p in doc.meta["ocr"]["pages"] for o, c in p.get("low_chars", [])]
    assert chars and all(c < LOW_CHAR_CONFIDENCE and not doc.text[o].isspace() for o, c in chars)
    o, c = chars[len(chars) // 2]
    start = doc.text.rfind(" ", 0, o - 40) + 1
    end = doc.text.find(" ", o + 40)
    words = doc.text[start:end].split()
    quote = " ".join([words[0] + ",", *words[1:]])  # one speck more than the scan: an OCR-noise match
    [found] = match_ocr(doc, quote, Policy())
    assert found["start"] <= o < found["end"]
    assert {"offset": o, "char": doc.text[o], "confidence": c} in found["low_confidence_chars"]

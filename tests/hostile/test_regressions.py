"""Regression cases for each crash, hang or silent loss the hostile battery found, in process."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ipsis import Document
from ipsis.errors import ExtractionError, InputError, RecordError
from ipsis.ingest import load_bytes
from ipsis.ingest.pdfscan import check_streams
from ipsis.limits import MB, Limits
from ipsis.report import render, write_stream
from ipsis.verify import Policy, locate, verify_records
from ipsis.verify.match import MAX_OCCURRENCES
from ipsis.verify.records import iter_records
from tests.hostile import pdfs
from tests.hostile.battery import ISS, RFC_TXT, wrong_type_records
from tests.shared import CORE_CORPUS, CORPORA

ROOT = Path(__file__).resolve().parents[2]


# --- PDF ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(CORPORA / f for f in CORE_CORPUS if f.endswith(".pdf")), ids=lambda p: p.name)
def test_bomb_scan_passes_every_corpus_pdf_quickly(path: Path) -> None:
    # the first version of the scan looped forever on a font stream of the LGPD guide
    start = time.monotonic()
    check_streams(path.read_bytes(), path.name, Limits())
    assert time.monotonic() - start < 5


def test_decompression_bomb_is_refused_before_the_engine_inflates_it() -> None:
    bomb = pdfs.decompression_bomb(12)
    with pytest.raises(InputError, match=r"bomb\.pdf: a stream \(object 4\) inflates to more than 10\.0 MB"):
        load_bytes(bomb, "bomb", "bomb.pdf", limits=Limits(max_input_bytes=10 * MB))
    doc = load_bytes(bomb, "bomb", "bomb.pdf", limits=Limits(max_input_bytes=20 * MB))
    assert doc.text == "Bomb page text\n"


def test_page_tree_that_lists_itself_names_the_page() -> None:
    # PDFium raised PdfiumError("Failed to load page.") out of the reader; now the pages that
    # load are read and the others are named (issue 18: one bad page does not refuse the file)
    doc = load_bytes(pdfs.self_referencing_pages(), "loop", "loop.pdf")
    assert doc.text.startswith("Loop page text")
    assert doc.meta["pages_unreadable"] == [2]
    (warning,) = doc.meta["warnings"]
    assert warning["kind"] == "pages_unreadable"
    assert warning["message"].startswith("loop.pdf: page 2 of 2 cannot be loaded")


@pytest.mark.parametrize("engine", ["pdfium", "pypdf"])
def test_page_that_pdfium_cannot_load_but_pypdf_skips(engine: str) -> None:
    # fuzz (CI, stop 28): under pypdf the OCR-layer probe asked PDFium for page 1, which PDFium
    # cannot load, and PdfiumError escaped; the two engines also number the pages differently,
    # so PDFium's page i is never taken for pypdf's page i
    doc = load_bytes(pdfs.mistyped_page(), "typo", "typo.pdf", engine=engine)
    assert doc.text.strip() == "Second page text"
    assert "ocr" not in doc.meta
    if engine == "pdfium":
        assert doc.meta["pages_unreadable"] == [1]


@pytest.mark.parametrize("mode", ["never", "auto"])
def test_the_log_says_why_an_image_page_has_no_text(mode: str, caplog: pytest.LogCaptureFixture) -> None:
    # the log said "Tesseract is not installed" whenever an image page stayed empty, also when
    # Tesseract ran and read nothing (a uniform grey image), or with --ocr never
    from ipsis.ingest.tesseract import OcrOptions

    if mode == "auto" and shutil.which("tesseract") is None and not os.environ.get("CI"):
        pytest.skip("tesseract is not installed (Debian tesseract-ocr); under CI this fails instead")
    with caplog.at_level("WARNING", logger="ipsis"):
        doc = load_bytes(pdfs.text_then_image(), "mix", "mix.pdf", ocr=OcrOptions(mode=mode))
    assert doc.text.strip() == "First page text"
    assert doc.meta["pages_without_text_layer"] == [2]
    why = "OCR is off (--ocr never)" if mode == "never" else "OCR read no text there"
    assert f"mix.pdf: pages 2 have images but no text layer ({why})" in caplog.text


def test_object_that_references_itself_under_pypdf() -> None:
    # pypdf raised AttributeError (indirect_reference has no setter) out of the reader
    with pytest.raises(ExtractionError, match=r"self\.pdf: no page can be loaded \(pypdf: AttributeError"):
        load_bytes(pdfs.self_referencing_object(), "self", "self.pdf", engine="pypdf")


@pytest.mark.parametrize("engine", ["pdfium", "pypdf"])
def test_wrong_xref_offsets_are_rebuilt(engine: str) -> None:
    doc = load_bytes(pdfs.broken_xref("Broken xref page"), "x", "x.pdf", engine=engine)
    assert doc.text.strip() == "Broken xref page"


def test_unmapped_glyphs_are_marked_with_their_page() -> None:
    doc = load_bytes(pdfs.unmapped_glyphs(), "fffd", "fffd.pdf")
    assert doc.text.startswith("Readable first page")
    [mark] = [m for m in doc.marks if m.kind == "unmapped_glyph"]
    assert doc.text[mark.start : mark.end] == "\ufffd" * 3
    assert mark.note == "3 unmapped glyphs, page 2"
    assert doc.page_of(mark.start) == 2


def test_page_limit_and_timeout() -> None:
    empty = pdfs.empty_pages(30)
    with pytest.raises(InputError, match=r"e\.pdf has 30 pages, more than the limit of 20; raise --max-pages"):
        load_bytes(empty, "e", "e.pdf", limits=Limits(max_pages=20))
    with pytest.raises(InputError, match=r"e\.pdf: reading took more than 1e-09 s \(page 1 of 30\)"):
        load_bytes(empty, "e", "e.pdf", limits=Limits(timeout=1e-9))


def test_input_size_limit() -> None:
    with pytest.raises(InputError, match=r"a\.txt is 2\.0 MB, more than the limit of 1\.0 MB; raise --max-input-mb"):
        load_bytes(b"x" * (2 * MB), "a", "a.txt", limits=Limits(max_input_bytes=MB))


def test_watchdog_ends_a_stuck_process_with_a_clear_error() -> None:
    code = "import time\nfrom ipsis.cli.limits import watchdog\nwith watchdog(0.01, 'stuck.pdf'):\n    time.sleep(30)"
    env = {"PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=20, env=env)
    assert proc.returncode == 2
    assert proc.stderr.startswith("ipsis: error: stuck.pdf: reading took more than 0.01 s")


# --- HTML / XML ----------------------------------------------------------------------------------

TEXT = "Art. 1º Proteção de dados pessoais"


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
@pytest.mark.parametrize("kind", ["html", "xml"])
def test_wide_encodings(codec: str, kind: str) -> None:
    # UTF-16/32 files were refused as "binary data"
    bom = {"utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff"}.get(codec, b"")
    body = f"<html><body><p>{TEXT}</p></body></html>" if kind == "html" else f'<?xml version="1.0"?><doc>{TEXT}</doc>'
    doc = load_bytes(bom + body.encode(codec), "w", f"w.{kind}")
    assert doc.text.strip() == TEXT


def test_html_meta_utf16_is_ignored_as_the_spec_says() -> None:
    doc = load_bytes(f'<html><meta charset="utf-16"><body>{TEXT}</body></html>'.encode("cp1252"), "m", "m.html")
    assert doc.text.strip() == TEXT


def test_xml_declared_encoding_that_the_bytes_contradict() -> None:
    data = f'<?xml version="1.0" encoding="shift_jis"?><doc>{TEXT}</doc>'.encode()
    doc = load_bytes(data, "m", "m.xml")
    assert doc.text.strip() == TEXT
    assert doc.meta["repaired"] == "declared shift_jis but the bytes are UTF-8; read as UTF-8"


@pytest.mark.parametrize("kind", ["html", "xml"])
def test_a_10_mb_text_node_is_kept_whole(kind: str) -> None:
    # libxml2 silently dropped a text node over 10,000,000 bytes (HTML: empty document)
    words = "palavra " * (10 * MB // 8)
    body = f"<html><body><p>{words}</p></body></html>" if kind == "html" else f"<doc>{words}</doc>"
    doc = load_bytes(body.encode(), "big", f"big.{kind}")
    assert doc.text.strip() == words.strip()


@pytest.mark.parametrize("kind", ["html", "xml"])
def test_deep_nesting(kind: str) -> None:
    open_, close = ("<div>", "</div>") if kind == "html" else ("<a>", "</a>")
    wrap = ("<html><body>", "</body></html>") if kind == "html" else ("<root>", "</root>")
    deep = wrap[0] + open_ * 100_000 + "deep" + close * 100_000 + wrap[1]
    with pytest.raises(ExtractionError, match=rf"deep\.{kind}: elements nested"):
        load_bytes(deep.encode(), "deep", f"deep.{kind}")
    ok = wrap[0] + open_ * 200 + "two hundred levels" + close * 200 + wrap[1]
    assert load_bytes(ok.encode(), "ok", f"ok.{kind}").text.strip() == "two hundred levels"


def test_html_with_only_scripts_is_an_error_not_an_empty_document() -> None:
    with pytest.raises(ExtractionError, match=r"o\.html: the HTML has no visible text"):
        load_bytes(b"<html><body><script>var a = 1;</script></body></html>", "o", "o.html")


# --- records ------------------------------------------------------------------------------------


def _src(sid: str) -> Document | None:
    return Document("rfc", RFC_TXT.read_text(encoding="utf-8")) if sid == "rfc" else None


def test_wrong_types_at_every_field_name_the_field() -> None:
    pairs = wrong_type_records()
    results = list(verify_records([row for _, row in pairs], _src))
    assert len(results) == len(pairs) == 36 and {r.status for r in results} == {"invalid_record"}
    for (field, row), r in zip(pairs, results, strict=True):
        assert r.field_name == field and f"field {field!r} must be" in r.message, (row, r.message)


def test_lone_surrogates_and_long_quotes_are_invalid_records() -> None:
    rows = [
        {"citation_id": "a", "source_id": "rfc", "quote": "The \ud800 claim"},
        {"citation_id": "b\udc00", "source_id": "rfc", "quote": ISS, "prefix": "\udfff"},
        {"citation_id": "c", "source_id": "rfc", "quote": ISS * 3},
    ]
    a, b, c = verify_records(rows, _src, limits=Limits(max_quote_chars=100))
    assert a.message == (
        "record 1: field 'quote': a lone surrogate (U+D800) at code point 4; "
        "send valid UTF-8 (a UTF-16 pair was cut in two)"
    )
    assert b.citation_id == "#2" and "field 'citation_id'" in b.message
    assert c.message.startswith(f"record 3: field 'quote': the quote is {len(ISS) * 3} characters, more than the limit")
    for fmt in ("table", "json", "jsonl", "csv"):
        render([a, b, c], fmt).encode("utf-8")  # printable: no surrogate reaches the output


def test_iter_records_streams_lines_and_stops_at_the_bad_one() -> None:
    good = json.dumps({"citation_id": "a", "source_id": "rfc", "quote": ISS}).encode()
    stream = io.BytesIO(good + b"\n\n" + good + b"\n{broken\n" + good + b"\n")
    it = iter_records(stream, "r.jsonl")
    assert next(it)["citation_id"] == "a" and next(it)["citation_id"] == "a"
    with pytest.raises(RecordError, match=r"r\.jsonl: line 4 is not valid JSON"):
        next(it)


def test_deeply_nested_json_is_a_record_error() -> None:
    with pytest.raises(RecordError, match="nested too deeply"):
        list(iter_records(io.BytesIO(b"[" * 100_000), "d.json"))
    with pytest.raises(RecordError, match=r"d\.jsonl: line 1 is nested too deeply"):
        list(iter_records(io.BytesIO(b'{"a": ' + b"[" * 100_000 + b"\n"), "d.jsonl"))


def test_record_limit() -> None:
    rows = b'{"citation_id": 1, "source_id": "rfc", "quote": "x"}\n' * 4
    with pytest.raises(InputError, match=r"r\.jsonl has more than 3 records; raise --max-records"):
        list(iter_records(io.BytesIO(rows), "r.jsonl", Limits(max_records=3)))


@pytest.mark.parametrize("fmt", ["table", "json", "jsonl", "csv"])
def test_streamed_output_is_byte_for_byte_the_rendered_output(fmt: str) -> None:
    records = [json.loads(line) for line in (ROOT / "examples" / "records.jsonl").read_text().splitlines() if line]
    records += [row for _, row in wrong_type_records()[:5]]
    results = list(verify_records(records, _src))
    run = {"ipsis_version": "x", "policy": Policy().to_json()}
    out = io.StringIO()
    counts = write_stream(iter(results), fmt, out, run=run)
    assert out.getvalue() == render(results, fmt, run=run)
    assert sum(counts.values()) == len(results)
    empty = io.StringIO()
    write_stream(iter([]), fmt, empty, run=run)
    assert empty.getvalue() == render([], fmt, run=run)


# --- quotes ------------------------------------------------------------------------------------


def test_offsets_are_code_points_with_emoji_and_astral_characters() -> None:
    text = "Intro \U0001f600\U0001f600 text. Emoji \U0001f469\u200d\U0001f4bb and \U0001d49c\U0001d4b7 letters stay."
    doc = Document("e", text)
    quote = "Emoji \U0001f469\u200d\U0001f4bb and \U0001d49c\U0001d4b7 letters stay."
    r = locate(doc, quote)
    assert r.status == "located"
    m = r.matches[0]
    # "Intro " 6 + two emoji 2 + " text. " 7 = 15 code points (17 UTF-16 units, 23 UTF-8 bytes)
    assert (m.start, m.end) == (text.index(quote), len(text)) == (15, 45)
    assert json.loads(json.dumps(r.to_json()))["matches"][0]["start"] == 15


def test_rtl_and_mixed_scripts() -> None:
    text = (
        "Preamble. \u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645"
        " and \u05e9\u05dc\u05d5\u05dd words end."
    )
    doc = Document("r", text)
    quote = "\u0628\u0627\u0644\u0639\u0627\u0644\u0645 and \u05e9\u05dc\u05d5\u05dd"
    r = locate(doc, quote)
    assert r.status == "located" and text[r.matches[0].start : r.matches[0].end] == quote


@pytest.mark.parametrize("quote", ["", " \t\n", ".,;:!?", "\u0301\u0327\u0300", "\u200b\u200b"])
def test_degenerate_quotes_never_locate(quote: str) -> None:
    r = locate(Document("d", RFC_TXT.read_text(encoding="utf-8")), quote)
    assert r.status in ("empty_quote", "not_found", "too_short")


def test_a_quote_repeated_100000_times_is_ambiguous_in_bounded_time() -> None:
    # selectors compare every place with every other: 1.3 million places never finished
    text = "palavra " * 100_000
    start = time.monotonic()
    r = locate(Document("p", text), "palavra palavra palavra palavra", policy=Policy(min_length=0))
    assert time.monotonic() - start < 60
    assert r.status == "ambiguous" and len(r.matches) == MAX_OCCURRENCES  # of the 99,997 places
    assert r.message.endswith("(too many to propose a selector for each, over 200: quote more)")
    assert all(m.selector is None for m in r.matches)
    m = r.matches[-1]
    assert text[m.start : m.end] == "palavra palavra palavra palavra"
    few = locate(Document("p", "palavra " * 50), "palavra palavra palavra palavra", policy=Policy(min_length=0))
    assert all(m.selector is not None for m in few.matches)

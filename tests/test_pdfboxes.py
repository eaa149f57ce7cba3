"""Boxes on the PDF page and a highlighted PDF (issue 23).

The check is independent of PDFium: pdfplumber (pdfminer's own parse of the page) lists the
characters whose centre falls inside each box; read in order, they must be the matched text
(compared in the typography view with whitespace left out: pdfplumber has no soft hyphens and
spaces of its own). A highlighted copy is checked with pypdf (one annotation per place) and
with pdftoppm's pixels (the highlight colour over the quote's glyphs).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ipsis.ingest import load_document
from ipsis.ingest.normalize import normalize
from ipsis.pdfannotate import COLOURS
from ipsis.pdfboxes import PdfSource, stored_pages, viewrect
from ipsis.verify import Policy, locate
from tests.shared import CORPORA

pdfplumber = pytest.importorskip("pdfplumber")

ROOT = Path(__file__).resolve().parent.parent
PDFS = {
    "rfc/rfc7519-rfceditor-pdfrfc.pdf": 40,  # one column, running header and footer
    "pdf/gr-fek-2008-syntagma-revision-2col.pdf": 25,  # two columns
    "br/lgpd-senado-edicao-2024.pdf": 25,
    "es/constitucion-espanola-boe-consolidado-2024-02-17.pdf": 25,
}
ENV = {"PYTHONPATH": str(ROOT), "NO_COLOR": "1", "PATH": "/usr/bin:/bin"}


def _squash(text: str) -> str:
    return "".join(normalize(text, "typography").text.split())


def _inside(plumber_page: Any, box: dict[str, float]) -> str:
    chars = [
        c
        for c in plumber_page.chars
        if box["x0"] <= (c["x0"] + c["x1"]) / 2 <= box["x1"] and box["y0"] <= (c["y0"] + c["y1"]) / 2 <= box["y1"]
    ]
    return "".join(c["text"] for c in chars)


@pytest.fixture(scope="module")
def quotes() -> list[tuple[str, Any, Any, int, int]]:
    out = []
    policy = Policy()
    for rel, n in PDFS.items():
        doc = load_document(CORPORA / rel)
        lines = [ln.strip() for ln in doc.text.split("\n") if 40 <= len(ln.strip()) <= 140]
        picked = 0
        for line in lines[:: max(1, len(lines) // (3 * n))]:
            r = locate(doc, line, policy=policy)
            if r.status == "located":
                out.append((rel, doc, r, r.matches[0].start, r.matches[0].end))
                picked += 1
            if picked >= n:
                break
    return out


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The four PDFs ingested into a store: their boxes computed at ingest, kept with the version."""
    from ipsis.store import Store

    with Store.open(tmp_path_factory.mktemp("boxes") / "st", create=True) as st:
        for rel in PDFS:
            st.ingest((CORPORA / rel).read_bytes(), Path(rel).stem, filename=Path(rel).name)
        yield {rel: st.document(Path(rel).stem) for rel in PDFS}


def _sources(how: str, quotes: list[Any], request: pytest.FixtureRequest) -> dict[str, PdfSource]:
    if how == "computed":  # from the original PDF, when a run needs them
        return {rel: PdfSource(doc, (CORPORA / rel).read_bytes()) for rel, doc, *_ in quotes}
    docs = request.getfixturevalue("stored")  # from the store, no PDF opened
    out = {}
    for rel, doc, *_ in quotes:
        assert docs[rel].text == doc.text and docs[rel].page_starts == doc.page_starts
        pages = stored_pages(docs[rel])
        assert pages is not None
        out[rel] = PdfSource(docs[rel], None, pages)
    return out


@pytest.mark.parametrize("how", ["computed", "stored"])
def test_characters_inside_the_boxes_are_the_matched_text(
    how: str, quotes: list[Any], request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert len(quotes) >= 100
    plumbers = {rel: pdfplumber.open(str(CORPORA / rel)) for rel in PDFS}
    sources = _sources(how, quotes, request)
    if how == "stored":
        from ipsis import pdfboxes

        monkeypatch.setattr(pdfboxes, "char_map", None)  # nothing is aligned again
    wrong = []
    try:
        for rel, doc, _r, start, end in quotes:
            boxes = sources[rel].boxes(start, end)
            assert boxes and all(b["x0"] < b["x1"] and b["y0"] < b["y1"] for b in boxes)
            assert {b["page"] for b in boxes} == {doc.page_of(start), doc.page_of(end - 1)}
            seen = "".join(_inside(plumbers[rel].pages[b["page"] - 1], b) for b in boxes)
            if _squash(seen) != _squash(doc.text[start:end]):
                wrong.append((rel, doc.text[start:end], seen))
    finally:
        for p in plumbers.values():
            p.close()
    assert wrong == [], wrong[:3]


def test_a_quote_across_a_page_break_has_boxes_on_both_pages() -> None:
    path = CORPORA / "rfc/rfc7519-rfceditor-pdfrfc.pdf"
    doc = load_document(path)
    quote = "Unlike Public Claim Names, Private Claim Names are subject to collision and should be used with caution."
    m = locate(doc, quote).matches[0]
    boxes = PdfSource(doc, path.read_bytes()).boxes(m.start, m.end)
    pages = sorted({b["page"] for b in boxes})
    assert len(pages) == 2 and pages[1] == pages[0] + 1
    with pdfplumber.open(str(path)) as pl:
        seen = "".join(_inside(pl.pages[b["page"] - 1], b) for b in boxes)
    assert _squash(seen) == _squash(quote)  # the running footer and header between are not boxed


def test_viewrect_names_the_box_from_the_top_left() -> None:
    box = {"page": 9, "x0": 88.8, "y0": 568.7, "x1": 474.9, "y1": 579.1, "page_height": 842.0}
    assert viewrect(box) == "page=9&viewrect=88.80,262.90,386.10,10.40"


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) renders the check")
def test_annotate_writes_highlights_over_the_glyphs(tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    path = CORPORA / "rfc/rfc7519-rfceditor-pdfrfc.pdf"
    records = tmp_path / "r.jsonl"
    rows = [
        {"citation_id": "iss", "source_id": "rfc",
         "quote": "The \"iss\" (issuer) claim identifies the principal that issued the JWT."},
        {"citation_id": "opt", "source_id": "rfc", "quote": "Use of this claim is OPTIONAL."},
    ]  # fmt: skip
    records.write_text("".join(json.dumps(x) + "\n" for x in rows), encoding="utf-8")
    out = tmp_path / "out.pdf"
    cmd = [sys.executable, "-m", "ipsis", "verify", str(records), "--source", f"rfc={path}", "--annotate", str(out),
           "--format", "json"]  # fmt: skip
    r = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=300, check=False)
    assert r.returncode == 1, r.stderr  # the second quote is ambiguous
    results = json.loads(r.stdout)["results"]
    places = sum(len(x["matches"]) for x in results)
    before = sum(len(p.get("/Annots") or []) for p in pypdf.PdfReader(str(path)).pages)
    ours = [
        a.get_object()
        for p in pypdf.PdfReader(str(out)).pages
        for a in (p.get("/Annots") or [])
        if a.get_object().get("/Subtype") == "/Highlight"
    ]
    after = sum(len(p.get("/Annots") or []) for p in pypdf.PdfReader(str(out)).pages)
    assert len(ours) == places and after == before + places
    assert any(str(a["/Contents"]).startswith("iss: located") for a in ours)
    box = results[0]["matches"][0]["boxes"][0]
    png = tmp_path / "page"
    dpi = 72
    subprocess.run(["pdftoppm", "-r", str(dpi), "-f", str(box["page"]), "-l", str(box["page"]), "-png", str(out),
                    str(png)], check=True, timeout=120)  # fmt: skip
    image = next(tmp_path.glob("page*.png"))
    pixels, _, height = _png_pixels(image)
    green = tuple(int(COLOURS["located"][i : i + 2], 16) for i in (0, 2, 4))

    def tint(x0: float, y0: float, x1: float, y1: float) -> float:
        xs = range(int(x0) + 1, int(x1) - 1, 3)
        ys = range(int(height - y1) + 1, int(height - y0) - 1)
        hits = [pixels[y][x] for y in ys for x in xs]
        return sum(1 for p in hits if abs(p[0] - green[0]) < 40 and abs(p[1] - green[1]) < 40
                   and abs(p[2] - green[2]) < 40) / max(1, len(hits))  # fmt: skip

    assert tint(box["x0"], box["y0"], box["x1"], box["y1"]) > 0.4  # the highlight colour under the quote
    assert tint(box["x0"], box["y0"] - 60, box["x1"], box["y1"] - 60) < 0.05  # and not on the lines below


def _png_pixels(path: Path) -> tuple[list[list[tuple[int, int, int]]], int, int]:
    """RGB rows of an 8-bit RGB PNG (what pdftoppm writes), decoded with zlib alone."""
    import struct
    import zlib

    data = path.read_bytes()
    pos, chunks, width = 8, b"", 0
    height = 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert (depth, colour) == (8, 2)
        elif kind == b"IDAT":
            chunks += body
        pos += 12 + n
    raw = zlib.decompress(chunks)
    stride = width * 3
    rows: list[list[tuple[int, int, int]]] = []
    prev = bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 3] if i >= 3 else 0
            b = prev[i]
            c = prev[i - 3] if i >= 3 else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([(line[i], line[i + 1], line[i + 2]) for i in range(0, stride, 3)])
        prev = line
    return rows, width, height


@pytest.fixture(scope="module")
def browser() -> Any:
    from tests.browser import browser_session

    yield from browser_session()


def test_a_store_backed_report_shows_the_printed_page_too(tmp_path: Path) -> None:
    """The store gives the report the version's original bytes (read only when a crop is drawn) for
    every PDF, not only for OCR'd ones: the same figure as a run on the file."""
    from lxml import html as lxml_html

    path = CORPORA / "rfc/rfc7519-rfceditor-pdfrfc.pdf"
    quote = 'The "iss" (issuer) claim identifies the principal that issued the JWT.'
    records = tmp_path / "r.jsonl"
    records.write_text(json.dumps({"citation_id": "iss", "source_id": "rfc", "quote": quote}) + "\n", encoding="utf-8")
    store, out = tmp_path / "st", tmp_path / "report.html"
    for cmd in (["ingest", str(path), "--id", "rfc", "--store", str(store)],
                ["verify", str(records), "--store", str(store), "--format", "html", "-o", str(out)]):  # fmt: skip
        r = subprocess.run([sys.executable, "-m", "ipsis", *cmd], capture_output=True, text=True, env=ENV,
                           timeout=300, check=False)  # fmt: skip
        assert r.returncode == 0, r.stderr
    [fig] = lxml_html.fromstring(out.read_text(encoding="utf-8")).xpath("//figure[contains(@class, 'scan')]")
    assert fig.get("data-page") == "9"
    assert len(fig.xpath(".//span[contains(@class, 'ocrbox')]")) == 2


def test_report_shows_the_printed_page_with_the_quote_outlined(tmp_path: Path, browser: Any) -> None:
    import base64

    from lxml import html as lxml_html

    path = CORPORA / "rfc/rfc7519-rfceditor-pdfrfc.pdf"
    quote = 'The "iss" (issuer) claim identifies the principal that issued the JWT.'
    records = tmp_path / "r.jsonl"
    records.write_text(json.dumps({"citation_id": "iss", "source_id": "rfc", "quote": quote}) + "\n", encoding="utf-8")
    out = tmp_path / "report.html"
    cmd = [sys.executable, "-m", "ipsis", "verify", str(records), "--source", f"rfc={path}", "--format", "html",
           "-o", str(out)]  # fmt: skip
    r = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=300, check=False)
    assert r.returncode == 0, r.stderr
    page_html = out.read_text(encoding="utf-8")
    [fig] = lxml_html.fromstring(page_html).xpath("//figure[contains(@class, 'scan')]")
    assert fig.get("data-page") == "9"
    png = base64.b64decode(fig.xpath(".//img")[0].get("src").removeprefix("data:image/png;base64,"))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(fig.xpath(".//span[contains(@class, 'ocrbox')]")) == 2  # the two line runs of the quote
    tab = browser.new_page(viewport={"width": 1100, "height": 900})
    failed: list[str] = []
    tab.on("requestfailed", lambda req: failed.append(req.url))
    tab.goto(out.as_uri())
    figure = tab.locator("figure.scan").first
    figure.scroll_into_view_if_needed()
    shot = tmp_path / "crop.png"
    artifacts = ROOT / "tests" / "artifacts"
    artifacts.mkdir(parents=True, exist_ok=True)
    figure.screenshot(path=str(artifacts / "report-printed-page-crop.png"))
    figure.screenshot(path=str(shot))
    img = figure.locator("img").bounding_box()
    boxes = [b.bounding_box() for b in figure.locator("span.ocrbox").all()]
    assert img and img["width"] > 200 and all(b is not None for b in boxes)
    for b in boxes:  # every outline lies on the rendered page image
        assert img["x"] - 1 <= b["x"] and b["x"] + b["width"] <= img["x"] + img["width"] + 1
        assert img["y"] - 1 <= b["y"] and b["y"] + b["height"] <= img["y"] + img["height"] + 1
        assert b["width"] > 10 and b["height"] > 3
    assert failed == [] and shot.stat().st_size > 1000
    tab.close()


@pytest.mark.skipif(shutil.which("tesseract") is None or shutil.which("pdftoppm") is None, reason="tesseract, pdftoppm")
def test_pages_read_by_ocr_get_boxes_from_their_words(tmp_path: Path) -> None:
    """A scanned PDF (ipsis's OCR read it): every located quote has boxes on its page, over ink in
    poppler's rendering of the scan, and the store's boxes are the ones computed from the PDF."""
    from ipsis.store import Store

    path = CORPORA / "scans/lgpd-camara-pp2-4-scanned.pdf"
    with Store.open(tmp_path / "st", create=True) as st:
        st.ingest(path.read_bytes(), "scan", filename=path.name)
        doc = st.document("scan")
        assert doc is not None and doc.meta["ocr"]["engine"].startswith("tesseract")
        pages = stored_pages(doc)
        computed = PdfSource(doc, path.read_bytes())
        assert pages is not None
        for p in pages:
            computed.boxes(doc.page_starts[p - 1], doc.page_starts[p - 1] + 1)
        assert computed.cache == pages
        subprocess.run(["pdftoppm", "-r", "72", "-png", str(path), str(tmp_path / "page")], check=True, timeout=120)
        renders = {int(f.stem.rsplit("-", 1)[1]): _png_pixels(f) for f in tmp_path.glob("page-*.png")}
        lines = [ln.strip() for ln in doc.text.split("\n") if 40 <= len(ln.strip()) <= 140]
        checked = 0
        for line in lines[::4]:
            r = locate(doc, line)
            if r.status != "located":
                continue
            m = r.matches[0]
            boxes = PdfSource(doc, None, pages).boxes(m.start, m.end)
            assert boxes and {b["page"] for b in boxes} == {doc.page_of(m.start)}
            for b in boxes:
                pixels, width, height = renders[b["page"]]
                scale = height / b["page_height"]
                rows = range(int((b["page_height"] - b["y1"]) * scale), int((b["page_height"] - b["y0"]) * scale))
                cols = range(int(b["x0"] * scale), min(width, int(b["x1"] * scale)))
                ink = sum(1 for y in rows for x in cols if sum(pixels[y][x]) < 300) / max(1, len(rows) * len(cols))
                assert 0.05 < ink < 0.7, (line, b, ink)  # glyphs under the box, not margin or a black bar
            checked += 1
        assert checked >= 8


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_a_page_whose_box_does_not_start_at_the_origin(tmp_path: Path) -> None:
    """issue1350's page 2 has the media box [0 482 361 792]: the boxes are in its user space, the
    RFC 8118 viewrect and the report's crop count from the visible page's top left (they counted
    from a page of that height at the origin: a top of -348). Checked on poppler's rendering of
    the page (which is the visible box): ink under the box."""
    from ipsis.pdfboxes import from_top_left

    path = CORPORA / "pdf-wild/pj_issue1350.pdf"
    doc = load_document(path)
    source = PdfSource(doc, path.read_bytes())
    quote = "1 month membership, unlimited rentals and beginners climbing class"  # page 2, as printed
    r = locate(doc, quote)
    assert r.status == "located" and doc.page_of(r.matches[0].start) == 2
    (box,) = source.boxes(r.matches[0].start, r.matches[0].end)
    assert box["page_box"] == [0.0, 482.0, 361.0, 792.0] and 482 < box["y0"] < box["y1"] < 792
    x0, top, x1, bottom = from_top_left(box)
    assert viewrect(box) == f"page=2&viewrect={x0:.2f},{top:.2f},{x1 - x0:.2f},{bottom - top:.2f}"
    assert 0 < top < bottom < 310 and 0 < x0 < x1 < 361
    subprocess.run(["pdftoppm", "-r", "72", "-f", "2", "-l", "2", "-png", str(path), str(tmp_path / "p")],
                   check=True, timeout=120)  # fmt: skip
    (png,) = tmp_path.glob("p-*.png")
    pixels, width, height = _png_pixels(png)
    assert (width, height) == (361, 310)

    def ink(y_from: float, y_to: float) -> float:
        cells = [(y, x) for y in range(int(y_from), int(y_to)) for x in range(int(x0), int(x1))]
        return sum(1 for y, x in cells if sum(pixels[y][x]) < 300) / max(1, len(cells))

    assert ink(top, bottom) > 0.05


def test_check_gives_boxes_and_annotates_the_cited_pdf(tmp_path: Path) -> None:
    """``ipsis check`` on an answer citing a stored PDF: the located quote carries its boxes on the
    page (the same as ``verify``'s) and ``--annotate`` writes one Highlight over it."""
    pypdf = pytest.importorskip("pypdf")
    path = CORPORA / "rfc/rfc7519-rfceditor-pdfrfc.pdf"
    quote = 'The "iss" (issuer) claim identifies the principal that issued the JWT.'
    answer = tmp_path / "answer.txt"
    answer.write_text(f"RFC 7519 defines the issuer: \u201c{quote}\u201d [1]\n", encoding="utf-8")
    store, out = tmp_path / "st", tmp_path / "out.pdf"
    base = [sys.executable, "-m", "ipsis"]
    r = subprocess.run([*base, "ingest", str(path), "--id", "rfc", "--store", str(store)], capture_output=True,
                       text=True, env=ENV, timeout=300, check=False)  # fmt: skip
    assert r.returncode == 0, r.stderr
    cmd = [*base, "check", str(answer), "--sources", "rfc", "--store", str(store), "--format", "json",
           "--annotate", str(out)]  # fmt: skip
    r = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=300, check=False)
    assert r.returncode in (0, 1), r.stderr
    (cited,) = json.loads(r.stdout)["citations"]
    assert cited["status"] == "located"
    (match,) = cited["matches"]
    assert [b["page"] for b in match["boxes"]] == [9, 9]  # the sentence's two line runs, page 9
    ours = [
        a.get_object()
        for p in pypdf.PdfReader(str(out)).pages
        for a in (p.get("/Annots") or [])
        if a.get_object().get("/Subtype") == "/Highlight"
    ]
    assert len(ours) == 1 and "located" in str(ours[0]["/Contents"])


@pytest.mark.parametrize("how", ["computed", "stored"])
def test_a_rotated_page_counts_from_its_displayed_top_left(how: str, tmp_path: Path) -> None:
    """pdf.js's rotation.pdf: page 2 has /Rotate 90 (landscape on screen; its text runs up the
    page in user space). The boxes stay in user space (what a Highlight's /Rect needs), one per
    printed line, and the viewrect and the report's crop count on the page as displayed: gold from
    ``pdftotext -bbox-layout``, which gives the displayed page, 'This is my second page. It will
    have a landscape layout.' at x 72.0-342.9, y 92.8-103.6 and 'Second line here.' at x
    72.0-155.0, y 106.6-117.4 (poppler's glyph heights; PDFium's loose boxes differ by a point or
    two)."""
    from ipsis.pdfboxes import from_top_left

    path = CORPORA / "pdf-wild/pj_rotation.pdf"
    doc = load_document(path)
    quote = "This is my second page. It will have a landscape layout. Second line here."
    r = locate(doc, quote)
    assert r.status == "located" and doc.page_of(r.matches[0].start) == 2
    if how == "computed":
        source = PdfSource(doc, path.read_bytes())
    else:
        from ipsis.store import Store

        with Store.open(tmp_path / "st", create=True) as st:
            st.ingest(path.read_bytes(), "rotation", filename=path.name)
            stored_doc = st.document("rotation")
            pages = stored_pages(stored_doc)
        assert pages is not None
        source = PdfSource(stored_doc, None, pages)
    boxes = source.boxes(r.matches[0].start, r.matches[0].end)
    assert len(boxes) == 2 and all(b["rotation"] == 90 for b in boxes)
    gold = [(72.0, 92.8, 342.9, 103.6), (72.0, 106.6, 155.0, 117.4)]
    for box, want in zip(boxes, gold, strict=True):
        assert box["x1"] - box["x0"] < box["y1"] - box["y0"]  # user space: the line runs up the page
        got = from_top_left(box)
        assert all(abs(g - w) <= 3.0 for g, w in zip(got, want, strict=True)), (got, want)
        x0, top, x1, bottom = got
        assert viewrect(box) == f"page=2&viewrect={x0:.2f},{top:.2f},{x1 - x0:.2f},{bottom - top:.2f}"

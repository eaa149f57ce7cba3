"""The store-backed verify's fast paths give exactly what the plain ones give.

- The block's Aho-Corasick pass runs over the view's UTF-8 bytes and maps the byte starts back to
  code points: the same places as ``find_all`` on texts with accents, Greek, CJK, astral
  characters and lone surrogates.
  Each automaton it may build (a contiguous NFA, a DFA) gives those places.
- A stored view's offset map is chained into one map for starts and one for ends
  (:class:`ipsis.spans.Flat`): the same positions as the layer-by-layer look-ups at every
  position of every tier, on real documents and on random edits.
"""

from __future__ import annotations

import random

import pytest

from ipsis.document import LINE_STARTS
from ipsis.ingest import load_document
from ipsis.spans import Edit, OffsetMap
from ipsis.verify import batch
from ipsis.verify.batch import find_many
from ipsis.verify.match import document_view, find_all
from tests.shared import corpus

NON_ASCII = [
    "pt/crp-constituicao-republica-portuguesa.txt",
    "br/lgpd-senado-edicao-2024.pdf",
    "br/lei-13709-2018-lgpd-planalto.html",
]


def _quotes(text: str, rng: random.Random, n: int) -> list[str]:
    out = []
    for _ in range(n):
        start = text.find(" ", rng.randrange(0, max(1, len(text) - 400))) + 1
        end = text.rfind(" ", start, start + rng.randint(20, 200))
        if end - start >= 16:
            out.append(text[start:end].strip())
    return out


@pytest.fixture(params=["nfa", "dfa"])
def automaton(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each automaton ``find_many`` may build (a contiguous NFA holding 32-byte heads, a DFA
    holding 16-byte ones), forced whatever the text's length."""
    if batch.AhoCorasickDFA is None:  # pragma: no cover - ahocorasick-rs without the choice
        pytest.skip("this ahocorasick-rs builds one kind of automaton")
    kind = (batch.AhoCorasick, batch.HEAD_BYTES) if request.param == "nfa" else (batch.AhoCorasickDFA, 16)
    monkeypatch.setattr(batch, "_builder", lambda *_a: kind)
    return str(request.param)


@pytest.mark.parametrize("rel", NON_ASCII)
def test_the_byte_pass_finds_what_find_all_finds_on_non_ascii_text(rel: str, automaton: str) -> None:
    view = document_view(load_document(corpus(rel)), "typography").text
    assert len(view.encode()) > len(view)  # accents: byte and code point offsets differ
    rng = random.Random(4)
    quotes = _quotes(view, rng, 80)
    lines = [line.strip() for line in view.split("\n") if len(line.strip()) >= 16]
    quotes += [line for line in dict.fromkeys(lines) if lines.count(line) > 1][:30]  # repeated lines
    for boundaries in (True, False):
        got = find_many(view, quotes, boundaries=boundaries, min_quotes=1)
        assert got == {q: find_all(view, q, boundaries=boundaries) for q in quotes}
    assert sum(len(v) for v in got.values()) > len(quotes)
    assert any(len(v) > 1 for v in got.values())


def test_the_byte_pass_counts_every_place_among_wide_characters(automaton: str) -> None:
    """Two-, three- and four-byte characters and a lone surrogate before the places: each place
    at its code point, overlapping ones too."""
    unit = "Ολομέλεια — 第五条 𝔸𝔹 \ud800 º 5.º cláusula cláusula cláusula; "
    text = unit * 40
    quotes = ["cláusula cláusula cláusula", "cláusula cláusula", "Ολομέλεια — 第五条 𝔸𝔹", "𝔸𝔹 \ud800 º 5.º cláusula"]
    got = find_many(text, quotes, min_quotes=1)
    assert got == {q: find_all(text, q) for q in quotes}
    assert len(got["cláusula cláusula"]) == 80  # two overlapping places per unit
    for q, starts in got.items():
        assert all(text[s : s + len(q)] == q for s in starts)


def _every_position(om: OffsetMap) -> tuple[list[int], list[int]]:
    return [om.to_source(i) for i in range(len(om) + 1)], [om.to_source_end(i) for i in range(len(om) + 1)]


MAPPED = ["br/lgpd-senado-edicao-2024.pdf", "rfc/rfc7519-rfceditor-pdfrfc.pdf", "rfc/rfc9111.txt"]


@pytest.mark.parametrize("rel", MAPPED)
def test_chained_maps_equal_the_layers_at_every_position(rel: str) -> None:
    doc = load_document(corpus(rel))
    for tier in ("whitespace", "typography", "case", "accents", "ordinals"):
        om = document_view(doc, tier).offsets
        flat = om.with_flat()
        assert flat.flat is not None and om.flat is None
        assert len(flat.flat.start.starts) < 2 * sum(len(layer.o_starts) for layer in om.layers) + 2, tier
        assert _every_position(flat) == _every_position(om), tier
        assert flat == om  # the chained map is not part of the record's value


@pytest.mark.parametrize("seed", range(6))
def test_chained_maps_equal_the_layers_on_random_edits(seed: int) -> None:
    """Insertions, deletions, expansions and contractions, at the start and the end too, in up
    to six layers."""
    rng = random.Random(seed)
    for _ in range(60):
        om = OffsetMap.identity(rng.randint(0, 40))
        for _ in range(rng.randint(1, 6)):
            edits, pos = [], 0
            while pos <= len(om) and len(edits) < 8:
                start = rng.randint(pos, min(len(om), pos + 6))
                end = rng.randint(start, min(len(om), start + 3))
                edits.append(Edit(start, end, "x" * rng.randint(0, 3)))
                pos = end if end > start else end + 1  # adjacent edits too
            om = om.then([e for e in edits if e.end - e.start != len(e.replacement)])  # as steps keep them
        assert _every_position(om.with_flat()) == _every_position(om)


def test_a_stored_view_is_loaded_with_its_chained_map(tmp_path: object) -> None:
    from pathlib import Path

    from ipsis.store import Store

    folder = Path(str(tmp_path)) / "st"
    text = corpus("rfc/rfc9111.txt").read_bytes()
    with Store.open(folder, create=True) as st:
        st.ingest(text, "rfc")
    with Store.open(folder) as st:
        doc = st.document("rfc")
        assert doc is not None
        om = document_view(doc, "typography").offsets
        plain = load_document(corpus("rfc/rfc9111.txt"))
        offsets = [*range(0, len(doc.text), 997), len(doc.text)]
        assert [doc.line_of(i) for i in offsets] == [plain.line_of(i) for i in offsets]
        assert doc.cache.get(LINE_STARTS) is not None and plain.cache.get(LINE_STARTS) is None  # kept, read
        assert doc.line_of(len(doc.text)) == doc.text.count("\n") + 1
    assert om.flat is not None
    computed = document_view(load_document(corpus("rfc/rfc9111.txt")), "typography").offsets
    assert computed.flat is None
    assert _every_position(om) == _every_position(computed)


def test_a_stored_views_bytes_are_its_text_in_utf8(tmp_path: object) -> None:
    """The block's pass over a loaded view runs over the payload's own UTF-8 bytes (not encoded
    again): they are the view's text in UTF-8, and the places found are those of ``find_all``."""
    from pathlib import Path

    from ipsis.store import Store
    from ipsis.verify.batch import prefound
    from ipsis.verify.match import utf8_key

    folder = Path(str(tmp_path)) / "st"
    rel = "pt/crp-constituicao-republica-portuguesa.txt"
    with Store.open(folder, create=True) as st:
        st.ingest(corpus(rel).read_bytes(), "crp")
    with Store.open(folder) as st:
        doc = st.document("crp")
        assert doc is not None
        view = document_view(doc, "typography").text
        text, data = doc.cache[utf8_key("typography")]
        assert text is view and data == view.encode("utf-8", "surrogatepass") and len(data) > len(view)
        quotes = _quotes(view, random.Random(9), 60)
        quotes += ["nos termos da lei", "da Assembleia da República", "os direitos, liberdades e garantias"]
        with prefound(doc, quotes, min_quotes=1):
            got = {q: doc.cache["prefound"][(("typography", (), True), q)] for q in quotes}
    assert got == {q: find_all(view, q) for q in quotes}
    assert any(len(v) > 1 for v in got.values())


def test_the_kept_sign_ranges_are_those_of_the_unicode_database() -> None:
    """``symbol_spacing``'s signs, kept for Python 3.11's Unicode database: the same ranges as
    one ``unicodedata.category`` call per BMP code point (under another database they are
    computed, so the kept ones must hold for the database they name)."""
    import unicodedata

    from ipsis.ingest import signs

    kept = [(int(a, 16), int(b or a, 16)) for a, _, b in (r.partition("-") for r in signs.RANGES.split())]
    if unicodedata.unidata_version == signs.UNIDATA:
        assert kept == signs.computed_ranges()
    assert signs.sign_ranges() == signs.computed_ranges()
    assert len(kept) > 200 and (ord("("), ord("(")) in kept and any(a <= ord("∈") <= b for a, b in kept)


def test_a_store_backed_run_of_found_quotes_loads_no_diagnosis_or_judge(tmp_path: object) -> None:
    """Every quote found once or more: the nearest-passage search and edlib, OCR matching, the
    judge's cues and retrieval, the citation grammars, logging and subprocess, tempfile and shutil
    (blob writes, the terminal's width) and the HTML entity table stay unloaded
    (each is imported by the first record that needs it); the results are those in-process."""
    from pathlib import Path

    from ipsis.store import Store
    from tests.store_util import verify_as_a_process

    folder = Path(str(tmp_path))
    text = corpus("rfc/rfc7519.txt").read_text(encoding="utf-8")
    with Store.open(folder / "st", create=True) as st:
        st.ingest(text.encode(), "rfc")
    rng = random.Random(5)
    quotes = _quotes(text, rng, 60) + ["JSON Web Token (JWT)"] * 3  # repeated: ambiguous
    records = [{"citation_id": str(k), "source_id": "rfc", "quote": q} for k, q in enumerate(quotes)]
    avoided = ("edlib", "ipsis.verify.nearest", "ipsis.verify.grams", "ipsis.verify.ocr", "ipsis.judge.cues",
               "ipsis.judge.retrieve", "ipsis.judge.citations", "logging", "subprocess",
               "tempfile", "shutil", "html.entities")  # fmt: skip
    got, expected, _doc = verify_as_a_process(folder, "rfc", records, avoided)
    assert [{**r, "run_id": None} for r in got] == [{**e, "run_id": None} for e in expected]
    statuses = {r["status"] for r in got}
    assert {"located", "ambiguous"} <= statuses and "not_found" not in statuses
    assert all(text[m["start"] : m["end"]] == m["text"] for r in got for m in r["matches"])


def test_a_sections_record_is_built_once_and_follows_the_documents_work() -> None:
    """Each match's section record comes from one record per section (a fresh dict each time),
    and a work stated after the first look-up still gives the section its URI."""
    from ipsis.formats.ids import declared_work, section_uri
    from ipsis.sections import segment
    from ipsis.verify import locate

    doc = load_document(corpus("br/lei-13709-2018-lgpd-planalto.html"))
    doc.sections = segment(doc)
    doc.meta.pop("work", None)
    quote = "para o cumprimento de obrigação legal ou regulatória pelo controlador"
    first = locate(doc, quote).matches[0].section
    again = locate(doc, quote).matches[0].section
    assert first == again and first is not again and first is not None
    assert first["id"] == "art-7/inc-II" and "uri" not in first
    urn = "urn:lex:br:federal:lei:2018-08-14;13709"
    doc.meta["work"] = declared_work(urn)
    cited = locate(doc, quote).matches[0].section
    assert cited is not None and cited["uri"] == section_uri(doc.meta["work"], "art-7/inc-II") == f"{urn}!art7_cpt_inc2"
    assert {k: v for k, v in cited.items() if k != "uri"} == first

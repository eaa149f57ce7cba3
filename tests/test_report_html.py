"""The HTML report without a browser: structure, spans, escaping, languages, and the terminal table."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from click.testing import CliRunner

from ipsis.cli import main
from ipsis.ingest import load_document
from ipsis.report import in_context, table, use_colour
from ipsis.report.assets import JS, script_hash
from ipsis.report.html import render_check_html, render_html
from ipsis.report.labels import detect_language
from ipsis.sections import segment
from ipsis.verify import locate
from tests.report_fixtures import CRP, EVIL_TEXT, EXPECTED, RECORDS, RFC, run_verify, texts
from tests.shared import ANSWERS, SHARED

LGPD = SHARED / "corpora" / "br" / "lei-13709-2018-lgpd-planalto.html"


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, list[dict[str, Any]], str]:
    out, results = run_verify(tmp_path_factory.mktemp("report"))
    raw = out.read_text(encoding="utf-8")
    return lxml.html.document_fromstring(raw), results, raw


def _cards(tree: Any) -> list[Any]:
    return tree.xpath("//article[contains(@class, 'cit')]")


def test_every_citation_has_a_card_with_its_badge(report: tuple[Any, list[dict[str, Any]], str]) -> None:
    tree, results, _ = report
    cards = _cards(tree)
    assert [c.get("data-cid") for c in cards] == [r["citation_id"] for r in RECORDS]
    assert [c.get("data-status") for c in cards] == [EXPECTED[r["citation_id"]] for r in RECORDS]
    assert [r["status"] for r in results] == [c.get("data-status") for c in cards]
    for c in cards:
        badge = c.xpath(".//span[@data-badge]")[0]
        assert badge.get("data-badge") == c.get("data-status")
        assert badge.text_content() == c.get("data-status").replace("_", " ")  # English labels


def test_highlight_is_the_located_span(report: tuple[Any, list[dict[str, Any]], str]) -> None:
    tree, results, _ = report
    docs = texts()
    by_cid = {c.get("data-cid"): c for c in _cards(tree)}
    rfc = docs["rfc7519"]
    expected_starts = {
        "rfc-iss": rfc.index('The "iss" (issuer) claim identifies the principal that issued the\n   JWT.'),
        "crp-13": docs["crp"].index(RECORDS[4]["quote"]),
        "evil-<b>1</b>": EVIL_TEXT.index("<script>"),
    }
    for cid, start in expected_starts.items():
        (mark,) = by_cid[cid].xpath(".//mark[@class='hit']")
        s, e = int(mark.get("data-start")), int(mark.get("data-end"))
        assert s == start
        text = docs[by_cid[cid].get("data-source")]
        assert mark.text_content() == text[s:e]
        ctx = mark.getparent()
        ws, we = int(ctx.get("data-ws")), int(ctx.get("data-we"))
        assert ws < s and e < we  # context on both sides
        assert ctx.text_content().replace("… ", "", 1).replace(" …", "").strip() == text[ws:we].strip()
    assert results[0]["status"] == "located" and results[0]["matches"][0]["start"] == expected_starts["rfc-iss"]


def test_ambiguous_lists_every_candidate_with_a_selector(report: tuple[Any, list[dict[str, Any]], str]) -> None:
    tree, results, _ = report
    crp = texts()["crp"]
    want = [m.start() for m in re.finditer(r"(?<!\w)Todos têm direito(?!\w)", crp)]
    assert len(want) == 12
    card = next(c for c in _cards(tree) if c.get("data-cid") == "crp-todos")
    marks = card.xpath(".//li[@class='cand']//mark[@class='hit']")
    assert [int(m.get("data-start")) for m in marks] == want
    assert all(m.text_content() == "Todos têm direito" for m in marks)
    assert len(card.xpath(".//li[@class='cand']//code[@class='sel-prefix' or @class='sel-suffix']")) >= 12
    rfc_card = next(c for c in _cards(tree) if c.get("data-cid") == "rfc-title")
    n_rfc = len(next(r for r in results if r["citation_id"] == "rfc-title")["matches"])
    rfc = load_document(RFC, "rfc7519")
    furniture = [(mk.start, mk.end) for mk in rfc.marks if mk.kind == "furniture"]  # running headers
    hits = [m.start() for m in re.finditer("JSON Web Token", rfc.text)]
    body = [h for h in hits if not any(s <= h < e for s, e in furniture)]
    cand = [int(x.get("data-start")) for x in rfc_card.xpath(".//li[@class='cand']//mark[@class='hit']")]
    assert cand == body and len(body) == n_rfc


def test_markup_in_sources_and_quotes_is_text(report: tuple[Any, list[dict[str, Any]], str]) -> None:
    tree, _, raw = report
    assert len(tree.xpath("//script")) == 1 and tree.xpath("//script")[0].text == JS
    assert not tree.xpath("//img") and "<script>window" not in raw and '<img src="x"' not in raw
    card = next(c for c in _cards(tree) if c.get("data-source") == "evil")
    assert card.get("data-cid") == "evil-<b>1</b>"
    assert not card.xpath(".//b[text()='1']")
    assert card.xpath(".//span[contains(@class,'cid')]")[0].text_content() == "evil-<b>1</b>"
    assert '<script>window.pwned = 1;</script> and <img src="x"' in card.xpath(".//blockquote")[0].text_content()


def test_self_contained_page(report: tuple[Any, list[dict[str, Any]], str]) -> None:
    tree = report[0]
    csp = tree.xpath("//meta[@http-equiv='Content-Security-Policy']/@content")[0]
    assert "default-src 'none'" in csp and script_hash() in csp
    assert not tree.xpath("//*[@src] | //link[@href]")
    assert not [h for h in tree.xpath("//a/@href") if not h.startswith("#")]
    assert tree.xpath("//html/@lang") == ["en"]
    assert tree.xpath("//code[@class='fingerprint']")[0].text  # policy fingerprint shown
    rows = {r.get("data-source-row"): r for r in tree.xpath("//tr[@data-source-row]")}
    import hashlib

    assert hashlib.sha256(CRP.read_bytes()).hexdigest() in rows["crp"].text_content()


def test_not_found_shows_nearest_with_word_diff_and_flags() -> None:
    crp = texts()["crp"]
    start = crp.index(RECORDS[4]["quote"])
    end = start + len(RECORDS[4]["quote"])
    record = {
        "citation_id": "c1",
        "source_id": "crp",
        "quote": RECORDS[6]["quote"],
        "status": "not_found",
        "matches": [],
        "message": "not found in the source",
        "nearest": {"start": start, "end": end, "text": crp[start:end], "similarity": 0.96,
                    "reasons": [{"flag": "words_changed", "quote": ["desiguais"], "source": ["iguais"]}]},
        "found_elsewhere": [{"source_id": "crp-2005", "section": {"id": "art-13", "path": "Artigo 13.º"}}],
        "judge": {"verdict": "contradicted", "confidence": 0.91, "evidence": ["são iguais perante a lei"]},
    }
    doc = load_document(CRP, "crp")
    tree = lxml.html.document_fromstring(render_html([record], documents={"crp": doc}))
    (near,) = tree.xpath("//mark[@class='near']")
    assert near.text_content() == crp[start:end]
    assert [d.text_content() for d in tree.xpath("//div[@class='diff']//span[@class='hunk']/del")] == ["desiguais"]
    assert [d.text_content() for d in tree.xpath("//div[@class='diff']//span[@class='hunk']/ins")] == ["iguais"]
    (flag,) = tree.xpath("//span[@class='flag']")
    assert flag.text_content() == "palavras diferem" and flag.get("title")  # the report's language, a tooltip
    assert "Artigo 13.º" in tree.xpath("//li[@class='elsewhere']")[0].text_content()
    assert tree.xpath("//div[@class='judge']//span[contains(@class,'v-contradicted')]")
    assert tree.xpath("//html/@lang") == ["pt"]  # labels follow the quote's language
    assert tree.xpath("//span[@data-badge]")[0].text_content() == "não encontrada"


def test_section_text_with_revoked_wording_struck() -> None:
    doc = load_document(LGPD, "lgpd")
    tree_s = segment(doc)
    quote = "O tratamento dos dados a que se refere o inciso III do caput por pessoa jurídica de direito privado"
    result = locate(doc, quote, citation_id="c1", source_id="lgpd")
    assert result.status == "located"
    m = result.matches[0]
    sec = tree_s.innermost_at(m.start)
    assert sec is not None and sec.id == "art-4/par-2"
    m.section = {"id": sec.id, "label": sec.label, "path": tree_s.path(sec)}  # as the sections stage will
    html = render_html([result], documents={"lgpd": doc})
    tree = lxml.html.document_fromstring(html)
    (ctx,) = tree.xpath("//div[@class='ctx']")
    assert ctx.get("data-from") == "section"
    assert ctx.text_content() == doc.text[sec.start : sec.end]
    assert tree.xpath("//span[@class='secpath']")[0].text_content() == "Art. 4º › § 2º"
    struck = [d.text_content() for d in ctx.xpath(".//del[@class='revoked']")]
    revoked = [mk for mk in doc.marks if mk.kind == "revoked" and sec.start <= mk.start < sec.end]
    assert "".join(struck) == "".join(doc.text[mk.start : min(mk.end, sec.end)] for mk in revoked)
    (hit,) = ctx.xpath(".//mark[@class='hit']")
    assert hit.text_content() == doc.text[m.start : m.end] and hit.xpath(".//del")  # quoting revoked text


def _check(name: str, tmp_path: Path) -> Any:
    out = tmp_path / f"{name}.html"
    res = CliRunner().invoke(
        main,
        ["check", str(ANSWERS / name), "--sources", str(ANSWERS / "sources.json"), "--format", "html", "-o", str(out)],
    )
    assert res.exit_code == 1, res.output
    return lxml.html.document_fromstring(out.read_text(encoding="utf-8"))


def test_check_html_answer_markers_and_uncited(tmp_path: Path) -> None:
    tree = _check("plain-brackets.txt", tmp_path)
    answer = (ANSWERS / "plain-brackets.txt").read_text(encoding="utf-8")
    (sec,) = tree.xpath("//section[@class='answer']")
    assert sec.text_content() == answer
    coloured = [(a.text_content(), a.get("class")) for a in sec.xpath(".//a")]
    assert coloured == [("[2]", "marker st-located"), ("[3]", "marker st-not_found")]
    assert [u.text_content() for u in sec.xpath(".//u[@class='uncited']")] == [
        "Overtime is paid at 1.5 times the normal rate."
    ]
    assert sec.xpath(".//b[contains(@class,'st-unknown_source')]")[0].text_content() == "[5]"
    assert not tree.xpath("//*[@id='truncated']")
    kinds = sorted(x.get("data-kind") for x in tree.xpath("//li[@class='finding']"))
    assert kinds == ["quote_not_found", "uncited_sentence", "unknown_source"]


def test_check_html_truncation_banner(tmp_path: Path) -> None:
    tree = _check("ollama-chat-stream.ndjson", tmp_path)
    assert tree.xpath("//*[@id='truncated']")


def test_render_check_html_tolerates_a_bare_payload() -> None:
    payload = {"format": "text", "truncated": True, "sources": [], "findings": [], "citations": []}
    answer = "Sin fuentes <b>aquí</b>, la respuesta."
    tree = lxml.html.document_fromstring(render_check_html(payload, answer_text=answer))
    assert tree.xpath("//html/@lang") == ["es"] and tree.xpath("//*[@id='truncated']")
    assert tree.xpath("//section[@class='answer']")[0].text_content() == "Sin fuentes <b>aquí</b>, la respuesta."


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Todos os cidadãos têm a mesma dignidade social e são iguais perante a lei.", "pt"),
        ("Los españoles son iguales ante la ley, sin que pueda prevalecer discriminación alguna.", "es"),
        ('The "iss" (issuer) claim identifies the principal that issued the JWT.', "en"),
        ("", "en"),
    ],
)
def test_detect_language(text: str, lang: str) -> None:
    assert detect_language(text) == lang


def test_table_fits_80_columns_with_context(tmp_path: Path) -> None:
    from tests.report_fixtures import write_inputs

    records, sources = write_inputs(tmp_path)
    res = CliRunner().invoke(main, ["verify", str(records), "--sources", str(sources)], env={"COLUMNS": "80"})
    lines = res.stdout.splitlines()
    assert lines[-1].startswith("located=3/8")
    assert "\x1b[" not in res.stdout
    assert max(len(x) for x in lines) <= 80
    uncut = CliRunner().invoke(main, ["verify", str(records), "--sources", str(sources)], env={"COLUMNS": ""})
    # into a pipe nothing is cut: only the context around a quote is bounded (30 characters a side)
    assert not [x for x in uncut.stdout.splitlines() if "…" in x and "⟦" not in x]
    ctx = [x for x in lines if "⟦" in x]
    assert any('⟦The "iss" (issuer) claim identifies the principal that issued the JWT.⟧' in x for x in ctx)
    assert any("⟦Todos os cidadãos têm a mesma dignidade social e são iguais perante a lei.⟧" in x for x in ctx)


def test_table_quote_between_its_context() -> None:
    doc = load_document(CRP, "crp")
    r = locate(doc, "a mesma dignidade social", citation_id="c", source_id="crp")
    lines = table([r], documents={"crp": doc}).splitlines()
    (line,) = [x for x in lines if "⟦" in x]
    # Artigo 13.º n.º 1, words on both sides of the quote, one line of at most 80 columns.
    assert "Todos os cidadãos têm ⟦a mesma dignidade social⟧ e são iguais perante" in line
    assert len(line) <= 80


def test_table_colour_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = load_document(CRP, "crp")
    r = locate(doc, RECORDS[4]["quote"], citation_id="c", source_id="crp")
    coloured = table([r], colour=True, documents={"crp": doc})
    assert "\x1b[7mTodos os cidadãos têm a mesma dignidade social e são iguais perante a lei.\x1b[0m" in coloured
    monkeypatch.setenv("NO_COLOR", "1")
    assert use_colour(True) is False
    monkeypatch.delenv("NO_COLOR")
    assert use_colour(True) is True and use_colour(False) is False


def test_in_context_keeps_both_ends_of_a_long_quote() -> None:
    left, mid, right = in_context("", "word " * 40 + "end.", "", 30)
    assert (left, right) == ("", "") and mid.startswith("word") and mid.endswith("end.") and len(mid) <= 30


def test_html_from_json_records_without_documents() -> None:
    rec = json.loads(
        json.dumps(
            {
                "citation_id": "x",
                "source_id": "s",
                "quote": "a <i>b</i>",
                "status": "located",
                "matches": [
                    {"start": 3, "end": 13, "text": "a <i>b</i>", "selector": {"prefix": "<<", "suffix": ">>"}}
                ],
            }
        )
    )
    tree = lxml.html.document_fromstring(render_html([rec]))
    (ctx,) = tree.xpath("//div[@class='ctx']")
    assert ctx.text_content() == "<<a <i>b</i>>>" and ctx.get("data-from") == "selector"

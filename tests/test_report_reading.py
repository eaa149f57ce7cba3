"""The report a person reads, in Chromium (tests/browser.py): one language throughout, a tooltip on
every flag, word diffs with both words and their context, ambiguous candidates one short line
each, the judge's verdict and passage, from file:// with no network and under the page's CSP.

Inputs are built here from the real documents in ../shared (CRP, RFC 7519, the answers fixtures)
and answers written for this test. Screenshots go to tests/artifacts/ (ignored by git).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ipsis.cli import main
from ipsis.report.messages import translate
from tests.browser import browser_session
from tests.report_fixtures import READING_RECORDS as RECORDS
from tests.shared import ANSWERS, SHARED

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "tests" / "artifacts"
CRP = SHARED / "corpora" / "pt" / "crp-constituicao-republica-portuguesa.txt"
RFC = SHARED / "corpora" / "rfc" / "rfc7519.txt"


# Our own answer on the CRP: a quote of Art. 13.º n.º 1, a bare citation of its n.º 2, a quote in
# the new spelling ("diretrizes"; the CRP writes "directrizes"), a claim that drops Art. 270.º's
# limiter, and an uncited sentence.
ANSWER_PT = (
    'Na Constituição portuguesa, os cidadãos "têm a mesma dignidade social e são iguais perante a lei" [1]. '
    "Ninguém pode ser privilegiado ou prejudicado em razão do sexo [1]. "
    'O Estado "não pode programar a educação segundo quaisquer diretrizes" [1]. '
    "A lei pode proibir a greve em qualquer caso [1]. O voto é obrigatório.\n"
)
ENGLISH = {
    "the", "not", "found", "located", "places", "match", "add", "of", "and", "quote", "source", "nearest",
    "passage", "similarity", "with", "is", "was", "claim", "claims", "section", "citation", "citations",
    "judge", "evidence", "supported", "contradicted", "review", "warnings", "candidates", "more", "show",
    "only", "in", "by", "decided", "exactly", "differs", "prefix", "suffix", "unknown", "empty", "record",
    "sentence", "answer", "findings", "sources", "status", "keys", "next", "previous", "all", "retrieved",
    "policy", "context", "never", "cited", "word", "words", "number", "negation", "limiter", "modality",
    "overlap", "name", "deterministic", "cues", "confidence", "reasons", "diff", "normalization",
}  # fmt: skip

# The page's own words: everything but data (quotes, source text, ids, paths, hashes, the answer).
CHROME_JS = """() => {
  const skip = 'blockquote.quote, .ctx, .line, q, code, .mono, .src, .secpath, table.sources, .meta, '
    + 'section.answer, .claim-text, .hunk, p.msg, .warnings li, li.finding, .cid, .elsewhere, script, style, title';
  const out = [];
  const walk = (n) => {
    if (n.nodeType === 3) { out.push(n.textContent); return; }
    if (n.nodeType !== 1 || n.matches(skip)) return;
    for (const c of n.childNodes) walk(c);
  };
  walk(document.body);
  const tips = [...document.querySelectorAll('.flag, .kind, .cue, .verdict, a.marker, .untranslated')]
    .map(e => e.getAttribute('title') || '');
  return {text: out.join(' '), tips};
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from browser_session()


def _run(args: list[str], code: int = 1) -> Any:
    res = CliRunner().invoke(main, args)
    assert res.exit_code == code, res.output
    return res


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("reading")
    records = tmp / "records.jsonl"
    records.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in RECORDS), encoding="utf-8")
    sources = tmp / "sources.json"
    sources.write_text(json.dumps({"crp": str(CRP), "rfc": str(RFC)}), encoding="utf-8")
    crp_sources = tmp / "crp-sources.json"
    crp_sources.write_text(json.dumps([{"id": "crp", "text": CRP.read_text(encoding="utf-8")}]), encoding="utf-8")
    answer = tmp / "resposta.txt"
    answer.write_text(ANSWER_PT, encoding="utf-8")
    out: dict[str, Path] = {"tmp": tmp}
    for lang in ("pt", "es"):
        out[f"verify-{lang}"] = tmp / f"verify-{lang}.html"
        _run(["verify", str(records), "--sources", str(sources), "--format", "html", "--lang", lang,
              "-o", str(out[f"verify-{lang}"])])  # fmt: skip
    out["verify-json"] = tmp / "verify.json"
    out["verify-json"].write_text(
        _run(["verify", str(records), "--sources", str(sources), "--format", "json"]).stdout, encoding="utf-8"
    )
    check = ["check", str(answer), "--sources", str(crp_sources), "--judge", "cues"]
    out["check-pt"] = tmp / "check-pt.html"
    _run([*check, "--format", "html", "-o", str(out["check-pt"])])  # the answer's language: pt
    out["check-json"] = tmp / "check.json"
    out["check-json"].write_text(_run([*check, "--format", "json"]).stdout, encoding="utf-8")
    out["check-es"] = tmp / "check-es.html"  # an English answer, a Spanish report
    _run(["check", str(ANSWERS / "plain-brackets.txt"), "--sources", str(ANSWERS / "sources.json"),
          "--judge", "cues", "--format", "html", "--lang", "es", "-o", str(out["check-es"])])  # fmt: skip
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for key in ("verify-pt", "check-pt", "check-es"):
        shutil.copy(out[key], ARTIFACTS / f"reading-{key}.html")
    return out


def _open(browser: Any, path: Path, height: int = 900) -> tuple[Any, Any, dict[str, list[str]]]:
    ctx = browser.new_context(viewport={"width": 1200, "height": height})
    pg = ctx.new_page()
    seen: dict[str, list[str]] = {"requests": [], "console": [], "errors": []}
    pg.on("request", lambda r: seen["requests"].append(r.url))
    pg.on("console", lambda m: seen["console"].append(m.text))
    pg.on("pageerror", lambda e: seen["errors"].append(str(e)))
    pg.goto(path.as_uri())
    return ctx, pg, seen


@pytest.mark.parametrize("key", ["verify-pt", "verify-es", "check-pt", "check-es"])
def test_one_language_throughout_and_a_tooltip_on_every_flag(browser: Any, inputs: dict[str, Path], key: str) -> None:
    lang = key.split("-")[1]
    ctx, pg, seen = _open(browser, inputs[key])
    assert pg.evaluate("document.documentElement.lang") == lang
    assert pg.locator(".untranslated").count() == 0
    chrome = pg.evaluate(CHROME_JS)
    words = {w.strip(".,:;()[]«»“”\"'").lower() for w in chrome["text"].split()}
    assert not sorted(words & ENGLISH), sorted(words & ENGLISH)
    assert chrome["tips"] and all(t.strip() for t in chrome["tips"])  # every chip has its tooltip
    tip_words = {w.strip(".,:;()").lower() for t in chrome["tips"] for w in t.split()}
    assert not sorted(tip_words & (ENGLISH - {"in"})), sorted(tip_words & ENGLISH)
    src = "verify-json" if key.startswith("verify") else "check-json"
    if key != "check-es":  # each message shown is the catalogue's translation of the record's English
        data = json.loads(inputs[src].read_text(encoding="utf-8"))
        records = data.get("results") or data.get("citations")
        shown = pg.evaluate("() => [...document.querySelectorAll('article.cit')].map(a => "
                            "[a.dataset.cid, (a.querySelector('p.msg') || {}).textContent])")  # fmt: skip
        by_cid = dict(shown)
        for r in records:
            assert by_cid[r["citation_id"]] == translate(r["message"], lang)
            assert by_cid[r["citation_id"]] != r["message"]
    pg.screenshot(path=str(ARTIFACTS / f"reading-{key}.png"), full_page=True)
    assert not seen["errors"]
    ctx.close()


def test_word_diff_shows_both_words_apart_with_context(browser: Any, inputs: dict[str, Path]) -> None:
    ctx, pg, _ = _open(browser, inputs["verify-pt"])
    card = pg.locator("article[data-cid='rfc-signed']")
    hunk = card.locator(".diff .hunk")
    assert hunk.count() == 1
    assert hunk.locator("del").inner_text() == "signed" and hunk.locator("ins").inner_text() == "issued"
    text = " ".join(hunk.inner_text().split())
    assert text == 'identifies the principal that signed issued the JWT.'  # four words each side, apart
    deco = pg.evaluate("""() => { const h = document.querySelector("article[data-cid='rfc-signed'] .hunk");
      return [getComputedStyle(h.querySelector('del')).textDecorationLine,
              getComputedStyle(h.querySelector('ins')).textDecorationLine]; }""")
    assert "line-through" in deco[0] and "underline" in deco[1]  # readable without colour
    assert hunk.locator("del").get_attribute("title") and hunk.locator("ins").get_attribute("title")
    neg = pg.locator("article[data-cid='crp-13-neg'] .diff .hunk")
    assert neg.locator("del").inner_text().strip() == "não" and neg.locator("ins").count() == 0
    assert " ".join(neg.inner_text().split()) == "mesma dignidade social e não são iguais perante a"
    flag = pg.locator("article[data-cid='crp-13-neg'] .flag")
    assert flag.inner_text() == "uma negação foi acrescentada ou retirada" and flag.get_attribute("title")
    card.screenshot(path=str(ARTIFACTS / "reading-diff.png"))
    ctx.close()


def test_ambiguous_candidates_fit_one_screen_each(browser: Any, inputs: dict[str, Path]) -> None:
    ctx, pg, _ = _open(browser, inputs["verify-pt"])
    card = pg.locator("article[data-cid='crp-todos']")
    cands = card.locator("li.cand")
    assert cands.count() == 12
    crp = CRP.read_bytes().decode("utf-8")
    heights = []
    for i in range(8):  # the first eight are open; the rest fold
        li = cands.nth(i)
        box = li.bounding_box()
        heights.append(box["height"])
        mark = li.locator(".line mark.hit")
        s, e = int(mark.get_attribute("data-start")), int(mark.get_attribute("data-end"))
        assert mark.inner_text() == crp[s:e] == "Todos têm direito"
        assert not li.locator("details.sec").evaluate("d => d.open")
    assert max(heights) < 900 / 4, heights  # a short block each, far under one screen
    first = cands.nth(0)
    first.locator("details.sec summary").click()
    assert first.locator("details.sec .ctx mark").is_visible()  # the section on demand
    assert first.bounding_box()["height"] < 900
    card.screenshot(path=str(ARTIFACTS / "reading-candidates.png"))
    ctx.close()


VERDICT_COLOURS = {
    "supported": "rgb(26, 127, 55)",
    "contradicted": "rgb(207, 34, 46)",
    "no_support": "rgb(154, 103, 0)",
    "needs_review": "rgb(130, 80, 223)",
}


def test_judge_verdict_evidence_and_passage_visible(browser: Any, inputs: dict[str, Path]) -> None:
    data = json.loads(inputs["check-json"].read_text(encoding="utf-8"))
    claims = {c["citation_id"]: c for c in data["claims"]}
    assert {c["support"]["verdict"] for c in claims.values()} >= {"supported", "contradicted"}
    crp = CRP.read_text(encoding="utf-8")
    ctx, pg, _ = _open(browser, inputs["check-pt"])
    markers = pg.evaluate("""() => [...document.querySelectorAll('section.answer a[data-verdict]')]
      .map(a => [a.textContent, a.dataset.verdict, getComputedStyle(a).backgroundColor, a.title])""")
    assert len(markers) == len(claims)
    for _, verdict, colour, title in markers:
        assert colour == VERDICT_COLOURS[verdict] and title
    for cid, c in claims.items():
        card = pg.locator(f"article[data-cid='{cid}']").filter(has=pg.locator(".judge"))
        judge = card.locator(".judge")
        assert judge.get_attribute("data-verdict") == c["support"]["verdict"]
        assert judge.locator(".verdict").is_visible() and judge.locator(".conf").is_visible()
        assert "pistas determinísticas" in judge.locator(".judged-by").inner_text()
        assert judge.locator("ul.evidence li").count() == len(c["support"]["evidence"])
        assert judge.locator("ul.evidence .cue").first.get_attribute("title")
        mark = judge.locator(".passage mark.judged")
        assert mark.is_visible()
        p = c["support"]["passage"]
        assert (int(mark.get_attribute("data-start")), int(mark.get_attribute("data-end"))) == (p["start"], p["end"])
        assert mark.evaluate("m => m.textContent") == crp[p["start"] : p["end"]]
    contradicted = next(cid for cid, c in claims.items() if c["support"]["verdict"] == "contradicted")
    ev = pg.locator(f"article[data-cid='{contradicted}'] ul.evidence").inner_text()
    assert "ressalva" in ev and "salvo em casos excepcionais previstos na lei" in ev  # the limiter cue, in pt
    counts = pg.locator(".counts.verdicts").inner_text()
    assert f"Afirmações avaliadas: {len(claims)}" in counts
    pg.screenshot(path=str(ARTIFACTS / "reading-judge.png"), full_page=True)
    ctx.close()


def test_short_quote_not_found_shows_its_nearest_passage(browser: Any, tmp_path: Path) -> None:
    shop = tmp_path / "refunds.txt"
    shop.write_text("Refunds policy.\nA receipt is required for every refund. Refunds are paid within 14 days.\n")
    rec = tmp_path / "r.jsonl"
    rec.write_text('{"citation_id": "r1", "source_id": "shop", "quote": "a receipt for every refund"}\n')
    out = tmp_path / "r.html"
    _run(["verify", str(rec), "--source", f"shop={shop}", "--max-error-rate", "0.4", "--format", "html",
          "-o", str(out)])  # fmt: skip
    ctx, pg, _ = _open(browser, out)
    near = pg.locator(".nearest mark.near")
    assert near.is_visible() and near.inner_text() == "is required for every refund"
    hunk = " ".join(pg.locator(".diff .hunk").inner_text().split())
    assert hunk == "a receipt is required for every refund"
    assert pg.locator(".diff .hunk del").inner_text() == "a receipt"
    assert pg.locator(".diff .hunk ins").inner_text() == "is required"
    ctx.close()


@pytest.mark.parametrize("key", ["verify-pt", "check-pt"])
def test_works_from_file_with_no_network_under_its_csp(browser: Any, inputs: dict[str, Path], key: str) -> None:
    ctx, pg, seen = _open(browser, inputs[key])
    assert pg.evaluate("document.documentElement.classList.contains('js')")  # the inline script ran
    csp = pg.evaluate("document.querySelector('meta[http-equiv=Content-Security-Policy]').content")
    assert csp.startswith("default-src 'none'") and "unsafe-inline" not in csp.split("script-src")[1]
    assert all(u.startswith(("file://", "data:", "about:")) for u in seen["requests"]), seen["requests"]
    assert not [m for m in seen["console"] if "Content Security Policy" in m], seen["console"]
    assert not seen["errors"]
    ctx.close()


@pytest.mark.parametrize("key", ["verify-pt", "check-pt"])
def test_phone_width_has_no_sideways_scroll(browser: Any, inputs: dict[str, Path], key: str) -> None:
    ctx = browser.new_context(viewport={"width": 375, "height": 800})
    pg = ctx.new_page()
    pg.goto(inputs[key].as_uri())
    if pg.locator("details.sec").count():  # an opened section must fit too
        pg.locator("details.sec summary").first.click()
    overflow = pg.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    pg.screenshot(path=str(ARTIFACTS / f"reading-{key}-phone.png"))
    ctx.close()

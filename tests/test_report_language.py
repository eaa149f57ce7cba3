"""One language per report: the message catalogue (golden cases), every flag and kind the library
emits has a sentence and a tooltip in en/pt/es, and real runs translate with no English left."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from click.testing import CliRunner

from ipsis.answers.model import FindingKind
from ipsis.cli import main
from ipsis.report.catalogue import CUES, FLAGS, KINDS, VERDICTS
from ipsis.report.html_text import diff_hunks, word_diff
from ipsis.report.messages import evidence_parts, translate, translate_parts
from ipsis.verify.nearest import _FLAG_ORDER
from ipsis.verify.reasons import HARD_FLAGS
from tests.report_fixtures import READING_RECORDS
from tests.shared import ANSWERS, SHARED

ROOT = Path(__file__).resolve().parent.parent
CASES = json.loads((ROOT / "tests" / "cases" / "report" / "messages.json").read_text(encoding="utf-8"))["cases"]
CRP = SHARED / "corpora" / "pt" / "crp-constituicao-republica-portuguesa.txt"
RFC = SHARED / "corpora" / "rfc" / "rfc7519.txt"


@pytest.mark.parametrize("case", CASES, ids=[c["label"] for c in CASES])
@pytest.mark.parametrize("lang", ["pt", "es"])
def test_message_catalogue(case: dict[str, str], lang: str) -> None:
    assert translate(case["message"], lang) == case[lang]
    assert all(ok for _, ok in translate_parts(case["message"], lang))
    assert translate(case["message"], "en") == case["message"]


def _source_literals(pattern: str, folder: str) -> set[str]:
    out: set[str] = set()
    for path in (ROOT / "ipsis" / folder).glob("*.py"):
        out |= set(re.findall(pattern, path.read_text(encoding="utf-8")))
    return out


def test_every_flag_and_kind_has_a_sentence_and_tooltip_in_three_languages() -> None:
    flags = set(_FLAG_ORDER) | set(HARD_FLAGS)
    flags |= _source_literals(r'"flag": "([a-z_]+)"', "verify") | _source_literals(r'flag = "([a-z_]+)"', "verify")
    flags |= {f"{t}_only" for t in ("case", "accents", "ordinals")} | {"elided_limiter", "inside_token"}
    kinds = set(typing.get_args(FindingKind))
    for folder in ("verify", "judge", "store", "history", "cli"):
        kinds |= _source_literals(r'"kind": "([a-z_]+)"', folder)
    for table, keys in ((FLAGS, flags), (KINDS, kinds), (VERDICTS, {"supported", "contradicted", "no_support",
                                                                     "needs_review"})):
        missing = sorted(k for k in keys if k not in table)
        assert not missing, missing
        for key in keys:
            assert set(table[key]) == {"en", "pt", "es"}, key
            for lang, (sentence, tip) in table[key].items():
                assert sentence.strip() and tip.strip() and "_" not in sentence, (key, lang)
    cues = {c.split(":")[0] for c in _source_literals(r'f"([a-z]+): ', "judge")}
    assert {"limiter", "actor", "roles", "opposite", "bound", "number", "modality", "negation"} <= cues
    assert not sorted(c for c in cues if c not in CUES)


def test_evidence_lines_are_split_into_cue_claim_and_section() -> None:
    cue, tip, sides = evidence_parts("actor: claim: o empregador; section: absent", "es")
    assert (cue, sides) == ("sujeto", [("afirmación", "o empregador"), ("pasaje", "ausente")]) and tip


def test_diff_keeps_both_words_apart_with_context() -> None:
    quote = "Receipts are required for any single expense above €50 per trip."
    source = "Receipts are required for any single expense above €25 per trip."
    (hunk,) = diff_hunks(word_diff(quote, source), 3)
    assert hunk == [("equal", "single expense above €"), ("delete", "50"), ("insert", "25"), ("equal", " per trip.")]


def _english_left(records: list[dict[str, Any]], lang: str) -> list[str]:
    left = []
    for r in records:
        for msg in [r.get("message") or ""] + [str(w.get("message")) for w in r.get("warnings") or []]:
            left += [p for p, ok in translate_parts(msg, lang) if not ok]
    return left


def _verify_inputs(tmp: Path) -> tuple[Path, Path]:
    records = [
        *READING_RECORDS,
        {"citation_id": "vazia", "source_id": "crp", "quote": ""},
        {"citation_id": "sem-quote", "source_id": "crp"},
    ]
    path = tmp / "records.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    sources = tmp / "sources.json"
    sources.write_text(json.dumps({"crp": str(CRP), "rfc": str(RFC)}), encoding="utf-8")
    return path, sources


def test_real_runs_translate_with_no_english_left(tmp_path: Path) -> None:
    records, sources = _verify_inputs(tmp_path)
    res = CliRunner().invoke(main, ["verify", str(records), "--sources", str(sources), "--format", "json"])
    results = json.loads(res.stdout)["results"]
    assert {r["status"] for r in results} >= {"located", "ambiguous", "not_found", "unknown_source", "invalid_record"}
    check = CliRunner().invoke(
        main,
        ["check", str(ANSWERS / "plain-brackets.txt"), "--sources", str(ANSWERS / "sources.json"),
         "--judge", "cues", "--format", "json"],
    )  # fmt: skip
    report = json.loads(check.stdout)
    findings = report["findings"] + [f for f in report["citations"]]
    for lang in ("pt", "es"):
        assert _english_left(results, lang) == []
        assert _english_left(findings, lang) == []


def test_lang_option_sets_the_report_and_the_table(tmp_path: Path) -> None:
    records, sources = _verify_inputs(tmp_path)
    out = tmp_path / "r.html"
    args = ["verify", str(records), "--sources", str(sources)]
    CliRunner().invoke(main, [*args, "--format", "html", "--lang", "es", "-o", str(out)])
    tree = lxml.html.document_fromstring(out.read_text(encoding="utf-8"))
    assert tree.xpath("//html/@lang") == ["es"]
    msgs = {a.get("data-cid"): a.xpath(".//p[@class='msg']")[0].text_content() for a in tree.xpath("//article")}
    assert msgs["crp-todos"] == "12 lugares coinciden; añada el prefijo/sufijo de uno de ellos para elegir"
    assert not tree.xpath("//*[@class='untranslated']")
    table = CliRunner().invoke(main, [*args, "--lang", "pt"]).stdout
    assert "12 lugares coincidem" in table and "places match" not in table
    assert "12 places match" in CliRunner().invoke(main, args).stdout  # the table stays English by default
    bad = CliRunner().invoke(main, [*args, "--lang", "fr"])
    assert bad.exit_code == 2 and "--lang" in bad.output


def test_carried_to_another_version_reads_in_the_report_language(tmp_path: Path) -> None:
    store = tmp_path / "store"
    for version, days in (("1", "30"), ("2", "60")):
        f = tmp_path / f"v{version}.txt"
        f.write_text(f"Lei de teste.\nArt. 1º O prazo de recurso é de {days} dias, contados da intimação.\n"
                     "Art. 2º A multa é de dez por cento.\n", encoding="utf-8")  # fmt: skip
        res = CliRunner().invoke(main, ["ingest", str(f), "--id", "lei", "--version", version, "--store", str(store)])
        assert res.exit_code == 0, res.output
    rec = tmp_path / "c.jsonl"
    rec.write_text('{"citation_id": "c1", "source_id": "lei@1", "quote": "O prazo de recurso é de 30 dias, contados da'
                   ' intimação."}\n', encoding="utf-8")  # fmt: skip
    out = tmp_path / "c.html"
    args = ["verify", str(rec), "--store", str(store), "--carry-to", "latest", "--format", "html", "--lang", "es"]
    CliRunner().invoke(main, [*args, "-o", str(out)])
    tree = lxml.html.document_fromstring(out.read_text(encoding="utf-8"))
    (block,) = tree.xpath("//div[@class='carried']")
    assert block.get("data-carried") == "amended"
    (badge,) = block.xpath(".//span[@data-key='amended']")
    assert badge.text_content() == "modificada" and badge.get("title")
    (flag,) = block.xpath(".//span[@class='flag']")
    assert flag.text_content() == "un número difiere" and flag.get("title")
    assert "lei@2 Art. 1º" in block.text_content() and "30" in block.text_content() and "60" in block.text_content()


def test_check_bar_counts_citations_without_a_quote() -> None:
    out = CliRunner().invoke(
        main,
        ["check", str(ANSWERS / "plain-brackets.txt"), "--sources", str(ANSWERS / "sources.json"),
         "--judge", "cues", "--format", "html"],
    ).stdout  # fmt: skip
    tree = lxml.html.document_fromstring(out)
    cards = tree.xpath("//article[contains(@class, 'cit')]")
    bar = tree.xpath("//div[@class='counts']")[0].text_content()
    # c1-c4 cite without a quote and are judged; c5 and c6 quote; [5] names no source (no card)
    assert bar.startswith(f"Citations: {len(cards)}") and len(cards) == 6
    assert [c.get("data-cid") for c in cards if c.get("data-status") == "retrieved"] == ["c1", "c2", "c3", "c4"]
    assert tree.xpath("//input[@data-filter-status][@value='retrieved']")


def test_check_table_messages_in_the_chosen_language() -> None:
    args = ["check", str(ANSWERS / "plain-brackets.txt"), "--sources", str(ANSWERS / "sources.json")]
    es = CliRunner().invoke(main, [*args, "--lang", "es"]).stdout
    assert "[5] no indica ninguna fuente enviada (las fuentes van de 1 a 3)" in es
    assert "names no source" not in es
    en = CliRunner().invoke(main, args).stdout
    assert "[5] names no source that was sent (sources are numbered 1–3)" in en
    js = json.loads(CliRunner().invoke(main, [*args, "--lang", "pt", "--format", "json"]).stdout)
    assert any(f["message"].startswith("[5] names no source") for f in js["findings"])  # the JSON stays English

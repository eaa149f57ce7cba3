"""The hunt's near misses (tests/hunt) through ``check`` (plain text and Anthropic citations),
the HTML report and the serve API: the same status as :func:`ipsis.verify.locate` for the
cited source, and a real passage cited to a source it is not in is never ``located``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from click.testing import CliRunner

from ipsis.answers.check import check_answer
from ipsis.cli import main
from tests import hunt
from tests.hunt.paths import Want, _wrong_source, anthropic_answer, plain_answer
from tests.shared import CORPORA

pytestmark = pytest.mark.corpus

PAIRS = (
    (("pt", "pt/crp-constituicao-republica-portuguesa.txt"), ("pt", "br/lei-13709-2018-lgpd-planalto.html")),
    (("en", "rfc/rfc7519.txt"), ("en", "rfc/rfc9112-httpwg.xml")),
)


@pytest.fixture(scope="module", params=PAIRS, ids=["pt", "en"])
def pair(request: pytest.FixtureRequest) -> tuple[list[hunt.Case], list[Any]]:
    docs = [hunt._load(rel) for _, rel in request.param]
    return hunt.build(2, docs=request.param), docs


def _statuses(report: Any, want: Want) -> list[tuple[str, str | None, str]]:
    """(quote, wanted, got) for every citation where ``check`` disagrees with ``want``."""
    checked = [c for c in report.checked if c.result is not None]
    assert len(checked) == len(want)
    bad = []
    for c, (q, status) in zip(checked, want, strict=True):
        assert " ".join(str(c.result.quote).split()) == q
        got = c.result.status
        if (status is None and got in ("located", "ambiguous")) or (status is not None and got != status):
            bad.append((q[:90], status, got))
    return bad


def test_check_plain_answer(pair: tuple[list[hunt.Case], list[Any]]) -> None:
    cases, docs = pair
    answer, want = plain_answer(cases, docs)
    assert sum(s is None for _, s in want) >= 8 and len(want) >= 60
    report = check_answer(answer, docs)
    assert report.answer.format == "text"
    assert _statuses(report, want) == []


def test_a_real_passage_cited_to_another_source_names_the_source_it_is_in(
    pair: tuple[list[hunt.Case], list[Any]],
) -> None:
    """DESIGN.md's wrong reference: not_found for the cited source, found elsewhere in the
    answer's other source, at the passage's own span (``text[start:end]`` is the passage)."""
    _, docs = pair
    wrong = _wrong_source(docs, 8, 3)
    assert len(wrong) >= 8
    answer = " ".join(f'The text says "{q}" [{n}].' for q, n, _, _ in wrong)
    report = check_answer(answer, docs)
    checked = [c for c in report.checked if c.result is not None]
    assert len(checked) == len(wrong)
    for c, (q, cited, span, owner) in zip(checked, wrong, strict=True):
        r = c.result
        assert r.status == "not_found" and r.extra["source"] == cited, q
        places = [(p["source"], p["start"], p["end"]) for p in r.found_elsewhere]
        assert (owner, *span) in places or any(
            o == owner and " ".join(docs[owner - 1].text[s:e].split()) == q for o, s, e in places
        ), (q, places)
        assert all(p["source"] != cited for p in r.found_elsewhere)
        assert f"found elsewhere, in source {owner} ({docs[owner - 1].id})" in r.message
    found = [f for f in report.findings if f.kind == "quote_not_found"]
    assert len(found) == len(wrong) and all("found elsewhere, in source" in f.message for f in found)


def test_check_anthropic_citations_with_the_real_offsets(pair: tuple[list[hunt.Case], list[Any]]) -> None:
    """Offsets that point at the real passage do not make its near miss ``located``."""
    cases, docs = pair
    answer, want = anthropic_answer(cases, docs)
    report = check_answer(answer, docs)
    assert report.answer.format.startswith("anthropic")
    assert _statuses(report, want) == []


def test_html_report_shows_the_record_status(tmp_path: Path) -> None:
    """``ipsis verify --format html`` over near misses: each card's status is its record's."""
    rel = "rfc/rfc7519.txt"
    outcomes = hunt.run(hunt.build(2, docs=(("en", rel),)))
    picked = [o for o in outcomes if not (o.case.section or o.case.prefix or o.case.policy)]
    records = [{"citation_id": f"c{k}", "source_id": "rfc", "quote": o.case.quote} for k, o in enumerate(picked)]
    want = {f"c{k}": o.result.status for k, o in enumerate(picked)}
    path = tmp_path / "records.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records), encoding="utf-8")
    out = tmp_path / "report.html"
    res = CliRunner().invoke(
        main, ["verify", str(path), "--source", f"rfc={CORPORA / rel}", "--format", "html", "-o", str(out)]
    )
    assert res.exit_code in (0, 1), res.output
    tree = lxml.html.document_fromstring(out.read_text(encoding="utf-8"))
    cards = tree.xpath("//article[contains(@class, 'cit')]")
    got = {c.get("data-cid"): c.get("data-status") for c in cards}
    assert got == want
    for c in cards:
        assert c.xpath(".//span[@data-badge]")[0].get("data-badge") == c.get("data-status")
    assert {"located", "not_found"} <= set(got.values())


def test_serve_verify_gives_the_library_statuses() -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    from tests.serve_helpers import running_server

    rel = "rfc/rfc7519.txt"
    text = (CORPORA / rel).read_text(encoding="utf-8")
    outcomes = hunt.run(hunt.build(2, docs=(("en", rel),)))
    picked = [o for o in outcomes if not (o.case.section or o.case.prefix or o.case.policy)]
    # an inline text source is read as plain text: no page furniture is marked (a file is)
    picked = [o for o in picked if not o.case.family.startswith("across_pages")]
    records = [{"citation_id": f"c{k}", "source_id": "rfc", "quote": o.case.quote} for k, o in enumerate(picked)]
    with running_server() as server:
        status, data = server.post("/v1/verify", {"records": records, "sources": {"rfc": {"text": text}}})
    assert status == 200, data
    got = {r["citation_id"]: r["status"] for r in data["results"]}
    assert got == {f"c{k}": o.result.status for k, o in enumerate(picked)}
    assert not [o.case.quote for o in picked if o.case.expect == hunt.MISS and got[f"c{picked.index(o)}"] == "located"]

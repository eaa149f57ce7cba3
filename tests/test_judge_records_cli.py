"""``ipsis verify --judge``: records without a quote (retrieval), line-range and wiki citations."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ipsis.cli import main
from tests.shared import SHARED

ROOT = Path(__file__).resolve().parent.parent
RFC = SHARED / "corpora/rfc/rfc7519.txt"
RFC_TEXT = RFC.read_text(encoding="utf-8")
ISS_LINES = "specs/rfc7519.txt#L466-L471"  # section 4.1.1 "iss", ending "Use of this claim is OPTIONAL."
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _verify(tmp_path: Path, records: list[dict[str, Any]], *args: str) -> tuple[int, dict[str, dict[str, Any]]]:
    f = tmp_path / "records.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    r = CliRunner().invoke(main, ["verify", str(f), "--format", "json", *args])
    assert r.exit_code in (0, 1), r.output
    return r.exit_code, {x["citation_id"]: x for x in json.loads(r.stdout)["results"]}


def _passage_ok(result: dict[str, Any], text: str) -> dict[str, Any]:
    p = result["support"]["passage"]
    assert text[p["start"] : p["end"]] == p["text"]
    return p


NO_QUOTE = [
    {"citation_id": "replay", "source_id": "rfc7519",
     "claim": "The jti claim can be used to prevent the JWT from being replayed."},
    {"citation_id": "iss-required", "source_id": "rfc7519", "claim": "The iss claim is REQUIRED.",
     "section": "Section 4.1.1"},
    {"citation_id": "day", "source_id": "rfc7519", "claim": "Each day is accounted for by exactly 86000 seconds."},
]  # fmt: skip


def test_records_without_a_quote_are_retrieved_and_judged(tmp_path: Path) -> None:
    code, res = _verify(tmp_path, NO_QUOTE, "--source", f"rfc7519={RFC}", "--judge", "cues")
    assert code == 1  # two claims are contradicted
    assert {r["status"] for r in res.values()} == {"retrieved"}
    replay = _passage_ok(res["replay"], RFC_TEXT)
    assert res["replay"]["support"]["verdict"] == "supported" and replay["section"] == "sec-4.1.7"
    assert "can be used\n   to prevent the JWT from being replayed" in replay["text"] and replay["retrieved"]
    iss = _passage_ok(res["iss-required"], RFC_TEXT)
    assert res["iss-required"]["support"]["verdict"] == "contradicted" and iss["section"] == "sec-4.1.1"
    assert any("section: OPTIONAL" in e for e in res["iss-required"]["support"]["evidence"])
    day = _passage_ok(res["day"], RFC_TEXT)
    assert res["day"]["support"]["verdict"] == "contradicted" and "exactly 86400 seconds" in day["text"]
    assert len(day["text"]) <= 3000  # a paragraph of the long Terminology section, not all of it
    code, res = _verify(tmp_path, NO_QUOTE[:1], "--source", f"rfc7519={RFC}", "--judge", "cues")
    assert code == 0


def test_without_judge_a_missing_quote_stays_invalid(tmp_path: Path) -> None:
    code, res = _verify(tmp_path, NO_QUOTE, "--source", f"rfc7519={RFC}")
    assert code == 1
    assert all(r["status"] == "invalid_record" and r["field"] == "quote" for r in res.values())


def test_a_section_that_does_not_exist_names_the_field(tmp_path: Path) -> None:
    rec = [{**NO_QUOTE[1], "section": "Section 99.9"}]
    _, res = _verify(tmp_path, rec, "--source", f"rfc7519={RFC}", "--judge", "cues")
    r = res["iss-required"]
    assert r["status"] == "invalid_record" and r["field"] == "section" and "section" in r["message"]


def _git(repo: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@x",
           "PATH": "/usr/bin:/bin:/usr/local/bin", "HOME": str(repo)}  # fmt: skip
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env, text=True).stdout


@needs_git
def test_line_range_citations_from_a_repository(tmp_path: Path) -> None:
    repo = tmp_path / "kb"
    (repo / "specs").mkdir(parents=True)
    (repo / "specs/rfc7519.txt").write_text(RFC_TEXT, encoding="utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "rfc")
    first = _git(repo, "rev-parse", "HEAD").strip()
    edited = RFC_TEXT.replace("Use of this claim is OPTIONAL.", "Use of this claim is REQUIRED.", 1)
    (repo / "specs/rfc7519.txt").write_text(edited, encoding="utf-8")
    _git(repo, "commit", "-qam", "edit")
    blob = f"https://github.com/acme/kb/blob/{first}/{ISS_LINES}"
    lines = "\n".join(RFC_TEXT.split("\n")[465:471])  # git counts "\n" only (the RFC has form feeds)
    records = [
        {"citation_id": "then", "source_id": blob, "claim": "Use of the iss claim is REQUIRED."},
        {"citation_id": "now", "source_id": ISS_LINES, "claim": "Use of the iss claim is REQUIRED."},
        {"citation_id": "quote-in", "source_id": blob,
         "quote": "The \"iss\" (issuer) claim identifies the principal that issued the JWT."},
        {"citation_id": "quote-out", "source_id": blob,
         "quote": "The \"jti\" (JWT ID) claim provides a unique identifier for the JWT."},
        {"citation_id": "orphan", "source_id": f"https://github.com/acme/kb/blob/0123abc/{ISS_LINES}",
         "claim": "Use of the iss claim is REQUIRED."},
    ]  # fmt: skip
    code, res = _verify(tmp_path, records, "--repo", str(repo), "--judge", "cues")
    assert code == 1
    then = _passage_ok(res["then"], RFC_TEXT)
    assert then["text"] == lines and not then["retrieved"] and res["then"]["cited"]["lines"] == [466, 471]
    assert res["then"]["status"] == "retrieved" and res["then"]["support"]["verdict"] == "contradicted"
    assert res["now"]["support"]["verdict"] != "contradicted"  # the working tree says REQUIRED now
    assert _passage_ok(res["now"], edited)["text"].endswith("Use of this claim is REQUIRED.")
    assert res["quote-in"]["status"] == "located" and "warnings" not in res["quote-in"]
    assert res["quote-out"]["status"] == "located"
    assert [w["kind"] for w in res["quote-out"]["warnings"]] == ["outside_cited_lines"]
    orphan = res["orphan"]
    assert orphan["status"] == "unknown_source" and orphan["warnings"][0]["kind"] == "orphan_citation"
    assert "0123abc" in orphan["message"] and "--repo" in orphan["message"]
    _, res = _verify(tmp_path, records[:1], "--judge", "cues")  # no --repo
    assert res["then"]["status"] == "unknown_source" and "--repo" in res["then"]["message"]


def test_wiki_citations(tmp_path: Path) -> None:
    wiki = tmp_path / "wiki"
    wiki.mkdir()
    start = RFC_TEXT.index('4.1.7.  "jti" (JWT ID) Claim\n')  # the section, not its table-of-contents line
    jti = RFC_TEXT[start : RFC_TEXT.index("4.2.  Public Claim Names\n")]
    page = "---\ntitle: JWT claims\n---\n\n" + jti
    (wiki / "jwt-claims 3f2a9c1d.md").write_text(page, encoding="utf-8")
    (wiki / "jwt-claims-log.md").write_text("another page", encoding="utf-8")
    records = [
        {"citation_id": "w1", "source_id": "^[jwt-claims.md]",
         "claim": "The jti claim can be used to prevent the JWT from being replayed."},
        {"citation_id": "w2", "source_id": "^[nope.md]", "claim": "Anything."},
    ]  # fmt: skip
    code, res = _verify(tmp_path, records, "--wiki", str(wiki), "--judge", "cues")
    assert code == 1
    assert res["w1"]["status"] == "retrieved" and res["w1"]["support"]["verdict"] == "supported"
    assert "title:" not in _passage_ok(res["w1"], page)["text"]
    assert res["w2"]["status"] == "unknown_source" and res["w2"]["warnings"][0]["kind"] == "orphan_citation"
    (wiki / "jwt-claims 77aa00bb.md").write_text("x", encoding="utf-8")
    _, res = _verify(tmp_path, records[:1], "--wiki", str(wiki), "--judge", "cues")
    w = res["w1"]["warnings"][0]
    assert res["w1"]["status"] == "unknown_source" and w["kind"] == "ambiguous_citation"
    assert sorted(w["candidates"]) == ["jwt-claims 3f2a9c1d.md", "jwt-claims 77aa00bb.md"]

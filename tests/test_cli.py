"""The CLI: acceptance of issue 2 through CliRunner, exit codes, and help completeness."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from ipsis.cli import main

RETURNS = "Returns are accepted within 30 days.\nA receipt is required."
HELP = "Contact support. Read the guide. Contact support."


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    (tmp_path / "returns.txt").write_text(RETURNS, encoding="utf-8")
    (tmp_path / "help.txt").write_text(HELP, encoding="utf-8")
    m = tmp_path / "sources.json"
    m.write_text(
        json.dumps(
            {"returns-v1": "returns.txt", "help-v1": "help.txt", "cafe-v1": {"text": "Café orders close at noon."}}
        )
    )
    return m


ISSUE_RECORDS = [
    {"citation_id": "c1", "source_id": "returns-v1", "quote": "Returns are accepted\nwithin 30 days."},
    {"citation_id": "c2", "source_id": "returns-v1", "quote": "A receipt is not required."},
    {"citation_id": "c3", "source_id": "missing-v1", "quote": "A receipt is required."},
    {"citation_id": "c4", "source_id": "help-v1", "quote": "Contact support."},
    {"citation_id": "c5", "source_id": "returns-v1", "quote": "   "},
]


def test_verify_issue_acceptance_table(sources: Path, tmp_path: Path) -> None:
    rec = tmp_path / "records.jsonl"
    rec.write_text("\n".join(json.dumps(r) for r in ISSUE_RECORDS) + "\n")
    res = CliRunner().invoke(main, ["verify", str(rec), "--sources", str(sources)])
    assert res.exit_code == 1, res.output
    assert res.output.rstrip().endswith("located=1/5 (ambiguous=1 not_found=1 unknown_source=1 empty_quote=1)")
    assert res.output.rstrip().splitlines()[-1].startswith("located=1/5")


def test_verify_json_statuses(sources: Path, tmp_path: Path) -> None:
    rec = tmp_path / "records.json"
    rec.write_text(json.dumps(ISSUE_RECORDS))
    res = CliRunner().invoke(main, ["verify", str(rec), "--sources", str(sources), "--format", "json"])
    out = json.loads(res.output)
    assert [r["status"] for r in out["results"]] == [
        "located",
        "not_found",
        "unknown_source",
        "ambiguous",
        "empty_quote",
    ]
    assert len(out["results"][3]["matches"]) == 2
    first = out["results"][0]["matches"][0]
    assert RETURNS[first["start"] : first["end"]] == first["text"]
    assert out["run"]["policy_fingerprint"] and out["summary"]["located"] == 1


def test_invalid_records_name_the_field(sources: Path, tmp_path: Path) -> None:
    rec = tmp_path / "records.jsonl"
    rec.write_text(
        json.dumps({"citation_id": "n", "source_id": "returns-v1", "quote": None})
        + "\n"
        + json.dumps({"citation_id": "l", "source_id": ["returns-v1"], "quote": "A receipt is required."})
        + "\n"
        + json.dumps({"source_id": "returns-v1", "quote": "A receipt is required."})
        + "\n"
    )
    res = CliRunner().invoke(main, ["verify", str(rec), "--sources", str(sources), "--format", "jsonl"])
    rows = [json.loads(x) for x in res.stdout.splitlines()]
    assert [r["status"] for r in rows] == ["invalid_record"] * 3
    assert [r["field"] for r in rows] == ["quote", "source_id", "citation_id"]
    assert "must be a string, got null" in rows[0]["message"]
    assert res.exit_code == 1


def test_malformed_line_exit_2(sources: Path, tmp_path: Path) -> None:
    rec = tmp_path / "records.jsonl"
    rec.write_text(json.dumps(ISSUE_RECORDS[0]) + "\n{not json\n")
    res = CliRunner().invoke(main, ["verify", str(rec), "--sources", str(sources)])
    assert res.exit_code == 2
    assert "line 2" in res.output and "Traceback" not in res.output


def test_empty_input_is_exit_1(sources: Path) -> None:
    res = CliRunner().invoke(main, ["verify", "-", "--sources", str(sources)], input="")
    assert res.exit_code == 1
    assert "located=0/0" in res.output


def test_source_pairs_and_stdin(tmp_path: Path) -> None:
    (tmp_path / "cafe.txt").write_text("Café orders close at noon.")
    rec = json.dumps({"citation_id": "x", "source_id": "cafe-v1", "quote": "Cafe\u0301 orders close at noon."})
    res = CliRunner().invoke(main, ["verify", "-", "--source", f"cafe-v1={tmp_path / 'cafe.txt'}"], input=rec)
    assert res.exit_code == 0, res.output
    assert "located=1/1" in res.output


def test_missing_source_file_exit_2(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["locate", str(tmp_path / "nope.txt"), "anything at all here"])
    assert res.exit_code == 2
    assert "no such file" in res.output


def test_locate_json_and_no_boundaries(tmp_path: Path) -> None:
    f = tmp_path / "lorem.txt"
    f.write_text("lorem ipsum dolor amet")
    res = CliRunner().invoke(
        main, ["locate", str(f), "dolor am", "--no-boundaries", "--min-length", "0", "--format", "json"]
    )
    assert res.exit_code == 0
    out = json.loads(res.output)
    assert (out["matches"][0]["start"], out["matches"][0]["end"]) == (12, 20)
    assert out["policy_fingerprint"]
    res = CliRunner().invoke(main, ["locate", str(f), "dolor am", "--min-length", "0"])
    assert res.exit_code == 1


def test_describe_selector(tmp_path: Path) -> None:
    f = tmp_path / "help.txt"
    f.write_text(HELP)
    res = CliRunner().invoke(main, ["describe", str(f), "33", "49"])
    out = json.loads(res.output)
    assert out["unique"] is True
    sel = out["selector"]
    assert sel["exact"] == "Contact support." and sel["prefix"].strip().endswith(".")
    res = CliRunner().invoke(
        main, ["locate", str(f), sel["exact"], "--prefix", sel["prefix"], "--suffix", sel["suffix"], "--format", "json"]
    )
    assert json.loads(res.output)["matches"][0]["start"] == 33
    res = CliRunner().invoke(main, ["describe", str(f), "40", "999"])
    assert res.exit_code == 2


def test_text_prints_document_text(tmp_path: Path) -> None:
    f = tmp_path / "bom.txt"
    f.write_bytes(b"\xef\xbb\xbfRFC 9111\r\nCaching")
    res = CliRunner().invoke(main, ["text", str(f)])
    assert res.stdout_bytes == b"RFC 9111\r\nCaching"


def test_every_command_has_help_and_example() -> None:
    for name, cmd in main.load_all().items():
        assert isinstance(cmd, click.Command)
        assert cmd.help and "Example" in cmd.help, f"{name} needs help with an Example"


def test_readme_documents_every_command() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    for name in main.load_all():
        assert f"ipsis {name}" in readme, f"README.md does not mention `ipsis {name}`"

"""``ipsis text``: reader options, JSON record, and exit-2 messages for bad inputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ipsis.cli import main

ROOT = Path(__file__).resolve().parent.parent
SENADO_PDF = ROOT / "corpora" / "br" / "lgpd-senado-edicao-2024.pdf"


def test_text_json_record() -> None:
    result = CliRunner().invoke(main, ["text", str(SENADO_PDF), "--format", "json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["extractor"] == "pypdfium2"
    assert record["sha256"] == "8e1e17812d22c28f890298d5704b14cfe3aca2b6ebc7e88c41cc1fc38fbf489f"
    assert len(record["pages"]) == record["page_count"] == 49
    text = record["text"]
    assert text[record["pages"][7] :].startswith("Lei no 13.709/2018\nLei Geral de Proteção")
    furniture = [m for m in record["marks"] if m["kind"] == "furniture"]
    assert text[furniture[0]["start"] : furniture[0]["end"]] == "Lei n 9 o 13.709/2018"


def test_text_engine_and_input_format_options() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["text", str(SENADO_PDF), "--engine", "pypdf", "--format", "json"])
    assert json.loads(result.output)["extractor"] == "pypdf"
    rfc = ROOT / "corpora" / "rfc" / "rfc7519.txt"
    result = runner.invoke(main, ["text", str(rfc), "--input-format", "text"])
    assert result.exit_code == 0
    assert result.output == rfc.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("content", "name", "message"),
    [
        (b"", "empty.txt", "empty.txt is empty"),
        (SENADO_PDF.read_bytes()[:150000], "half.pdf", "half.pdf looks truncated"),
        (bytes(range(256)) * 4, "page.html", "page.html: binary data"),
        (b'<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>', "e.xml", "external entity 'e'"),
    ],
)
def test_bad_inputs_exit_2(tmp_path: Path, content: bytes, name: str, message: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    result = CliRunner().invoke(main, ["text", str(path)])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output

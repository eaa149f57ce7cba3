"""Inputs that cost far more than their size (issue 21, Low): an amplification limit on text per
input byte, the watchdog around ``ipsis ingest``, and no network unless ``--judge llm``."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ipsis.cli import main
from ipsis.errors import InputError
from ipsis.ingest import load_bytes
from ipsis.limits import Limits
from tests.hostile import pdfs
from tests.shared import SHARED

ROOT = Path(__file__).resolve().parent.parent
RFC = SHARED / "corpora/rfc/rfc7519.txt"
ISS = 'The "iss" (issuer) claim identifies the principal that issued the JWT.'


@pytest.mark.parametrize("engine", ["pdfium", "pypdf"])
def test_a_page_reuse_bomb_is_refused_early(engine: str) -> None:
    bomb = pdfs.page_reuse_bomb(4000)  # ~25 KB; 14 MB of text if read to the end
    start = time.monotonic()
    with pytest.raises(
        InputError, match=r"bomb\.pdf \(page \d+ of 4000\): [\d,]+ characters of text from [\d,]+ bytes"
    ):
        load_bytes(bomb, "bomb", "bomb.pdf", engine=engine)
    assert time.monotonic() - start < 60  # stopped at the first page past the ratio, not at page 4000


def test_the_ratio_is_an_option_and_genuine_text_passes() -> None:
    bomb = pdfs.page_reuse_bomb(400)  # 1.4 MB of text from ~3 KB
    with pytest.raises(InputError, match="--max-text-ratio"):
        load_bytes(bomb, "bomb", "bomb.pdf")
    doc = load_bytes(bomb, "bomb", "bomb.pdf", limits=Limits(max_text_ratio=0))
    assert doc.text.count("on every page of the file, line 49.") == 400
    assert (
        load_bytes(pdfs.text_pdf(["Returns are accepted within 30 days."] * 3), "ok", "ok.pdf").text.count(
            "Returns are accepted within 30 days."
        )
        == 3
    )  # a small file is never refused: the ratio counts past the first million characters
    r = CliRunner().invoke(main, ["text", "-", "--max-text-ratio", "1000000"], input=bomb)
    assert r.exit_code == 0 and r.stdout.count("line 49.") == 400


def test_text_command_refuses_the_bomb_with_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "bomb.pdf"
    path.write_bytes(pdfs.page_reuse_bomb(4000))
    r = CliRunner().invoke(main, ["text", str(path)])
    assert r.exit_code == 2 and "amplification bomb" in r.stderr and "--max-text-ratio" in r.stderr


def test_ingest_runs_under_the_watchdog(tmp_path: Path) -> None:
    # libxml2 checks each attribute against the others: 100,000 of them take minutes
    html = tmp_path / "attrs.html"
    attrs = " ".join(f'a{i}="x"' for i in range(100_000))
    html.write_text(f"<html><body><p {attrs}>Returns are accepted within 30 days.</p></body></html>", "utf-8")
    store = tmp_path / "store"
    cmd = [sys.executable, "-m", "ipsis", "ingest", str(html), "--timeout", "1", "--store", str(store)]
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=120)
    took = time.monotonic() - start
    assert proc.returncode == 2 and "stopped by the watchdog" in proc.stderr and "--timeout" in proc.stderr
    assert "Traceback" not in proc.stderr and took < 60
    listed = subprocess.run([sys.executable, "-m", "ipsis", "sources", "--store", str(store), "--format", "json"],
                            capture_output=True, text=True, cwd=ROOT)  # fmt: skip
    assert listed.returncode == 0 and "attrs" not in listed.stdout  # nothing half-ingested


def test_no_outbound_connection_unless_judge_llm(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    tried: list[Any] = []
    real_connect = socket.socket.connect

    def connect(self: socket.socket, address: Any) -> None:
        tried.append(address)
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    records = tmp_path / "r.jsonl"
    record = {"citation_id": "1", "source_id": "rfc", "quote": ISS, "claim": "The iss claim names the issuer."}
    records.write_text(json.dumps(record) + "\n", encoding="utf-8")
    runs = [
        ["text", str(RFC)],
        ["locate", str(RFC), ISS],
        ["verify", str(records), "--source", f"rfc={RFC}", "--judge", "cues", "--format", "html"],
        ["check", "-", "--sources", str(RFC)],
        ["ingest", str(RFC), "--id", "rfc", "--store", str(tmp_path / "store")],
    ]
    for args in runs:
        r = CliRunner().invoke(main, args, input=f'The spec says "{ISS}" [1].')
        assert r.exit_code in (0, 1), (args, r.output)
    assert tried == []
    r = CliRunner().invoke(main, ["verify", str(records), "--source", f"rfc={RFC}", "--judge", "llm",
                                  "--judge-url", "http://127.0.0.1:9/v1", "--judge-model", "m"])  # fmt: skip
    assert tried and tried[0][0] == "127.0.0.1"  # the one place that connects, and only when asked

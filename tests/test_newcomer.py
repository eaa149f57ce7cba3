"""A newcomer's first hour (issue 15): CLI conventions, messages that name the fix, one rule for
a folder's sources, and optional extras that say how to install them. The inputs are the
project's own example documents (examples/) unless a test says otherwise."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ipsis.cli import main
from tests.shared import corpus

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
LEI = EXAMPLES / "sources/norms/lei-municipal-4210-2024.txt"
REGLAMENTO = EXAMPLES / "sources/norms/reglamento-archivo-villaserena.txt"
DRAFT = EXAMPLES / "sources/draft-example-quote-anchors-00.txt"
ANSWER = EXAMPLES / "answers/ollama-chat-pt.json"
LEI_TEXT = LEI.read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("IPSIS_STORE", "IPSIS_USER", "COLUMNS", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)


def run(*args: str | Path, input: str | None = None) -> object:
    return CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)


def ipsis(
    *args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m ipsis`` as a user runs it: output into a pipe, ``COLUMNS`` only when given."""
    full = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    full.update(PYTHONPATH=str(ROOT), **(env or {}))
    return subprocess.run(
        [sys.executable, "-m", "ipsis", *map(str, args)], input=stdin, capture_output=True, text=True, cwd=cwd,
        env=full, timeout=120, check=False,
    )  # fmt: skip


# -- conventions ---------------------------------------------------------------------------------
def test_bare_ipsis_prints_help_and_exits_0_and_dash_v_prints_the_version() -> None:
    import ipsis as pkg

    bare = ipsis()
    assert bare.returncode == 0 and bare.stdout.startswith("Usage: ipsis ") and "Commands:" in bare.stdout
    for flag in ("-V", "--version"):
        res = ipsis(flag)
        assert res.returncode == 0 and res.stdout.strip() == f"ipsis, version {pkg.__version__}"


def test_dash_o_dash_is_stdout(tmp_path: Path) -> None:
    records = tmp_path / "r.jsonl"
    records.write_text(json.dumps({"citation_id": "c", "source_id": "lei", "quote": "Esta Lei entra em vigor"}) + "\n")
    res = ipsis("verify", records, "--source", f"lei={LEI}", "--format", "jsonl", "-o", "-", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    (row,) = [json.loads(line) for line in res.stdout.splitlines()]
    start = LEI_TEXT.index("Esta Lei entra em vigor")
    assert (row["matches"][0]["start"], row["matches"][0]["end"]) == (start, start + len("Esta Lei entra em vigor"))
    chk = ipsis("check", ANSWER, "--sources", EXAMPLES / "sources/norms", "--format", "json", "-o", "-", cwd=tmp_path)
    assert chk.returncode == 1 and json.loads(chk.stdout)["findings"]
    assert not (tmp_path / "-").exists()


def test_the_table_is_not_cut_into_a_pipe_and_follows_columns() -> None:
    long_id = "a-citation-id-much-longer-than-sixteen-characters"
    quote = "A tabela de temporalidade não será revista a cada cinco anos."
    records = json.dumps({"citation_id": long_id, "source_id": "lei", "quote": quote})
    proc = ipsis("verify", "-", "--source", f"lei={LEI}", stdin=records)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert lines[0].split()[1] == long_id  # whole, not "a-citation-id-m…"
    assert "negation_changed (quote não)" in proc.stdout  # the reason, not "negation_chang…"
    assert f"“{quote}”" in proc.stdout
    narrow = ipsis("verify", "-", "--source", f"lei={LEI}", stdin=records, env={"COLUMNS": "60"})
    from ipsis.report import cols

    assert all(cols(line) <= 60 for line in narrow.stdout.splitlines()), narrow.stdout
    chk = ipsis("check", ANSWER, "--sources", EXAMPLES / "sources/norms", env={"COLUMNS": "50"})
    assert all(cols(line) <= 50 for line in chk.stdout.splitlines()), chk.stdout
    whole = ipsis("check", ANSWER, "--sources", EXAMPLES / "sources/norms")
    assert "number_changed (quote sessenta, source trinta)" in whole.stdout


def test_the_judges_verdict_is_in_the_table_and_the_summary(tmp_path: Path) -> None:
    claim = "O pedido de acesso é atendido em até trinta dias."
    quote = "O pedido de acesso será atendido no prazo de vinte dias"
    records = tmp_path / "claims.jsonl"
    records.write_text(json.dumps({"citation_id": "p", "source_id": "lei", "quote": quote, "claim": claim}) + "\n")
    res = run("verify", records, "--source", f"lei={LEI}", "--judge", "cues")
    assert res.exit_code == 1  # located, but the claim says thirty days where the law says twenty
    assert "    judge: contradicted (" in res.stdout and "claim: trinta dias; section: vinte dias" in res.stdout
    assert res.stdout.rstrip().endswith("located=1/1; judged: contradicted=1")
    jsonl = run("verify", records, "--source", f"lei={LEI}", "--judge", "cues", "--format", "jsonl")
    assert "located=1/1; judged: contradicted=1" in jsonl.stderr


# -- messages that name the fix -----------------------------------------------------------------
def test_check_sources_file_missing_is_said_even_with_a_store(tmp_path: Path) -> None:
    assert run("ingest", LEI, "--store", tmp_path / ".ipsis").exit_code == 0
    res = ipsis("check", ANSWER, "--sources", "nope.json", cwd=tmp_path)
    assert res.returncode == 2
    assert "nope.json: no such file or directory" in res.stderr and "unknown source id" not in res.stderr
    ids = ipsis("check", ANSWER, "--sources", "lei-municipal-4210-2024,nope", cwd=tmp_path)
    assert ids.returncode == 2 and "unknown source id 'nope'" in ids.stderr


def test_a_file_path_as_source_id_hints_at_source_id_path(tmp_path: Path) -> None:
    records = tmp_path / "r.jsonl"
    records.write_text(json.dumps({"citation_id": "c", "source_id": str(LEI), "quote": "Esta Lei entra em vigor"}))
    res = run("verify", records)
    assert res.exit_code == 1
    assert f"unknown source '{LEI}'; a source_id is an id, not a path: map it to the file with --source ID=PATH" in (
        res.stdout
    )


def test_every_missing_field_is_named_and_unknown_fields_are_warned(tmp_path: Path) -> None:
    rows = [
        {"citation_id": "a", "sorce_id": "lei"},
        {"citation_id": "b", "source_id": "lei", "quote": "Esta Lei entra em vigor", "qoute_prefix": "Art. 7º"},
    ]
    records = tmp_path / "r.jsonl"
    records.write_text("".join(json.dumps(r) + "\n" for r in rows))
    res = run("verify", records, "--source", f"lei={LEI}", "--format", "jsonl")
    a, b = (json.loads(line) for line in res.stdout.splitlines())
    assert a["status"] == "invalid_record" and a["field"] == "source_id"
    assert a["message"].startswith("record 1: fields 'source_id', 'quote' are missing")
    assert "unknown field 'sorce_id' (ignored; did you mean 'source_id'?)" in a["message"]
    assert b["status"] == "located"
    (warning,) = [w for w in b["warnings"] if w["kind"] == "unknown_field"]
    assert warning["fields"] == ["qoute_prefix"] and "ignored" in warning["message"]


def test_feedback_is_worded_per_finding_kind(tmp_path: Path) -> None:
    answer = tmp_path / "a.txt"
    answer.write_text('O prazo é de "vinte dias" [1].', encoding="utf-8")  # 10 characters: too short to check
    sources = tmp_path / "s"
    sources.mkdir()
    shutil.copy(LEI, sources / "lei.txt")
    report = json.loads(run("check", answer, "--sources", sources, "--format", "json").stdout)
    assert [f["kind"] for f in report["findings"]] == ["quote_too_short"]
    fb = run("check", answer, "--sources", sources, "--feedback").stdout
    assert "é curta demais para ser verificada" in fb and "não está literalmente" not in fb


def test_describe_start_end_are_where_exact_is() -> None:
    start = LEI_TEXT.index("A tabela de temporalidade será revista")
    end = LEI_TEXT.index("cinco anos.", start) + len("cinco anos.")
    for s, e in ((start, end + 1), (start - 1, end), (start, end)):  # a newline, a space, nothing to trim
        out = json.loads(run("describe", LEI, s, e).stdout)
        exact = out["selector"]["exact"]
        assert LEI_TEXT[out["start"] : out["end"]] == exact
        assert (out["position"]["start"], out["position"]["end"]) == (out["start"], out["end"]) == (start, end)
        assert out["requested"] == {"start": s, "end": e}
        assert out["occurrences"] == 1 and out["unique"] is True


def test_serve_with_the_port_taken_is_a_clear_error() -> None:
    pytest.importorskip("uvicorn", reason="ipsis serve needs pip install 'ipsis[serve]'")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        res = ipsis("serve", "--port", str(port))
    assert res.returncode == 2 and "Traceback" not in res.stderr and "Errno" not in res.stderr
    assert f"cannot listen on 127.0.0.1:{port}: Address already in use" in res.stderr
    assert "pass another --port" in res.stderr


# -- one rule for a folder's sources -------------------------------------------------------------
def test_ingest_and_check_take_the_same_files_of_a_folder_and_say_what_they_skip(tmp_path: Path) -> None:
    folder = tmp_path / "sources"
    (folder / "more").mkdir(parents=True)
    shutil.copy(LEI, folder / "1-lei.txt")
    shutil.copy(REGLAMENTO, folder / "more" / "2-reglamento.txt")
    (folder / "figures.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (folder / "table.csv").write_text("a,b\n1,2\n")
    (folder / ".hidden.txt").write_text("not a source")
    ing = run("ingest", folder, "--store", tmp_path / "st")
    assert ing.exit_code == 0, ing.output
    assert "note: " + str(folder) + ": skipped 2 files that are not sources" in ing.stderr
    assert "figures.png, table.csv" in ing.stderr
    assert {line.split()[1] for line in ing.stdout.splitlines()} == {"1-lei", "2-reglamento"}
    chk = run("check", ANSWER, "--sources", folder, "--format", "json")
    assert "figures.png, table.csv" in chk.stderr
    numbered = [(s["number"], s["id"]) for s in json.loads(chk.stdout)["sources"]]
    assert numbered == [(1, "1-lei"), (2, "2-reglamento")]


# -- check --judge: file sources and stored ids give the same judgment ---------------------------
def test_check_judge_retrieves_the_same_passage_from_files_and_from_the_store(tmp_path: Path) -> None:
    rfc = corpus("rfc/rfc7519.txt")
    folder = tmp_path / "rfc"
    folder.mkdir()
    shutil.copy(rfc, folder / "rfc7519.txt")
    answer = tmp_path / "answer.txt"
    answer.write_text("The jti claim is REQUIRED in every JWT [1].\n", encoding="utf-8")
    assert run("ingest", rfc, "--id", "rfc7519", "--store", tmp_path / "st").exit_code == 0
    by_file = json.loads(run("check", answer, "--sources", folder, "--judge", "cues", "--format", "json").stdout)
    by_id = json.loads(
        run("check", answer, "--sources", "rfc7519", "--store", tmp_path / "st", "--judge", "cues", "--format", "json")
        .stdout
    )
    text = rfc.read_text(encoding="utf-8-sig")
    for report in (by_file, by_id):
        (claim,) = report["claims"]
        passage = claim["support"]["passage"]
        assert claim["support"]["verdict"] == "contradicted"  # 4.1.7: 'Use of this claim is OPTIONAL.'
        assert passage["section"] == "sec-4.1.7" and text[passage["start"] : passage["end"]] == passage["text"]
        assert "Use of this claim is OPTIONAL." in passage["text"]
    assert by_file["claims"][0]["support"]["passage"]["start"] == by_id["claims"][0]["support"]["passage"]["start"]


# -- optional extras -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("engine", "module", "extra"), [("pdfplumber", "pdfplumber", "pdfplumber"), ("pypdf", "fontTools", "pypdf")]
)
def test_a_missing_extra_is_an_exit_2_message(
    engine: str, module: str, extra: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    pdf = corpus("pdf/ch-bundesverfassung-sr101-2020.pdf")
    monkeypatch.setitem(sys.modules, module, None)  # import fails as if it were not installed
    res = CliRunner().invoke(main, ["text", str(pdf), "--engine", engine])
    assert res.exit_code == 2 and not isinstance(res.exception, ImportError)
    assert f"needs {module}, which is not installed: pip install 'ipsis[{extra}]'" in res.output

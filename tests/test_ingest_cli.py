"""``ipsis text``: reader options, JSON record, and exit-2 messages for bad inputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ipsis.cli import main
from tests.shared import SHARED

ROOT = Path(__file__).resolve().parent.parent
SENADO_PDF = SHARED / "corpora" / "br" / "lgpd-senado-edicao-2024.pdf"


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
    rfc = SHARED / "corpora" / "rfc" / "rfc7519.txt"
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


PLANALTO_CP1252 = SHARED / "corpora" / "br" / "lei-14133-2021-planalto-reserialized-cp1252.html"
FEK = SHARED / "corpora" / "pdf" / "gr-fek-2008-syntagma-revision-2col.pdf"


def test_text_engine_pdfplumber_reads_columns() -> None:
    result = CliRunner().invoke(main, ["text", str(FEK), "--engine", "pdfplumber"])
    assert result.exit_code == 0, result.output
    assert "επαγγέλματος. Νόμος\nορίζει τις δραστηριότητες" in result.output


def test_text_position_furniture_flag() -> None:
    pdf = SHARED / "corpora" / "rfc" / "rfc7519-rfceditor-pdfrfc.pdf"
    result = CliRunner().invoke(main, ["text", str(pdf), "--position-furniture", "--format", "json"])
    record = json.loads(result.output)
    assert record["furniture_by"] == "repetition, confirmed by position (pdfplumber)"
    assert record["furniture_unconfirmed"] == []


def test_encoding_forced(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["text", str(PLANALTO_CP1252), "--encoding", "cp1252", "--format", "json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["encoding"] == "cp1252" and record["encoding_forced"] is True
    assert "Art. 1º Esta Lei estabelece normas gerais de licitação e contratação" in record["text"]
    lei = tmp_path / "lei.txt"
    lei.write_bytes("Art. 5º Todos são iguais perante a lei".encode("cp1252"))
    result = runner.invoke(main, ["text", str(lei), "--encoding", "latin-1"])
    assert result.output == "Art. 5º Todos são iguais perante a lei"
    result = runner.invoke(main, ["locate", str(lei), "Todos são iguais perante a lei", "--encoding", "cp1252"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(main, ["describe", str(lei), "8", "13", "--encoding", "cp1252"])
    assert result.exit_code == 0 and '"exact": "Todos"' in result.output


@pytest.mark.parametrize("command", ["text", "locate", "describe"])
def test_wrong_encoding_names_the_file_and_another_encoding(command: str) -> None:
    args = {"text": [], "locate": ["Art. 1º Esta Lei"], "describe": ["0", "5"]}[command]
    result = CliRunner().invoke(main, [command, str(PLANALTO_CP1252), *args, "--encoding", "utf-8"])
    assert result.exit_code == 2
    assert f"{PLANALTO_CP1252}: cannot decode as utf-8" in result.output
    assert "at byte 3584" in result.output and "try --encoding cp1252" in result.output
    assert "Traceback" not in result.output


def test_unknown_encoding(tmp_path: Path) -> None:
    lei = tmp_path / "lei.txt"
    lei.write_text("Art. 1", encoding="utf-8")
    result = CliRunner().invoke(main, ["text", str(lei), "--encoding", "klingon"])
    assert result.exit_code == 2
    assert "unknown encoding 'klingon'" in result.output and "lei.txt" in result.output


def test_verify_sources_with_encoding(tmp_path: Path) -> None:
    lei = tmp_path / "lei.txt"
    lei.write_bytes("Art. 5º Todos são iguais perante a lei, sem distinção".encode("cp1252"))
    records = tmp_path / "r.jsonl"
    records.write_text(
        json.dumps({"citation_id": "c1", "source_id": "cf", "quote": "Todos são iguais perante a lei"}) + "\n",
        encoding="utf-8",
    )
    runner = CliRunner()
    ok = runner.invoke(main, ["verify", str(records), "--source", f"cf={lei}", "--encoding", "cp1252"])
    assert ok.exit_code == 0, ok.output
    bad = runner.invoke(
        main, ["verify", str(records), "--source", f"cf={lei}", "--encoding", "utf-8", "--format", "jsonl"]
    )
    assert bad.exit_code == 1  # an unreadable source: its records say why, the run goes on
    result = json.loads(next(line for line in bad.output.splitlines() if line.startswith("{")))
    assert result["status"] == "unknown_source"
    assert "lei.txt: cannot decode as utf-8" in result["message"] and "try --encoding cp1252" in result["message"]


def test_verify_one_unreadable_source_among_others(tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text("Returns are accepted within 30 days of delivery.", encoding="utf-8")
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n")  # no pages, no xref
    records = tmp_path / "r.jsonl"
    rows = [
        {"citation_id": "a", "source_id": "broken", "quote": "Returns are accepted within 30 days"},
        {"citation_id": "b", "source_id": "good", "quote": "Returns are accepted within 30 days"},
        {"citation_id": "c", "source_id": "broken", "quote": "accepted within 30 days of delivery"},
    ]
    records.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = CliRunner().invoke(
        main,
        ["verify", str(records), "--source", f"broken={broken}", "--source", f"good={good}", "--format", "jsonl"],
    )
    assert out.exit_code == 1, out.output
    results = [json.loads(line) for line in out.output.splitlines() if line.startswith("{")]
    assert [r["status"] for r in results] == ["unknown_source", "located", "unknown_source"]
    assert "broken.pdf" in results[0]["message"] and "cannot be read" in results[0]["message"]
    assert results[0]["message"] == results[2]["message"]


class _Terminal:
    """stderr as a terminal: click draws the bar when isatty() is true."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, s: str) -> int:
        self.parts.append(s)
        return len(s)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from ipsis.cli.progress import pdf_progress
    from ipsis.ingest import load_document

    cf88 = SHARED / "corpora" / "br" / "cf88-camara-cedi-texto-atualizado-ec105.pdf"
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with pdf_progress() as progress:
        assert progress is not None
        load_document(cf88, progress=progress)
    drawn = "".join(terminal.parts)
    assert "Extracting pages" in drawn and "100%" in drawn
    monkeypatch.undo()
    # in a pipe (CliRunner's streams are not terminals) nothing is drawn
    result = CliRunner().invoke(main, ["text", str(cf88)])
    assert result.exit_code == 0 and "Extracting pages" not in result.output


@pytest.mark.parametrize("engine", ["pdfium", "pypdf", "pdfplumber"])
@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("truncated", "looks truncated or damaged"),
        ("encrypted", "is encrypted and cannot be opened without a password; pass --password"),
        ("image-only", "no text layer: the pages (1-2) have no extractable text"),
        ("zero-pages", "is a PDF with 0 pages"),
    ],
)
def test_bad_pdfs_exit_2_with_every_engine(tmp_path: Path, engine: str, case: str, message: str) -> None:
    from tests.test_ingest_errors import LGPD_PDF, _pdf

    data = {
        "truncated": lambda: LGPD_PDF.read_bytes()[: LGPD_PDF.stat().st_size // 2],
        "encrypted": lambda: _pdf(user_password="s3cret", text=""),
        "image-only": lambda: _pdf(pages=2),
        "zero-pages": lambda: _pdf(pages=0),
    }[case]()
    path = tmp_path / f"{case}.pdf"
    path.write_bytes(data)
    result = CliRunner().invoke(main, ["text", str(path), "--engine", engine])
    assert result.exit_code == 2, result.output
    assert f"{path}" in result.output and message in result.output
    assert "Traceback" not in result.output
    assert result.output.count("\n") == 1, result.output  # one message, no library log lines


def test_ingest_with_reader_options(tmp_path: Path) -> None:
    lei = tmp_path / "lei.txt"
    lei.write_bytes("Art. 5º Todos são iguais perante a lei".encode("cp1252"))
    store = str(tmp_path / "store")
    runner = CliRunner()
    bad = runner.invoke(main, ["ingest", str(lei), "--encoding", "utf-8", "--store", store])
    assert bad.exit_code == 2
    assert "lei.txt: cannot decode as utf-8" in bad.output and "try --encoding cp1252" in bad.output
    ok = runner.invoke(main, ["ingest", str(lei), "--encoding", "cp1252", "--store", store])
    assert ok.exit_code == 0, ok.output
    shown = runner.invoke(main, ["text", "lei", "--store", store])
    assert shown.output == "Art. 5º Todos são iguais perante a lei"
    two = runner.invoke(main, ["ingest", str(FEK), "--id", "fek", "--engine", "pdfplumber", "--store", store])
    assert two.exit_code == 0, two.output
    record = json.loads(runner.invoke(main, ["text", "fek", "--store", store, "--format", "json"]).output)
    assert "επαγγέλματος. Νόμος\nορίζει τις δραστηριότητες" in record["text"]

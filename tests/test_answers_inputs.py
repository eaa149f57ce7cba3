"""Malformed answers and sources: a clear InputError (exit 2) or a finding, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ipsis.answers.check import check_answer
from ipsis.answers.detect import parse_answer
from ipsis.answers.feedback import feedback, verified_text
from ipsis.answers.sources import load_sources, sources_from_text
from ipsis.cli import main
from ipsis.errors import InputError
from tests.shared import ANSWERS

FIXTURES = ANSWERS
SOURCES = FIXTURES / "sources.json"

BAD_ANSWERS = [
    (
        "truncated JSON",
        '{"model": "llama3.2", "message": {"role": "assistant", "content": "Meals [1]',
        "line 1, column",
    ),
    (
        "wrong type",
        '{"message": {"role": "assistant", "content": 42}, "done": true}',
        "message.content must be a string",
    ),
    (
        "string where an array is expected",
        '{"answer": "Meals up to €50 [1].", "citations": "source 1"}',
        "citations must be an array",
    ),
    ("SSE garbage line", 'data: {"choices": []}\n\nHTTP/1.1 502 Bad Gateway\n', "line 3 is not a server-sent event"),
    ("SSE data not JSON", 'event: message_start\ndata: {"type": "message_start"\n\n', "invalid JSON at line 2"),
    ("NDJSON bad line", '{"message": {"content": "a"}, "done": false}\n{"message": \n', "invalid JSON at line 2"),
    ("bool as source number", '{"answer": "x", "citations": [{"source": true, "quote": "y"}]}', "citations[0].source"),
    ("unknown JSON", '{"foo": 1}', "unknown answer format"),
    (
        "lone surrogate in the answer string",
        '{"answer": "Meals \\ud83d up to [1].", "citations": [{"source": 1, "quote": "meals"}]}',
        "field answer holds a lone surrogate (U+D83D)",
    ),
    (
        "4,401-digit integer",
        '{"answer": "x", "citations": [{"source": 1' + "0" * 4400 + ', "quote": "y"}]}',
        "a number with 4401 digits",
    ),
    ("deeply nested JSON", '{"answer": "x", "citations": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    ("event stream of an unknown kind", 'data: {"foo": 1}\n\n', "the streams ipsis reads are"),
    ("empty", "  \n", "is empty"),
]


@pytest.mark.parametrize(("label", "data", "fragment"), BAD_ANSWERS, ids=[b[0] for b in BAD_ANSWERS])
def test_bad_answer_is_input_error(label: str, data: str, fragment: str) -> None:
    with pytest.raises(InputError, match=None) as info:
        parse_answer(data, name="answer.json")
    assert fragment in str(info.value)


@pytest.mark.parametrize(("label", "data", "fragment"), BAD_ANSWERS, ids=[b[0] for b in BAD_ANSWERS])
def test_bad_answer_cli_exit_2(tmp_path: Path, label: str, data: str, fragment: str) -> None:
    answer = tmp_path / "answer.json"
    answer.write_text(data, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(answer), "--sources", str(SOURCES)])
    assert result.exit_code == 2, result.output
    assert fragment in result.output
    assert "Traceback" not in result.output


def test_mid_stream_error_is_a_finding() -> None:
    lines = [
        {"message": {"role": "assistant", "content": "Meals up to €50 per day ["}, "done": False},
        {"message": {"role": "assistant", "content": "1]."}, "done": False},
        {"error": "model runner has unexpectedly stopped"},
    ]
    data = "\n".join(json.dumps(x) for x in lines)
    report = check_answer(data, load_sources(SOURCES))
    kinds = [f.kind for f in report.findings]
    assert "stream_error" in kinds and "truncated" in kinds
    err = next(f for f in report.findings if f.kind == "stream_error")
    assert "unexpectedly stopped" in err.message and err.answer_span is not None
    assert err.answer_span.start == len("Meals up to €50 per day [1].")


def test_bad_sources() -> None:
    with pytest.raises(InputError, match="has no text"):
        sources_from_text('[{"id": "a"}]')
    with pytest.raises(InputError, match="line 1, column"):
        sources_from_text('[{"text": "a"')


def test_sources_forms_agree() -> None:
    js = load_sources(SOURCES)
    xml = load_sources(FIXTURES / "sources-prompt.xml")
    dashed = sources_from_text("\n---\n".join(s.text for s in js))
    assert [s.text for s in xml] == [s.text for s in js] == [s.text for s in dashed]
    assert [s.id for s in xml] == [s.id for s in js]


def test_directory_sources(tmp_path: Path) -> None:
    for s in load_sources(SOURCES):
        (tmp_path / f"{s.number:02d}-{s.id}.txt").write_text(s.text, encoding="utf-8")
    srcs = load_sources(tmp_path)
    assert [s.number for s in srcs] == [1, 2, 3]
    assert srcs[1].text.startswith("Staff may work remotely")


def test_cli_json_and_exit_codes(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(
        main, ["check", str(FIXTURES / "ollama-chat.json"), "--sources", str(SOURCES), "--format", "json"]
    )
    assert result.exit_code == 1
    out = json.loads(result.output)
    assert out["format"] == "ollama-chat"
    assert [s["cited"] for s in out["sources"]] == [True, True, False]
    assert any(r["status"] == "located" and r["quote"] == "requires written approval from HR" for r in out["citations"])
    clean = tmp_path / "clean.txt"
    clean.write_text('Meals: "may claim meals up to €50 per day" [1]. Abroad needs HR approval [2]. Report losses [3].')
    result = runner.invoke(main, ["check", str(clean), "--sources", str(SOURCES)])
    assert result.exit_code == 0, result.output
    for fmt in ("table", "jsonl", "csv"):
        result = runner.invoke(
            main, ["check", str(FIXTURES / "cohere-v2.json"), "--sources", str(SOURCES), "--format", fmt]
        )
        assert result.exit_code == 1 and "offset" in result.output


def test_answer_format_override() -> None:
    data = (FIXTURES / "claims-schema.json").read_text(encoding="utf-8")
    assert parse_answer(data).format == "claims"
    assert parse_answer(data, "text").format == "text"


def test_feedback_in_answer_language_and_verified_text() -> None:
    sources = load_sources(SOURCES)
    es = check_answer((FIXTURES / "claims-schema-es.json").read_bytes(), sources)
    message = feedback(es)
    assert message.startswith("Algunas citas")
    assert "Trabajar desde el extranjero" in message and "sin cita" in message
    kept = verified_text(es)
    assert "Trabajar desde el extranjero" not in kept and kept.startswith("Puedes reclamar")
    en = check_answer((FIXTURES / "plain-brackets.txt").read_bytes(), sources)
    assert feedback(en).startswith("Some citations")
    kept = verified_text(en)
    assert "must never be used" not in kept and "[5]" not in kept
    assert "Working abroad" in kept


def test_ndjson_lines_end_at_newline_only() -> None:
    """U+2028, U+0085 and a form feed inside a JSON string (ensure_ascii=False) are text."""
    lines = [
        {"message": {"role": "assistant", "content": "Meals up to €50\u2028per day\x85"}, "done": False},
        {"message": {"role": "assistant", "content": " [1].\f"}, "done": True},
    ]
    data = "\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n"
    answer = parse_answer(data)
    assert answer.format == "ollama-chat-stream"
    assert answer.text == "Meals up to €50\u2028per day\x85 [1].\f"
    assert not answer.truncated


def test_sse_lines_end_at_cr_lf_only() -> None:
    chunk = {"choices": [{"index": 0, "delta": {"content": "Meals\u2028up to €50 [1]."}, "finish_reason": "stop"}]}
    data = "data: " + json.dumps(chunk, ensure_ascii=False) + "\r\n\r\ndata: [DONE]\r\n\r\n"
    assert parse_answer(data).text == "Meals\u2028up to €50 [1]."


def test_records_read_back_with_line_separators() -> None:
    """``verify --format jsonl`` writes U+2028 raw; ``parse_records`` (the Dask path) reads it back."""
    from ipsis.verify.records import parse_records

    rows = [
        {"citation_id": "c1", "source_id": "s", "quote": "a\u2028b\x85c"},
        {"citation_id": "c2", "source_id": "s", "quote": "d"},
    ]
    data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    assert parse_records(data, "records.jsonl") == rows


def test_cohere_doc_ids_name_sources_sent_without_id() -> None:
    answer = json.dumps(
        {
            "message": {
                "content": [{"type": "text", "text": "Meals up to €50 per day."}],
                "citations": [
                    {
                        "start": 0,
                        "end": 23,
                        "text": "Meals up to €50 per day",
                        "sources": [{"type": "document", "id": "doc:1"}],
                    }
                ],
            },
            "finish_reason": "COMPLETE",
        }
    )
    unnamed = sources_from_text(json.dumps(["Hotels need approval.", "Meals up to €50 per day."]))
    assert sorted(check_answer(answer, unnamed).cited) == [2]
    named = sources_from_text(json.dumps([{"id": "a", "text": "x"}, {"id": "b", "text": "Meals up to €50 per day."}]))
    kinds = [f.kind for f in check_answer(answer, named).findings]
    assert "unknown_source" in kinds  # an id was sent: doc:1 is not a name for it


def test_tracking_parameters_are_ignored_and_said() -> None:
    text = (
        "Meals are covered. ([site](https://x.example/p?utm_source=openai))\nHotels too. ([other](https://y.example/q))"
    )
    ann = [
        {
            "type": "url_citation",
            "url_citation": {"url": u, "start_index": text.index("(["), "end_index": text.index("))") + 2},
        }
        for u in ("https://x.example/p?utm_source=openai",)
    ]
    answer = json.dumps({"choices": [{"message": {"content": text, "annotations": ann}, "finish_reason": "stop"}]})
    sources = sources_from_text(json.dumps([{"url": "https://X.example/p/", "text": "Meals are covered."}]))
    report = check_answer(answer, sources)
    assert sorted(report.cited) == [1]
    stray = parse_answer(text).citations  # as plain text, the second link names no source
    assert len(stray) == 2
    unknown = [f for f in check_answer(text, sources).findings if f.kind == "unknown_source"]
    assert len(unknown) == 1 and "tracking parameters such as utm_source" in unknown[0].message


def test_gemini_retrieved_chunk_in_no_source() -> None:
    answer = json.dumps(
        {
            "candidates": [
                {
                    "content": {"parts": [{"text": "Paris is the capital."}]},
                    "finishReason": "STOP",
                    "groundingMetadata": {
                        "groundingChunks": [{"retrievedContext": {"text": "Lyon is in France."}}],
                        "groundingSupports": [
                            {"segment": {"endIndex": 21, "text": "Paris is the capital."}, "groundingChunkIndices": [0]}
                        ],
                    },
                }
            ]
        }
    )
    report = check_answer(answer, sources_from_text(json.dumps(["Paris is the capital of France."])))
    unknown = [f for f in report.findings if f.kind == "unknown_source"]
    assert len(unknown) == 1 and "retrieved chunk is in none of the sources" in unknown[0].message


def test_check_watchdog_options(tmp_path: Path) -> None:
    answer = tmp_path / "a.txt"
    answer.write_text("Meals up to €50 per day [1].", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(answer), "--sources", str(SOURCES), "--max-input-mb", "0.00001"])
    assert result.exit_code == 2 and "raise --max-input-mb" in result.output


def test_lone_surrogate_in_a_text_answer() -> None:
    with pytest.raises(InputError, match=r"lone surrogate \(U\+D800\) at line 2"):
        check_answer("Meals up to €50 [1].\nHotels \ud800 too [1].", load_sources(SOURCES))

"""The HTTP API against a real ``ipsis serve`` process on a free loopback port."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from tests.serve_helpers import Server, running_server
from tests.shared import ANSWERS, SHARED

ROOT = Path(__file__).resolve().parent.parent
RFC7519 = (SHARED / "corpora" / "rfc" / "rfc7519.txt").read_text(encoding="utf-8")
"""As sent in a request (read with universal newlines: the file's LF ends and form feeds kept)."""


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with running_server() as s:
        yield s


@pytest.fixture(scope="module")
def tight(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server("--max-body", "100000", "--max-records", "3", "--max-quote", "60", "--timeout", "0.2") as s:
        yield s


def sources_json() -> dict:
    return json.loads((ANSWERS / "sources.json").read_text(encoding="utf-8"))


def test_health(server: Server) -> None:
    status, data = server.get("/v1/health")
    assert status == 200
    assert data["status"] == "ok" and data["auth"] is False


def test_locate_inline_rfc(server: Server) -> None:
    quote = 'The "iss" (issuer) claim identifies the principal that issued the JWT.'
    status, data = server.post("/v1/locate", {"source": {"id": "rfc7519", "text": RFC7519}, "quote": quote})
    assert status == 200, data
    assert data["status"] == "located" and data["source_id"] == "rfc7519"
    (m,) = data["matches"]
    # the line break in the RFC is whitespace the quote writes as a space
    assert " ".join(RFC7519[m["start"] : m["end"]].split()) == quote
    assert RFC7519[m["start"] : m["end"]] == m["text"]
    assert data["policy_fingerprint"]


ACROSS_PAGE_10 = (
    "Unlike Public Claim Names, Private Claim Names are subject to collision and should be used with caution."
)
"""RFC 7519 section 4.3: the sentence runs over the page 10 footer, the form feed and the page 11 header."""


def test_inline_rfc_across_a_page_break(server: Server) -> None:
    """An inline RFC text is read as the RFC file would be: its page furniture is skipped inside
    a quote (locate, verify and check alike), and the span is the source's own text."""
    status, data = server.post("/v1/locate", {"source": {"id": "rfc7519", "text": RFC7519}, "quote": ACROSS_PAGE_10})
    assert status == 200, data
    assert data["status"] == "located", data["message"]
    (m,) = data["matches"]
    assert RFC7519[m["start"] : m["end"]] == m["text"]
    assert m["text"].startswith("Unlike Public\n") and m["text"].endswith("used with caution.")
    assert "[Page 10]" in m["text"] and "\f" in m["text"]
    record = {"citation_id": "p", "source_id": "rfc", "quote": ACROSS_PAGE_10}
    status, data = server.post("/v1/verify", {"records": [record], "sources": {"rfc": {"text": RFC7519}}})
    assert status == 200, data
    (r,) = data["results"]
    assert r["status"] == "located" and (r["matches"][0]["start"], r["matches"][0]["end"]) == (m["start"], m["end"])
    answer = f'Private names "{ACROSS_PAGE_10}" [1]'
    status, data = server.post("/v1/check", {"answer": answer, "sources": [{"id": "rfc7519", "text": RFC7519}]})
    assert status == 200, data
    statuses = [c["status"] for c in data["citations"]]
    assert statuses == ["located"], data["citations"]


def test_verify_records_same_json_as_cli(server: Server) -> None:
    records = [
        {"citation_id": "a", "source_id": "rfc", "quote": "Use of this claim is OPTIONAL."},
        {"citation_id": "b", "source_id": "rfc", "quote": 'The "sub" value is a case-insensitive string'},
        {"citation_id": "c", "source_id": "missing", "quote": "The processing of this claim"},
        {"citation_id": "d", "source_id": "rfc"},
    ]
    status, data = server.post("/v1/verify", {"records": records, "sources": {"rfc": {"text": RFC7519}}})
    assert status == 200, data
    got = {r["citation_id"]: r for r in data["results"]}
    assert [got[k]["status"] for k in "abcd"] == ["ambiguous", "not_found", "unknown_source", "invalid_record"]
    for m in got["a"]["matches"]:
        assert " ".join(RFC7519[m["start"] : m["end"]].split()) == "Use of this claim is OPTIONAL."
    assert got["d"]["field"] == "quote"
    assert data["summary"]["total"] == 4 and data["summary"]["located"] == 0
    assert set(data["run"]) >= {"ipsis_version", "policy", "policy_fingerprint"}


def test_check_ollama_stream(server: Server) -> None:
    answer = (ANSWERS / "ollama-chat-stream.ndjson").read_text(encoding="utf-8")
    status, data = server.post("/v1/check", {"answer": answer, "sources": sources_json()})
    assert status == 200, data
    assert data["format"] == "ollama-chat-stream" and data["truncated"] is True and data["clean"] is False
    text = data["answer"]["text"]
    kinds = {f["kind"]: f for f in data["findings"]}
    start, end = kinds["uncited_sentence"]["answer_span"]
    assert text[start:end] == "Remote staff must be reachable on the team chat between 10:00 and"
    assert kinds["unused_source"]["source"] == 3
    assert [s["cited"] for s in data["sources"]] == [True, True, False]
    assert {text[a:b] for a, b in (m["answer_span"] for m in data["markers"])} == {"[1]", "[2]"}


def test_check_unknown_source_with_text_sources(server: Server) -> None:
    answer = json.loads((ANSWERS / "ollama-chat.json").read_text(encoding="utf-8"))
    srcs = "\n---\n".join(s["text"] for s in sources_json()["sources"])
    status, data = server.post("/v1/check", {"answer": answer, "sources": srcs, "feedback": True})
    assert status == 200, data
    text = data["answer"]["text"]
    unknown = [f for f in data["findings"] if f["kind"] == "unknown_source"]
    assert [text[f["answer_span"][0] : f["answer_span"][1]] for f in unknown] == ["[4]"]
    assert data["citations"][0]["status"] == "located"
    assert "[4]" in data["feedback"]


def test_describe(server: Server) -> None:
    text = "Contact support. Read the guide. Contact support."
    status, data = server.post("/v1/describe", {"source": {"text": text}, "start": 33, "end": 49})
    assert status == 200
    assert data["selector"] == {
        "type": "TextQuoteSelector",
        "exact": "Contact support.",
        "prefix": "guide. ",
        "suffix": "",
    }


@pytest.mark.parametrize(
    ("raw", "line", "column"),
    [(b'{"records": [\n  {"quote": "x",}\n]}', 2, 17), (b'{"answer": "a"', 1, 15), (b"{\n\n  nope\n}", 3, 3)],
)
def test_malformed_json_names_line_and_column(server: Server, raw: bytes, line: int, column: int) -> None:
    status, data, _ = server.request("POST", "/v1/verify", raw=raw)
    assert status == 400
    assert (data["error"], data["line"], data["column"]) == ("invalid_json", line, column)
    assert f"line {line}, column {column}" in data["message"]


@pytest.mark.parametrize(
    ("path", "body", "status", "code", "needle"),
    [
        ("/v1/verify", [], 422, "invalid_body", "JSON object"),
        ("/v1/verify", {"records": "x"}, 422, "invalid_field", "records: must be an array"),
        ("/v1/locate", {"source": {"text": "abc"}}, 422, "invalid_field", "quote: is required"),
        ("/v1/locate", {"source": 3, "quote": "abc"}, 422, "invalid_field", "source"),
        (
            "/v1/locate",
            {"source": {"text": "a"}, "quote": "a", "policy": {"max_tier": "x"}},
            422,
            "invalid_field",
            "max_tier",
        ),
        ("/v1/check", {"answer": "Meals [1].", "sources": " "}, 422, "invalid_field", "no sources"),
        ("/v1/check", {"answer": '{"model": "x"', "sources": ["a"]}, 422, "invalid_input", "line 1, column"),
        ("/v1/describe", {"source": {"text": "abc"}, "start": 2, "end": 9}, 422, "invalid_input", "outside"),
        ("/v1/describe", {"source": "no-such-id", "start": 0, "end": 1}, 404, "unknown_source", "no-such-id"),
    ],
)
def test_bad_requests_are_clear_4xx(
    server: Server, path: str, body: object, status: int, code: str, needle: str
) -> None:
    got, data = server.post(path, body)
    assert (got, data["error"]) == (status, code), data
    assert needle in data["message"]
    assert "Traceback" not in json.dumps(data)


def test_unknown_route_and_method_are_json(server: Server) -> None:
    assert server.get("/v1/nope") == (
        404,
        {"error": "not_found", "message": "no such endpoint '/v1/nope'; see /openapi.json"},
    )
    status, data = server.get("/v1/check")
    assert (status, data["error"]) == (405, "method_not_allowed")


def test_limits(tight: Server) -> None:
    status, data, _ = tight.request("POST", "/v1/verify", raw=b'{"records": [], "pad": "' + b"x" * 120_000 + b'"}')
    assert (status, data["error"], data["limit"]) == (413, "body_too_large", 100_000)
    recs = [{"citation_id": i, "source_id": "s", "quote": "abc"} for i in range(4)]
    status, data = tight.post("/v1/verify", {"records": recs, "sources": {"s": {"text": "abc"}}})
    assert (status, data["error"]) == (413, "too_many_records")
    status, data = tight.post("/v1/locate", {"source": {"text": "abc"}, "quote": "q" * 61})
    assert (status, data["error"]) == (413, "quote_too_long")
    assert "61 characters; the limit is 60" in data["message"]


def test_time_limit() -> None:
    # 1,000 near-miss quotes over a 200 KB text: approximate search explains each not_found (300 over
    # 60 KB finished inside 0.2 s on an idle machine)
    text = "The processing of this claim is generally application specific. " * 3000
    recs = [
        {"citation_id": i, "source_id": "s", "quote": f"the procesing of thes claim is {i} specific"}
        for i in range(1000)
    ]
    with running_server("--timeout", "0.2") as slow:
        status, data = slow.post("/v1/verify", {"records": recs, "sources": {"s": {"text": text}}})
        assert (status, data["error"]) == (422, "time_limit_exceeded"), data
        assert "0.2 s" in data["message"]
        assert slow.get("/v1/health")[0] == 200  # the server is still there

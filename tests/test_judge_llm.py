"""The llm judge's protocol handling, against a local HTTP server that replays recorded replies.

The server speaks the OpenAI chat-completions protocol on 127.0.0.1; replies come from
tests/cases/judge/llm-replies.json. No model is involved: request shape, key header, strict reply
parsing, retries with backoff and the errors are what is tested.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from ipsis.errors import InputError
from ipsis.judge import JudgeError, JudgeUnavailableError, Passage, judge_passage
from ipsis.judge.llm import LlmJudge, parse_reply

CASES = json.loads((Path(__file__).resolve().parent / "cases/judge/llm-replies.json").read_text(encoding="utf-8"))


class Replayer:
    def __init__(self) -> None:
        self.replies: list[dict[str, Any]] = []
        self.requests: list[tuple[str, dict[str, str], dict[str, Any]]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append((self.path, dict(self.headers), body))
                reply = outer.replies.pop(0) if outer.replies else {"status": 500, "body": {}}
                data = json.dumps(reply["body"]).encode()
                self.send_response(reply["status"])
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture()
def server() -> Iterator[Replayer]:
    s = Replayer()
    yield s
    s.close()


@pytest.mark.parametrize("case", CASES["scenarios"], ids=[c["label"] for c in CASES["scenarios"]])
def test_replayed_scenarios(server: Replayer, case: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IPSIS_JUDGE_KEY", "sk-test")
    server.replies = list(case["replies"])
    waits: list[float] = []
    judge = LlmJudge(server.url, "judge-small", retries=2, backoff=0.5, timeout=5, sleep=waits.append)
    expect = case["expect"]
    passage = Passage(0, len(case["passage"]), case["passage"])
    if "error" in expect:
        with pytest.raises(JudgeError, match=expect["error"]):
            judge.answer(case["claim"], case["passage"])
    else:
        s = judge_passage(case["claim"], passage, judge, 0.8)
        assert (s.verdict, s.confidence, s.judge) == (expect["verdict"], expect["confidence"], "llm")
    assert len(server.requests) == expect["requests"]
    assert waits == [0.5, 1.0][: expect["requests"] - 1]
    path, headers, body = server.requests[0]
    assert path == "/v1/chat/completions"
    assert headers["Authorization"] == "Bearer sk-test"
    assert body["model"] == "judge-small" and body["temperature"] == 0
    assert case["claim"] in body["messages"][1]["content"] and case["passage"] in body["messages"][1]["content"]


def test_cue_conflict_is_reported_without_asking_the_model(server: Replayer) -> None:
    passage = "1. A detenção será submetida, no prazo máximo de quarenta e oito horas, a apreciação judicial."
    s = judge_passage(
        "A detenção é apreciada em 72 horas.", Passage(0, len(passage), passage), LlmJudge(server.url, "m"), 0.8
    )
    assert s.verdict == "contradicted" and s.judge == "llm (cues first)" and not server.requests


def test_endpoint_down_is_a_clear_error() -> None:
    with socket.socket() as sock:  # a port with nobody listening
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    judge = LlmJudge(f"http://127.0.0.1:{port}/v1", "m", retries=1, backoff=0.01, timeout=2, sleep=lambda s: None)
    with pytest.raises(JudgeUnavailableError, match=rf"127.0.0.1:{port}/v1/chat/completions did not answer after 2"):
        judge.answer("claim words", "passage words")


def test_configuration_errors() -> None:
    with pytest.raises(InputError, match="--judge-url"):
        LlmJudge(None, "m")
    assert parse_reply('{"answer": "supports", "confidence": 1}').confidence == 1.0


@pytest.mark.parametrize("code", [301, 302, 303, 307, 308])
def test_a_redirect_is_never_followed_with_the_key(
    server: Replayer, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    # the endpoint redirects to another host (localhost vs 127.0.0.1: another origin); the key must not go there
    monkeypatch.setenv("IPSIS_JUDGE_KEY", "sk-secret-key")
    other = Replayer()
    seen: list[tuple[str, str | None]] = []

    class Record(BaseHTTPRequestHandler):
        def _any(self) -> None:
            seen.append((self.command, self.headers.get("Authorization")))
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_GET = do_POST = _any  # noqa: N815

        def log_message(self, *args: Any) -> None:
            pass

    other.server.RequestHandlerClass = Record
    try:
        target = other.url.replace("127.0.0.1", "localhost") + "/chat/completions"

        class Redirect(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.send_response(code)
                self.send_header("Location", target)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        server.server.RequestHandlerClass = Redirect
        judge = LlmJudge(server.url, "judge-small", retries=0, timeout=5)
        with pytest.raises(JudgeUnavailableError, match=f"redirects \\(HTTP {code}\\) to {target}"):
            judge.answer("The iss claim is OPTIONAL.", "Use of this claim is OPTIONAL.")
        assert seen == []  # nothing reached the other host, with or without the key
    finally:
        other.close()

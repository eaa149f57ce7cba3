"""A judge behind any OpenAI-compatible chat endpoint (Ollama, vLLM, llama.cpp server, OpenAI).

One structured question with three options and a confidence; the reply must be exactly one JSON
object ``{"answer": "supports"|"contradicts"|"says_nothing", "confidence": 0..1, "reason": "..."}``
(a single Markdown code fence around it is tolerated, nothing else). Connection errors, timeouts,
HTTP 429 and 5xx are retried with exponential backoff; then a clear error names the endpoint.
The key, if any, comes from an environment variable (``--judge-key-env``), never a flag, and is
sent only to the endpoint given: a redirect is never followed (urllib would carry the
``Authorization`` header to wherever it points); it is an error that names the new location.

>>> parse_reply('{"answer": "contradicts", "confidence": 0.9, "reason": "72 vs 48 hours"}')
Answer(answer='contradicts', confidence=0.9, evidence=('llm: 72 vs 48 hours',), score=None)
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable
from functools import cache
from typing import Any

from ipsis.errors import InputError, JudgeReplyError, JudgeUnavailableError
from ipsis.judge.support import ANSWERS, Answer

DEFAULT_KEY_ENV = "IPSIS_JUDGE_KEY"
SYSTEM = (
    "You check citations. Given a PASSAGE from a source and a CLAIM, decide whether the passage "
    "supports the claim, contradicts it, or says nothing about it. Judge only from the passage."
)
QUESTION = """PASSAGE:
<<<
{passage}
>>>

CLAIM:
<<<
{claim}
>>>

Does the passage support the claim? Choose exactly one answer:
- "supports": the passage states what the claim says (same numbers, negation, obligation/permission and limits);
- "contradicts": the passage states something incompatible with the claim;
- "says_nothing": the passage does not address the claim.
Reply with one JSON object and nothing else:
{{"answer": "supports" | "contradicts" | "says_nothing", "confidence": <number 0..1>, "reason": "<one sentence>"}}"""


@cache
def _opener() -> Any:
    """The URL opener that follows no redirect (built on first use: ``urllib.request`` and the
    HTTP client cost ~10 ms to import, and a run without ``--judge llm`` never needs them)."""
    import urllib.request

    class _NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str) -> None:
            return None  # urllib then raises HTTPError with the 3xx code

    return urllib.request.build_opener(_NoRedirect)

_FENCE = re.compile(r"\A```(?:json)?\s*\n?(.*?)\n?```\Z", re.DOTALL)


def parse_reply(content: str) -> Answer:
    """Strictly parse the model's message content into an :class:`Answer`."""
    body = content.strip()
    m = _FENCE.match(body)
    if m:
        body = m.group(1).strip()
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        msg = f"judge reply is not a JSON object ({exc.msg} at column {exc.colno}): {content[:120]!r}"
        raise JudgeReplyError(msg) from exc
    if not isinstance(data, dict):
        msg = f"judge reply must be a JSON object, got {type(data).__name__}: {content[:120]!r}"
        raise JudgeReplyError(msg)
    answer, conf = data.get("answer"), data.get("confidence")
    if answer not in ANSWERS:
        msg = f"judge reply field 'answer' must be one of {', '.join(ANSWERS)}, got {answer!r}"
        raise JudgeReplyError(msg)
    if isinstance(conf, bool) or not isinstance(conf, (int, float)) or not 0 <= conf <= 1:
        msg = f"judge reply field 'confidence' must be a number between 0 and 1, got {conf!r}"
        raise JudgeReplyError(msg)
    reason = data.get("reason")
    evidence = (f"llm: {reason}",) if isinstance(reason, str) and reason.strip() else ()
    return Answer(str(answer), float(conf), evidence)


class LlmJudge:
    """Ask an OpenAI-compatible ``/chat/completions`` endpoint; see the module docstring."""

    name = "llm"

    def __init__(
        self,
        url: str | None = None,
        model: str | None = None,
        key_env: str = DEFAULT_KEY_ENV,
        timeout: float = 60.0,
        retries: int = 3,
        backoff: float = 1.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not url or not model:
            msg = "the llm judge needs --judge-url URL and --judge-model NAME (e.g. http://localhost:11434/v1, qwen2.5)"
            raise InputError(msg)
        base = url.rstrip("/")
        self.endpoint = base if base.endswith("/chat/completions") else f"{base}/chat/completions"
        self.model = model
        self.key_env = key_env
        self.key = os.environ.get(key_env) or None
        self.timeout, self.retries, self.backoff, self._sleep = timeout, max(0, retries), backoff, sleep

    def request_body(self, claim: str, passage: str) -> dict[str, Any]:
        return {
            "model": self.model,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": SYSTEM},
                {"role": "user", "content": QUESTION.format(passage=passage, claim=claim)},
            ],
        }

    def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        data = json.dumps(body).encode("utf-8")
        headers = {"Content-Type": "application/json"}
        if self.key:
            headers["Authorization"] = f"Bearer {self.key}"
        import urllib.error
        import urllib.request

        last = ""
        for attempt in range(self.retries + 1):
            if attempt:
                self._sleep(self.backoff * 2 ** (attempt - 1))
            req = urllib.request.Request(self.endpoint, data=data, headers=headers, method="POST")
            try:
                with _opener().open(req, timeout=self.timeout) as resp:
                    raw = resp.read().decode("utf-8")
            except urllib.error.HTTPError as exc:
                if 300 <= exc.code < 400:
                    where = exc.headers.get("Location", "elsewhere") if exc.headers else "elsewhere"
                    msg = (
                        f"judge endpoint {self.endpoint} redirects (HTTP {exc.code}) to {where}; ipsis never follows "
                        "a judge's redirect, which would carry the key: pass the final URL as --judge-url"
                    )
                    raise JudgeUnavailableError(msg) from exc
                if exc.code == 429 or exc.code >= 500:
                    last = f"HTTP {exc.code}"
                    continue
                msg = (
                    f"judge endpoint {self.endpoint} refused the request: HTTP {exc.code} {exc.reason}; "
                    f"check --judge-model and the key in ${self.key_env}"
                )
                raise JudgeUnavailableError(msg) from exc
            except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as exc:
                last = str(getattr(exc, "reason", exc))
                continue
            try:
                out = json.loads(raw)
            except json.JSONDecodeError as exc:
                msg = f"judge endpoint {self.endpoint} did not return JSON (line {exc.lineno}, column {exc.colno})"
                raise JudgeReplyError(msg) from exc
            if not isinstance(out, dict):
                msg = f"judge endpoint {self.endpoint} returned {type(out).__name__}, expected a chat completion object"
                raise JudgeReplyError(msg)
            return out
        msg = (
            f"judge endpoint {self.endpoint} did not answer after {self.retries + 1} attempts ({last}); "
            "start the server or check --judge-url"
        )
        raise JudgeUnavailableError(msg)

    def answer(self, claim: str, passage: str) -> Answer:
        out = self._post(self.request_body(claim, passage))
        try:
            content = out["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError) as exc:
            msg = f"judge endpoint {self.endpoint} reply has no choices[0].message.content"
            raise JudgeReplyError(msg) from exc
        if not isinstance(content, str):
            msg = f"judge endpoint {self.endpoint} reply content is {type(content).__name__}, expected text"
            raise JudgeReplyError(msg)
        return parse_reply(content)

"""Which wire format an answer is in, and the one entry point that reads any of them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ipsis.answers import anthropic, claims, cohere_gemini, ollama, openai
from ipsis.answers.jsonio import LONE_SURROGATE, loads_strict
from ipsis.answers.model import ParsedAnswer
from ipsis.answers.streams import iter_sse
from ipsis.errors import InputError

JSON_READERS: dict[str, Callable[[Any, str], ParsedAnswer]] = {
    "ollama-chat": ollama.read_ollama,
    "ollama-generate": ollama.read_ollama,
    "openai-chat": openai.read_chat,
    "openai-responses": openai.read_responses,
    "anthropic": anthropic.read_anthropic,
    "cohere-v2": cohere_gemini.read_cohere,
    "gemini": cohere_gemini.read_gemini,
    "claims": lambda v, name: claims.read_claims(v, "claims", name),
    "afirmaciones": lambda v, name: claims.read_claims(v, "afirmaciones", name),
}
STREAM_READERS: dict[str, Callable[[str, str], ParsedAnswer]] = {
    "ollama-stream": ollama.read_ollama_stream,
    "openai-chat-stream": openai.read_chat_stream,
    "openai-responses-stream": openai.read_responses_stream,
    "anthropic-stream": anthropic.read_anthropic_stream,
    "gemini-stream": cohere_gemini.read_gemini_stream,
}
FORMATS = (*JSON_READERS, *STREAM_READERS, "text")
"""Names accepted by ``--answer-format`` (``markdown`` is an alias of ``text``)."""


def detect_json(value: Any) -> str | None:
    """The format of one parsed JSON answer object, or None.

    >>> detect_json({"candidates": []}), detect_json({"message": {"content": "x"}, "done": True})
    ('gemini', 'ollama-chat')
    """
    if not isinstance(value, dict):
        return None
    shape = claims.claim_shape(value)
    if shape:
        return shape
    if "candidates" in value:
        return "gemini"
    if "choices" in value or value.get("object") == "chat.completion":
        return "openai-chat"
    if value.get("object") == "response" or isinstance(value.get("output"), list):
        return "openai-responses"
    if value.get("type") == "message" and isinstance(value.get("content"), list):
        return "anthropic"
    message = value.get("message")
    if isinstance(message, dict):
        if isinstance(message.get("content"), list) or "citations" in message:
            return "cohere-v2"
        return "ollama-chat"
    if "response" in value and "done" in value:
        return "ollama-generate"
    if "error" in value and "model" in value:
        return "ollama-chat"
    return None


def _sse_kind(text: str, name: str) -> str:
    for ev in iter_sse(text, name):
        if ev.data.strip() == "[DONE]":
            continue
        obj = ev.json(name)
        if not isinstance(obj, dict):
            continue
        kind = str(obj.get("type", ev.event if ev.event != "message" else ""))
        if kind.startswith("message_") or kind.startswith("content_block") or kind == "ping":
            return "anthropic-stream"
        if kind.startswith("response."):
            return "openai-responses-stream"
        if "choices" in obj:
            return "openai-chat-stream"
        if "candidates" in obj:
            return "gemini-stream"
    kinds = ", ".join(k for k in STREAM_READERS if k != "ollama-stream")
    msg = (
        f"{name}: an event stream of an unknown kind (no event names a known provider); "
        f"the streams ipsis reads are {kinds}: pass one with --answer-format, or the final response as JSON"
    )
    raise InputError(msg)


def detect(text: str, name: str = "input") -> str:
    """The format of an answer given as text (JSON, NDJSON, SSE, or plain text/Markdown)."""
    head = text.lstrip("\ufeff \t\r\n")
    first = head.split("\n", 1)[0].strip()
    if first.startswith(("data:", "event:", ":")):
        return _sse_kind(head, name)
    if head.startswith("{"):
        lines = [ln for ln in head.split("\n", 2) if ln.strip()]
        if len(lines) > 1 and lines[0].strip().endswith("}") and lines[1].lstrip().startswith("{"):
            return "ollama-stream"
        value = loads_strict(head, name)
        fmt = detect_json(value)
        if fmt is None:
            keys = ", ".join(sorted(value)[:8]) if isinstance(value, dict) else type(value).__name__
            msg = f"{name}: JSON of an unknown answer format (keys: {keys}); pass --answer-format"
            raise InputError(msg)
        return fmt
    if head.startswith("["):
        msg = f"{name}: a JSON array is not an answer; pass one response object, a stream or text"
        raise InputError(msg)
    return "text"


def parse_answer(data: str | bytes, fmt: str | None = None, name: str = "input") -> ParsedAnswer:
    """Read an answer in any supported format (detected unless ``fmt`` is given).

    >>> a = parse_answer(
    ...     '{"answer": "Meals up to €50.", '
    ...     '"citations": [{"source": 1, "quote": "meals up to €50"}]}'
    ... )
    >>> a.format, a.text, a.citations[0].quote
    ('claims', 'Meals up to €50.', 'meals up to €50')
    """
    if isinstance(data, bytes):
        from ipsis.ingest.text import decode_text

        data, _ = decode_text(data, name)
    data = data.lstrip("\ufeff")
    lone = LONE_SURROGATE.search(data)
    if lone is not None:  # a str handed over by a caller (the server): it could never be printed
        line = data.count("\n", 0, lone.start()) + 1
        msg = (
            f"{name}: a lone surrogate (U+{ord(lone.group()):04X}) at line {line}, half of a UTF-16 pair "
            "and not a character; pass the text as it was sent, complete"
        )
        raise InputError(msg)
    if fmt == "markdown":
        fmt = "text"
    if fmt is not None and fmt not in FORMATS:
        msg = f"unknown answer format {fmt!r}; use one of: {', '.join(FORMATS)}"
        raise InputError(msg)
    if not data.strip():
        msg = f"{name} is empty; pass the model's answer"
        raise InputError(msg)
    fmt = fmt or detect(data, name)
    if fmt == "text":
        return claims.text_answer("text", data)
    if fmt in STREAM_READERS:
        return STREAM_READERS[fmt](data, name)
    value = loads_strict(data, name)
    return JSON_READERS[fmt](value, name)

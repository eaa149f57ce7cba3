"""Ollama ``/api/chat`` and ``/api/generate``: one JSON object or a streaming NDJSON capture.

A stream is reassembled before anything is parsed (markers split across lines are joined);
an ``{"error": ...}`` line is a stream error at that point of the text; a stream whose last
line is not ``"done": true`` is truncated, and so is ``done_reason: "length"``.
"""

from __future__ import annotations

from typing import Any

from ipsis.answers.claims import content_answer
from ipsis.answers.jsonio import Fields
from ipsis.answers.model import ParsedAnswer, StreamError
from ipsis.answers.streams import iter_ndjson


def _piece(obj: Fields) -> str:
    message = obj.obj_at("message")
    if message is not None:
        return message.string("content")
    return obj.string("response")


def _truncation(done: bool | None, reason: str) -> str:
    if reason == "length":
        return 'done_reason is "length": the model hit its token limit'
    if done is False:
        return '"done" is false: the answer is incomplete'
    return ""


def read_ollama(value: Any, name: str = "input") -> ParsedAnswer:
    """One ``/api/chat`` or ``/api/generate`` response object."""
    top = Fields(value, "", name)
    fmt = "ollama-chat" if top.has("message") else "ollama-generate"
    if top.has("error") and not top.has("message") and not top.has("response"):
        err = StreamError(str(top.raw("error")), 0, 1)
        return ParsedAnswer(fmt, "", stream_errors=(err,), truncated=True, truncation_reason="the reply is an error")
    reason = _truncation(top.flag("done"), top.string("done_reason"))
    return content_answer(fmt, _piece(top), name, truncated=bool(reason), truncation_reason=reason)


def read_ollama_stream(text: str, name: str = "input") -> ParsedAnswer:
    """An NDJSON stream of chunks (chat or generate), reassembled."""
    pieces: list[str] = []
    errors: list[StreamError] = []
    size = 0
    fmt = "ollama-generate-stream"
    done: bool | None = None
    reason = ""
    for line, value in iter_ndjson(text, name):
        message = value.get("message") if isinstance(value, dict) else None
        piece_ = message.get("content") if isinstance(message, dict) else None
        if isinstance(piece_, str) and value.get("done") is False and "error" not in value:
            # the common chunk, read without building field wrappers (2,000-chunk streams)
            fmt = "ollama-chat-stream"
            pieces.append(piece_)
            size += len(piece_)
            done = False
            continue
        obj = Fields(value, f"line {line}", name)
        if obj.has("error"):
            errors.append(StreamError(str(obj.raw("error")), size, line))
            continue
        if obj.has("message"):
            fmt = "ollama-chat-stream"
        piece = _piece(obj)
        pieces.append(piece)
        size += len(piece)
        done = obj.flag("done")
        if done:
            reason = obj.string("done_reason")
    why = _truncation(done, reason)
    if done is not True:
        why = 'the stream ended without its final "done": true line'
    return content_answer(
        fmt,
        "".join(pieces),
        name,
        truncated=bool(why),
        truncation_reason=why,
        stream_errors=tuple(errors),
    )

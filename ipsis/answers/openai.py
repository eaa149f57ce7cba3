"""OpenAI Chat Completions (JSON and SSE chunks) and Responses (``output_text.annotations``).

Chat: ``choices[0].message.content`` plus ``annotations[]`` of type ``url_citation`` (a nested
object with ``start_index``/``end_index`` around the Markdown link and the ``url``). With
annotations present, Markdown links are not read again as markers. SSE chunks are joined
first; ``finish_reason: "length"`` or a stream without ``data: [DONE]`` is truncated.

Responses: ``output[]`` messages whose ``output_text`` parts carry ``file_citation`` (``index``
is the position where the cited sentence ends), ``url_citation`` and
``container_file_citation`` (a generated file, not a source). ``status: "incomplete"`` is
truncated.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from ipsis.answers.claims import content_answer, text_answer
from ipsis.answers.jsonio import Fields
from ipsis.answers.model import Citation, Offsets, ParsedAnswer, Ref, StreamError
from ipsis.answers.streams import iter_sse
from ipsis.errors import InputError
from ipsis.spans import Span


def _link_text(text: str, url: str) -> str | None:
    """The Markdown link ``[..](url)`` in ``text`` (with its wrapping parentheses, if any)
    when there is exactly one; OpenAI's spans cover ``([title](url))`` whole.

    >>> _link_text("Meals ([site](https://x.org/a)). Hotels", "https://x.org/a")
    '([site](https://x.org/a))'
    """
    pattern = r"(\()?\[[^\[\]\n]{0,1000}\]\(" + re.escape(url) + r"(?:[ \t]{1,10}\"[^\"\n]{0,300}\")?\)(?(1)\))"
    hits = [m.group(0) for m in re.finditer(pattern, text)]
    return hits[0] if len(set(hits)) == 1 else None


def _url_citation(text: str, ann: Fields, cid: str, base: int = 0) -> Citation:
    """A ``url_citation``; without ``start_index``/``end_index`` (xAI) or with an empty range
    (OpenRouter sends 0/0) it has no position: it still cites its URL, for the whole answer."""
    inner = ann.obj_at("url_citation") or ann
    url = inner.string("url", required=True)
    ref = (Ref("url", url, url),)
    if not inner.has("start_index") and not inner.has("end_index"):
        return Citation(cid, ref, origin="url_citation", note="the citation has no position")
    start, end = inner.integer("start_index"), inner.integer("end_index")
    if start == end:
        return Citation(cid, ref, origin="url_citation", note=f"the citation's range [{start}, {end}) is empty")
    span = Span(base + start, base + end) if 0 <= start <= end <= len(text) - base else None
    offsets = Offsets(start, end, "answer", "code_point", _link_text(text, url), base=base)
    return Citation(cid, ref, span, span, offsets=offsets, origin="url_citation")


def _content_text(message: Fields) -> str:
    raw = message.raw("content")
    if isinstance(raw, list):
        return "".join(
            p.string("text") for p in message.items("content") if p.string("type", "text") in ("text", "output_text")
        )
    return message.string("content")


def _finish(reason: str) -> str:
    if reason == "length":
        return 'finish_reason is "length": the model hit its token limit'
    if reason == "content_filter":
        return 'finish_reason is "content_filter": the answer was cut by a filter'
    return ""


def read_chat(value: Any, name: str = "input") -> ParsedAnswer:
    top = Fields(value, "", name)
    choices = top.items("choices", required=True)
    if not choices:
        msg = f"{name}: choices is empty; pass a response with at least one choice"
        raise InputError(msg)
    choice = choices[0]
    message = choice.obj_at("message", required=True)
    assert message is not None
    text = _content_text(message)
    anns = [a for a in message.items("annotations") if a.string("type") == "url_citation"]
    cits = tuple(_url_citation(text, a, f"a{i}") for i, a in enumerate(anns, start=1))
    why = _finish(choice.string("finish_reason"))
    if cits:
        return text_answer("openai-chat", text, links=False, extra=cits, truncated=bool(why), truncation_reason=why)
    return content_answer("openai-chat", text, name, truncated=bool(why), truncation_reason=why)


def read_chat_stream(text: str, name: str = "input") -> ParsedAnswer:
    pieces: list[str] = []
    anns: list[Any] = []
    errors: list[StreamError] = []
    reason = ""
    done = False
    size = 0
    for ev in iter_sse(text, name):
        if ev.data.strip() == "[DONE]":
            done = True
            continue
        obj = Fields(ev.json(name), f"event at line {ev.line}", name)
        if obj.has("error"):
            errors.append(StreamError(str(obj.raw("error")), size, ev.line))
            continue
        for choice in obj.items("choices"):
            if choice.integer("index", 0) != 0:
                continue
            delta = choice.obj_at("delta")
            if delta is not None:
                piece = delta.string("content")
                pieces.append(piece)
                size += len(piece)
                anns.extend(delta.array("annotations"))
            reason = choice.string("finish_reason") or reason
    joined = "".join(pieces)
    why = _finish(reason) or ("" if done or reason else "the stream ended without data: [DONE]")
    message = {"role": "assistant", "content": joined, "annotations": anns}
    parsed = read_chat({"choices": [{"message": message, "finish_reason": reason}]}, name)
    return dataclasses.replace(
        parsed,
        format="openai-chat-stream" + parsed.format.removeprefix("openai-chat"),
        truncated=bool(why),
        truncation_reason=why,
        stream_errors=tuple(errors),
    )


def read_responses(value: Any, name: str = "input", fmt: str = "openai-responses") -> ParsedAnswer:
    top = Fields(value, "", name)
    texts: list[str] = []
    cits: list[Citation] = []
    pos = 0
    for item in top.items("output", required=True):
        if item.string("type") != "message":
            continue
        if texts:
            texts.append("\n\n")
            pos += 2
        for part in item.items("content"):
            if part.string("type") != "output_text":
                continue
            ptext = part.string("text")
            texts.append(ptext)
            full = "".join(texts)
            for ann in part.items("annotations"):
                cid = f"a{len(cits) + 1}"
                kind = ann.string("type")
                if kind == "url_citation":
                    cits.append(_url_citation(full, ann, cid, base=pos))
                elif kind == "file_citation":
                    idx = ann.integer("index")
                    fid = ann.string("file_id")
                    span = Span(pos + idx, pos + idx) if 0 <= idx <= len(ptext) else None
                    refs = (Ref("file_id", fid or ann.string("filename"), fid or ann.string("filename")),)
                    cits.append(
                        Citation(
                            cid,
                            refs,
                            span,
                            origin="file_citation",
                            note="" if span is not None else f"index {idx} is outside the text",
                        )
                    )
                elif kind in ("container_file_citation", "file_path"):
                    start, end = ann.integer("start_index", 0), ann.integer("end_index", 0)
                    span = Span(pos + start, pos + end) if 0 <= start <= end <= len(ptext) else None
                    label = ann.string("filename") or ann.string("file_id")
                    cits.append(Citation(cid, (Ref("artifact", label, label),), span, span, origin=kind))
            pos += len(ptext)
    status = top.string("status")
    why = ""
    errors: tuple[StreamError, ...] = ()
    if status == "incomplete":
        details = top.obj_at("incomplete_details")
        why = f'status is "incomplete" ({details.string("reason") if details else "no reason given"})'
    elif status == "failed":
        err = top.raw("error")
        errors = (StreamError(str(err.get("message", err)) if isinstance(err, dict) else str(err), pos, 0),)
    text = "".join(texts)
    return text_answer(
        fmt,
        text,
        links=not cits,
        extra=tuple(cits),
        truncated=bool(why),
        truncation_reason=why,
        stream_errors=errors,
    )


def read_responses_stream(text: str, name: str = "input") -> ParsedAnswer:
    """Responses SSE: the final ``response.completed`` / ``incomplete`` / ``failed`` event."""
    final: Any = None
    errors: list[StreamError] = []
    for ev in iter_sse(text, name):
        if ev.data.strip() == "[DONE]":
            continue
        obj = Fields(ev.json(name), f"event at line {ev.line}", name)
        kind = obj.string("type")
        if kind in ("response.completed", "response.incomplete", "response.failed"):
            final = obj.raw("response")
        elif kind == "error":
            errors.append(StreamError(obj.string("message") or str(obj.raw("error")), 0, ev.line))
    if final is None:
        parsed = ParsedAnswer(
            "openai-responses-stream",
            "",
            truncated=True,
            truncation_reason="the stream ended without response.completed",
        )
    else:
        parsed = read_responses(final, name, "openai-responses-stream")
    return ParsedAnswer(
        parsed.format,
        parsed.text,
        parsed.citations,
        parsed.truncated,
        parsed.truncation_reason,
        (*parsed.stream_errors, *errors),
        exclude_spans=parsed.exclude_spans,
    )

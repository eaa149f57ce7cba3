"""Cohere Chat v2 citations and Gemini ``groundingMetadata``.

Cohere: ``message.citations[]`` with ``start``/``end`` (code points into the answer), the
cited answer ``text`` and ``sources[]`` named by the ids you sent. Gemini:
``groundingSupports[]`` whose ``segment`` offsets are UTF-8 **bytes** into a part's text
(a missing ``startIndex`` means 0) and whose ``groundingChunkIndices`` are 0-based positions in
``groundingChunks``; a chunk maps to a source by its URI when it has one that matches, otherwise
by position (``number = index + 1``) only when no source has a URL. Offsets are converted
explicitly, never assumed. A ``retrievedContext`` chunk (file search) is a retrieved piece of
a sent file: it maps to the source with its URI or title, else to the source its text is in,
and that text is checked there as the citation's quote. ``streamGenerateContent`` SSE is read
by joining the chunks' text and taking the last grounding metadata and finish reason.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ipsis.answers.claims import text_answer
from ipsis.answers.jsonio import Fields
from ipsis.answers.model import Citation, Offsets, ParsedAnswer, Ref, StreamError
from ipsis.answers.offsets import to_code_points
from ipsis.answers.streams import iter_sse
from ipsis.spans import Span


def read_cohere(value: Any, name: str = "input") -> ParsedAnswer:
    top = Fields(value, "", name)
    message = top.obj_at("message", required=True)
    assert message is not None
    text = "".join(part.string("text") for part in message.items("content") if part.string("type", "text") == "text")
    cits: list[Citation] = []
    for i, c in enumerate(message.items("citations"), start=1):
        start, end = c.integer("start"), c.integer("end")
        refs = []
        for s in c.items("sources"):
            sid = s.opt_str("id") or (s.obj_at("document") or Fields({}, "", name)).opt_str("id") or ""
            kind = "artifact" if s.string("type", "document") == "tool" else "id"
            refs.append(Ref(kind, sid, sid))  # type: ignore[arg-type]
        span = Span(start, end) if 0 <= start <= end <= len(text) else None
        offsets = Offsets(start, end, "answer", "code_point", c.opt_str("text"))
        cits.append(Citation(f"c{i}", tuple(refs), span, span, offsets=offsets, origin="cohere"))
    reason = top.string("finish_reason")
    errors: tuple[StreamError, ...] = ()
    if reason.startswith("ERROR"):
        errors = (StreamError(f"finish_reason is {reason}", len(text), 0),)
    truncated = reason == "MAX_TOKENS"
    why = "finish_reason is MAX_TOKENS: the model hit its token limit" if truncated else ""
    return text_answer(
        "cohere-v2",
        text,
        extra=tuple(cits),
        truncated=truncated,
        truncation_reason=why,
        stream_errors=errors,
    )


def _chunk_refs(chunks: list[Fields], indices: list[Any], path: str) -> tuple[tuple[Ref, ...], list[tuple[Ref, str]]]:
    """Refs of the web chunks (by URI, else position) and, apart, each retrieved chunk with its
    text: a ``retrievedContext`` is a piece of a file the tool searched, not a source position."""
    refs: list[Ref] = []
    retrieved: list[tuple[Ref, str]] = []
    for k, idx in enumerate(indices):
        if isinstance(idx, bool) or not isinstance(idx, int):
            refs.append(Ref("label", str(idx), f"{path}[{k}] = {idx!r}"))
            continue
        label = f"groundingChunkIndices {idx}"
        if not 0 <= idx < len(chunks):
            refs.append(Ref("label", f"chunk {idx}", f"{label} (only {len(chunks)} groundingChunks)"))
            continue
        chunk = chunks[idx]
        got = chunk.obj_at("retrievedContext")
        if got is not None and (got.opt_str("text") or got.opt_str("uri") or got.opt_str("title")):
            ref = Ref("chunk", idx, label, got.opt_str("uri") or None, got.opt_str("title") or None)
            retrieved.append((ref, got.opt_str("text") or ""))
            continue
        ctx = got or chunk.obj_at("web")
        uri = ctx.opt_str("uri") if ctx is not None else None
        refs.append(Ref("index0", idx, label, uri or None))
    return tuple(refs), retrieved


def read_gemini(value: Any, name: str = "input") -> ParsedAnswer:
    """One ``generateContent`` response (the first candidate)."""
    top = Fields(value, "", name)
    candidates = top.items("candidates", required=True)
    if not candidates:
        return ParsedAnswer("gemini", "", truncated=True, truncation_reason="the response has no candidates")
    cand = candidates[0]
    content = cand.obj_at("content")
    parts = content.items("parts") if content is not None else []
    bases: list[int] = []
    texts: list[str] = []
    pos = 0
    for part in parts:
        t = "" if part.flag("thought") else part.string("text")
        bases.append(pos)
        texts.append(t)
        pos += len(t)
    text = "".join(texts)
    cits: list[Citation] = []
    meta = cand.obj_at("groundingMetadata")
    if meta is not None:
        chunks = meta.items("groundingChunks")
        for i, sup in enumerate(meta.items("groundingSupports"), start=1):
            seg = sup.obj_at("segment", required=True)
            assert seg is not None
            part_index = seg.integer("partIndex", 0)
            start_b, end_b = seg.integer("startIndex", 0), seg.integer("endIndex", 0)
            base = bases[part_index] if 0 <= part_index < len(bases) else 0
            part_text = texts[part_index] if 0 <= part_index < len(texts) else ""
            s, e = (
                to_code_points(part_text, start_b, "utf8"),
                to_code_points(part_text, end_b, "utf8"),
            )
            span = Span(base + s, base + e) if s is not None and e is not None and s <= e else None
            offsets: Offsets | None = Offsets(start_b, end_b, "answer", "utf8", seg.opt_str("text"), base=base)
            refs, retrieved = _chunk_refs(
                chunks, sup.array("groundingChunkIndices"), f"{sup.path}.groundingChunkIndices"
            )
            if refs or not retrieved:
                cits.append(Citation(f"c{i}", refs, span, span, offsets=offsets, origin="gemini"))
                offsets = None  # checked once per support
            for k, (ref, chunk_text) in enumerate(retrieved, start=1):
                cid = f"c{i}" if not refs and k == 1 else f"c{i}.{k}"
                quote = chunk_text or None  # the retrieved text: checked against the source it came from
                cits.append(Citation(cid, (ref,), span, span, quote, offsets=offsets, origin="gemini"))
                offsets = None
    reason = cand.string("finishReason")
    truncated = bool(reason) and reason not in ("STOP", "FINISH_REASON_UNSPECIFIED")
    why = (
        f"finishReason is {reason}" + (": the model hit its token limit" if reason == "MAX_TOKENS" else "")
        if truncated
        else ""
    )
    return text_answer("gemini", text, extra=tuple(cits), truncated=truncated, truncation_reason=why)


def read_gemini_stream(text: str, name: str = "input") -> ParsedAnswer:
    """``streamGenerateContent?alt=sse``: each event is a partial response; the text pieces are
    joined (one part), the last ``groundingMetadata`` and ``finishReason`` are the answer's."""
    pieces: list[str] = []
    meta: Any = None
    reason = ""
    errors: list[StreamError] = []
    size = 0
    for ev in iter_sse(text, name):
        if ev.data.strip() == "[DONE]":
            continue
        obj = Fields(ev.json(name), f"event at line {ev.line}", name)
        if obj.has("error"):
            err = obj.raw("error")
            errors.append(
                StreamError(str(err.get("message", err)) if isinstance(err, dict) else str(err), size, ev.line)
            )
            continue
        candidates = obj.items("candidates")
        if not candidates:
            continue
        cand = candidates[0]
        content = cand.obj_at("content")
        for part in content.items("parts") if content is not None else []:
            piece = "" if part.flag("thought") else part.string("text")
            pieces.append(piece)
            size += len(piece)
        meta = cand.raw("groundingMetadata") or meta
        reason = cand.string("finishReason") or reason
    joined = "".join(pieces)
    cand_json: dict[str, Any] = {"content": {"parts": [{"text": joined}]}, "finishReason": reason}
    if meta is not None:
        cand_json["groundingMetadata"] = meta
    parsed = read_gemini({"candidates": [cand_json]}, name)
    why = parsed.truncation_reason or ("" if reason else "the stream ended without a finishReason")
    return dataclasses.replace(
        parsed, format="gemini-stream", truncated=bool(why), truncation_reason=why, stream_errors=tuple(errors)
    )

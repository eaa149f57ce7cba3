"""Anthropic Messages with citations, as one JSON object or an SSE stream.

The answer text is the ``text`` blocks joined (with a blank line between two that a tool call
separates, as the reader sees them). Each citation of a block points at a document
by ``document_index`` (0-based in the request, so ``number = index + 1``) and carries the
``cited_text`` (the quote) plus a location: ``char_location`` (code points into the document
text, end exclusive), ``page_location`` (1-based pages, end exclusive) or
``content_block_location`` (0-based custom-content blocks, end exclusive); web search results
are cited by ``url`` (an empty ``cited_text`` is a citation without a quote). Streams are rebuilt
from ``content_block_start`` / ``text_delta`` / ``citations_delta`` events first; a stream
without ``message_stop`` is truncated, and so is ``stop_reason`` ``max_tokens`` or
``model_context_window_exceeded``.
"""

from __future__ import annotations

from typing import Any

from ipsis.answers.claims import text_answer
from ipsis.answers.jsonio import Fields
from ipsis.answers.model import Citation, Offsets, ParsedAnswer, Ref, StreamError
from ipsis.answers.streams import iter_sse
from ipsis.spans import Span

TRUNCATING = {
    "max_tokens": "stop_reason is max_tokens: the model hit its token limit",
    "model_context_window_exceeded": "stop_reason is model_context_window_exceeded",
}
SEPARATOR = "\n\n"
"""Put between text blocks that a tool call (``server_tool_use``, ``web_search_tool_result`` …)
separates and that no whitespace separates: the reader sees two paragraphs, not one word."""
LOCATIONS = {
    "char_location": ("start_char_index", "end_char_index", "chars"),
    "page_location": ("start_page_number", "end_page_number", "pages"),
    "content_block_location": ("start_block_index", "end_block_index", "blocks"),
}


def _citation(c: Fields, cid: str, span: Span) -> Citation:
    kind = c.string("type")
    cited = c.opt_str("cited_text") or None  # "" (web search results do this): a citation without a quote
    if kind in LOCATIONS:
        s_key, e_key, unit = LOCATIONS[kind]
        idx = c.integer("document_index", 0)
        ref = Ref("index0", idx, f"document_index {idx}")
        offsets = Offsets(c.integer(s_key), c.integer(e_key), "source", "code_point", cited, unit)  # type: ignore[arg-type]
        return Citation(cid, (ref,), span, span, cited, offsets=offsets, origin=kind)
    if kind == "web_search_result_location":
        url = c.string("url")
        return Citation(cid, (Ref("url", url, url),), span, span, cited, origin=kind)
    label = c.string("source") or c.string("title") or kind
    return Citation(cid, (Ref("label", label, label),), span, span, cited, origin=kind)


def read_anthropic(value: Any, name: str = "input", fmt: str = "anthropic") -> ParsedAnswer:
    top = Fields(value, "", name)
    texts: list[str] = []
    cits: list[Citation] = []
    pos = 0
    apart = False
    for n, block in enumerate(top.items("content", required=True), start=1):
        if block.string("type") != "text":
            apart = bool(texts)  # a tool call between two text blocks: they are two paragraphs
            continue
        t = block.string("text")
        if apart and t and not t[:1].isspace() and not texts[-1][-1:].isspace():
            texts.append(SEPARATOR)
            pos += len(SEPARATOR)
        apart = False
        span = Span(pos, pos + len(t))
        for k, c in enumerate(block.items("citations"), start=1):
            cits.append(_citation(c, f"b{n}.{k}", span))
        texts.append(t)
        pos += len(t)
    reason = top.string("stop_reason")
    why = TRUNCATING.get(reason, "")
    return text_answer(
        fmt,
        "".join(texts),
        links=False,
        extra=tuple(cits),
        truncated=bool(why),
        truncation_reason=why,
    )


def read_anthropic_stream(text: str, name: str = "input") -> ParsedAnswer:
    """Rebuild the message from its events, then read it like :func:`read_anthropic`.

    Block numbers in citation ids are the stream ``index`` (0-based), as the events say.
    """
    blocks: dict[int, dict[str, Any]] = {}
    reason = ""
    stopped = False
    errors: list[StreamError] = []
    for ev in iter_sse(text, name):
        obj = Fields(ev.json(name), f"event at line {ev.line}", name)
        kind = obj.string("type") or ev.event
        if kind == "content_block_start":
            block = obj.obj_at("content_block", required=True)
            assert block is not None
            blocks[obj.integer("index")] = {
                "type": block.string("type"),
                "text": block.string("text"),
                "citations": list(block.array("citations")),
            }
        elif kind == "content_block_delta":
            idx = obj.integer("index")
            delta = obj.obj_at("delta", required=True)
            assert delta is not None
            block_ = blocks.setdefault(idx, {"type": "text", "text": "", "citations": []})
            if delta.string("type") == "text_delta":
                block_["text"] += delta.string("text")
            elif delta.string("type") == "citations_delta":
                block_["citations"].append(delta.raw("citation"))
        elif kind == "message_delta":
            delta = obj.obj_at("delta")
            if delta is not None:
                reason = delta.string("stop_reason") or reason
        elif kind == "message_stop":
            stopped = True
        elif kind == "error":
            err = obj.obj_at("error")
            size = sum(len(b["text"]) for b in blocks.values() if b["type"] == "text")
            errors.append(StreamError(err.string("message") if err else "error event", size, ev.line))
    # citation ids use the 0-based stream index: build the message with placeholders for gaps
    content = [blocks.get(i, {"type": "gap"}) for i in range(max(blocks) + 1)] if blocks else []
    parsed = read_anthropic({"content": content, "stop_reason": reason}, name, "anthropic-stream")
    cits = tuple(_renumber(c) for c in parsed.citations)
    why = parsed.truncation_reason or ("" if stopped else "the stream ended without message_stop")
    return ParsedAnswer(
        parsed.format,
        parsed.text,
        cits,
        bool(why),
        why,
        tuple(errors),
        exclude_spans=parsed.exclude_spans,
    )


def _renumber(c: Citation) -> Citation:
    if not c.citation_id.startswith("b"):
        return c
    block, _, k = c.citation_id[1:].partition(".")
    return Citation(
        f"b{int(block) - 1}.{k}",
        c.refs,
        c.answer_span,
        c.claim_span,
        c.quote,
        c.quote_span,
        c.offsets,
        c.origin,
        c.note,
    )

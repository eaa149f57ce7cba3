"""Claim JSON answers and plain-text answers (the content every chat envelope carries).

Two claim shapes are read:

- ``{"answer": str, "citations": [{"source": int, "quote": str}]}``: citations are
  answer-level (no claim spans), so sentences are not checked one by one.
- ``{"sin_informacion": bool, "afirmaciones": [{"texto": str, "citas": [{"indice": int,
  "literal": str}]}]}``: each ``texto`` is a claim that must carry a citation. The answer text
  is the claims joined by a space; claim spans point into it.

Either may arrive as a JSON string inside ``message.content`` (Ollama ``format``, OpenAI
structured outputs); :func:`content_answer` recognises that and falls back to text markers.
"""

from __future__ import annotations

from typing import Any

from ipsis.answers.jsonio import Fields, loads_strict
from ipsis.answers.markers import parse_markers
from ipsis.answers.model import Citation, ParsedAnswer, Ref
from ipsis.errors import InputError
from ipsis.spans import Span


def claim_shape(value: Any) -> str | None:
    """``claims`` / ``afirmaciones`` when ``value`` is one of the claim objects.

    >>> claim_shape({"answer": "", "citations": []}), claim_shape({"afirmaciones": []})
    ('claims', 'afirmaciones')
    >>> claim_shape([])
    """
    if not isinstance(value, dict):
        return None
    if "afirmaciones" in value or "sin_informacion" in value:
        return "afirmaciones"
    if "answer" in value and "citations" in value:
        return "claims"
    return None


def _ref(item: Fields, key: str) -> Ref:
    value = item.raw(key)
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        shown = "missing" if value is None else f"a {type(value).__name__}"
        msg = f"{item.name}: field {item.path}.{key} must be a source number (1, 2, ...) or id, got {shown}"
        raise InputError(msg)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    label = f"{key}: {value}"
    return Ref("number", value, label) if isinstance(value, int) else Ref("id", value, label)


def read_claims(value: Any, fmt: str, name: str = "input", meta: dict[str, Any] | None = None) -> ParsedAnswer:
    """A :class:`ParsedAnswer` from a parsed claim object (either shape)."""
    top = Fields(value, "", name)
    shape = claim_shape(value)
    if shape == "claims":
        text = top.string("answer", required=True)
        cits = []
        for i, item in enumerate(top.items("citations", required=True), start=1):
            quote = item.string("quote", required=True)
            cits.append(Citation(f"c{i}", (_ref(item, "source"),), quote=quote, origin="claims"))
        return ParsedAnswer(fmt, text, tuple(cits), units="none", meta=meta or {})
    if shape != "afirmaciones":
        msg = f'{name}: not a claim object; expected {{"answer", "citations"}} or {{"sin_informacion", "afirmaciones"}}'
        raise InputError(msg)
    flag = top.flag("sin_informacion")
    parts: list[str] = []
    spans: list[Span] = []
    cits = []
    pos = 0
    for item in top.items("afirmaciones", required=True):
        texto = item.string("texto", required=True)
        span = Span(pos, pos + len(texto))
        spans.append(span)
        parts.append(texto)
        pos += len(texto) + 1
        for cita in item.items("citas"):
            literal = cita.string("literal", required=True)
            cid = f"c{len(cits) + 1}"
            cits.append(Citation(cid, (_ref(cita, "indice"),), span, span, literal, origin="afirmaciones"))
    return ParsedAnswer(
        fmt,
        " ".join(parts),
        tuple(cits),
        units="claims",
        claim_spans=tuple(spans),
        no_information=flag,
        meta=meta or {},
    )


def text_answer(
    fmt: str, text: str, *, links: bool = True, extra: tuple[Citation, ...] = (), **kw: Any
) -> ParsedAnswer:
    """A text answer: markers parsed from ``text`` plus the envelope's own ``extra`` citations."""
    cits, excluded = parse_markers(text, links=links, first_id=len(extra) + 1)
    return ParsedAnswer(fmt, text, (*extra, *cits), exclude_spans=tuple(excluded), **kw)


def content_answer(fmt: str, content: str, name: str = "input", **kw: Any) -> ParsedAnswer:
    """``message.content`` of a chat envelope: claim JSON in a string, or text with markers."""
    stripped = content.strip()
    if stripped.startswith("{") and stripped.endswith("}"):
        try:
            value = loads_strict(stripped, name)
        except InputError:
            value = None
        shape = claim_shape(value)
        if shape:
            parsed = read_claims(value, f"{fmt}+{shape}", f"{name} (message content)")
            return ParsedAnswer(
                parsed.format,
                parsed.text,
                parsed.citations,
                units=parsed.units,
                claim_spans=parsed.claim_spans,
                no_information=parsed.no_information,
                **kw,
            )
    return text_answer(fmt, content, **kw)

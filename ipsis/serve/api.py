"""The JSON endpoints as plain functions: parsed body in, the CLI's JSON record out.

No HTTP here: :mod:`ipsis.serve.app` reads the body, picks the user and calls these in a
worker thread. Bad fields raise :class:`ApiError` (422) naming the field and the fix; limits
raise 413; the per-request time limit is checked between records and citations (422).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from ipsis import __version__
from ipsis.answers.check import CheckReport, check_answer
from ipsis.answers.detect import FORMATS as ANSWER_FORMATS
from ipsis.answers.detect import parse_answer
from ipsis.answers.feedback import feedback
from ipsis.answers.sources import Source, Sources, sources_from_json, sources_from_text
from ipsis.document import Document
from ipsis.errors import InputError, IpsisError
from ipsis.ingest.normalize import TIERS
from ipsis.jsontypes import json_type_name
from ipsis.report import summary
from ipsis.report.html import render_check_html
from ipsis.serve.catalog import Catalog
from ipsis.serve.limits import ApiError, Limits
from ipsis.serve.tasks import Deadline
from ipsis.store.db import ANONYMOUS
from ipsis.verify import Policy, describe, locate, verify_records
from ipsis.verify.result import UNKNOWN_SOURCE, Result

POLICY_FIELDS: dict[str, type] = {"max_tier": str, "min_length": int, "boundaries": bool, "position_breaks_ties": bool}
LANGUAGES = ("en", "pt", "es")
TYPE_NAMES = {str: "a string", int: "an integer", bool: "a boolean", dict: "an object", list: "an array"}


@dataclass(frozen=True, slots=True)
class Context:
    """Who is asking and under which limits."""

    catalog: Catalog
    user: str | None
    limits: Limits
    deadline: Deadline

    @property
    def reader(self) -> str:
        """Whom the store checks: the token's user, or :data:`ANONYMOUS` (public sources only)."""
        return ANONYMOUS if self.user is None else self.user


def _invalid(field: str, message: str) -> NoReturn:
    """Refuse a missing or mistyped field (422 ``invalid_field``)."""
    msg = f"{field}: {message}"
    raise ApiError(422, "invalid_field", msg, field=field)


def _object(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        msg = f"the body must be a JSON object, got {json_type_name(body)}"
        raise ApiError(422, "invalid_body", msg)
    return body


def _field(body: dict[str, Any], name: str, kind: type, *, required: bool = False, default: Any = None) -> Any:
    if name not in body or (body[name] is None and not required):
        if required:
            _invalid(name, "is required")
        return default
    value = body[name]
    ok = isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
    if not ok:
        _invalid(name, f"must be {TYPE_NAMES[kind]}, got {json_type_name(value)}")
    return value


def policy_from(body: dict[str, Any]) -> Policy:
    """The ``policy`` object of a request (every field optional, same names as the CLI options)."""
    raw = _field(body, "policy", dict, default={})
    args: dict[str, Any] = {}
    for name in raw:
        kind = POLICY_FIELDS.get(name)
        if kind is None:
            _invalid(f"policy.{name}", f"unknown field; known: {', '.join(POLICY_FIELDS)}")
        args[name] = _field(raw, name, kind, required=True)
    if "max_tier" in args and args["max_tier"] not in TIERS:
        _invalid("policy.max_tier", f"must be one of {', '.join(TIERS)}, got {args['max_tier']!r}")
    if args.get("min_length", 0) < 0:
        _invalid("policy.min_length", "must be 0 or more")
    return Policy(**args)


def run_info(policy: Policy, user: str | None) -> dict[str, Any]:
    out = {"ipsis_version": __version__, "policy": policy.to_json(), "policy_fingerprint": policy.fingerprint()}
    if user is not None:
        out["user"] = user
    return out


def _check_quote(quote: Any, where: str, limits: Limits) -> None:
    if isinstance(quote, str) and len(quote) > limits.max_quote_chars:
        msg = f"{where} has {len(quote)} characters; the limit is {limits.max_quote_chars}: quote a shorter passage"
        raise ApiError(413, "quote_too_long", msg, limit=limits.max_quote_chars)


def _inline_sources(body: dict[str, Any], ctx: Context) -> dict[str, str]:
    raw = _field(body, "sources", dict, default={})
    if len(raw) > ctx.limits.max_sources:
        msg = f"{len(raw)} sources; the limit is {ctx.limits.max_sources} per request"
        raise ApiError(413, "too_many_sources", msg, limit=ctx.limits.max_sources)
    out: dict[str, str] = {}
    for sid, value in raw.items():
        if not isinstance(value, dict) or not isinstance(value.get("text"), str):
            _invalid(f"sources.{sid}", 'must be {"text": "..."}; stored sources are named by id in the records')
        out[sid] = value["text"]
    return out


def _one_source(body: dict[str, Any], ctx: Context) -> tuple[str, Document | None]:
    """``source``: a stored id (string) or ``{"text": ..., "id"?: ...}``."""
    if "source" not in body or body["source"] is None:
        _invalid("source", 'is required: a stored source id or {"text": "..."}')
    src = body["source"]
    if isinstance(src, str):
        return src, ctx.catalog.stored(src, ctx.reader)
    if isinstance(src, dict) and isinstance(src.get("text"), str):
        sid = src.get("id")
        if sid is not None and not isinstance(sid, str):
            _invalid("source.id", f"must be a string, got {json_type_name(sid)}")
        sid = sid or "source"
        return sid, ctx.catalog.inline(sid, src["text"], ctx.user)
    _invalid("source", f'must be a stored source id or {{"text": "..."}}, got {json_type_name(src)}')


def do_locate(body: Any, ctx: Context) -> dict[str, Any]:
    body = _object(body)
    policy = policy_from(body)
    quote = _field(body, "quote", str, required=True)
    _check_quote(quote, "quote", ctx.limits)
    kwargs = {
        "prefix": _field(body, "prefix", str),
        "suffix": _field(body, "suffix", str),
        "position": _field(body, "position", int),
        "section": _field(body, "section", str),
    }
    cid = _field(body, "citation_id", str)
    sid, doc = _one_source(body, ctx)
    if doc is None:
        result = Result(cid, sid, quote, UNKNOWN_SOURCE, message=f"unknown source {sid!r}")
    else:
        result = _library(lambda: locate(doc, quote, policy=policy, citation_id=cid, source_id=sid, **kwargs))
    return {**result.to_json(), "policy_fingerprint": policy.fingerprint()}


def do_describe(body: Any, ctx: Context) -> dict[str, Any]:
    body = _object(body)
    start = _field(body, "start", int, required=True)
    end = _field(body, "end", int, required=True)
    max_tier = _field(body, "max_tier", str, default="typography")
    if max_tier not in TIERS:
        _invalid("max_tier", f"must be one of {', '.join(TIERS)}, got {max_tier!r}")
    sid, doc = _one_source(body, ctx)
    if doc is None:
        raise ApiError(404, "unknown_source", f"unknown source {sid!r}", source_id=sid)
    found = doc
    return _library(lambda: describe(found, start, end, Policy(max_tier=max_tier)))


def do_verify(body: Any, ctx: Context) -> dict[str, Any]:
    body = _object(body)
    policy = policy_from(body)
    records = _field(body, "records", list, required=True)
    if len(records) > ctx.limits.max_records:
        msg = f"{len(records)} records; the limit is {ctx.limits.max_records} per request: split them"
        raise ApiError(413, "too_many_records", msg, limit=ctx.limits.max_records)
    for i, r in enumerate(records):
        if isinstance(r, dict):
            _check_quote(r.get("quote"), f"records[{i}].quote", ctx.limits)
    inline = _inline_sources(body, ctx)

    def resolve(sid: str) -> Document | None:
        if sid in inline:
            return ctx.catalog.inline(sid, inline[sid], ctx.user)
        return ctx.catalog.stored(sid, ctx.reader)

    info = run_info(policy, ctx.user)
    store = ctx.catalog.store()
    if store is not None:  # stored ids: exact versions, found elsewhere, newer versions, a run record
        from ipsis.store.runs import RunStream

        def inline_only(sid: str) -> Document | None:
            return ctx.catalog.inline(sid, inline[sid], ctx.user) if sid in inline else None

        stream = RunStream(records, store, user=ctx.reader, policy=policy, fallback=inline_only, records_name="request")
        results = []
        for result in stream:  # found elsewhere searches the store: check the time after each record
            results.append(result)
            ctx.deadline.check(len(results), len(records))
        stream.finish()
        info["run_id"] = stream.id
    else:
        results = []
        for result in verify_records(records, resolve, policy):
            results.append(result)
            ctx.deadline.check(len(results), len(records))
    return {"run": info, "results": [r.to_json() for r in results], "summary": summary(results)}


def _sources_for_check(body: dict[str, Any], ctx: Context) -> Sources:
    raw = body.get("sources")
    stored: dict[str, Document] = {}
    if raw is None:
        _invalid("sources", 'is required: a JSON array, ---/blank-line separated text, or {"sources": [...]}')
    if isinstance(raw, str):
        if not raw.strip():
            _invalid("sources", "is empty: no sources found; paste the sources sent to the model")
        sources = _library(lambda: sources_from_text(raw, "sources"))
    elif isinstance(raw, (list, dict)):
        filled = _with_stored_texts(raw, ctx, stored)
        sources = _library(lambda: sources_from_json(filled, "sources"))
    else:
        _invalid("sources", f"must be text, an array or an object, got {json_type_name(raw)}")
    if len(sources) > ctx.limits.max_sources:
        msg = f"{len(sources)} sources; the limit is {ctx.limits.max_sources} per request"
        raise ApiError(413, "too_many_sources", msg, limit=ctx.limits.max_sources)
    out = []
    for s in sources:  # the same text reuses the same cached views
        doc = stored.get(s.id) or ctx.catalog.inline(s.id, s.text, ctx.user)
        out.append(dataclasses.replace(s, document=doc))
    return Sources(out)


def _with_stored_texts(raw: Any, ctx: Context, stored: dict[str, Document]) -> Any:
    """Source objects with an ``id`` and no text are stored sources the user may read."""
    items = raw.get("sources", raw.get("documents")) if isinstance(raw, dict) else raw
    if not isinstance(items, list):
        return raw
    fixed: list[Any] = []
    for i, item in enumerate(items):
        if isinstance(item, dict) and not any(isinstance(item.get(k), str) for k in ("text", "content", "data")):
            sid = item.get("id")
            doc = ctx.catalog.stored(sid, ctx.reader) if isinstance(sid, str) else None
            if doc is None:
                what = f"{sid!r} is not a stored source you may read" if isinstance(sid, str) else "it has no id"
                _invalid(f"sources[{i}]", f'has no "text" and {what}; send the text or a stored id')
            stored[doc.id] = doc
            item = {**item, "id": doc.id, "text": doc.text}
        fixed.append(item)
    return {**raw, "sources": fixed} if isinstance(raw, dict) else fixed


def _answer_text(body: dict[str, Any]) -> str:
    answer = body.get("answer")
    if isinstance(answer, str):
        return answer
    if isinstance(answer, (dict, list)):
        return json.dumps(answer, ensure_ascii=False)
    if answer is None:
        _invalid("answer", "is required: the model's answer as text, or its JSON response")
    _invalid("answer", f"must be text or a JSON object/array, got {json_type_name(answer)}")


def check_payload(report: CheckReport) -> dict[str, Any]:
    """``CheckReport.to_json()`` (the CLI's JSON) plus the answer text and where each citation sits."""
    payload = report.to_json()
    checked = [c for c in report.checked if c.result is not None]
    for rec, c in zip(payload["citations"], checked, strict=False):
        if c.span is not None and "answer_span" not in rec:
            rec["answer_span"] = [c.span.start, c.span.end]
    payload["markers"] = [
        {"citation_id": c.citation.citation_id, "answer_span": [c.span.start, c.span.end], "sources": list(c.numbers)}
        for c in report.checked
        if c.span is not None
    ]
    payload["answer"] = {"text": report.answer.text}
    payload["clean"] = report.clean
    return payload


def do_check(body: Any, ctx: Context) -> dict[str, Any] | str:
    """The check JSON; with ``"format": "html"`` the report page rendered from that same JSON."""
    body = _object(body)
    policy = policy_from(body)
    out = _field(body, "format", str, default="json")
    if out not in ("json", "html"):
        _invalid("format", f"must be json or html, got {out!r}")
    lang = _field(body, "lang", str)
    if lang is not None and lang not in LANGUAGES:
        _invalid("lang", f"must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    fmt = _field(body, "answer_format", str)
    if fmt is not None and fmt not in (*ANSWER_FORMATS, "markdown"):
        _invalid("answer_format", f"must be one of {', '.join(ANSWER_FORMATS)}, markdown; got {fmt!r}")
    want_feedback = _field(body, "feedback", bool, default=False)
    text = _answer_text(body)
    sources = _sources_for_check(body, ctx)
    answer = _library(lambda: parse_answer(text, fmt, "answer"))
    for i, c in enumerate(answer.citations):
        _check_quote(c.quote, f"citation {i + 1} ({c.citation_id}) quote", ctx.limits)
    ctx.deadline.check(0, len(answer.citations))
    report = _library(lambda: check_answer(answer, sources, policy=policy))
    payload = check_payload(report)
    payload["run"] = run_info(policy, ctx.user)
    if want_feedback:
        payload["feedback"] = feedback(report) or ""
    if out == "html":
        documents = {src.id: src.document for src in report.sources}
        return render_check_html(payload, documents=documents, run=payload["run"], lang=lang)
    return payload


def _library(call: Callable[[], Any]) -> Any:
    """Run a library call; its input errors become 422 with the library's message (also JSON
    inside a text field that is nested too deeply or holds a number past 4,300 digits)."""
    try:
        return call()
    except (InputError, IpsisError) as exc:
        raise ApiError(422, "invalid_input", str(exc)) from None
    except RecursionError:
        msg = "the input is nested too deeply to read; flatten it"
        raise ApiError(422, "invalid_input", msg) from None
    except ValueError as exc:
        if "digits" not in str(exc):
            raise
        msg = "the input has a number of more than 4,300 digits; send such numbers as strings"
        raise ApiError(422, "invalid_input", msg) from None


__all__ = ["Context", "Deadline", "Source", "check_payload", "do_check", "do_describe", "do_locate", "do_verify"]

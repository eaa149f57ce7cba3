"""Citation records: strict parsing of JSON arrays and JSONL, and verification of each record.

A record is ``{citation_id, source_id, quote, prefix?, suffix?, section?, claim?, position?}``.
A malformed line stops the run (``RecordError`` naming the line); a record with a missing or
mistyped field becomes an ``invalid_record`` result naming the field.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ipsis.document import Document
from ipsis.errors import RecordError
from ipsis.verify.locate import locate
from ipsis.verify.policy import DEFAULT_POLICY, Policy
from ipsis.verify.result import INVALID_RECORD, UNKNOWN_SOURCE, Result

Resolver = Callable[[str], "Document | None"]

REQUIRED = {"citation_id": (str, int), "source_id": (str,), "quote": (str,)}
OPTIONAL = {
    "prefix": (str,),
    "suffix": (str,),
    "section": (str,),
    "claim": (str,),
    "position": (int,),
}
TYPE_NAMES = {str: "a string", int: "an integer"}


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "an object",
    }.get(type(value), type(value).__name__)


def parse_records(data: str, name: str = "input") -> list[Any]:
    """Parse a JSON array or JSONL (one JSON object per line, blank lines skipped)."""
    stripped = data.lstrip("\ufeff \t\r\n")
    if not stripped:
        return []
    if stripped.startswith("["):
        try:
            value = json.loads(stripped)
        except json.JSONDecodeError as exc:
            offset = len(data) - len(stripped)
            line = data[: offset + exc.pos].count("\n") + 1
            msg = f"{name}: invalid JSON at line {line}, column {exc.colno}: {exc.msg}; fix the file or send JSONL"
            raise RecordError(msg) from exc
        if not isinstance(value, list):  # pragma: no cover - '[' always parses to a list
            msg = f"{name}: expected a JSON array of records"
            raise RecordError(msg)
        return value
    out: list[Any] = []
    for i, row in enumerate(data.splitlines(), 1):
        if not row.strip():
            continue
        try:
            out.append(json.loads(row))
        except json.JSONDecodeError as exc:
            msg = (
                f"{name}: line {i} is not valid JSON (column {exc.colno}: {exc.msg}); each line must be one JSON object"
            )
            raise RecordError(msg) from exc
    return out


def check_record(record: Any, index: int) -> tuple[dict[str, Any] | None, Result | None]:
    """Validate one record; return it, or an ``invalid_record`` result naming the field."""
    if not isinstance(record, dict):
        r = Result(f"#{index}", None, None, INVALID_RECORD, field_name="record")
        r.message = f"record {index} is {_json_type(record)}, expected an object with citation_id, source_id and quote"
        return None, r
    cid = record.get("citation_id")
    cid_out = str(cid) if isinstance(cid, (str, int)) and not isinstance(cid, bool) else f"#{index}"
    for name, types in {**REQUIRED, **OPTIONAL}.items():
        if name not in record:
            if name in REQUIRED:
                r = Result(
                    cid_out, _str_or_none(record.get("source_id")), record.get("quote"), INVALID_RECORD, field_name=name
                )
                r.message = f"record {index}: field {name!r} is missing"
                return None, r
            continue
        value = record[name]
        if value is None and name in OPTIONAL:
            continue
        if isinstance(value, bool) or not isinstance(value, types):
            r = Result(
                cid_out,
                _str_or_none(record.get("source_id")),
                record.get("quote") if isinstance(record.get("quote"), str) else None,
                INVALID_RECORD,
                field_name=name,
            )
            r.message = f"record {index}: field {name!r} must be {TYPE_NAMES[types[0]]}, got {_json_type(value)}"
            return None, r
    return record, None


def _str_or_none(v: Any) -> str | None:
    return v if isinstance(v, str) else None


def verify_records(
    records: Iterable[Any],
    resolve: Resolver,
    policy: Policy = DEFAULT_POLICY,
    indexes: Iterable[int] | None = None,
) -> Iterator[Result]:
    """Verify each record against the document its ``source_id`` resolves to.

    ``indexes`` numbers the records in messages (default 1, 2, ...; a batch partition passes
    each record's place in the whole input)."""
    numbers = indexes if indexes is not None else itertools.count(1)
    for index, raw in zip(numbers, records, strict=False):
        record, invalid = check_record(raw, index)
        if invalid is not None or record is None:
            yield invalid  # type: ignore[misc]
            continue
        cid = str(record["citation_id"])
        sid = record["source_id"]
        doc = resolve(sid)
        if doc is None:
            r = Result(cid, sid, record["quote"], UNKNOWN_SOURCE)
            r.message = f"unknown source {sid!r}"
            yield r
            continue
        yield locate(
            doc,
            record["quote"],
            prefix=record.get("prefix"),
            suffix=record.get("suffix"),
            position=record.get("position"),
            policy=policy,
            citation_id=cid,
            source_id=sid,
            section=record.get("section"),
        )

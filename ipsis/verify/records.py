"""Citation records: strict parsing of JSON arrays and JSONL, and verification of each record.

A record is ``{citation_id, source_id, quote, prefix?, suffix?, section?, claim?, position?}``.
A malformed line stops the run (``RecordError`` naming the line); a record with a missing or
mistyped field becomes an ``invalid_record`` result naming the field.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from typing import Any, BinaryIO, TypeVar

from ipsis.document import Document
from ipsis.errors import IpsisError, RecordError
from ipsis.jsontypes import json_type_name
from ipsis.limits import DEFAULT_LIMITS, Limits
from ipsis.verify.batch import prefound
from ipsis.verify.locate import locate
from ipsis.verify.policy import DEFAULT_POLICY, Policy
from ipsis.verify.result import INVALID_RECORD, UNKNOWN_SOURCE, Result

Resolver = Callable[[str], "Document | None"]
T = TypeVar("T")

REQUIRED = {"citation_id": (str, int), "source_id": (str,), "quote": (str,)}
OPTIONAL = {
    "prefix": (str,),
    "suffix": (str,),
    "section": (str,),
    "claim": (str,),
    "position": (int,),
}
TYPE_NAMES = {str: "a string", int: "an integer"}
KNOWN_FIELDS = (*REQUIRED, *OPTIONAL)


_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(text: str) -> int | None:
    """Code point offset of the first lone surrogate in ``text`` (JSON ``"\\ud800"`` decodes to
    one), or ``None``. No document text holds one, and no output encoding can write one.

    >>> lone_surrogate("ok"), lone_surrogate("bad" + chr(0xD800))
    (None, 3)
    """
    m = _SURROGATE.search(text)
    return m.start() if m else None


def parse_records(data: str, name: str = "input") -> list[Any]:
    """Parse a JSON array or JSONL (one JSON object per line, blank lines skipped)."""
    stripped = data.lstrip("\ufeff \t\r\n")
    if not stripped:
        return []
    if stripped.startswith("["):
        try:
            value = json.loads(stripped)
        except RecursionError:
            msg = f"{name}: JSON nested too deeply; each record must be a flat object"
            raise RecordError(msg) from None
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
    for i, row in enumerate(data.split("\n"), 1):  # JSONL lines end at \n only: U+2028 is text
        if not row.strip():
            continue
        out.append(_json_line(row, name, i))
    return out


def _json_line(row: str, name: str, i: int) -> Any:
    try:
        return json.loads(row)
    except RecursionError:
        msg = f"{name}: line {i} is nested too deeply; each line must be one flat JSON object"
        raise RecordError(msg) from None
    except json.JSONDecodeError as exc:
        msg = f"{name}: line {i} is not valid JSON (column {exc.colno}: {exc.msg}); each line must be one JSON object"
        raise RecordError(msg) from exc


def iter_records(stream: BinaryIO, name: str = "input", limits: Limits = DEFAULT_LIMITS) -> Iterator[Any]:
    """Records from a binary stream, one at a time: JSONL is parsed line by line (memory stays
    flat for millions of records); a JSON array is read whole (its size is limited).

    >>> import io
    >>> [r["quote"] for r in iter_records(io.BytesIO(b'{"quote": "a"}\\n\\n{"quote": "b"}\\n'))]
    ['a', 'b']
    """
    cap = limits.max_input_bytes
    first = stream.read(1)
    while first and first in b" \t\r\n":
        first = stream.read(1)
    if first == b"\xef":  # UTF-8 BOM
        first = (first + stream.read(2)).removeprefix(b"\xef\xbb\xbf") or stream.read(1)
    if not first:
        return
    if first == b"[":
        data = first + stream.read(cap + 1 if cap else -1)
        limits.check_size(len(data), name)
        records = parse_records(_decode(data, name, None), name)
        limits.check_records(len(records), name)
        yield from records
        return
    count = 0
    line_no = 0
    pending = first
    while True:
        raw = stream.readline(cap + 1 if cap else -1)
        if pending:
            raw, pending = pending + raw, b""
        if not raw:
            return
        line_no += 1
        if cap and len(raw) > cap:
            limits.check_size(len(raw), name, f"line {line_no}")
        row = _decode(raw, name, line_no)
        if not row.strip():
            continue
        count += 1
        limits.check_records(count, name)
        yield _json_line(row, name, line_no)


def _decode(raw: bytes, name: str, line: int | None) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = f"line {line}" if line else "the input"
        msg = f"{name}: {where} is not valid UTF-8 ({exc.reason} at byte {exc.start}); save the records as UTF-8"
        raise RecordError(msg) from None


def _json_type(value: Any) -> str:
    return json_type_name(value, array="a list")


def check_record(
    record: Any, index: int, limits: Limits = DEFAULT_LIMITS
) -> tuple[dict[str, Any] | None, Result | None]:
    """Validate one record; return it, or an ``invalid_record`` result naming the field."""
    if not isinstance(record, dict):
        r = Result(f"#{index}", None, None, INVALID_RECORD, field_name="record")
        r.message = f"record {index} is {_json_type(record)}, expected an object with citation_id, source_id and quote"
        return None, r
    cid = record.get("citation_id")
    cid_out = str(cid) if isinstance(cid, (str, int)) and not isinstance(cid, bool) else f"#{index}"
    if lone_surrogate(cid_out) is not None:
        cid_out = f"#{index}"
    missing = [name for name in REQUIRED if name not in record]
    if missing:
        r = Result(
            cid_out, _str_or_none(record.get("source_id")), record.get("quote"), INVALID_RECORD, field_name=missing[0]
        )
        names = ", ".join(map(repr, missing))
        r.message = f"record {index}: field {names} is missing" if len(missing) == 1 else (
            f"record {index}: fields {names} are missing"
        )
        if unknown := unknown_fields(record):
            r.message += f" ({unknown_fields_message(unknown)})"
        return None, r
    for name, types in {**REQUIRED, **OPTIONAL}.items():
        if name not in record:
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
        problem = _text_problem(name, value, limits) if isinstance(value, str) else None
        if problem:
            sid, quote = (_str_or_none(record.get(k)) for k in ("source_id", "quote"))
            sid = sid if sid is not None and lone_surrogate(sid) is None else None
            quote = quote if quote is not None and _text_problem("quote", quote, limits) is None else None
            r = Result(cid_out, sid, quote, INVALID_RECORD, field_name=name)
            r.message = f"record {index}: field {name!r}: {problem}"
            return None, r
    return record, None


def unknown_fields(record: dict[str, Any]) -> list[str]:
    """The fields of ``record`` that ipsis does not read (a misspelled ``qoute_prefix``)."""
    return [k for k in record if k not in REQUIRED and k not in OPTIONAL]


def unknown_fields_message(unknown: list[str]) -> str:
    """``unknown field 'qoute' (ignored; did you mean 'quote'?)``, one clause per field.

    >>> unknown_fields_message(["qoute_prefix", "notes"])
    "unknown field 'qoute_prefix' (ignored; did you mean 'quote' or 'prefix'?), unknown field 'notes' (ignored)"
    """
    import difflib  # only for a record with a field it does not know

    parts = []
    for k in unknown:
        close = difflib.get_close_matches(k, KNOWN_FIELDS, n=2, cutoff=0.7)
        if not close:  # `qoute_prefix`: its pieces may be misspellings of fields
            close = [c for piece in k.split("_") for c in difflib.get_close_matches(piece, KNOWN_FIELDS, 1, 0.75)]
        hint = f"; did you mean {' or '.join(map(repr, dict.fromkeys(close)))}?" if close else ""
        parts.append(f"unknown field {k!r} (ignored{hint})")
    return ", ".join(parts)


def _text_problem(field: str, value: str, limits: Limits) -> str | None:
    at = lone_surrogate(value)
    if at is not None:
        return (
            f"a lone surrogate (U+{ord(value[at]):04X}) at code point {at}; "
            "send valid UTF-8 (a UTF-16 pair was cut in two)"
        )
    return limits.quote_problem(value, "the quote" if field == "quote" else f"the {field}")


def _str_or_none(v: Any) -> str | None:
    return v if isinstance(v, str) else None


BLOCK = 1024
"""Records read ahead and verified as one block, so that the records citing one source are
located together (:func:`ipsis.verify.batch.prefound`); results still come one per record, in
input order, and memory stays flat."""


def read_blocks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """``items`` in lists of ``size`` (the last one shorter). An error while reading an item
    (a malformed line) is raised after the block of the items before it.

    >>> [len(b) for b in read_blocks(range(5), 2)]
    [2, 2, 1]
    """
    it = iter(items)
    while True:
        block: list[T] = []
        try:
            block.extend(itertools.islice(it, size))
        except Exception:  # re-raised after the items read before it
            yield block
            raise
        yield block
        if len(block) < size:
            return


def verify_records(
    records: Iterable[Any],
    resolve: Resolver,
    policy: Policy = DEFAULT_POLICY,
    limits: Limits = DEFAULT_LIMITS,
    indexes: Iterable[int] | None = None,
) -> Iterator[Result]:
    """Verify each record against the document its ``source_id`` resolves to (lazily: one
    result per record, in blocks of :data:`BLOCK` records).

    ``indexes`` numbers the records in messages (default 1, 2, ...; a batch partition passes
    each record's place in the whole input). An error while reading the records (a malformed
    line) is raised after the results of the records before it."""
    numbers = indexes if indexes is not None else itertools.count(1)
    for block in read_blocks(zip(numbers, records, strict=False), BLOCK):
        yield from _verify_block(block, resolve, policy, limits)


def _verify_block(block: list[tuple[int, Any]], resolve: Resolver, policy: Policy, limits: Limits) -> Iterator[Result]:
    checked = [check_record(raw, index, limits) for index, raw in block]
    by_source: dict[str, list[str]] = {}
    for record, invalid in checked:
        if invalid is None and record is not None:
            by_source.setdefault(record["source_id"], []).append(record["quote"])
    seen: set[str] = set()
    with ExitStack() as stack:
        for record, invalid in checked:
            if invalid is not None or record is None:
                yield invalid  # type: ignore[misc]
                continue
            cid = str(record["citation_id"])
            sid = record["source_id"]
            try:
                doc = resolve(sid)
            except IpsisError as exc:  # one unreadable source: its records say so, the others go on
                r = Result(cid, sid, record["quote"], UNKNOWN_SOURCE)
                r.message = f"source {sid!r} cannot be read: {exc}"
                r.extra["source_error"] = str(exc)
                yield r
                continue
            if doc is None:
                r = Result(cid, sid, record["quote"], UNKNOWN_SOURCE)
                r.message = f"unknown source {sid!r}"
                yield _with_unknown_fields(r, record)
                continue
            if sid not in seen:  # the first record of this source in the block: all its quotes at once
                seen.add(sid)
                if doc.sections is None:  # as the CLI does: a match's section never depends on
                    from ipsis.sections import segment  # whether a record before it cited one

                    segment(doc)
                stack.enter_context(prefound(doc, by_source[sid], policy))
            r = locate(
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
            yield _with_unknown_fields(r, record)


def _with_unknown_fields(r: Result, record: dict[str, Any]) -> Result:
    """``r`` with an ``unknown_field`` warning when the record has fields ipsis does not read."""
    if unknown := unknown_fields(record):
        r.warnings.append({"kind": "unknown_field", "fields": unknown, "message": unknown_fields_message(unknown)})
    return r

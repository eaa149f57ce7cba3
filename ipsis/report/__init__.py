"""Render result records: table (terminal), JSON, JSONL and CSV.

The JSON forms are the library records serialised; the table is for people.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from ipsis.verify.result import LOCATED, STATUSES, Result

FORMATS = ("table", "json", "jsonl", "csv")
CSV_FIELDS = (
    "citation_id",
    "source_id",
    "status",
    "tier",
    "start",
    "end",
    "line",
    "page",
    "section",
    "quote",
    "message",
)
_COLOURS = {
    "located": "32",
    "ambiguous": "33",
    "too_short": "33",
    "not_found": "31",
    "unknown_source": "31",
    "empty_quote": "33",
    "invalid_record": "35",
}


def summary(results: Sequence[Result] | Counter[str]) -> dict[str, Any]:
    """Counts by status, from the results or from a ``Counter`` of their statuses."""
    counts = results if isinstance(results, Counter) else Counter(r.status for r in results)
    return {
        "total": sum(counts.values()),
        "located": counts.get(LOCATED, 0),
        "by_status": {s: counts[s] for s in STATUSES if counts.get(s)},
    }


def summary_line(results: Sequence[Result] | Counter[str]) -> str:
    s = summary(results)
    rest = " ".join(f"{k}={v}" for k, v in s["by_status"].items() if k != LOCATED)
    return f"located={s['located']}/{s['total']}" + (f" ({rest})" if rest else "")


def use_colour(tty: bool) -> bool:
    return tty and not os.environ.get("NO_COLOR")


def _one_line(text: str, width: int) -> str:
    t = " ".join(str(text).split())
    return t if len(t) <= width else t[: width - 1] + "…"


def table(results: Sequence[Result], *, colour: bool = False, width: int = 80) -> str:
    """One line per citation (status, id, source, where) and a context line, then a summary."""
    lines = [line for r in results for line in table_lines(r, colour=colour, width=width)]
    lines.append(summary_line(results))
    return "\n".join(lines) + "\n"


def table_lines(r: Result, *, colour: bool = False, width: int = 80) -> list[str]:
    """The table lines of one result."""
    lines = []
    status = r.status
    shown = f"\x1b[{_COLOURS.get(status, '0')}m{status:<14}\x1b[0m" if colour else f"{status:<14}"
    where = ""
    if r.matches:
        m = r.matches[0]
        where = f"[{m.start},{m.end})"
        if m.page:
            where += f" p.{m.page}"
        if m.line:
            where += f" l.{m.line}"
        if m.section:
            where += f" {m.section.get('label') or m.section.get('id')}"
        if len(r.matches) > 1:
            where += f" +{len(r.matches) - 1} more"
    head = f"{status and shown} {r.citation_id or '-'} {r.source_id or '-'} {where}".rstrip()
    lines.append(head)
    lines.append("    " + _one_line(r.message, width - 4))
    if r.quote is not None and isinstance(r.quote, str):
        lines.append("    " + _one_line(f"“{r.quote}”", width - 4))
    return lines


def to_json(results: Sequence[Result], run: dict[str, Any] | None = None) -> str:
    doc: dict[str, Any] = {"run": run or {}, "results": [r.to_json() for r in results], "summary": summary(results)}
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def to_jsonl(results: Sequence[Result]) -> str:
    return "".join(json.dumps(r.to_json(), ensure_ascii=False) + "\n" for r in results)


def to_csv(results: Sequence[Result]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    for r in results:
        w.writerow(csv_row(r))
    return buf.getvalue()


def csv_row(r: Result) -> list[Any]:
    """The CSV row of one result (columns :data:`CSV_FIELDS`)."""
    m = r.matches[0] if r.matches else None
    return [
        r.citation_id, r.source_id, r.status, r.tier or "",
        m.start if m else "", m.end if m else "", (m.line or "") if m else "", (m.page or "") if m else "",
        (m.section or {}).get("id", "") if m else "",
        r.quote if isinstance(r.quote, str) else json.dumps(r.quote), r.message,
    ]  # fmt: skip


def render(results: Sequence[Result], fmt: str, *, run: dict[str, Any] | None = None, colour: bool = False) -> str:
    if fmt == "table":
        return table(results, colour=colour)
    if fmt == "json":
        return to_json(results, run)
    if fmt == "jsonl":
        return to_jsonl(results)
    if fmt == "csv":
        return to_csv(results)
    msg = f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}"
    raise ValueError(msg)


def write_stream(
    results: Iterable[Result],
    fmt: str,
    out: TextIO,
    *,
    run: dict[str, Any] | None = None,
    colour: bool = False,
) -> Counter[str]:
    """Write results as they come (the same text as :func:`render`); return the status counts.

    Only the counts are kept, so memory stays flat however many results there are.
    """
    counts: Counter[str] = Counter()
    if fmt not in FORMATS:
        msg = f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}"
        raise ValueError(msg)
    writer = csv.writer(out, lineterminator="\n") if fmt == "csv" else None
    if writer is not None:
        writer.writerow(CSV_FIELDS)
    if fmt == "json":
        head = json.dumps({"run": run or {}}, ensure_ascii=False, indent=2)
        out.write(head[: head.rindex("}")].rstrip() + ',\n  "results": [')
    for r in results:
        if fmt == "jsonl":
            out.write(json.dumps(r.to_json(), ensure_ascii=False) + "\n")
        elif writer is not None:
            writer.writerow(csv_row(r))
        elif fmt == "json":
            item = json.dumps(r.to_json(), ensure_ascii=False, indent=2).replace("\n", "\n    ")
            out.write(("," if counts else "") + "\n    " + item)
        else:
            out.write("\n".join(table_lines(r, colour=colour)) + "\n")
        counts[r.status] += 1
    if fmt == "json":
        tail = json.dumps({"summary": summary(counts)}, ensure_ascii=False, indent=2)
        out.write(("\n  ]," if counts else "],") + tail[1:] + "\n")
    elif fmt == "table":
        out.write(summary_line(counts) + "\n")
    return counts

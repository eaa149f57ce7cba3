"""Render result records: table (terminal), JSON, JSONL and CSV.

The JSON forms are the library records serialised; the table is for people.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections import Counter
from collections.abc import Sequence
from typing import Any

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


def summary(results: Sequence[Result]) -> dict[str, Any]:
    counts = Counter(r.status for r in results)
    return {
        "total": len(results),
        "located": counts.get(LOCATED, 0),
        "by_status": {s: counts[s] for s in STATUSES if counts.get(s)},
    }


def summary_line(results: Sequence[Result]) -> str:
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
    lines = []
    for r in results:
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
        for w in r.warnings:
            lines.append("    note: " + _one_line(str(w.get("message", w)), width - 10))
        for f in r.found_elsewhere[:3]:
            sec = f.get("section") or {}
            label = sec.get("path") or sec.get("label") or ""
            place = f"{f.get('source_id')} [{f.get('start')},{f.get('end')}) {label}".rstrip()
            lines.append("    found elsewhere: " + _one_line(place, width - 21))
        if len(r.found_elsewhere) > 3:
            lines.append(f"    found elsewhere: +{len(r.found_elsewhere) - 3} more places")
        if r.quote is not None and isinstance(r.quote, str):
            lines.append("    " + _one_line(f"“{r.quote}”", width - 4))
    lines.append(summary_line(results))
    return "\n".join(lines) + "\n"


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
        m = r.matches[0] if r.matches else None
        w.writerow([
            r.citation_id, r.source_id, r.status, r.tier or "",
            m.start if m else "", m.end if m else "", (m.line or "") if m else "", (m.page or "") if m else "",
            (m.section or {}).get("id", "") if m else "",
            r.quote if isinstance(r.quote, str) else json.dumps(r.quote), r.message,
        ])  # fmt: skip
    return buf.getvalue()


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

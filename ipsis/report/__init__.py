"""Render result records: table (terminal), JSON, JSONL, CSV and HTML (:mod:`ipsis.report.html`).

The JSON forms are the library records serialised; the table is for people.
"""

from __future__ import annotations

import csv
import io
import json
import os
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, TextIO

from ipsis.document import Document
from ipsis.verify.result import LOCATED, STATUSES, Result

FORMATS = ("table", "json", "jsonl", "csv", "html", "annotations")
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


def verdict(r: Result) -> str | None:
    """The judge's verdict on the result's claim (``--judge``), or None when it was not judged."""
    support = r.extra.get("support")
    v = support.get("verdict") if isinstance(support, dict) else None
    return v if isinstance(v, str) else None


def summary_line(results: Sequence[Result] | Counter[str], verdicts: Counter[str] | None = None) -> str:
    """``located=N/M (other statuses)``, then the judge's verdicts when some claim was judged.

    >>> summary_line(Counter(located=2, not_found=1), Counter(supported=1, contradicted=1))
    'located=2/3 (not_found=1); judged: supported=1 contradicted=1'
    """
    s = summary(results)
    if verdicts is None and not isinstance(results, Counter):
        verdicts = Counter(v for v in map(verdict, results) if v)
    rest = " ".join(f"{k}={v}" for k, v in s["by_status"].items() if k != LOCATED)
    line = f"located={s['located']}/{s['total']}" + (f" ({rest})" if rest else "")
    if verdicts:
        line += "; judged: " + " ".join(f"{k}={n}" for k, n in verdicts.items())
    return line


def use_colour(tty: bool) -> bool:
    return tty and not os.environ.get("NO_COLOR")


def table_width(tty: bool) -> int | None:
    """Columns of the table: ``COLUMNS`` when set, else the terminal's width on a terminal, else
    ``None``: into a pipe or a file nothing is cut."""
    env = os.environ.get("COLUMNS", "").strip()
    if env.isdigit() and int(env) > 0:
        return int(env)
    if not tty:
        return None
    import shutil  # (with bz2 and lzma): only for a terminal

    return shutil.get_terminal_size().columns


# Characters of context on each side of a hit when lines are not cut (``width=None``).
UNCUT_CONTEXT = 30


def _one_line(text: str, width: int | None) -> str:
    t = " ".join(str(text).split())
    return t if width is None else fit(t, width)


def cols(text: str) -> int:
    """Terminal columns of ``text``: wide (CJK) characters count 2, combining marks 0.

    >>> cols("Art. 5º"), cols("第五条"), cols("e\u0301")
    (7, 6, 1)
    """
    n = 0
    for ch in text:
        if unicodedata.combining(ch) or ch in "\u200b\u200c\u200d\ufeff":
            continue
        n += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return n


def fit(text: str, width: int, *, left: bool = False) -> str:
    """``text`` cut to ``width`` columns with an ellipsis (at the start when ``left``).

    >>> fit("Returns are accepted within 30 days.", 12), fit("Returns are accepted", 12, left=True)
    ('Returns are…', '…re accepted')
    """
    if cols(text) <= width:
        return text
    if width <= 0:
        return ""
    chars = list(reversed(text)) if left else list(text)
    out: list[str] = []
    used = 0
    for ch in chars:
        c = cols(ch)
        if used + c > width - 1:
            break
        out.append(ch)
        used += c
    body = "".join(reversed(out)) if left else "".join(out)
    return "…" + body if left else body + "…"


def _flat(text: str) -> str:
    return " ".join(text.split())


def in_context(before: str, hit: str, after: str, width: int) -> tuple[str, str, str]:
    """Fit ``before`` + ``hit`` + ``after`` on one line of ``width`` columns, centred on ``hit``.

    Whitespace runs become one space; a hit too long for the line keeps its first and last words.

    >>> in_context("the principal that ", "issued the JWT.", " The processing", 30)
    ('… that ', 'issued the JWT.', ' The pr…')
    """
    b = (_flat(before) + " ") if before[-1:].isspace() else _flat(before)
    a = (" " + _flat(after)) if after[:1].isspace() else _flat(after)
    if b == " ":
        b = ""
    if a == " ":
        a = ""
    h = _flat(hit)
    if cols(h) > width:
        half = max(1, (width - 1) // 2)
        return "", fit(h, half) + fit(h, width - half, left=True)[1:], ""
    rest = width - cols(h)
    lb = min(cols(b), rest // 2)
    la = min(cols(a), rest - lb)
    lb = min(cols(b), rest - la)
    return fit(b, lb, left=True) if lb else "", h, fit(a, la) if la else ""


def _context_line(r: Result, doc: Document | None, width: int | None, colour: bool) -> str | None:
    """The first match (or the nearest passage) inside its context, on one line."""
    span: tuple[int, int] | None = None
    before = after = ""
    tag = ""
    if r.matches and r.status != "ambiguous":
        m = r.matches[0]
        span, hit = (m.start, m.end), m.text
        if m.selector is not None:
            before, after = m.selector.prefix, m.selector.suffix
    elif isinstance(r.nearest, dict) and isinstance(r.nearest.get("start"), int):
        n_end = r.nearest.get("end")
        span = (r.nearest["start"], n_end if isinstance(n_end, int) else r.nearest["start"])
        hit = str(r.nearest.get("text", ""))
        sim = r.nearest.get("similarity")
        tag = f"nearest {sim:.0%}: " if isinstance(sim, float) else "nearest: "
    else:
        return None
    reach = UNCUT_CONTEXT * 2 if width is None else width
    if doc is not None and 0 <= span[0] <= span[1] <= len(doc.text):
        hit = doc.text[span[0] : span[1]]
        before, after = doc.text[max(0, span[0] - reach) : span[0]], doc.text[span[1] : span[1] + reach]
    room = cols(_flat(hit)) + 2 * UNCUT_CONTEXT if width is None else width - 4 - len(tag) - 2
    left, mid, right = in_context(before, hit, after, room)
    if colour:
        return f"    {tag}{left}\x1b[7m{mid}\x1b[0m{right}"
    return f"    {tag}{left}⟦{mid}⟧{right}"


def table(
    results: Sequence[Result],
    *,
    colour: bool = False,
    width: int | None = 80,
    documents: Mapping[str, Document] | None = None,
    lang: str | None = None,
) -> str:
    """One line per citation (status, id, source, where), its message and the quote in context.

    Every line fits in ``width`` columns (``None``: nothing is cut, see :func:`table_width`); ANSI
    colour only when ``colour`` (see :func:`use_colour`); ``lang`` (pt, es) translates the messages
    and notes.
    """
    lines = [
        line
        for r in results
        for line in table_lines(r, colour=colour, width=width, documents=documents, lang=lang)
    ]
    lines.append(summary_line(results))
    return "\n".join(lines) + "\n"


def _say(message: str, lang: str | None) -> str:
    if not lang or lang == "en":
        return message
    from ipsis.report.messages import translate

    return translate(message, lang)


def table_lines(
    r: Result,
    *,
    colour: bool = False,
    width: int | None = 80,
    documents: Mapping[str, Document] | None = None,
    lang: str | None = None,
) -> list[str]:
    """The table lines of one result (without the summary line)."""
    documents = documents or {}
    lines: list[str] = []
    status = r.status
    where = ""
    if r.matches:
        m = r.matches[0]
        where = f"[{m.start},{m.end})"
        if m.page:
            where += f" p.{m.page}"
        if m.line:
            where += f" l.{m.line}"
        if m.section:
            where += f" {m.section.get('path') or m.section.get('label') or m.section.get('id')}"
        if len(r.matches) > 1:
            where += f" +{len(r.matches) - 1} more"
    cid, sid = str(r.citation_id or "-"), str(r.source_id or "-")
    if width is not None:
        cid, sid = fit(cid, 16), fit(sid, 24)
        where = fit(where, max(0, width - 15 - cols(cid) - 1 - cols(sid) - 1))
    head_rest = f"{cid} {sid} {where}".rstrip()
    shown = f"\x1b[{_COLOURS.get(status, '0')}m{status:<14}\x1b[0m" if colour else f"{status:<14}"
    lines.append(f"{shown} {head_rest}")
    lines.append("    " + _one_line(_say(r.message, lang), _less(width, 4)))
    doc = documents.get(r.source_id) if r.source_id else None
    ctx = _context_line(r, doc, width, colour)
    if ctx is not None:
        lines.append(ctx)
    v = verdict(r)
    if v is not None:
        support = r.extra["support"]
        conf = support.get("confidence")
        judged = f"{v} ({conf:.2f})" if isinstance(conf, (int, float)) else v
        evidence = support.get("evidence")
        if evidence:
            judged += ": " + ("; ".join(map(str, evidence)) if isinstance(evidence, list) else str(evidence))
        lines.append("    judge: " + _one_line(judged, _less(width, 11)))
    for w in r.warnings:
        lines.append("    note: " + _one_line(_say(str(w.get("message", w)), lang), _less(width, 10)))
    if r.quote is not None and isinstance(r.quote, str) and (ctx is None or r.status != "located"):
        lines.append("    " + _one_line(f"“{r.quote}”", _less(width, 4)))
    for f in r.found_elsewhere[:3]:
        sec = f.get("section") or {}
        label = (sec.get("path") or sec.get("label") or sec.get("id") or "") if isinstance(sec, dict) else str(sec)
        at = f" [{f.get('start')},{f.get('end')})" if f.get("start") is not None else ""
        place = f"{f.get('source_id')}{at} {label}".rstrip()
        lines.append("    found elsewhere: " + _one_line(place, _less(width, 21)))
    if len(r.found_elsewhere) > 3:
        lines.append(f"    found elsewhere: +{len(r.found_elsewhere) - 3} more places")
    return lines


def _less(width: int | None, n: int) -> int | None:
    return None if width is None else width - n


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


def render(
    results: Sequence[Result],
    fmt: str,
    *,
    run: dict[str, Any] | None = None,
    colour: bool = False,
    documents: Mapping[str, Document] | None = None,
    lang: str | None = None,
    width: int | None = 80,
) -> str:
    """``results`` in ``fmt`` (one of :data:`FORMATS`); ``documents`` (id -> Document) give context;
    ``lang`` is the html report's language (default: the quotes') and the table's messages';
    ``width``: the table's columns (``None``: nothing is cut)."""
    if fmt == "table":
        return table(results, colour=colour, documents=documents, lang=lang, width=width)
    if fmt == "html":
        from ipsis.report.html import render_html

        return render_html(results, run=run, documents=documents, lang=lang)
    if fmt == "json":
        return to_json(results, run)
    if fmt == "jsonl":
        return to_jsonl(results)
    if fmt == "csv":
        return to_csv(results)
    if fmt == "annotations":
        import io

        from ipsis.formats.annotations import write_annotations

        buf = io.StringIO()
        write_annotations((r.to_json() for r in results), buf, documents, (run or {}).get("run_id"))
        return buf.getvalue()
    msg = f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}"
    raise ValueError(msg)


_encode_line = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode
"""``json.dumps(obj, ensure_ascii=False)`` with one encoder for every line (``dumps`` makes one per call);
no check for circular references: a result is fresh dicts and lists (about 8% of the encoding time)."""


def write_stream(
    results: Iterable[Result],
    fmt: str,
    out: TextIO,
    *,
    run: dict[str, Any] | None = None,
    colour: bool = False,
    documents: Mapping[str, Document] | None = None,
    lang: str | None = None,
    width: int | None = 80,
) -> Counter[str]:
    """Write results as they come (the same text as :func:`render`); return the status counts.

    table, json, jsonl and csv keep only the counts, so memory stays flat however many results
    there are; html is one page and is rendered at the end.
    """
    counts: Counter[str] = Counter()
    verdicts: Counter[str] = Counter()
    if fmt not in FORMATS:
        msg = f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}"
        raise ValueError(msg)
    if fmt == "html":
        kept = list(results)
        out.write(render(kept, fmt, run=run, documents=documents, lang=lang))
        counts.update(r.status for r in kept)
        return counts
    if fmt == "annotations":
        from ipsis.formats.annotations import write_annotations

        def counted() -> Iterator[dict[str, Any]]:
            for r in results:
                counts[r.status] += 1
                yield r.to_json()

        write_annotations(counted(), out, documents, (run or {}).get("run_id"))
        return counts
    writer = csv.writer(out, lineterminator="\n") if fmt == "csv" else None
    if writer is not None:
        writer.writerow(CSV_FIELDS)
    if fmt == "json":
        head = json.dumps({"run": run or {}}, ensure_ascii=False, indent=2)
        out.write(head[: head.rindex("}")].rstrip() + ',\n  "results": [')
    for r in results:
        if fmt == "jsonl":
            out.write(_encode_line(r.to_json()) + "\n")
        elif writer is not None:
            writer.writerow(csv_row(r))
        elif fmt == "json":
            item = json.dumps(r.to_json(), ensure_ascii=False, indent=2).replace("\n", "\n    ")
            out.write(("," if counts else "") + "\n    " + item)
        else:
            out.write("\n".join(table_lines(r, colour=colour, documents=documents, lang=lang, width=width)) + "\n")
        counts[r.status] += 1
        if (v := verdict(r)) is not None:
            verdicts[v] += 1
    if fmt == "json":
        tail = json.dumps({"summary": summary(counts)}, ensure_ascii=False, indent=2)
        out.write(("\n  ]," if counts else "],") + tail[1:] + "\n")
    elif fmt == "table":
        out.write(summary_line(counts, verdicts) + "\n")
    return counts

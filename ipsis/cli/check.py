"""``ipsis check``: an answer from any provider plus the sources it was written from."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path
from typing import Any

import click

from ipsis.answers.check import CheckReport, check_answer
from ipsis.answers.detect import FORMATS
from ipsis.answers.feedback import feedback
from ipsis.answers.sources import load_sources, sources_from_ids
from ipsis.cli._base import error_boundary, looks_like_path, main, stdout_is_tty, to_stdout
from ipsis.cli.core import (
    annotate_option,
    collect_highlights,
    lang_option,
    make_policy,
    policy_options,
    run_info,
    write_highlighted,
)
from ipsis.cli.judging import build_judge, judge_options, pop_judge_options, with_judge
from ipsis.cli.limits import limit_options, pop_limits, watchdog
from ipsis.cli.resolve import open_stored, read_store, store_options
from ipsis.errors import InputError
from ipsis.ingest.folder import skipped_note, source_files
from ipsis.pdfboxes import attach_boxes
from ipsis.report import fit, table_width
from ipsis.report.html import check_report_html

COLUMNS = ("kind", "answer_span", "source", "quote", "message")


def render(report: CheckReport, fmt: str, width: int | None = None, lang: str | None = None) -> str:
    """The report as table, json, jsonl (one finding per line) or csv (one finding per row);
    ``width``: the table's columns (``None``: nothing is cut, see :func:`ipsis.report.table_width`);
    ``lang`` translates the table's messages (the JSON and CSV keep the library's English)."""
    if fmt == "json":
        return json.dumps(report.to_json(), ensure_ascii=False, indent=2) + "\n"
    rows = [f.to_json() for f in report.findings]
    if fmt == "jsonl":
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(COLUMNS)
        for r in rows:
            span = r["answer_span"]
            writer.writerow(
                [
                    r["kind"],
                    "" if span is None else f"{span[0]}-{span[1]}",
                    r["source"] or "",
                    r["quote"] or "",
                    r["message"],
                ]
            )
        return buf.getvalue()
    lines = [f"format: {report.answer.format}{'  (truncated)' if report.answer.truncated else ''}"]
    cited = ", ".join(f"{s.number}{'' if s.number in report.cited else ' (never cited)'}" for s in report.sources)
    lines.append(f"sources: {cited}")
    for r in rows:
        span = r["answer_span"]
        where = "" if span is None else f"[{span[0]}, {span[1]})"
        src = f"source {r['source']}" if r["source"] is not None else ""
        msg = r["message"]
        if lang and lang != "en":
            from ipsis.report.messages import translate

            msg = translate(msg, lang)
        lines.append(f"{r['kind']:<24} {where:<12} {src:<9} {msg}")
    lines.append(f"findings: {len(rows)}" if rows else "clean: every citation checked out")
    return "".join((line if width is None else fit(line, width)) + "\n" for line in lines)


def _sources(sources_path: str, store: Any, user: str | None, limits: Any) -> Any:
    """--sources: a file or folder (read within ``limits``), or with a store a comma-separated
    list of stored ids."""
    path = Path(sources_path)
    if path.is_dir() and (note := skipped_note(path, source_files(path)[1])) is not None:
        click.echo(note, err=True)
    if store is None or path.exists():
        with watchdog(limits.timeout, sources_path):
            return load_sources(path, limits)
    ids = [i.strip() for i in sources_path.split(",") if i.strip()]
    lookup = lambda sid: open_stored(store, sid, user)  # noqa: E731
    if len(ids) == 1 and looks_like_path(ids[0]) and lookup(ids[0]) is None:
        msg = (
            f"{sources_path}: no such file or directory (nor a stored id); pass the sources sent to the model, "
            "or stored ids separated by commas"
        )
        raise InputError(msg)
    return sources_from_ids(ids, lookup)


@main.command("check")
@click.argument("answer", type=click.Path(allow_dash=True, dir_okay=False))
@click.option(
    "--sources",
    "sources_path",
    required=True,
    type=click.Path(),
    help="Sources sent to the model: JSON, XML-tagged, ---/blank-line split text, a directory, "
    "or with --store a comma-separated list of stored ids (in the order sent).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json", "jsonl", "csv", "html"]),
    default="table",
    show_default=True,
    help="html: one self-contained page with the answer and each quote in its source (use with -o).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write the report to this file instead of stdout ('-': stdout).",
)
@click.option(
    "--answer-format",
    type=click.Choice([*FORMATS, "markdown"]),
    default=None,
    help="Override format detection.",
)
@click.option(
    "--feedback",
    "want_feedback",
    is_flag=True,
    help="Print a correction message to send back to the model.",
)
@annotate_option
@lang_option
@policy_options
@judge_options
@store_options
@limit_options
def check_cmd(
    answer: str,
    sources_path: str,
    fmt: str,
    answer_format: str | None,
    want_feedback: bool,
    output: str | None,
    store_dir: str | None,
    user: str | None,
    lang: str | None,
    annotate_to: str | None,
    **opts: Any,
) -> None:
    """Check a whole answer (Ollama, OpenAI, Anthropic, Cohere, Gemini, text or claim JSON).

    With --judge, each located quote's claim (the answer sentence carrying the citation) is
    judged against the section around the quote, and each bare citation ([2] without a quote)
    against the passage of the cited source that best matches the claim (BM25); a verdict other
    than supported is a claim_contradicted, claim_unsupported or claim_needs_review finding.

    Exit 0 when the answer is clean, 1 when anything needs review, 2 for unreadable input.

    \b
    Examples:
      ipsis check examples/answers/ollama-chat-pt.json --sources examples/sources/norms --format json
      ipsis check examples/answers/ollama-chat-pt.json --sources examples/sources/norms --feedback
      ipsis check examples/answers/ollama-chat-pt.json --sources examples/sources/norms --judge cues
      ipsis check examples/answers/ollama-chat-pt.json --sources lei-4210,reglamento-archivo --store examples/demo-store
      ipsis check answer.json --sources sources.json --format html -o report.html
      ipsis check resposta.txt --sources fontes.json --judge cues --format html --lang pt -o relatorio.html
    """
    output = to_stdout(output)
    with error_boundary(), read_store(store_dir, user) as store:
        limits = pop_limits(opts)
        jopts = pop_judge_options(opts)
        policy = with_judge(make_policy(**opts), jopts)
        judge = build_judge(jopts)
        sources = _sources(sources_path, store, user, limits)
        cap = limits.max_input_bytes
        if answer == "-":
            data, name = sys.stdin.buffer.read(cap + 1 if cap else -1), "stdin"
        else:
            with open(answer, "rb") as fh:
                data, name = fh.read(cap + 1 if cap else -1), answer
        limits.check_size(len(data), name)
        window = jopts["judge_window"]
        # the watchdog that stops a document read stops a hostile answer too (exit 2, not a hang)
        with watchdog(limits.timeout, name):
            report = check_answer(
                data, sources, policy=policy, answer_format=answer_format, name=name, judge=judge, window=window
            )
        # boxes on the PDF page for every place in a PDF source (ipsis.pdfboxes), and --annotate
        documents = {s.id: s.document for s in report.sources}
        highlights: dict[str, list[Any]] = {}
        found = (c.result for c in report.checked if c.result is not None)
        for _ in collect_highlights(attach_boxes(found, documents, store, user), highlights):
            pass
        if annotate_to:
            write_highlighted(annotate_to, highlights, documents, store)
    if want_feedback:
        click.echo(feedback(report) or "", nl=bool(report.findings))
    else:
        width = table_width(stdout_is_tty() and output is None)
        html = fmt == "html"
        out = check_report_html(report, run=run_info(policy), lang=lang) if html else render(report, fmt, width, lang)
        if output is None:
            click.echo(out, nl=False)
        else:
            with error_boundary(), open(output, "w", encoding="utf-8", newline="") as fh:
                fh.write(out)
            click.echo(f"findings: {len(report.findings)}; wrote {output}", err=True)
    sys.exit(0 if report.clean else 1)

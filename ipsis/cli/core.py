"""``ipsis text``, ``locate``, ``describe`` and ``verify``: thin shells over the library."""

from __future__ import annotations

import atexit
import gc
import json
import os
import sys
from collections import ChainMap, Counter
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import tee
from pathlib import Path
from typing import Any, BinaryIO

import click

from ipsis import __version__
from ipsis.cli._base import error_boundary, looks_like_path, main, stdout_is_tty, to_stdout
from ipsis.cli.judging import build_judge, judge_options, needs_review, pop_judge_options, with_judge
from ipsis.cli.limits import limit_options, pop_limits
from ipsis.cli.progress import pdf_progress
from ipsis.cli.resolve import Dated, SourceMap, ocr_reader, open_source, read_store, reader_options, store_options
from ipsis.errors import InputError
from ipsis.ingest.normalize import TIERS
from ipsis.ingest.tesseract import MODES as OCR_MODES
from ipsis.ingest.tesseract import OcrOptions
from ipsis.judge.records import CitedSources, iter_finish_records
from ipsis.pdfboxes import attach_boxes
from ipsis.report import render, summary_line, table_width, use_colour, verdict, write_stream
from ipsis.store.runs import RunStream, write_manifest
from ipsis.verify import Policy, describe, locate
from ipsis.verify.records import iter_records, lone_surrogate
from ipsis.verify.result import LOCATED, RETRIEVED, UNKNOWN_SOURCE, Result

LANG_HELP = (
    "Language of the report and its messages: en, pt or es (html, and the table's messages)."
    " Default: the quotes' (answer's) language for html, English for the table. JSON stays English."
)
lang_option = click.option("--lang", type=click.Choice(["en", "pt", "es"]), default=None, help=LANG_HELP)
annotate_option = click.option(
    "--annotate",
    "annotate_to",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write a copy of the cited PDF with a highlight (coloured by status, the message as its note)"
    " over every place found; several PDFs: one file each, named OUT-ID.pdf.",
)


def policy_options(f: Any) -> Any:
    """The policy options shared by locate and verify."""
    f = click.option(
        "--max-tier",
        type=click.Choice(TIERS),
        default="typography",
        show_default=True,
        help="Last normalization tier accepted.",
    )(f)
    f = click.option(
        "--min-length",
        type=click.IntRange(0),
        default=15,
        show_default=True,
        help="Minimum quote length after normalization (0 disables).",
    )(f)
    f = click.option(
        "--no-boundaries", is_flag=True, help="Plain substring matching (W3C): matches may start or end inside a word."
    )(f)
    f = click.option(
        "--position-breaks-ties", is_flag=True, help="Let a position hint choose between equal candidates."
    )(f)
    f = click.option(
        "--max-error-rate",
        type=click.FloatRange(0, 1, max_open=True),
        default=None,
        help="Edit budget (edits per character) of the nearest-passage search that explains a not_found"
        " [default: 0.2, less for quotes under 60 characters]; given, it is the budget at every length;"
        " 0 disables it. A near miss is never located.",
    )(f)
    f = click.option(
        "--elision-max-gap",
        type=click.IntRange(0),
        default=1500,
        show_default=True,
        help="Most characters an inner ellipsis ('...', '[...]') may stand for between two fragments.",
    )(f)
    f = click.option(
        "--no-ocr-noise",
        is_flag=True,
        help="Do not accept OCR noise (specks, accents, joined words, glyph confusions) on OCR text pages.",
    )(f)
    return f


def make_policy(
    max_tier: str,
    min_length: int,
    no_boundaries: bool,
    position_breaks_ties: bool,
    max_error_rate: float | None = None,
    elision_max_gap: int = 1500,
    no_ocr_noise: bool = False,
) -> Policy:
    return Policy(
        ocr_noise=not no_ocr_noise,
        max_tier=max_tier,
        min_length=min_length,
        boundaries=not no_boundaries,
        position_breaks_ties=position_breaks_ties,
        max_error_rate=max_error_rate,
        elision_max_gap=elision_max_gap,
    )


def run_info(policy: Policy) -> dict[str, Any]:
    return {"ipsis_version": __version__, "policy": policy.to_json(), "policy_fingerprint": policy.fingerprint()}


def exit_for(results: list[Result]) -> int:
    """0 when every citation is located (or, without a quote, retrieved), 1 otherwise (an empty input is 1)."""
    return 0 if results and all(r.status in (LOCATED, RETRIEVED) for r in results) else 1


@main.command("locate")
@click.argument("source")
@click.argument("quote")
@click.option("--prefix", default=None, help="Text right before the quote (W3C TextQuoteSelector).")
@click.option("--suffix", default=None, help="Text right after the quote.")
@click.option("--position", type=int, default=None, help="Expected start offset (a hint).")
@click.option("--section", default=None, help='The cited section ("art. 5º, § 1º, II", "Section 4.1.2").')
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json", "jsonl", "csv", "annotations"]),
    default="table",
    show_default=True,
    help="annotations: a W3C Web Annotation (JSON-LD) for the result.",
)
@policy_options
@reader_options
@store_options
@limit_options
def locate_cmd(
    source: str,
    quote: str,
    prefix: str | None,
    suffix: str | None,
    position: int | None,
    section: str | None,
    fmt: str,
    engine: str,
    password: str | None,
    position_furniture: bool,
    encoding: str | None,
    ocr_mode: str,
    ocr_lang: str | None,
    store_dir: str | None,
    user: str | None,
    **opts: Any,
) -> None:
    """Find QUOTE in SOURCE (a stored id or a file) and say where, with the W3C selector.

    QUOTE "-" reads the quote from stdin. Exit code 0 when located, 1 otherwise.

    \b
    Examples:
      ipsis locate examples/sources/draft-example-quote-anchors-00.txt 'The “exact” member is the quoted text'
      ipsis locate lei-4210 'relacionados a processo judicial' --section 'art. 4º, II' --store examples/demo-store
    """
    reader = {"engine": engine, "password": password, "position_furniture": position_furniture, "encoding": encoding}
    reader = ocr_reader({**reader, "ocr_mode": ocr_mode, "ocr_lang": ocr_lang})
    with error_boundary(), pdf_progress() as progress, read_store(store_dir, user) as store:
        limits = pop_limits(opts)
        policy = make_policy(**opts)
        if quote == "-":
            quote = sys.stdin.read()
        check_quote_args(limits, quote=quote, prefix=prefix, suffix=suffix)
        doc = open_source(source, store, user, progress=progress, limits=limits, **reader)
        result = locate(doc, quote, prefix=prefix, suffix=suffix, position=position, section=section, policy=policy)
        (result,) = attach_boxes([result], {str(result.source_id): doc}, store, user)
    if fmt == "json":
        click.echo(
            json.dumps({**result.to_json(), "policy_fingerprint": policy.fingerprint()}, ensure_ascii=False, indent=2)
        )
    elif fmt == "annotations":
        from ipsis.formats.annotations import write_annotations

        write_annotations([result.to_json()], sys.stdout, {str(result.source_id): doc})
    else:
        tty = stdout_is_tty()
        click.echo(render([result], fmt, colour=use_colour(tty), width=table_width(tty)), nl=False)
    sys.exit(exit_for([result]))


def check_quote_args(limits: Any, **values: str | None) -> None:
    """A quote, prefix or suffix given on the command line: within the length limit and text."""
    for what, value in values.items():
        label = "the quote" if what == "quote" else f"--{what}"
        problem = limits.quote_problem(value, label) if value else None
        if problem is None and value and lone_surrogate(value) is not None:
            problem = f"{label} is not valid text (undecodable bytes); pass UTF-8"
        if problem:
            raise InputError(problem)


@main.command("describe")
@click.argument("source")
@click.argument("start", type=int)
@click.argument("end", type=int)
@click.option("--max-tier", type=click.Choice(TIERS), default="typography", show_default=True)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["json", "annotations"]),
    default="json",
    show_default=True,
    help="annotations: the range as a W3C Web Annotation (JSON-LD) with quote, position and page selectors.",
)
@reader_options
@store_options
def describe_cmd(
    source: str, start: int, end: int, max_tier: str, fmt: str, store_dir: str | None, user: str | None, **reader: Any
) -> None:
    """Print the minimal unique TextQuoteSelector for the range [START, END) of SOURCE.

    \b
    Example:
      ipsis describe examples/sources/norms/lei-municipal-4210-2024.txt 350 360
    """
    with error_boundary(), pdf_progress() as progress, read_store(store_dir, user) as store:
        doc = open_source(source, store, user, progress=progress, **ocr_reader(reader))
        try:
            out = describe(doc, start, end, Policy(max_tier=max_tier))
        except InputError as exc:
            msg = f"{source}: {exc}"
            raise InputError(msg) from None
    if fmt == "annotations":
        from ipsis.formats.annotations import write_annotations

        match = {"start": start, "end": end, "text": doc.text[start:end], "selector": out["selector"],
                 "page": doc.page_of(start)}  # fmt: skip
        record = {"source_id": doc.id, "status": "described", "message": out.get("message"), "matches": [match]}
        write_annotations([record], sys.stdout, {doc.id: doc})
        return
    click.echo(json.dumps(out, ensure_ascii=False, indent=2))


@main.command("verify")
@click.argument("records", nargs=-1, required=True, type=click.Path(allow_dash=True, dir_okay=False))
@click.option(
    "--source", "source_pairs", multiple=True, metavar="ID=PATH", help="Map a source id to a file (repeatable)."
)
@click.option(
    "--sources",
    "sources_map",
    type=click.Path(dir_okay=False),
    default=None,
    help='JSON object mapping ids to a path or {"text": ...}.',
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json", "jsonl", "csv", "html", "annotations"]),
    default="table",
    show_default=True,
    help="html: one self-contained page showing each quote inside its source (use with -o);"
    " annotations: one W3C Web Annotation (JSON-LD) per result.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write the report to this file ('-': stdout); the summary line goes to stderr.",
)
@click.option(
    "--repo",
    type=click.Path(file_okay=False, exists=True),
    default=None,
    help="Local git repository for source ids like path#L10-L20 or .../blob/<commit>/path#L10-L20.",
)
@click.option(
    "--wiki",
    type=click.Path(file_okay=False, exists=True),
    default=None,
    help="Wiki export folder for source ids like ^[slug.md] (the one file named slug plus a suffix).",
)
@click.option(
    "--log",
    "log_file",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write the run manifest (version, policy, user, time, sources with their hashes) to this JSON file.",
)
@click.option(
    "--encoding",
    default=None,
    metavar="CODEC",
    help="Decode the text, RFC, HTML and XML files given by --source/--sources with this encoding.",
)
@click.option(
    "--engine",
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="dask: partition by source on a Dask cluster; RECORDS may be many files or a glob; -o names a folder.",
)
@click.option(
    "--ocr",
    "ocr_mode",
    type=click.Choice(OCR_MODES),
    default="auto",
    show_default=True,
    help="OCR of the PDF sources' pages with Tesseract: auto = pages without a usable text layer.",
)
@click.option("--ocr-lang", default=None, metavar="LANGS", help="Tesseract languages for OCR (por, spa+eng).")
@click.option("--scheduler", default=None, metavar="ADDRESS", help="Dask scheduler (default: a local cluster).")
@click.option("--workers", type=click.IntRange(1), default=None, help="Local cluster worker processes (default: CPUs).")
@annotate_option
@click.option(
    "--carry-to",
    "carry_to",
    default=None,
    metavar="latest|ID",
    help="Re-anchor each located citation in another version (latest stored, or ID, ID@DATE):"
    " unchanged, amended, revoked, moved or gone (\"carried\" in the JSON).",
)
@lang_option
@policy_options
@judge_options
@store_options
@limit_options
def verify_cmd(
    records: tuple[str, ...],
    source_pairs: tuple[str, ...],
    sources_map: str | None,
    fmt: str,
    output: str | None,
    repo: str | None,
    wiki: str | None,
    log_file: str | None,
    engine: str,
    scheduler: str | None,
    workers: int | None,
    carry_to: str | None,
    annotate_to: str | None,
    store_dir: str | None,
    user: str | None,
    encoding: str | None,
    ocr_mode: str,
    ocr_lang: str | None,
    lang: str | None,
    **opts: Any,
) -> None:
    """Verify citation records (JSON array or JSONL; "-" for stdin).

    Each record is {citation_id, source_id, quote, prefix?, suffix?, section?, claim?}. A
    source_id is looked up in the store first (exactly that version), then in --source/--sources,
    then as a line-range citation (path#L10-L20, .../blob/<commit>/path#L10-L20; --repo) or a
    wiki citation (^[slug.md]; --wiki). A not_found quote is looked up in the other stored
    sources (found_elsewhere). With --judge, each located record's claim is judged against the
    section around its quote ("support" in the JSON), and a record with a claim but no quote is
    "retrieved": judged against the passage of its source (or section, or cited lines) that best
    matches the claim. Prints one result per record and a summary line located=N/M; each run is
    recorded in the store. Exit 0 when every record is located or retrieved (and every judged
    claim supported), 1 otherwise (an empty input too), 2 for bad usage or unreadable input.
    JSONL is read and results are written one at a time (memory stays flat; html is one page);
    a bad line stops the run with exit 2 after the results before it.

    \b
    Examples:
      ipsis verify examples/records.jsonl --sources examples/sources.json
      ipsis verify examples/records.jsonl --sources examples/sources.json --format html -o report.html
      ipsis verify examples/main-job.jsonl --store examples/demo-store --log run.json
      ipsis verify registros.jsonl --sources fontes.json --format html --lang pt -o relatorio.html
      ipsis verify kb-claims.jsonl --repo ../kb --wiki ../kb/wiki --judge cues --format json
      ipsis verify 'logs/*.jsonl' --engine dask --store .ipsis -o audit/
    """
    output = to_stdout(output)
    with imports_frozen(), error_boundary():
        limits = pop_limits(opts)
        jopts = pop_judge_options(opts)
        policy = with_judge(make_policy(**opts), jopts)
        sources = SourceMap(limits, encoding=encoding, ocr=OcrOptions(mode=ocr_mode, lang=ocr_lang))
        sources.add_pairs(source_pairs)
        if sources_map:
            sources.add_map_file(sources_map)
        if engine == "dask":
            if carry_to:
                msg = "--carry-to runs in one process; leave out --engine dask"
                raise InputError(msg)
            from ipsis.cli.batch import verify_on_dask

            verify_on_dask(records, output, log_file, fmt, jopts, policy, sources, store_dir, user, scheduler, workers)
        if len(records) != 1:
            msg = f"{len(records)} RECORDS inputs given; one process reads one (or use --engine dask for many)"
            raise InputError(msg)
        tty = stdout_is_tty() and output is None
        colour, width = use_colour(tty), table_width(tty)
        cited = CitedSources(sources.get, repo, wiki)
        judge = build_judge(jopts)
        with open_records(records[0]) as (stream, name), read_store(store_dir, user) as store:
            # the records are read once; the finishing step (citation findings, the judge) reads
            # each record in step with its result
            parsed, for_finish = tee(iter_records(stream, name, limits))
            dated = Dated(cited, store, user)
            run = RunStream(parsed, store, user=user, policy=policy, fallback=dated, records_name=name, limits=limits)
            cited.known, cited.stored = run.documents, run.verifier.stored_document
            review: list[Result] = []
            verdicts: Counter[str] = Counter()
            finished = iter_finish_records(for_finish, iter(run), cited, policy, judge, jopts["judge_window"])
            if carry_to:
                from ipsis.cli.history import carry_results  # the history modules only with --carry-to

                finished = carry_results(finished, carry_to, run.documents, dated, store, user, policy)
            finished = attach_boxes(finished, run.documents, store, user)
            highlights: dict[str, list[Any]] = {}
            if annotate_to:
                finished = collect_highlights(finished, highlights)
            results = _watch(finished, review, verdicts)
            info = {**run_info(policy), "run_id": run.id, "user": user, "store": store.location if store else None}
            documents = ChainMap(run.documents, cited.documents)
            with open_output(output) as out:
                counts = write_stream(
                    results, fmt, out, run=info, colour=colour, documents=documents, lang=lang, width=width
                )
            manifest = run.finish()
            if annotate_to:
                write_highlighted(annotate_to, highlights, run.documents, store)
        if log_file:
            write_manifest(log_file, manifest)
    if manifest["store"]:
        click.echo(f"run {run.id} recorded in {manifest['store']}", err=True)
    if fmt == "jsonl" or output is not None:
        click.echo(summary_line(counts, verdicts) + (f"; wrote {output}" if output else ""), err=True)
    total = sum(counts.values())
    passed = total > 0 and counts[LOCATED] + counts[RETRIEVED] == total
    sys.exit(0 if passed and not review else 1)


@contextmanager
def imports_frozen() -> Iterator[None]:
    """The objects alive when a run starts (the modules, classes and functions imported, the
    options) kept out of the garbage collector's generations for the run (``gc.freeze``): its
    collections no longer walk them. Given back after the run (``gc.unfreeze``), so that a
    process that runs many commands (the tests' CliRunner) collects as before; and everything
    alive at the process's exit is frozen then (``atexit``), so that the collections of the
    interpreter's teardown skip it too. A store-backed run of 1,000 quotes: ~5% of its CPU time
    (~25 ms), most of it at exit."""
    if not _EXIT_FREEZE:
        atexit.register(gc.freeze)
        _EXIT_FREEZE.append(True)
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


_EXIT_FREEZE: list[bool] = []


def collect_highlights(results: Iterator[Result], into: dict[str, list[Any]]) -> Iterator[Result]:
    """Pass results through, keeping each PDF place's highlight (``--annotate``) by source id."""
    from ipsis.pdfannotate import highlight_items

    for r in results:
        for item in highlight_items(r):
            into.setdefault(str(r.source_id), []).append(item)
        yield r


def write_highlighted(out: str, highlights: dict[str, list[Any]], documents: Any, store: Any) -> None:
    """One highlighted copy per cited PDF (``OUT`` itself when there is one)."""
    from ipsis.pdfannotate import annotate_pdf
    from ipsis.pdfboxes import pdf_bytes

    found = {sid: pdf_bytes(documents[sid], store) for sid in highlights if sid in documents}
    pdfs = {sid: data for sid, data in found.items() if data}
    if not pdfs:
        click.echo("--annotate: no cited PDF had a place to highlight; nothing written", err=True)
        return
    base = Path(out)
    for sid, data in pdfs.items():
        target = base if len(pdfs) == 1 else base.with_name(f"{base.stem}-{sid}{base.suffix or '.pdf'}")
        target.write_bytes(annotate_pdf(data, highlights[sid]))
        click.echo(f"wrote {target} ({len(highlights[sid])} highlights)", err=True)


def _watch(results: Iterator[Result], review: list[Result], verdicts: Counter[str]) -> Iterator[Result]:
    """Pass results through, keeping (only) those whose judged claim needs review, and counting
    the judge's verdicts."""
    for r in results:
        sid = r.source_id
        # a file path as the id (a line-range or wiki citation goes to --repo, --wiki)
        if r.status == UNKNOWN_SOURCE and isinstance(sid, str) and looks_like_path(sid) and "#" not in sid:
            r.message += "; a source_id is an id, not a path: map it to the file with --source ID=PATH"
        if needs_review([r]) or ("carried" in r.extra and _carry_needs_review(r)):
            review.append(r)
        if (v := verdict(r)) is not None:
            verdicts[v] += 1
        yield r


def _carry_needs_review(r: Result) -> bool:
    from ipsis.cli.history import carry_needs_review

    return carry_needs_review([r])


@contextmanager
def open_records(records: str) -> Iterator[tuple[BinaryIO, str]]:
    if records == "-":
        yield sys.stdin.buffer, "stdin"
        return
    with open(records, "rb") as fh:
        yield fh, records


@contextmanager
def open_output(output: str | None) -> Iterator[Any]:
    """The report's destination: the file given (written as it goes) or stdout; a closed pipe
    (``ipsis verify ... | head``) ends the run quietly."""
    if output is not None:
        with open(output, "w", encoding="utf-8", newline="") as fh:
            yield fh
        return
    try:
        yield sys.stdout
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)

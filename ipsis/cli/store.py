"""``ipsis ingest``, ``ipsis sources`` and ``ipsis store check``: thin shells over ipsis.store."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from ipsis.cli._base import UsageFailure, error_boundary, main
from ipsis.cli.limits import limit_options, pop_limits, watchdog
from ipsis.cli.progress import pdf_progress
from ipsis.cli.resolve import check_user, ocr_reader, read_store, reader_options, store_options
from ipsis.errors import InputError, IpsisError, StoreError
from ipsis.ingest.folder import SOURCE_SUFFIXES, skipped_note, source_files
from ipsis.store import SourceVersion, open_store, parse_when


def _expand(paths: tuple[str, ...]) -> list[Path]:
    files: list[Path] = []
    for arg in paths:
        p = Path(arg)
        if p.is_dir():
            found, skipped = source_files(p)
            if (note := skipped_note(p, skipped)) is not None:
                click.echo(note, err=True)
            if not found:
                msg = f"{p}: no supported files in it ({', '.join(SOURCE_SUFFIXES)})"
                raise InputError(msg)
            files.extend(found)
        elif p.is_file():
            files.append(p)
        else:
            msg = f"{p}: no such file or directory; pass files or folders to ingest"
            raise InputError(msg)
    return files


def _plan(files: list[Path], source_id: str | None) -> list[tuple[Path, str]]:
    if source_id is not None and len(files) != 1:
        msg = (
            f"--id names one source but {len(files)} files were given; drop --id to name each by its "
            "file name (the --version applies to all)"
        )
        raise InputError(msg)
    plan = [(f, source_id or f.stem) for f in files]
    seen: dict[str, Path] = {}
    for f, sid in plan:
        if sid in seen:
            msg = f"{seen[sid]} and {f} would both get the id {sid!r}; ingest one of them with --id"
            raise InputError(msg)
        seen[sid] = f
    return plan


@main.command("ingest")
@click.argument("paths", nargs=-1, required=True)
@click.option("--id", "source_id", default=None, help="Source id, may carry its version: returns-v1, lgpd@2019-07-08.")
@click.option("--version", "version", default=None, help="Version (v2, 2019-07-08); joins the id as NAME-vN or NAME@V.")
@click.option("--origin", default=None, metavar="URL", help="Where the bytes came from.")
@click.option("--retrieved", default=None, metavar="DATE", help="Retrieval date, ISO 8601 (default: now, UTC).")
@click.option("--reader", "readers", multiple=True, metavar="USER", help="A user who may read it (default everyone).")
@click.option(
    "--work",
    default=None,
    metavar="URN_OR_ELI",
    help="The work identifier: a LexML URN (urn:lex:br:federal:lei:2018-08-14;13709) or an ELI; each located"
    " quote then names its section by it. Default: the one the document states, if any.",
)
@reader_options
@limit_options
@store_options
def ingest_cmd(
    paths: tuple[str, ...],
    source_id: str | None,
    version: str | None,
    origin: str | None,
    retrieved: str | None,
    readers: tuple[str, ...],
    work: str | None,
    store_dir: str | None,
    user: str | None,
    **read_options: Any,
) -> None:
    """Store source files as versions: original bytes, SHA-256, text, pages, sections, readers.

    Each file becomes one version; without --id, its id is the file name without extension.
    A directory ingests every supported file in it. Identical bytes under an existing id are
    a no-op; different bytes are refused (a stored version never changes): give a new
    --version. The store is created when missing (.ipsis/ here, or --store DIR). Ingest is
    run by the store's owner, so it refuses --user/IPSIS_USER. Each file is read under the
    limits (--timeout with a hard watchdog, --max-input-mb, --max-pages, --max-text-ratio) as
    'ipsis text' reads it.

    \b
    Examples:
      ipsis ingest examples/sources/norms/lei-municipal-4210-2024.txt --id lei-4210 --origin https://example.org/lei-4210
      ipsis ingest examples/sources/returns-policy-v2.md --id returns --version v2 --reader alice --reader bob
      ipsis ingest examples/sources/      # every supported file; ids from the file names
    """
    limits = pop_limits(read_options)
    read_options["limits"] = limits
    with error_boundary():
        if user is not None:
            msg = (
                f"ipsis ingest writes the store as its owner and cannot run restricted to a user "
                f"(--user/IPSIS_USER is {user!r}); unset it, and name readers with --reader"
            )
            raise InputError(msg)
        when = parse_when(retrieved) if retrieved else None
        if work:
            from ipsis.formats.ids import scheme_of

            scheme_of(work)  # a clear error before anything is read
        plan = _plan(_expand(paths), source_id)
        store = open_store(store_dir or None, create=True)
        if store is None:  # pragma: no cover - create=True always opens
            msg = "the store could not be created"
            raise StoreError(msg)
    failures = stored = 0
    outcomes: list[str] = []
    ocr_reader(read_options)
    with store, pdf_progress() as page_bar:
        show_bar = len(plan) > 1 and sys.stderr.isatty()
        if not show_bar:  # one file: a bar over the pages of a long PDF (on a terminal)
            read_options["progress"] = page_bar
        with (
            click.progressbar(plan, label="ingesting", file=sys.stderr, item_show_func=lambda i: i[1] if i else None)
            if show_bar
            else _nullbar(plan) as items
        ):
            for path, sid in items:
                try:
                    with watchdog(limits.timeout, str(path)):  # a parser stuck past --timeout ends the run
                        out = store.ingest(
                            path.read_bytes(),
                            sid,
                            version,
                            filename=str(path),
                            origin=origin,
                            retrieved_at=when,
                            readers=readers,
                            read_options=read_options,
                            work=work,
                        )
                    outcomes.append(out.message)
                    stored += out.status == "stored"
                except (IpsisError, OSError, UnicodeDecodeError) as exc:
                    failures += 1
                    detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
                    outcomes.append(f"ipsis: error: {path}: {detail}")
        if stored > 1:  # a bulk ingest: its index merged into one part (~1% of the ingest's time)
            store.compact_index()
    for line in outcomes:
        click.echo(line, err=line.startswith("ipsis: error:"))
    if failures:
        if len(plan) == 1:
            sys.exit(2)
        msg = f"{failures} of {len(plan)} files were not ingested (see above)"
        raise UsageFailure(msg)


class _nullbar:  # noqa: N801 - a stand-in for click.progressbar
    def __init__(self, items: list[tuple[Path, str]]) -> None:
        self.items = items

    def __enter__(self) -> list[tuple[Path, str]]:
        return self.items

    def __exit__(self, *exc: object) -> None:
        return None


def _table(rows: list[SourceVersion]) -> str:
    head = ("ID", "VERSION", "SHA256", "RETRIEVED", "BYTES", "PAGES", "SECTIONS", "TYPE")
    body = [
        (
            v.id,
            v.version or "-",
            v.sha256[:12],
            v.retrieved_at[:10],
            f"{v.size:,}",
            str(v.page_count or "-"),
            "-" if v.section_count is None else str(v.section_count),
            v.media_type or "-",
        )
        for v in rows
    ]
    widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in [head, *body]]
    return "\n".join(lines)


@main.command("sources")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@store_options
def sources_cmd(fmt: str, store_dir: str | None, user: str | None) -> None:
    """List the stored source versions you may read: ids, versions, hashes, dates, sizes, pages, sections.

    \b
    Example:
      ipsis sources --store examples/demo-store --format json
    """
    with error_boundary(), read_store(store_dir, user) as store:
        if store is None:
            msg = "no ipsis store here (.ipsis/); ingest a file first or pass --store DIR"
            raise StoreError(msg)
        rows = store.versions(user)
    if fmt == "json":
        click.echo(json.dumps([v.to_json() for v in rows], ensure_ascii=False, indent=2))
    elif rows:
        click.echo(_table(rows))
    else:
        click.echo("(no sources)")


@main.group("store")
def store_group() -> None:
    """Maintain the store folder.

    \b
    Example:
      ipsis store check --store examples/demo-store
    """


@store_group.command("check")
@store_options
def check_cmd(store_dir: str | None, user: str | None) -> None:
    """Verify every stored file against its SHA-256, the database and the index.

    Prints each problem (which version, which file, what is wrong); exit 1 when there is one.
    Warns (on stderr) when group or other users may read the store's files.

    \b
    Example:
      ipsis store check --store examples/demo-store
    """
    with error_boundary():
        check_user(user)
        with _existing_store(store_dir) as store:
            report = store.check(user)
    for note in report.notes:
        click.echo(f"note: {note}")
    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)
    for problem in report.problems:
        click.echo(f"problem: {problem}")
    if report.ok:
        click.echo(f"ok: {report.checked} source versions checked")
    else:
        click.echo(f"{len(report.problems)} problem(s) in {report.checked} source versions checked")
        sys.exit(1)


def _existing_store(store_dir: str | None) -> Any:
    """The store at ``store_dir`` (or found from here), or StoreError when there is none."""
    store = open_store(store_dir)
    if store is None:
        msg = "no ipsis store here (.ipsis/); pass --store DIR"
        raise StoreError(msg)
    return store


@store_group.command("derive")
@store_options
def derive_cmd(store_dir: str | None, user: str | None) -> None:
    """Compute and store the derived data versions lack (boxes of PDF pages, typography views).

    A version stored by an older ipsis, or whose derived rows `ipsis store check` calls stale or
    damaged, gets them from its original bytes; runs then read them instead of the PDF.

    \b
    Example:
      ipsis store derive --store examples/demo-store
    """
    with error_boundary():
        check_user(user)
        with _existing_store(store_dir) as store:
            done = store.derive(user)
            store.compact_index()
    for sid, kinds in done:
        click.echo(f"stored {', '.join(kinds)} of {sid}")
    click.echo(f"ok: {len(done)} source versions given derived data")


@store_group.command("migrate")
@click.option("--from", "source", required=True, metavar="DIR|URL", help="The store to copy (a folder or a URL).")
@click.option("--to", "target", required=True, metavar="URL|DIR", help="Where to copy it (created when missing).")
def migrate_cmd(source: str, target: str) -> None:
    """Copy a store (versions, bytes, readers, run records) and verify every hash in the copy.

    Typically from the embedded folder to a PostgreSQL store shared by several replicas.
    Copying again only adds what is new. Exit 1 when a copied hash does not match.

    \b
    Example:
      ipsis store migrate --from .ipsis --to postgresql://ipsis@db.internal/ipsis
    """
    from ipsis.store.copy import copy_store

    with error_boundary():
        report = copy_store(source, target)
    for problem in report.problems:
        click.echo(f"problem: {problem}")
    click.echo(
        f"{'ok' if report.ok else 'FAILED'}: {report.copied} versions copied, {report.unchanged} already there, "
        f"{report.runs} run records copied; {report.verified} verified by SHA-256"
    )
    if not report.ok:
        sys.exit(1)

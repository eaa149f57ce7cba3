"""``ipsis diff``, ``ipsis store affected`` and ``verify --carry-to``: citations across versions."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

import click

from ipsis.cli._base import error_boundary, main
from ipsis.cli.resolve import Dated, open_source, read_store, store_options
from ipsis.cli.store import store_group
from ipsis.document import Document
from ipsis.errors import InputError
from ipsis.history.carry import carry, describe_carry
from ipsis.history.diff import AMENDED, UNCHANGED, DocumentDiff, diff_documents
from ipsis.history.render import render_diff_html
from ipsis.sections import segment
from ipsis.verify import Policy
from ipsis.verify.result import LOCATED, Result

if TYPE_CHECKING:
    from ipsis.store import Store

def carry_results(
    results: Iterator[Result],
    target: str,
    documents: Mapping[str, Document],
    resolve: Dated,
    store: Store | None,
    user: str | None,
    policy: Policy,
) -> Iterator[Result]:
    """Each located result re-anchored in ``target`` (``latest`` or a source id): ``carried`` in
    the JSON, a line in the message; a result that cannot be carried gets a ``not_carried`` warning."""
    for r in results:
        if r.status == LOCATED and r.matches and r.source_id and r.source_id in documents:
            doc = documents[r.source_id]
            to_id, why = _target_id(r.source_id, target, resolve, store, user)
            to = _document(to_id, resolve, store, user) if to_id else None
            if to is None:
                r.warnings.append({"kind": "not_carried", "message": why or f"{to_id} is not a source here"})
            else:
                m = r.matches[0]
                c = carry(doc, m.start, m.end, to, policy)
                r.extra["carried"] = c
                r.message += f"; carried: {describe_carry(c)}"
        yield r


def _document(sid: str, resolve: Dated, store: Store | None, user: str | None) -> Document | None:
    doc = store.document(sid, user) if store is not None else None
    if doc is not None:
        if doc.sections is None:
            segment(doc)
        return doc
    return resolve(sid)


def _family(sid: str, store: Store | None, user: str | None, resolve: Dated) -> str:
    if sid in resolve.bases:
        return resolve.bases[sid]
    sv = store.get(sid, user) if store is not None else None
    return sv.name if sv is not None else sid.split("@", 1)[0]


def _target_id(sid: str, target: str, resolve: Dated, store: Store | None, user: str | None) -> tuple[str | None, str]:
    if target != "latest":
        if _family(target, store, user, resolve) != _family(sid, store, user, resolve):
            return None, f"--carry-to {target} is another source than {sid}"
        return target, ""
    if sid in resolve.bases:  # a dated wording: the latest is the whole document's text
        return resolve.bases[sid], ""
    sv = store.get(sid, user) if store is not None else None
    if sv is None:
        return None, f"{sid} has no stored versions to carry it to (ingest them, or use --carry-to ID)"
    family = store.family(sv.name, user) if store is not None else []
    return (family[-1].id if family else sid), ""


def carry_needs_review(results: list[Result]) -> bool:
    """Whether any carried citation is no longer as quoted (exit 1)."""
    return any((r.extra.get("carried") or {}).get("status", UNCHANGED) != UNCHANGED for r in results)


# -- ipsis diff ------------------------------------------------------------------------------
@main.command("diff")
@click.argument("older")
@click.argument("newer")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "html"]), default="table", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None, help="Write to FILE.")
@click.option("--all", "show_all", is_flag=True, help="table: list unchanged sections too.")
@store_options
def diff_cmd(older: str, newer: str, fmt: str, output: str | None, show_all: bool, store_dir: str | None,
             user: str | None) -> None:  # fmt: skip
    """The sections added, removed, revoked, amended and moved between two versions.

    OLDER and NEWER are stored ids or files; ID@YYYY-MM-DD is the wording of a multi-version
    source (BOE consolidated XML) on that day. Sections are aligned by id, then renumbered ones
    by text; notes and struck wordings are not compared. Exit 0.

    \b
    \b
    Examples:
      ipsis diff cf88@1988-10-05 cf88@2020-08-26 --store .ipsis
      ipsis diff constitucion.xml@1978-12-29 constitucion.xml --format html -o diff.html
    """
    with error_boundary(), read_store(store_dir, user) as store:
        docs = [_open(x, store, user) for x in (older, newer)]
        d = diff_documents(docs[0], docs[1])
        if fmt == "json":
            text = json.dumps(d.to_json(), ensure_ascii=False, indent=2) + "\n"
        elif fmt == "html":
            text = render_diff_html(d, docs[0], docs[1])
        else:
            text = _diff_table(d, show_all)
        if output:
            with open(output, "w", encoding="utf-8") as fh:
                fh.write(text)
            click.echo(f"wrote {output}", err=True)
        else:
            click.echo(text, nl=False)


def _open(source: str, store: Store | None, user: str | None) -> Document:
    if store is not None and store.get(source, user) is not None:
        return open_source(source, store, user)
    try:
        return open_source(source, store, user)
    except InputError:
        dated = Dated(lambda sid: _try_open(sid, store, user), store, user)(source)
        if dated is None:
            raise
        return dated


def _try_open(sid: str, store: Store | None, user: str | None) -> Document | None:
    try:
        return open_source(sid, store, user)
    except InputError:
        return None


def _diff_table(d: DocumentDiff, show_all: bool) -> str:
    lines = [f"{d.a} -> {d.b}"]
    for kind, counts in sorted(d.to_json()["counts_by_kind"].items()):
        lines.append(f"  {kind:10} " + ", ".join(f"{k} {n}" for k, n in counts.items()))
    for c in d.changes:
        if c.change == UNCHANGED and not show_all:
            continue
        where = c.id if not c.id_a or c.id_a == c.id else f"{c.id_a} -> {c.id}"
        extra = f"  {c.notes[0]}" if c.notes else ""
        if c.change == AMENDED and c.flags:
            extra = f"  ({', '.join(f['flag'] for f in c.flags)})" + extra
        lines.append(f"{c.change:9} {where}{extra}")
    return "\n".join(lines) + "\n"


# -- ipsis store affected ----------------------------------------------------------------------
@store_group.command("affected")
@click.argument("new_version")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@store_options
def affected_cmd(new_version: str, fmt: str, store_dir: str | None, user: str | None) -> None:
    """The stored runs that cite a section NEW_VERSION amends, revokes, removes or moves.

    Compares each older version the runs cited with NEW_VERSION (same source); exit 1 when some
    run citation is affected (its verdict should be reviewed), 0 when none is.

    \b
    \b
    Examples:
      ipsis ingest cf88-2020.html --id cf88 --version 2020-08-26
      ipsis store affected cf88@2020-08-26
    """
    from ipsis.history.affected import affected_runs

    with error_boundary(), read_store(store_dir, user) as store:
        if store is None:
            msg = "no store here; pass --store DIR (or set IPSIS_STORE)"
            raise InputError(msg)
        rows = affected_runs(store, new_version, user)
    if fmt == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        for row in rows:
            ids = ", ".join(map(str, row["citations"][:5])) + (" ..." if row["count"] > 5 else "")
            moved = f" -> {row['new_section']}" if row["new_section"] else ""
            click.echo(f"{row['run_id']}  {row['source_id']} {row['section']}{moved}  {row['change']}  [{ids}]")
        click.echo(f"{len(rows)} cited sections changed in {new_version}", err=True)
    raise SystemExit(1 if rows else 0)


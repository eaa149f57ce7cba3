"""``ipsis sections SOURCE``: print the section tree of a document."""

from __future__ import annotations

import json

import click

from ipsis.cli._base import error_boundary, main
from ipsis.cli.resolve import open_source, read_store, store_options
from ipsis.sections import FAMILIES, document_at, segment


@main.command("sections")
@click.argument("source")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["tree", "json", "akn"]),
    default="tree",
    show_default=True,
    help="Indented tree, the SectionTree record as JSON, or an Akoma Ntoso 3.0 act (XML).",
)
@click.option(
    "--family",
    type=click.Choice(list(FAMILIES)),
    default=None,
    help="Numbering family (detected when omitted).",
)
@click.option(
    "--at",
    "at_date",
    default=None,
    metavar="YYYY-MM-DD",
    help="Multi-version sources (BOE XML): the document as it read on that date (default: latest).",
)
@store_options
def sections_command(
    source: str, fmt: str, family: str | None, at_date: str | None, store_dir: str | None, user: str | None
) -> None:
    """Print the sections of SOURCE with their ids and [start, end) offsets.

    \b
    Examples:
      ipsis sections examples/sources/norms/reglamento-archivo-villaserena.txt
      ipsis sections examples/sources/draft-example-quote-anchors-00.txt --format json
      ipsis sections lei-4210 --store examples/demo-store --format akn > lei-4210.akn.xml
    """
    with error_boundary(), read_store(store_dir, user) as store:
        doc = open_source(source, store, user)
        if at_date is not None:
            doc = document_at(doc, at_date)
            tree = segment(doc, family)
        else:
            tree = doc.sections if family is None else segment(doc, family)
    if fmt == "json":
        click.echo(json.dumps(tree.to_json(), ensure_ascii=False, indent=1))
        return
    if fmt == "akn":
        from ipsis.formats.akn import to_akn

        click.echo(to_akn(doc, tree), nl=False)
        return
    click.echo(f"# {tree.doc_id}: {len(tree)} sections, family {tree.family}")
    for s in tree:
        depth = len(tree.ancestors(s))
        flags = "".join(
            (
                " [revoked]" if s.revoked else " [has revoked wording]" if s.has_revoked else "",
                " [notes]" if s.has_notes else "",
                f" [{len(s.versions)} versions]" if len(s.versions) > 1 else "",
            )
        )
        title = f"  {s.title}" if s.title else ""
        click.echo(f"{'  ' * depth}{s.id}  {s.label}{title}  [{s.start}, {s.end}){flags}")

"""``ipsis text``: print the document text (kept apart from the verifier, so it starts fast)."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from ipsis.cli._base import error_boundary, main
from ipsis.cli.limits import limit_options, pop_limits
from ipsis.cli.progress import pdf_progress
from ipsis.cli.resolve import ocr_reader, open_source, read_source, read_store, reader_options, store_options
from ipsis.ingest.detect import FORMATS


@main.command()
@click.argument("source")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option(
    "--input-format",
    type=click.Choice(FORMATS),
    default="auto",
    show_default=True,
    help="Reader to use; auto detects it from the content.",
)
@reader_options
@click.option(
    "--section", default=None, help='Print one section only: an id ("art-5/par-1") or a reference ("art. 5º, § 1º").'
)
@store_options
@limit_options
def text(
    source: str,
    fmt: str,
    input_format: str,
    section: str | None,
    store_dir: str | None,
    user: str | None,
    **opts: Any,
) -> None:
    """Print the document text: every offset ipsis reports is into this text.

    PDF pages are separated by a newline and a form feed; --format json adds the page starts,
    encoding, extractor, SHA-256 and the marks (page furniture, revoked text, notes).

    \b
    Examples:
      ipsis text examples/sources/draft-example-quote-anchors-00.txt | head
      ipsis text examples/sources/norms/lei-municipal-4210-2024.txt --section "art. 5º, § 1º"
      ipsis text lei-4210 --store examples/demo-store      # a stored source id
      ipsis text scan.pdf --engine pdfplumber --format json
    """
    with error_boundary(), pdf_progress() as progress, read_store(store_dir, user) as store:
        limits = pop_limits(opts)
        opener = open_source if section is not None else read_source  # sections only for --section
        doc = opener(source, store, user, fmt=input_format, progress=progress, limits=limits, **ocr_reader(opts))
        if section is not None:
            sec = section_by_id_or_reference(doc, section)
            sys.stdout.write(doc.text[sec.start : sec.end])
            if not doc.text[sec.start : sec.end].endswith("\n"):
                sys.stdout.write("\n")
            return
    if fmt == "json":
        payload = {
            "id": doc.id,
            "text": doc.text,
            "pages": list(doc.page_starts),
            **doc.meta,
            "marks": [m.to_json() for m in doc.marks],
            "hints": [h.to_json() for h in doc.hints],
        }
        click.echo(json.dumps(payload, ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(doc.text)


def section_by_id_or_reference(doc: Any, section: str) -> Any:
    from ipsis.sections import resolve_reference

    tree = doc.sections
    sec = tree.get(section)
    if sec is None:
        resolution = resolve_reference(tree, section, doc)
        for why in resolution.unchecked:  # the enclosing section is printed: say so
            click.echo(f"note: {why}", err=True)
        sec = resolution.sections[0]
    return sec

"""``ipsis verify --engine dask``: the thin shell over :func:`ipsis.batch.engine.run_batch`."""

from __future__ import annotations

import sys
from typing import Any, NoReturn

import click

from ipsis.cli.resolve import SourceMap, read_store
from ipsis.errors import InputError
from ipsis.verify import Policy


def verify_on_dask(
    records: tuple[str, ...],
    output: str | None,
    log_file: str | None,
    fmt: str,
    jopts: dict[str, Any],
    policy: Policy,
    sources: SourceMap,
    store_dir: str | None,
    user: str | None,
    scheduler: str | None,
    workers: int | None,
) -> NoReturn:
    """Run the batch, print where the results are and the summary line; exit like ``verify``."""
    from ipsis.batch.engine import progress_printer, run_batch
    from ipsis.store.runs import write_manifest

    if output is None:
        msg = "--engine dask writes result shards to a folder: pass -o DIR (e.g. -o audit/)"
        raise InputError(msg)
    if "-" in records:
        msg = "--engine dask reads files (one, many, or a glob such as 'logs/*.jsonl'), not stdin"
        raise InputError(msg)
    if fmt not in ("table", "jsonl"):
        msg = f"--engine dask writes JSONL shards; --format {fmt} needs the single-process engine"
        raise InputError(msg)
    if jopts.get("judge"):
        msg = "--judge is not available with --engine dask yet; judge a single-process run"
        raise InputError(msg)
    with read_store(store_dir, user) as store:
        batch = run_batch(
            records,
            output,
            store=store,
            user=user,
            policy=policy,
            fallback=sources,
            scheduler=scheduler,
            workers=workers,
            progress=progress_printer(),
        )
    if log_file:
        write_manifest(log_file, batch.manifest)
    m = batch.manifest
    s = m["summary"]
    rest = " ".join(f"{k}={v}" for k, v in s["by_status"].items() if k != "located")
    click.echo(f"run {batch.run_id}: {len(m['outputs'])} result shards and manifest.json in {output}", err=True)
    click.echo(f"located={s['located']}/{s['total']}" + (f" ({rest})" if rest else ""), err=True)
    sys.exit(0 if s["total"] and s["located"] == s["total"] else 1)

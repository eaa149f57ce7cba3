"""Input shards of a batch run, and their records partitioned by source.

Records keep their place in the whole input (shards in the order given, records in file order,
numbered from 1), so a partitioned run numbers invalid records exactly as one process would,
and its results sort back into the same order.
"""

from __future__ import annotations

import glob
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ipsis.errors import InputError
from ipsis.verify.records import parse_records

MAX_PARTITION = 2000
"""Most records in one partition: a source cited more often is split (each worker still loads
its views at most once, from the worker's document cache)."""


@dataclass(frozen=True, slots=True)
class Shard:
    """One input file and how many records it holds."""

    path: str
    records: int


@dataclass(frozen=True, slots=True)
class Partition:
    """Records of one source (or a slice of them), each with its 1-based place in the whole input
    and the index of its input shard."""

    key: str
    numbers: tuple[int, ...]
    shards: tuple[int, ...]
    records: tuple[Any, ...]


def expand_inputs(args: Sequence[str]) -> list[Path]:
    """Files named by ``args``: paths, or glob patterns (``logs/*.jsonl``, ``logs/**/*.jsonl``)."""
    out: list[Path] = []
    for arg in args:
        if any(c in arg for c in "*?["):
            found = sorted(Path(p) for p in glob.glob(arg, recursive=True) if Path(p).is_file())
            if not found:
                msg = f"{arg}: no file matches this pattern; check the folder and the quoting"
                raise InputError(msg)
            out.extend(found)
        elif Path(arg).is_file():
            out.append(Path(arg))
        else:
            msg = f"{arg}: no such records file; pass JSONL files or a glob such as 'logs/*.jsonl'"
            raise InputError(msg)
    seen: set[Path] = set()
    return [p for p in out if not (p.resolve() in seen or seen.add(p.resolve()))]  # type: ignore[func-returns-value]


def read_shards(paths: Sequence[Path]) -> tuple[list[Shard], list[tuple[int, Any]]]:
    """The shards and every record as ``(shard index, record)``, in input order."""
    shards: list[Shard] = []
    records: list[tuple[int, Any]] = []
    for i, path in enumerate(paths):
        with open(path, encoding="utf-8-sig") as fh:
            rows = parse_records(fh.read(), str(path))
        shards.append(Shard(str(path), len(rows)))
        records.extend((i, r) for r in rows)
    return shards, records


def source_key(record: Any) -> str:
    """The partition key of a record: its ``source_id`` (``""`` when it has none to speak of).

    >>> source_key({"source_id": "rfc7519"}), source_key({"source_id": 7}), source_key([1])
    ('rfc7519', '', '')
    """
    sid = record.get("source_id") if isinstance(record, dict) else None
    return sid if isinstance(sid, str) else ""


def partition_records(records: Sequence[tuple[int, Any]], max_size: int = MAX_PARTITION) -> list[Partition]:
    """Group records by source, largest groups first, slicing groups above ``max_size``.

    >>> recs = [(0, {"source_id": "a"}), (0, {"source_id": "b"}), (1, {"source_id": "a"})]
    >>> [(p.key, p.numbers, p.shards) for p in partition_records(recs)]
    [('a', (1, 3), (0, 1)), ('b', (2,), (0,))]
    """
    groups: dict[str, list[int]] = {}
    for n, (_, rec) in enumerate(records):
        groups.setdefault(source_key(rec), []).append(n)
    out: list[Partition] = []
    for key, members in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        for start in range(0, len(members), max_size):
            part = members[start : start + max_size]
            out.append(
                Partition(
                    key=key,
                    numbers=tuple(n + 1 for n in part),
                    shards=tuple(records[n][0] for n in part),
                    records=tuple(records[n][1] for n in part),
                )
            )
    return out

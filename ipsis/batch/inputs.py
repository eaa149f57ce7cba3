"""Input shards of a batch run, and their records partitioned by source.

Records keep their place in the whole input (shards in the order given, records in file order,
numbered from 1), so a partitioned run numbers invalid records exactly as one process would,
and its results sort back into the same order.
"""

from __future__ import annotations

import glob
import json
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from ipsis.errors import InputError
from ipsis.verify.records import _json_line, parse_records

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
    """The shards and every record as ``(shard index, record)``, in input order (all read:
    a batch run reads them a partition at a time, :class:`InputIndex`)."""
    index = InputIndex(paths)
    whole = index.read("", list(range(len(index))))
    return index.shards, list(zip(whole.shards, whole.records, strict=True))


def source_key(record: Any) -> str:
    """The partition key of a record: its ``source_id`` (``""`` when it has none to speak of).

    >>> source_key({"source_id": "rfc7519"}), source_key({"source_id": 7}), source_key([1])
    ('rfc7519', '', '')
    """
    sid = record.get("source_id") if isinstance(record, dict) else None
    return sid if isinstance(sid, str) else ""


def slices(keys: Sequence[str], max_size: int = MAX_PARTITION) -> list[tuple[str, list[int]]]:
    """The partitions of records with these source ``keys``: ``(key, indexes)``, largest groups
    first, groups above ``max_size`` sliced.

    >>> slices(["a", "b", "a"])
    [('a', [0, 2]), ('b', [1])]
    """
    groups: dict[str, list[int]] = {}
    for n, key in enumerate(keys):
        groups.setdefault(key, []).append(n)
    return [
        (key, members[start : start + max_size])
        for key, members in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        for start in range(0, len(members), max_size)
    ]


def partition_records(records: Sequence[tuple[int, Any]], max_size: int = MAX_PARTITION) -> list[Partition]:
    """Group records by source, largest groups first, slicing groups above ``max_size``.

    >>> recs = [(0, {"source_id": "a"}), (0, {"source_id": "b"}), (1, {"source_id": "a"})]
    >>> [(p.key, p.numbers, p.shards) for p in partition_records(recs)]
    [('a', (1, 3), (0, 1)), ('b', (2,), (0,))]
    """
    return [
        Partition(
            key=key,
            numbers=tuple(n + 1 for n in part),
            shards=tuple(records[n][0] for n in part),
            records=tuple(records[n][1] for n in part),
        )
        for key, part in slices([source_key(rec) for _, rec in records], max_size)
    ]


class InputIndex:
    """Where each record of the input shards is, not the records: their source keys, shards and
    byte ranges in compact arrays (~30 bytes a record), so that a run over millions of records
    reads a partition's records only when it is handed to a worker (:meth:`read`). Every line is
    parsed once here (a malformed line fails the run before any work, as :func:`read_shards`);
    a shard written as a JSON array (its size limited) is kept parsed."""

    def __init__(self, paths: Sequence[Path]) -> None:
        self.paths = [str(p) for p in paths]
        self.shards: list[Shard] = []
        self._shard = array("i")
        self._offset = array("q")
        self._length = array("q")
        self._keys: list[str] = []
        self._parsed: dict[int, Any] = {}  # records of JSON-array shards, by index
        self._names: dict[str, str] = {}
        for i, path in enumerate(paths):
            self.shards.append(Shard(str(path), self._index(i, path)))

    def _index(self, shard: int, path: Path) -> int:
        before = len(self._keys)
        with open(path, "rb") as fh:
            first = fh.read(1)
            while first and first in b"\xef\xbb\xbf \t\r\n":  # a BOM and blanks before the first record
                first = fh.read(1)
            fh.seek(0)
            if first == b"[":  # a JSON array: parsed whole
                for rec in parse_records(_decoded(fh.read(), path, 1), str(path)):
                    self._parsed[len(self._keys)] = rec
                    self._add(shard, -1, 0, source_key(rec))
                return len(self._keys) - before
            offset = 0
            for line_no, raw in enumerate(fh, 1):
                start, offset = offset, offset + len(raw)
                row = _decoded(raw, path, line_no)
                if row.strip():
                    self._add(shard, start, len(raw), source_key(_json_line(row, str(path), line_no)))
        return len(self._keys) - before

    def _add(self, shard: int, offset: int, length: int, key: str) -> None:
        self._shard.append(shard)
        self._offset.append(offset)
        self._length.append(length)
        self._keys.append(self._names.setdefault(key, key))  # one string per source id

    def __len__(self) -> int:
        return len(self._keys)

    def partitions(self, max_size: int = MAX_PARTITION) -> list[tuple[str, list[int]]]:
        """The partitions as :func:`partition_records` makes them, as record indexes."""
        return slices(self._keys, max_size)

    def read(self, key: str, members: list[int]) -> Partition:
        """The partition of the records at ``members`` (indexes in the whole input)."""
        records = []
        handles: dict[int, BinaryIO] = {}
        try:
            for n in members:
                if n in self._parsed:
                    records.append(self._parsed[n])
                    continue
                shard = self._shard[n]
                fh = handles.get(shard) or handles.setdefault(shard, open(self.paths[shard], "rb"))  # noqa: SIM115
                fh.seek(self._offset[n])
                records.append(json.loads(fh.read(self._length[n]).decode("utf-8-sig")))  # checked when indexed
        finally:
            for fh in handles.values():
                fh.close()
        return Partition(
            key=key,
            numbers=tuple(n + 1 for n in members),
            shards=tuple(self._shard[n] for n in members),
            records=tuple(records),
        )


def _decoded(raw: bytes, path: Path, line_no: int) -> str:
    """A line (or a whole JSON array, from line 1) of a shard as text; a BOM at the start dropped."""
    try:
        return raw.decode("utf-8-sig" if line_no == 1 else "utf-8")
    except UnicodeDecodeError as exc:
        msg = f"{path}: line {line_no} is not UTF-8 (byte {exc.start + 1}); save the file as UTF-8"
        raise InputError(msg) from None

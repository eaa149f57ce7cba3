"""Input shards of a batch run, and their records partitioned by source.

Records keep their place in the whole input (shards in the order given, records in file order,
numbered from 1), so a partitioned run numbers invalid records exactly as one process would,
and its results sort back into the same order.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import shutil
import struct
import tempfile
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
    with InputIndex(paths) as index:
        parts = [index.read(p) for p in index.partitions(max(len(index), 1))]
        shards = index.shards
    whole = sorted((n, s, r) for p in parts for n, s, r in zip(p.numbers, p.shards, p.records, strict=True))
    return shards, [(s, r) for _, s, r in whole]


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


FLAT = struct.Struct("<iiqi")
"""An indexed record as read, in input order: source key id, shard, byte offset (-1: the record's
place in a JSON-array shard is in the length field), byte length."""
ENTRY = struct.Struct("<qiqi")
"""An indexed record grouped by source: its place in the whole input (from 0), shard, offset, length."""
_FLUSH = 1 << 20


@dataclass(frozen=True, slots=True)
class Slice:
    """A partition as a task carries it: where its entries are in the index folder, not its
    records (a few dozen bytes however many records it holds). :func:`read_slice` reads them."""

    folder: str
    key: str
    start: int
    count: int


class InputIndex:
    """Where each record of the input shards is, not the records: every line is parsed once here
    (a malformed line fails the run before any work, as :func:`read_shards`), and its place in the
    input, shard and byte range are written to ``folder/index.bin``, grouped by source. The
    index's memory is one counter per source, so a run over millions of records partitions them
    in flat memory; a partition (:class:`Slice`) names a range of that file, and whoever verifies
    it reads its records from the shards then (:func:`read_slice`; a Dask worker, so the client
    and the scheduler never hold records). ``folder`` must be readable by the workers (the run's
    output folder); without one a temporary folder is used, removed by :meth:`close`."""

    def __init__(self, paths: Sequence[Path], folder: str | Path | None = None) -> None:
        self.paths = [os.path.abspath(p) for p in paths]
        self._own = folder is None
        self.folder = Path(tempfile.mkdtemp(prefix="ipsis-index-") if folder is None else folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.shards: list[Shard] = []
        self._ids: dict[str, int] = {}
        self._counts: list[int] = []
        self._total = 0
        try:
            with open(self.folder / "flat.bin", "wb") as flat:
                buf = bytearray()
                for i, path in enumerate(paths):
                    self.shards.append(Shard(str(path), self._index(i, path, flat, buf)))
                flat.write(buf)
            self._group()
        except BaseException:
            self.close()
            raise
        finally:
            (self.folder / "flat.bin").unlink(missing_ok=True)
        meta = {"paths": self.paths, "records": self._total}
        (self.folder / "index.json").write_text(json.dumps(meta), encoding="utf-8")

    def _index(self, shard: int, path: Path, flat: BinaryIO, buf: bytearray) -> int:
        before = self._total
        with open(path, "rb") as fh:
            first = fh.read(1)
            while first and first in b"\xef\xbb\xbf \t\r\n":  # a BOM and blanks before the first record
                first = fh.read(1)
            fh.seek(0)
            if first == b"[":  # a JSON array (its size limited): its records' places in it
                for n, rec in enumerate(parse_records(_decoded(fh.read(), path, 1), str(path))):
                    self._add(buf, shard, -1, n, source_key(rec))
                return self._total - before
            offset = 0
            for line_no, raw in enumerate(fh, 1):
                start, offset = offset, offset + len(raw)
                row = _decoded(raw, path, line_no)
                if row.strip():
                    self._add(buf, shard, start, len(raw), source_key(_json_line(row, str(path), line_no)))
                    if len(buf) >= _FLUSH:
                        flat.write(buf)
                        buf.clear()
        return self._total - before

    def _add(self, buf: bytearray, shard: int, offset: int, length: int, key: str) -> None:
        kid = self._ids.get(key)
        if kid is None:
            kid = self._ids[key] = len(self._counts)
            self._counts.append(0)
        self._counts[kid] += 1
        self._total += 1
        buf += FLAT.pack(kid, shard, offset, length)

    def _group(self) -> None:
        """``flat.bin`` (input order) scattered into ``index.bin`` (by source, input order within
        each), through bounded buffers."""
        keys = sorted(self._ids, key=lambda k: (-self._counts[self._ids[k]], k))
        self._groups: list[tuple[str, int]] = []  # (key, its first entry), in partition order
        cursor = [0] * len(self._counts)  # per key id: where its next entry goes
        at = 0
        for key in keys:
            self._groups.append((key, at))
            cursor[self._ids[key]] = at
            at += self._counts[self._ids[key]]
        pending: dict[int, tuple[int, bytearray]] = {}  # key id: (first entry, entries not yet written)
        size = 0
        number = 0
        with open(self.folder / "flat.bin", "rb") as flat, open(self.folder / "index.bin", "wb") as out:
            out.truncate(self._total * ENTRY.size)

            def flush() -> None:
                for first, data in pending.values():
                    out.seek(first * ENTRY.size)
                    out.write(data)
                pending.clear()

            while chunk := flat.read(FLAT.size * 8192):
                for kid, shard, offset, length in FLAT.iter_unpack(chunk):
                    pos = cursor[kid]
                    cursor[kid] = pos + 1
                    got = pending.get(kid)
                    if got is None:
                        got = pending[kid] = (pos, bytearray())
                    got[1].extend(ENTRY.pack(number, shard, offset, length))
                    number += 1
                    size += ENTRY.size
                    if size >= _FLUSH * 8:
                        flush()
                        size = 0
            flush()

    def __len__(self) -> int:
        return self._total

    def partitions(self, max_size: int = MAX_PARTITION) -> list[Slice]:
        """The partitions as :func:`partition_records` makes them (largest sources first, sliced
        at ``max_size``), as ranges of the index."""
        folder = str(self.folder)
        return [
            Slice(folder, key, first + k, min(max_size, self._counts[self._ids[key]] - k))
            for key, first in self._groups
            for k in range(0, self._counts[self._ids[key]], max_size)
        ]

    def read(self, part: Slice) -> Partition:
        return read_slice(part)

    def close(self) -> None:
        """Remove the index files (the whole folder when the index made it)."""
        _META.pop(str(self.folder), None)
        if self._own:
            shutil.rmtree(self.folder, ignore_errors=True)
        else:
            for name in ("flat.bin", "index.bin", "index.json"):
                (self.folder / name).unlink(missing_ok=True)
            with contextlib.suppress(OSError):
                self.folder.rmdir()

    def __enter__(self) -> InputIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_META: dict[str, list[str]] = {}
"""The shard paths of the index folders this process read (one or two runs at a time)."""
_ARRAYS: dict[str, list[Any]] = {}
"""The records of the JSON-array shard this process read last (its size limited)."""


def read_slice(part: Slice) -> Partition:
    """The records of a partition, read from the input shards at the byte ranges its index
    entries give (the same records, numbers and shards as :func:`partition_records`)."""
    paths = _META.get(part.folder)
    if paths is None:
        if len(_META) > 8:
            _META.clear()
        meta = json.loads((Path(part.folder) / "index.json").read_text(encoding="utf-8"))
        paths = _META[part.folder] = meta["paths"]
    with open(Path(part.folder) / "index.bin", "rb") as ix:
        ix.seek(part.start * ENTRY.size)
        entries = list(ENTRY.iter_unpack(ix.read(part.count * ENTRY.size)))
    records = []
    handles: dict[int, BinaryIO] = {}
    try:
        for _, shard, offset, length in entries:
            if offset < 0:
                records.append(_array(paths[shard])[length])
                continue
            fh = handles.get(shard) or handles.setdefault(shard, open(paths[shard], "rb"))  # noqa: SIM115
            fh.seek(offset)
            records.append(json.loads(fh.read(length).decode("utf-8-sig")))  # checked when indexed
    finally:
        for fh in handles.values():
            fh.close()
    return Partition(
        key=part.key,
        numbers=tuple(e[0] + 1 for e in entries),
        shards=tuple(e[1] for e in entries),
        records=tuple(records),
    )


def _array(path: str) -> list[Any]:
    got = _ARRAYS.get(path)
    if got is None:
        _ARRAYS.clear()
        with open(path, "rb") as fh:
            got = _ARRAYS[path] = parse_records(_decoded(fh.read(), Path(path), 1), path)
    return got


def _decoded(raw: bytes, path: Path, line_no: int) -> str:
    """A line (or a whole JSON array, from line 1) of a shard as text; a BOM at the start dropped."""
    try:
        return raw.decode("utf-8-sig" if line_no == 1 else "utf-8")
    except UnicodeDecodeError as exc:
        msg = f"{path}: line {line_no} is not UTF-8 (byte {exc.start + 1}); save the file as UTF-8"
        raise InputError(msg) from None

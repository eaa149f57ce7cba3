"""``ipsis store migrate``: copy a store to another (a folder to PostgreSQL, or back) and prove it.

Every version is copied as it was stored (same id, bytes, text, dates, readers, derived data;
the index is rebuilt from the text by the target's engine), then every copied version is read back from the
target and its bytes hashed: the copy is reported good only when each SHA-256 matches the one
the source recorded, and each document text matches its recorded hash. Copying again is a no-op
for what is already there; a version the target holds with other bytes is a conflict.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ipsis.errors import StoreError
from ipsis.store.blobs import sha256_of
from ipsis.store.db import Store


@dataclass(slots=True)
class CopyReport:
    copied: int = 0
    unchanged: int = 0
    runs: int = 0
    verified: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def copy_store(source: str | Path, target: str | Path) -> CopyReport:
    """Copy every version and run record of ``source`` into ``target`` (created when missing)."""
    if str(source) == str(target):
        msg = f"--from and --to are the same store ({source}); name another target"
        raise StoreError(msg)
    report = CopyReport()
    with Store.open(source) as src, Store.open(target, create=True) as dst:
        versions = src.versions()
        for sv in versions:
            try:
                data = src.blobs.read(sv.sha256)
            except FileNotFoundError:
                msg = f"{sv.id}: the original bytes ({src.blobs.label(sv.sha256)}) are missing in {src.location}"
                raise StoreError(msg) from None
            out = dst.copy_version(src.row(sv.pk), sv.readers, data, src.derived_rows(sv.pk))
            if out.status == "stored":
                report.copied += 1
            else:
                report.unchanged += 1
        if report.copied > 1:
            dst.compact_index()  # as a bulk ingest does
        for row in src.backend.query("SELECT * FROM runs ORDER BY started_at, id"):
            if dst.run(row["id"]) is None:
                dst.record_run(json.loads(row["manifest"]))
                report.runs += 1
        for sv in versions:
            report.problems.extend(_verify_copy(src, dst, sv.id))
            report.verified += 1
    return report


def _verify_copy(src: Store, dst: Store, full_id: str) -> list[str]:
    a, b = src.get(full_id), dst.get(full_id)
    if a is None or b is None:
        return [f"{full_id}: missing in the target after the copy"]
    problems = []
    try:
        got, size = dst.blobs.digest(b.sha256)
    except FileNotFoundError:
        return [f"{full_id}: the target holds no bytes for it ({dst.blobs.label(b.sha256)})"]
    if not (got == b.sha256 == a.sha256 and size == a.size):
        problems.append(f"{full_id}: copied bytes hash to {got} ({size:,} bytes), the source recorded {a.sha256}")
    ra, rb = src.row(a.pk), dst.row(b.pk)
    if sha256_of(rb["text"].encode("utf-8", "surrogatepass")) != ra["text_sha256"]:
        problems.append(f"{full_id}: the copied document text differs from the source's")
    if (a.readers, a.retrieved_at, a.ingested_at) != (b.readers, b.retrieved_at, b.ingested_at):
        problems.append(f"{full_id}: readers or dates differ after the copy")
    return problems

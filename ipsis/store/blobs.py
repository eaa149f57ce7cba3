"""Content-addressed original files: ``blobs/ab/abcdef…`` named by their SHA-256.

A blob is written to a temporary file in ``tmp/``, flushed and fsynced, then renamed into
place (an atomic step on POSIX) and the directory fsynced, all *before* the database row that
references it is committed. So a crash leaves at most an unreferenced blob or a temporary
file (``store check`` lists them as notes), never a row pointing at a partial file.

Reader-restricted sources are only as private as the files: a new store folder and its
subfolders are created 0700, blobs 0400 (the database 0600, :mod:`ipsis.store.sqlite`), so other
OS users cannot read them; :func:`open_to_others` lists what group or others may still reach.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

CHUNK = 1 << 20
PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600
BLOB_MODE = 0o400


def sha256_of(data: bytes) -> str:
    """Hex SHA-256 of ``data``.

    >>> sha256_of(b"")[:12]
    'e3b0c44298fc'
    """
    return hashlib.sha256(data).hexdigest()


def hash_file(path: Path) -> tuple[str, int]:
    """``(sha256, size)`` of the file at ``path``, read in chunks."""
    h = hashlib.sha256()
    size = 0
    with path.open("rb") as fh:
        while chunk := fh.read(CHUNK):
            h.update(chunk)
            size += len(chunk)
    return h.hexdigest(), size


class BlobStore:
    """The ``blobs/`` and ``tmp/`` folders of a store."""

    def __init__(self, root: Path, durable: bool = True) -> None:
        self.root = root
        self.durable = durable
        self.blobs = root / "blobs"
        self.tmp = root / "tmp"

    def create_dirs(self) -> None:
        for d in (self.root, self.blobs, self.tmp):
            d.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)

    def path(self, sha256: str) -> Path:
        return self.blobs / sha256[:2] / sha256

    def put(self, data: bytes, sha256: str) -> Path:
        """Store ``data`` under its hash, atomically; an intact existing copy is kept as is."""
        final = self.path(sha256)
        if final.exists():
            try:
                if hash_file(final)[0] == sha256:
                    return final
            except OSError:
                pass
        final.parent.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
        import tempfile  # (and shutil, random): only to write a blob

        fd, tmp_name = tempfile.mkstemp(prefix="blob-", suffix=".part", dir=self.tmp)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                if self.durable:
                    os.fsync(fh.fileno())
            os.chmod(tmp_name, BLOB_MODE)
            os.replace(tmp_name, final)
        except BaseException:
            Path(tmp_name).unlink(missing_ok=True)
            raise
        if self.durable:
            _fsync_dir(final.parent)
        return final

    def read(self, sha256: str) -> bytes:
        return self.path(sha256).read_bytes()

    def digest(self, sha256: str) -> tuple[str, int]:
        return hash_file(self.path(sha256))

    def label(self, sha256: str) -> str:
        return str(self.path(sha256).relative_to(self.root))

    def entries(self) -> Iterator[tuple[str, str]]:
        for name, path in self.stored():
            yield name, str(path.relative_to(self.root))

    def leftover_labels(self) -> list[str]:
        return [str(p.relative_to(self.root)) for p in self.leftovers()]

    def stored(self) -> Iterator[tuple[str, Path]]:
        """Every file under ``blobs/`` as ``(name, path)``."""
        if not self.blobs.is_dir():
            return
        for sub in sorted(self.blobs.iterdir()):
            if sub.is_dir():
                for f in sorted(sub.iterdir()):
                    yield f.name, f

    def leftovers(self) -> list[Path]:
        """Temporary files left by interrupted writes."""
        return sorted(self.tmp.iterdir()) if self.tmp.is_dir() else []


def open_to_others(root: Path) -> list[str]:
    """``store check`` warnings: the store folder, or files and folders in it, that group or
    other users may read or enter (POSIX modes; nothing on other systems)."""
    if os.name != "posix" or not root.is_dir():
        return []
    found: list[tuple[Path, int]] = []
    for path in [root, *sorted(root.rglob("*"))]:
        try:
            mode = path.lstat().st_mode & 0o777
        except OSError:
            continue
        if mode & 0o077:
            found.append((path, mode))
    if not found:
        return []
    shown = ", ".join(f"{p.relative_to(root) if p != root else p} ({m:04o})" for p, m in found[:3])
    more = f" and {len(found) - 3} more" if len(found) > 3 else ""
    return [
        f"{len(found)} entries of the store are open to group or other users: {shown}{more}; "
        f"reader-restricted sources are readable by them: run chmod -R go-rwx {root}"
    ]


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory fds
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)

"""Store files are private to their owner (issue 21): another OS user must not read a
reader-restricted source from the folder. New stores are 0700 / 0600 / blobs 0400, and
``store check`` warns about a store whose files group or others may read."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from ipsis.cli import main
from ipsis.store import Store
from tests.shared import SHARED

RFC = SHARED / "corpora/rfc/rfc7519.txt"
pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")


@pytest.fixture(autouse=True)
def _usual_umask(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("IPSIS_STORE", raising=False)
    monkeypatch.delenv("IPSIS_USER", raising=False)
    old = os.umask(0o022)  # the common default, under which files used to come out 0644
    yield
    os.umask(old)


def _modes(root: Path) -> dict[str, int]:
    return {
        str(p.relative_to(root)) if p != root else ".": stat.S_IMODE(p.lstat().st_mode)
        for p in [root, *root.rglob("*")]
    }


def test_a_new_store_is_private(tmp_path: Path) -> None:
    store = tmp_path / "store"
    r = CliRunner().invoke(main, ["ingest", str(RFC), "--id", "rfc7519-v1", "--reader", "alice", "--store", str(store)])
    assert r.exit_code == 0, r.output
    modes = _modes(store)
    blob = next(k for k in modes if k.startswith("blobs/") and k.count("/") == 2)
    assert modes["."] == modes["blobs"] == modes["tmp"] == modes[blob.rsplit("/", 1)[0]] == 0o700
    assert modes["ipsis.db"] == 0o600 and modes[blob] == 0o400
    with Store.open(store) as s:  # while open, SQLite's side files take the database's mode
        s.ingest(b"Returns are accepted within 30 days of delivery.\n", "returns-v1", readers=["bob"])
        side = {k: v for k, v in _modes(store).items() if k.startswith("ipsis.db-")}
        assert side and set(side.values()) == {0o600}, side
    assert all(m & 0o077 == 0 for m in _modes(store).values())


def test_store_check_warns_about_files_others_may_read(tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert CliRunner().invoke(main, ["ingest", str(RFC), "--id", "rfc7519-v1", "--store", str(store)]).exit_code == 0
    r = CliRunner().invoke(main, ["store", "check", "--store", str(store)])
    assert r.exit_code == 0 and "warning" not in r.output
    os.chmod(store, 0o755)  # a store made before this release, or by hand
    os.chmod(store / "ipsis.db", 0o644)
    r = CliRunner().invoke(main, ["store", "check", "--store", str(store)])
    assert r.exit_code == 0 and r.stdout.startswith("ok: 1 source versions checked")
    # the folder, ipsis.db and the -wal/-shm files SQLite opened with its mode during the check
    assert "warning: 4 entries of the store are open to group or other users: " in r.stderr
    assert f"{store} (0755), ipsis.db (0644), ipsis.db-shm (0644) and 1 more" in r.stderr
    assert f"run chmod -R go-rwx {store}" in r.stderr
    for p in [store, *store.rglob("*")]:
        os.chmod(p, stat.S_IMODE(p.lstat().st_mode) & 0o700)
    assert "warning" not in CliRunner().invoke(main, ["store", "check", "--store", str(store)]).output

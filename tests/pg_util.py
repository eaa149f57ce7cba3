"""A throwaway PostgreSQL server for the store tests, and the ``backend`` fixture.

The session starts Debian's postgresql binaries (``initdb`` + ``pg_ctl``) on loopback in a
temporary folder, as the ``postgres`` user when the tests run as root (the server refuses
root). Each test gets a fresh database. ``IPSIS_TEST_PG`` (a ``postgresql://`` URL of a server
whose user may create databases) uses an existing server instead. When no server can be started
the PostgreSQL half skips with a loud message, except under CI (``CI`` set), where it fails.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

BACKENDS = ["sqlite", "postgresql"]
StoreTarget = Callable[[Path], Any]
"""Returns a folder (SQLite) or a database URL string (PostgreSQL), where the tests pass a --store."""


def _bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _unavailable(why: str) -> None:
    msg = (
        "\n" + "!" * 78 + f"\n!! PostgreSQL store tests NOT RUN: {why}\n"
        "!! install Debian's postgresql (apt-get install -y postgresql) or set IPSIS_TEST_PG=postgresql://...\n"
        + "!"
        * 78
    )
    if os.environ.get("CI"):
        pytest.fail(msg)
    pytest.skip(msg)


class PgServer:
    """A running server: ``url(db)`` names a database on it; ``new_database()`` makes one."""

    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")

    def url(self, db: str) -> str:
        head = self.base.rsplit("/", 1)[0] if self.base.count("/") > 2 else self.base
        return f"{head}/{db}"

    def new_database(self) -> str:
        import psycopg

        name = f"ipsis_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)


def _runuser() -> str | None:
    """util-linux's runuser, also where the PATH lacks the sbin folders (a minimal root shell)."""
    return shutil.which("runuser") or shutil.which("runuser", path="/usr/sbin:/sbin")


def _run_as(user: str | None, args: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    if user is not None:
        args = [_runuser() or "runuser", "-u", user, "--", *args]
    return subprocess.run(args, capture_output=True, text=True, timeout=60, check=False, **kw)  # type: ignore[call-overload,no-any-return]


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        _unavailable("psycopg is not installed (pip install -e '.[postgres]')")
    if os.environ.get("IPSIS_TEST_PG"):
        yield PgServer(os.environ["IPSIS_TEST_PG"])
        return
    initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        _unavailable("initdb/pg_ctl not found")
    assert initdb is not None and pg_ctl is not None
    user = None
    if os.geteuid() == 0:
        if _runuser() is None:
            _unavailable("running as root without runuser, and postgres refuses to run as root")
        user = "postgres"
    tmp = Path(tempfile.mkdtemp(prefix="ipsis-pg-"))
    if user is not None:
        shutil.chown(tmp, user)
    data, port = tmp / "data", _free_port()
    init = _run_as(
        user, [initdb, "-D", str(data), "-A", "trust", "-U", "ipsis", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]
    )
    if init.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        _unavailable(f"initdb failed: {init.stderr.strip()[-300:]}")
    opts = f"-h 127.0.0.1 -p {port} -k {tmp} -F -c max_connections=200"
    start = _run_as(user, [pg_ctl, "-D", str(data), "-o", opts, "-l", str(tmp / "log"), "-w", "start"])
    if start.returncode != 0:
        log = (tmp / "log").read_text(errors="replace")[-300:] if (tmp / "log").exists() else ""
        shutil.rmtree(tmp, ignore_errors=True)
        _unavailable(f"pg_ctl start failed: {start.stderr.strip()[-300:]} {log}")
    try:
        yield PgServer(f"postgresql://ipsis@127.0.0.1:{port}/postgres")
    finally:
        _run_as(user, [pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"])
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The store backend a test runs against."""
    return str(request.param)


@pytest.fixture
def store_target(backend: str, request: pytest.FixtureRequest) -> StoreTarget:
    """``store_target(tmp_path / "x")``: a new, empty store location for this backend (a folder, or
    a fresh database URL; the folder is unused then)."""
    if backend == "sqlite":
        return str
    server: PgServer = request.getfixturevalue("pg_server")
    return lambda _folder: server.new_database()


def new_store(request: pytest.FixtureRequest, folder: Path) -> Any:
    """A new store location for the backend a module-scoped fixture is parametrized with
    (``request.param``): the folder itself for SQLite, a fresh database URL for PostgreSQL."""
    if request.param == "sqlite":
        return folder
    server: PgServer = request.getfixturevalue("pg_server")
    return server.new_database()

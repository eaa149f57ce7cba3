from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.shared import CORPORA, MISSING, SHARED, available

ROOT = Path(__file__).resolve().parent.parent
CASES = Path(__file__).resolve().parent / "cases"


def pytest_sessionstart(session: pytest.Session) -> None:
    if not available() and os.environ.get("CI"):
        msg = f"under CI the shared documents must be there: {MISSING}"
        raise pytest.UsageError(msg)


def _reads_shared(item: pytest.Item) -> bool:
    if "corpora" in getattr(item, "fixturenames", ()):
        return True
    module = getattr(item, "module", None)
    return module is not None and any(
        isinstance(v, Path) and v.is_relative_to(SHARED) for v in vars(module).values()
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if available():
        return
    skip = pytest.mark.skip(reason=MISSING)
    for item in items:
        if _reads_shared(item):
            item.add_marker(skip)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not available():
        terminalreporter.write_line(f"WARNING: {MISSING}", red=True, bold=True)


@pytest.fixture(scope="session")
def corpora() -> Path:
    return CORPORA


from tests.pg_util import backend, pg_server, store_target  # noqa: E402, F401 - store backend fixtures

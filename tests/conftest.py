from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT / "corpora"
CASES = Path(__file__).resolve().parent / "cases"


@pytest.fixture(scope="session")
def corpora() -> Path:
    return CORPORA


from tests.pg_util import backend, pg_server, store_target  # noqa: E402, F401 - store backend fixtures

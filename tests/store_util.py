"""Helpers shared by the store tests: real texts, a CLI runner bound to a store, output scrubbing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ipsis.cli import main
from tests.shared import SHARED

ROOT = Path(__file__).resolve().parent.parent
RFC7519 = SHARED / "corpora/rfc/rfc7519.txt"
RFC9111 = SHARED / "corpora/rfc/rfc9111.txt"
CRP = SHARED / "corpora/pt/crp-constituicao-republica-portuguesa.txt"
# The example source, and a second version of it (60 days instead of 30).
RETURNS_V1 = "Returns are accepted within 30 days.\nA receipt is required.\n"
RETURNS_V2 = "Returns are accepted within 60 days.\nA receipt is required.\n"
# A sentence of RFC 9111 (section 4.2), wrapped as in the file.
FRESHNESS = (
    'A response\'s "freshness lifetime" is the length of time between its generation by the origin '
    "server and its expiration time."
)


@pytest.fixture(autouse=True)
def _no_store_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("IPSIS_STORE", raising=False)
    monkeypatch.delenv("IPSIS_USER", raising=False)


def run(*args: str | Path, input: str | None = None) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)


def scrub(text: str, *stores: Path) -> str:
    """Outputs of two runs compared: drop run ids, timestamps and the store folder names."""
    for s in stores:
        text = text.replace(str(s), "STORE")
    text = re.sub(r"run-\d{8}T\d{6}Z-[0-9a-f]{8}", "RUN", text)
    return re.sub(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z", "TIME", text)

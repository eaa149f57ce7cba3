"""Helpers shared by the store tests: real texts, a CLI runner bound to a store, output scrubbing."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from ipsis.cli import main
from ipsis.document import Document
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


def verify_as_a_process(
    folder: Path, source_id: str, records: list[dict[str, str]], avoided: tuple[str, ...]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], Document]:
    """``ipsis verify --store folder/st`` of ``records`` as a process of its own, which must not
    import any module of ``avoided``; its JSONL results, the in-process results of
    :func:`ipsis.verify.records.verify_records` on the stored document, and that document."""
    import json
    import os
    import subprocess
    import sys

    from ipsis.store import Store
    from ipsis.verify.records import verify_records

    (folder / "r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    probe = (
        "import sys; from ipsis.cli import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        f"print(sorted(m for m in {avoided!r} if m in sys.modules), file=sys.stderr)"
    )
    args = ["verify", str(folder / "r.jsonl"), "--store", str(folder / "st"), "--format", "jsonl"]
    args += ["-o", str(folder / "o")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", probe, *args], cwd=folder, capture_output=True, text=True,
                         check=True, env=env)  # fmt: skip
    assert out.stderr.strip().splitlines()[-1] == "[]", out.stderr
    got = [json.loads(line) for line in (folder / "o").read_text(encoding="utf-8").splitlines()]
    with Store.open(folder / "st") as st:
        doc = st.document(source_id)
        assert doc is not None
        expected = [r.to_json() for r in verify_records(records, lambda _sid: doc)]
    return got, expected, doc

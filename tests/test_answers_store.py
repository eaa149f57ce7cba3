"""``ipsis check --sources ID,ID --store DIR``: sources sent to the model named by stored ids."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ipsis.cli import main
from tests.shared import SHARED

ROOT = Path(__file__).resolve().parent.parent


def _store(tmp_path: Path) -> Path:
    st = tmp_path / "store"
    r = CliRunner().invoke(main, ["ingest", str(SHARED / "corpora/rfc/rfc7519.txt"), "--store", str(st)])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(
        main, ["ingest", str(SHARED / "corpora/rfc/rfc9111.txt"), "--store", str(st), "--reader", "alice"]
    )
    assert r.exit_code == 0, r.output
    return st


def test_check_against_stored_ids(tmp_path: Path) -> None:
    st = _store(tmp_path)
    answer = tmp_path / "a.txt"
    answer.write_text(
        "RFC 7519 says that the “iss” (issuer) claim identifies the principal that issued the JWT [1]. "
        "Caches compute a freshness lifetime [2]."
    )
    r = CliRunner().invoke(
        main, ["check", str(answer), "--sources", "rfc7519,rfc9111", "--store", str(st), "--format", "json"]
    )
    out = json.loads(r.stdout)
    assert [s["id"] for s in out["sources"]] == ["rfc7519", "rfc9111"]
    assert all(s["cited"] for s in out["sources"])
    assert not [f for f in out["findings"] if f["kind"] == "unknown_source"]


def test_hidden_id_is_reported_like_a_missing_one(tmp_path: Path) -> None:
    st = _store(tmp_path)
    answer = tmp_path / "a.txt"
    answer.write_text("Caches compute a freshness lifetime [1].")
    hidden = CliRunner().invoke(
        main, ["check", str(answer), "--sources", "rfc9111", "--store", str(st), "--user", "bob"]
    )
    missing = CliRunner().invoke(
        main, ["check", str(answer), "--sources", "rfc9999", "--store", str(st), "--user", "bob"]
    )
    assert hidden.exit_code == missing.exit_code == 2
    assert hidden.output.replace("rfc9111", "ID") == missing.output.replace("rfc9999", "ID")
    seen = CliRunner().invoke(
        main, ["check", str(answer), "--sources", "rfc9111", "--store", str(st), "--user", "alice"]
    )
    assert seen.exit_code in (0, 1)

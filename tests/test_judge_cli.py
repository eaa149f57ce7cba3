"""``ipsis verify --judge``: support added to located results, exit codes, option errors."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ipsis.cli import main
from tests.shared import SHARED

ROOT = Path(__file__).resolve().parent.parent
RFC = str(SHARED / "corpora/rfc/rfc7519.txt")
RECORDS = [
    {"citation_id": "c1", "source_id": "rfc7519",
     "quote": "The \"iss\" (issuer) claim identifies the principal that issued the JWT.",
     "claim": "The \"iss\" claim identifies the principal that issued the JWT."},
    {"citation_id": "c6", "source_id": "rfc7519",
     "quote": "The \"jti\" (JWT ID) claim provides a unique identifier for the JWT.",
     "claim": "The \"jti\" claim is REQUIRED in every JWT."},
]  # fmt: skip


def _run(tmp_path: Path, records: list[dict[str, str]], *args: str) -> tuple[int, str, str]:
    f = tmp_path / "records.json"
    f.write_text(json.dumps(records), encoding="utf-8")
    r = CliRunner().invoke(main, ["verify", str(f), "--source", f"rfc7519={RFC}", "--format", "json", *args])
    return r.exit_code, r.stdout, r.stderr


def test_verify_with_the_cue_judge(tmp_path: Path) -> None:
    code, out, _ = _run(tmp_path, RECORDS, "--judge", "cues")
    data = json.loads(out)
    support = {r["citation_id"]: r["support"] for r in data["results"]}
    assert support["c1"]["verdict"] == "supported" and support["c1"]["judge"] == "cues"
    assert support["c6"]["verdict"] == "contradicted"
    assert any("OPTIONAL" in e for e in support["c6"]["evidence"])
    assert data["run"]["policy"]["judge"] == "cues" and data["run"]["policy"]["accept_threshold"] == 0.8
    assert code == 1  # a contradicted claim needs review


def test_threshold_changes_the_fingerprint_and_verdict(tmp_path: Path) -> None:
    exp = [{"citation_id": "c2", "source_id": "rfc7519",
            "quote": "identifies the expiration time on or after which the JWT MUST NOT be accepted for processing.",
            "claim": "A JWT MUST NOT be accepted for processing on or after the expiration time given "
                     "in its \"exp\" claim."}]  # fmt: skip
    code80, out80, _ = _run(tmp_path, exp, "--judge", "cues")
    code, out, _ = _run(tmp_path, exp, "--judge", "cues", "--accept-threshold", "1.0")
    a, b = json.loads(out80), json.loads(out)
    assert a["run"]["policy_fingerprint"] != b["run"]["policy_fingerprint"]
    sa, sb = a["results"][0]["support"], b["results"][0]["support"]
    assert sa["verdict"] == "supported" and code80 == 0
    assert sb["verdict"] == "needs_review" and sb["confidence"] < 1.0 and code == 1


def test_without_judge_nothing_changes(tmp_path: Path) -> None:
    code, out, _ = _run(tmp_path, RECORDS)
    data = json.loads(out)
    assert code == 0 and all("support" not in r for r in data["results"])
    assert "judge" not in data["run"]["policy"]


def test_llm_judge_needs_url_and_model(tmp_path: Path) -> None:
    code, _, err = _run(tmp_path, RECORDS, "--judge", "llm")
    assert code == 2 and "--judge-url" in err

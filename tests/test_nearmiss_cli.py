"""--max-error-rate on ipsis locate, and the policy option behind it (issue 6)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ipsis.cli import main
from ipsis.errors import InputError
from ipsis.verify import Policy
from tests.shared import SHARED

CRP = SHARED / "corpora" / "pt" / "crp-constituicao-republica-portuguesa.txt"
NEAR = "não podendo o estado declarado ter duração superior a trinta dias"


def test_locate_reports_the_nearest_passage_and_exits_1() -> None:
    res = CliRunner().invoke(main, ["locate", str(CRP), NEAR, "--format", "json"])
    assert res.exit_code == 1, res.output
    out = json.loads(res.output)
    assert out["status"] == "not_found"
    n = out["nearest"]
    assert n["text"] == "não podendo o estado declarado ter duração superior a quinze dias"
    assert CRP.read_text(encoding="utf-8")[n["start"] : n["end"]] == n["text"]
    assert [r["flag"] for r in n["reasons"]] == ["number_changed"]
    assert n["reasons"][0]["quote"] == ["trinta"] and n["reasons"][0]["source"] == ["quinze"]


def test_max_error_rate_zero_turns_the_search_off() -> None:
    res = CliRunner().invoke(main, ["locate", str(CRP), NEAR, "--format", "json", "--max-error-rate", "0"])
    out = json.loads(res.output)
    assert out["status"] == "not_found" and "nearest" not in out
    assert out["policy_fingerprint"] == Policy(max_error_rate=0).fingerprint()


def test_max_error_rate_is_checked() -> None:
    res = CliRunner().invoke(main, ["locate", str(CRP), NEAR, "--max-error-rate", "1.5"])
    assert res.exit_code == 2 and "--max-error-rate" in res.output
    with pytest.raises(InputError, match="max_error_rate"):
        Policy(max_error_rate=-0.1)
    assert Policy(max_error_rate=0.1).fingerprint() != Policy().fingerprint()

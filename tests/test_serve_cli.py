"""``ipsis serve`` refusals that happen before binding (exit 2 with a message that names the fix)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ipsis.cli import main
from ipsis.serve.tokens import is_loopback, parse_tokens, user_for


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.10"])
def test_refuses_non_loopback_without_tokens(host: str) -> None:
    result = CliRunner().invoke(main, ["serve", "--host", host])
    assert result.exit_code == 2
    assert f"--host {host} is not a loopback address and --tokens is not set" in result.output


def test_missing_extra_is_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn raises ImportError
    result = CliRunner().invoke(main, ["serve"])
    assert result.exit_code == 2
    assert "pip install 'ipsis[serve]'" in result.output and "uvicorn is missing" in result.output


def test_bad_tokens_file_is_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "tokens.txt"
    bad.write_text("short alice\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["serve", "--tokens", str(bad)])
    assert result.exit_code == 2
    assert "line 1 has a token of 5 characters; use at least 16" in result.output
    result = CliRunner().invoke(main, ["serve", "--tokens", str(tmp_path / "none.txt")])
    assert result.exit_code == 2 and "none.txt" in result.output


def test_tokens_file_forms() -> None:
    tokens = parse_tokens('{"alice-token-0123456789": "alice", "bob-token-0123456789ab": "bob"}', "t.json")
    assert user_for(tokens, "Bearer bob-token-0123456789ab") == "bob"
    assert user_for(tokens, "bearer alice-token-0123456789") == "alice"
    assert user_for(tokens, "Bearer alice-token-012345678") is None
    assert user_for(tokens, "Basic alice-token-0123456789") is None
    assert user_for(tokens, None) is None
    with pytest.raises(ValueError, match="line 2 repeats a token"):
        parse_tokens("alice-token-0123456789 alice\nalice-token-0123456789 bob\n", "t.txt")


def test_loopback_names() -> None:
    assert is_loopback("localhost") and is_loopback("127.0.0.2") and is_loopback("[::1]")
    assert not is_loopback("0.0.0.0") and not is_loopback("10.1.2.3")

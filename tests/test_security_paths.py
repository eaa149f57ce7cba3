"""``ipsis verify --repo/--wiki`` reads only files inside the folder given (issue 21, High).

Each test attacks the way the audit did: an absolute path, ``../`` climbing, a symlink in the
repository or wiki pointing outside, an option smuggled in as the commit segment. The outside
file's text must appear nowhere (JSON, the HTML report, the judge's passage), and not even its
line count may leak through ``bad_line_range``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ipsis.cli import main
from ipsis.judge import citations
from ipsis.judge.citations import OUTSIDE, Finding, Resolved, resolve_citation
from tests.shared import SHARED

RFC_TEXT = (SHARED / "corpora/rfc/rfc7519.txt").read_text(encoding="utf-8")
SECRET = "secret-line-one: the outside file's own words\nsecret-line-two\nsecret-line-three\n"
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
needs_passwd = pytest.mark.skipif(not Path("/etc/passwd").is_file(), reason="needs /etc/passwd")


def _git(repo: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@x",
           "PATH": "/usr/bin:/bin:/usr/local/bin", "HOME": str(repo)}  # fmt: skip
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env, text=True).stdout


CASES = json.loads((Path(__file__).parent / "cases/security/citation-paths.json").read_text(encoding="utf-8"))["cases"]


def _make_layout(tmp_path: Path) -> tuple[Path, Path, Path]:
    """(repo, wiki, secret): a repo and a wiki with symlinks to a secret file beside them."""
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET, encoding="utf-8")
    (tmp_path / "outside.md").write_text(SECRET, encoding="utf-8")
    repo = tmp_path / "kb"
    (repo / "specs").mkdir(parents=True)
    (repo / "specs/rfc7519.txt").write_text(RFC_TEXT, encoding="utf-8")
    (repo / "leak.txt").symlink_to(secret)
    (repo / "etc").symlink_to(tmp_path)  # a directory symlink out
    (repo / "inside.txt").symlink_to(repo / "specs/rfc7519.txt")  # a symlink that stays inside
    wiki = tmp_path / "wiki"
    wiki.mkdir()
    (wiki / "passwd.md").symlink_to(secret)
    (wiki / "notes 3f2a9c1d.md").write_text("The iss claim is OPTIONAL.\n", encoding="utf-8")
    return repo, wiki, secret


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path, Path]:
    return _make_layout(tmp_path)


def _run(tmp_path: Path, records: list[dict[str, Any]], *args: str) -> tuple[dict[str, dict[str, Any]], str]:
    f = tmp_path / "records.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    r = CliRunner().invoke(main, ["verify", str(f), "--format", "json", "--judge", "cues", *args])
    assert r.exit_code in (0, 1), r.output
    html = CliRunner().invoke(main, ["verify", str(f), "--format", "html", "--judge", "cues", *args])
    assert html.exit_code in (0, 1), html.output
    return {x["citation_id"]: x for x in json.loads(r.stdout)["results"]}, r.stdout + html.stdout


@pytest.fixture(scope="module")
def attacked(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, dict[str, Any]], str]:
    """Every case of citation-paths.json, as a claim and as a quote, through ``ipsis verify``
    with ``--repo`` or ``--wiki`` (JSON and HTML): results by citation id, and all output."""
    tmp = tmp_path_factory.mktemp("attacks")
    repo, wiki, secret = _make_layout(tmp)
    fill = {
        "{SECRET}": str(secret),
        "{UP}": "../" * 40,
        "{SECRET_REL}": str(secret)[1:],
        "{OUTSIDE}": str(tmp / "outside.md"),
    }
    results: dict[str, dict[str, Any]] = {}
    out = ""
    for folder, flag, root in (("repo", "--repo", repo), ("wiki", "--wiki", wiki)):
        records = []
        for i, case in enumerate(CASES):
            if case["folder"] != folder:
                continue
            sid = case["source_id"]
            for k, v in fill.items():
                sid = sid.replace(k, v)
            records.append({"citation_id": f"claim{i}", "source_id": sid, "claim": "secret-line-one is here."})
            records.append({"citation_id": f"quote{i}", "source_id": sid, "quote": "secret-line-one: the outside file"})
        res, text = _run(tmp, records, flag, str(root))
        results.update(res)
        out += text.replace("secret-line-one is here", "").replace("secret-line-one: the outside", "")
    return results, out


@pytest.mark.parametrize("case", CASES, ids=[c["label"] for c in CASES])
def test_citations_never_read_outside_the_folder(
    attacked: tuple[dict[str, dict[str, Any]], str], case: dict[str, Any]
) -> None:
    results, _ = attacked
    i = CASES.index(case)
    for r in (results[f"claim{i}"], results[f"quote{i}"]):
        assert r["status"] == "unknown_source", r
        assert [w["kind"] for w in r["warnings"]] == [case["kind"]], r
        assert case["reason"] in r["message"] and "lines)" not in r["message"] and "support" not in r, r


def test_no_output_carries_the_outside_text(attacked: tuple[dict[str, dict[str, Any]], str]) -> None:
    assert "secret-line" not in attacked[1]  # neither the JSON nor the HTML report, nor a judged passage


@needs_passwd
def test_etc_passwd_and_shadow_as_the_audit_cited_them(layout: tuple[Path, Path, Path], tmp_path: Path) -> None:
    repo, _, _ = layout
    first = Path("/etc/passwd").read_text(encoding="utf-8", errors="replace").splitlines()[0]
    records = [
        {"citation_id": "passwd", "source_id": "/etc/passwd#L1-L5", "claim": "root has uid 0."},
        {"citation_id": "shadow", "source_id": "../../../../etc/shadow#L1-L3", "claim": "root has a password."},
        {"citation_id": "passwd-q", "source_id": "/etc/passwd#L1-L5", "quote": first[:20]},
    ]
    res, out = _run(tmp_path, records, "--repo", str(repo))
    assert first not in out
    assert {r["status"] for r in res.values()} == {"unknown_source"}
    assert "absolute path" in res["passwd"]["message"] and "'..'" in res["shadow"]["message"]


def test_a_symlink_that_stays_inside_is_read(layout: tuple[Path, Path, Path]) -> None:
    repo, _, _ = layout
    r = resolve_citation("inside.txt#L466-L471", repo=repo)
    assert isinstance(r, Resolved) and r.text == "\n".join(RFC_TEXT.split("\n")[465:471])


def test_a_wiki_page_inside_is_read(layout: tuple[Path, Path, Path]) -> None:
    ok = resolve_citation("^[notes.md]", wiki=layout[1])
    assert isinstance(ok, Resolved) and ok.text == "The iss claim is OPTIONAL.\n"


@needs_git
def test_commit_segment_never_reaches_git_as_an_option(
    layout: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, _, _ = layout
    _git(repo, "init", "-q")
    _git(repo, "add", "specs")
    _git(repo, "commit", "-qm", "rfc")
    head = _git(repo, "rev-parse", "HEAD").strip()
    calls: list[list[str]] = []
    real_run = subprocess.run

    def spy(argv: list[str], *a: Any, **kw: Any) -> Any:
        calls.append(list(argv))
        return real_run(argv, *a, **kw)

    monkeypatch.setattr(citations.subprocess, "run", spy)
    for commit in ("-Oevil", "--output", "-p", "..", ".git", "-"):
        hit = resolve_citation(f"https://github.com/o/r/blob/{commit}/specs/rfc7519.txt#L1-L2", repo=repo)
        assert isinstance(hit, Finding) and hit.kind == "orphan_citation", commit
    for argv in calls:  # whatever reached git, every argument after "git" is ours, the revision last
        assert argv[-2] == "--end-of-options" and not argv[-1].startswith("-")
    outside = resolve_citation(f"https://github.com/o/r/blob/{head}/../secret.txt#L1", repo=repo)
    assert isinstance(outside, Finding) and outside.kind == OUTSIDE
    ok = resolve_citation(f"https://github.com/o/r/blob/{head}/specs/rfc7519.txt#L466-L471", repo=repo)
    assert isinstance(ok, Resolved) and ok.text.endswith("Use of this claim is OPTIONAL.")
    assert calls[-1][-2:] == ["--end-of-options", f"{head}:./specs/rfc7519.txt"]


@needs_git
def test_a_repo_that_is_a_subfolder_reads_only_the_subfolder(tmp_path: Path) -> None:
    # git finds the enclosing repository; "<commit>:path" would be relative to its root
    outer = tmp_path / "outer"
    (outer / "kb/specs").mkdir(parents=True)
    (outer / "secret.txt").write_text(SECRET, encoding="utf-8")
    (outer / "kb/specs/rfc7519.txt").write_text(RFC_TEXT, encoding="utf-8")
    _git(outer, "init", "-q")
    _git(outer, "add", ".")
    _git(outer, "commit", "-qm", "all")
    kb = outer / "kb"
    hit = resolve_citation("https://github.com/o/r/blob/HEAD/secret.txt#L1-L2", repo=kb)
    assert isinstance(hit, Finding) and hit.kind == "orphan_citation"
    ok = resolve_citation("https://github.com/o/r/blob/HEAD/specs/rfc7519.txt#L466-L471", repo=kb)
    assert isinstance(ok, Resolved) and ok.text.endswith("Use of this claim is OPTIONAL.")

"""Retrieval without a quote (BM25) and line-range / wiki citations, on real corpus text."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from ipsis.document import Document
from ipsis.errors import InputError
from ipsis.ingest import load_document
from ipsis.judge import judge_passage, make_judge
from ipsis.judge.citations import AMBIGUOUS, BAD_RANGE, ORPHAN, Finding, Resolved, parse_citation, resolve_citation
from ipsis.judge.retrieve import load_embedder, passages, retrieve
from ipsis.judge.support import MissingExtraError
from tests.shared import SHARED

ROOT = Path(__file__).resolve().parent.parent
RFC = SHARED / "corpora/rfc/rfc7519.txt"
CRP = SHARED / "corpora/pt/crp-constituicao-republica-portuguesa.txt"


def test_bm25_finds_the_crp_paragraph_on_detention() -> None:
    doc = load_document(CRP, "crp")
    best = retrieve(doc, "A detenção tem de ser apreciada por um juiz em quarenta e oito horas")[0]
    assert doc.text[best.start : best.end] == best.text
    assert best.text.startswith("1. A detenção será submetida, no prazo máximo de quarenta e oito horas")


def test_bm25_finds_the_rfc_paragraph_and_the_judge_reads_it() -> None:
    doc = load_document(RFC, "rfc7519")
    best = retrieve(doc, "The jti claim can be used to prevent the JWT from being replayed")[0]
    assert doc.text[best.start : best.end] == best.text
    # the leaf section 4.1.7, heading included: the tree locate and the judge read, whether the
    # document comes from a file or from the store
    assert best.passage.section == "sec-4.1.7"
    assert best.text.startswith('4.1.7.  "jti" (JWT ID) Claim\n\n   The "jti" (JWT ID) claim provides a unique')
    s = judge_passage("The jti claim is REQUIRED.", best.passage, make_judge("cues"), 0.8)
    assert s.verdict == "contradicted"


def test_front_matter_and_metadata_lines_are_skipped() -> None:
    text = (
        "---\ntitle: Artigo 28.º prisão preventiva\nsource: CRP\n---\nAuthor: x\n\n"
        + CRP.read_text(encoding="utf-8").split("Artigo 28.º\n")[1].split("Artigo 29.º")[0]
    )
    doc = Document("note", text)
    starts = [p.start for p in passages(doc)]
    assert min(starts) > text.index("Author: x")
    best = retrieve(doc, "prisão preventiva artigo 28")[0]
    assert "title:" not in best.text and doc.text[best.start : best.end] == best.text


def test_embedding_tie_break_reorders_only_near_ties() -> None:
    doc = Document("d", "Use of this claim is OPTIONAL alpha.\n\nUse of this claim is OPTIONAL omega.\n\nclaim")

    def embed(texts: object) -> list[list[float]]:  # a stand-in model that prefers the "omega" passage
        return [[0.0, 1.0] if "omega" in t or i == 0 else [1.0, 0.0] for i, t in enumerate(texts)]  # type: ignore[call-overload]

    plain = retrieve(doc, "claim OPTIONAL")
    assert plain[0].text.endswith("alpha.") and plain[1].text.endswith("omega.")
    tied = retrieve(doc, "claim OPTIONAL", embed=embed)
    assert [p.text[-6:] for p in tied[:2]] == ["omega.", "alpha."]
    assert tied[2].text == "claim"  # not a near-tie: stays last


def test_embedder_needs_a_local_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="does not exist"):
        load_embedder(tmp_path / "nope")
    try:
        import sentence_transformers  # noqa: F401
    except ImportError:
        with pytest.raises(MissingExtraError, match=r"ipsis\[embed\]"):
            load_embedder(tmp_path)


def _git(repo: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@x",
           "PATH": "/usr/bin:/bin:/usr/local/bin", "HOME": str(repo)}  # fmt: skip
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env, text=True).stdout


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_line_range_at_a_commit_reads_that_commit(tmp_path: Path) -> None:
    repo = tmp_path / "kb"
    (repo / "specs").mkdir(parents=True)
    original = RFC.read_text(encoding="utf-8")
    (repo / "specs/rfc7519.txt").write_text(original, encoding="utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "rfc")
    first = _git(repo, "rev-parse", "HEAD").strip()
    (repo / "specs/rfc7519.txt").write_text(original.replace("Use of this claim is OPTIONAL.", "Gone."), "utf-8")
    _git(repo, "commit", "-qam", "edit")
    lines = original.split("\n")  # git counts \n only; the RFC also has form feeds
    expected = "\n".join(lines[465:471])  # lines 466-471: section 4.1.1 "iss"
    r = resolve_citation(f"https://github.com/acme/kb/blob/{first}/specs/rfc7519.txt#L466-L471", repo=repo)
    assert isinstance(r, Resolved) and r.text == expected
    assert r.text.endswith("Use of this claim is OPTIONAL.")
    now = resolve_citation("specs/rfc7519.txt#L466-L471", repo=repo)
    assert isinstance(now, Resolved) and now.text.endswith("Gone.")
    missing = resolve_citation("https://github.com/acme/kb/blob/0123abc/specs/rfc7519.txt#L1-L2", repo=repo)
    assert isinstance(missing, Finding) and missing.kind == ORPHAN
    far = resolve_citation("specs/rfc7519.txt#L99999-L100000", repo=repo)
    assert isinstance(far, Finding) and far.kind == BAD_RANGE


def test_wiki_citations(tmp_path: Path) -> None:
    text = RFC.read_text(encoding="utf-8")
    (tmp_path / "jwt-claims 3f2a9c1d.md").write_text(text[:2000], encoding="utf-8")
    (tmp_path / "jwt-claims-log.md").write_text("another page", encoding="utf-8")
    r = resolve_citation("^[jwt-claims.md]", wiki=tmp_path)
    assert isinstance(r, Resolved) and r.text == text[:2000] and r.meta["file"] == "jwt-claims 3f2a9c1d.md"
    (tmp_path / "jwt-claims 77aa00bb.md").write_text("x", encoding="utf-8")
    amb = resolve_citation("^[jwt-claims.md]", wiki=tmp_path)
    assert isinstance(amb, Finding) and amb.kind == AMBIGUOUS and len(amb.candidates) == 2
    orphan = resolve_citation("^[nope.md]", wiki=tmp_path)
    assert isinstance(orphan, Finding) and orphan.kind == ORPHAN


def test_citation_parsing_errors() -> None:
    assert parse_citation("plain text") is None
    with pytest.raises(InputError, match="--repo"):
        resolve_citation("a.md#L1-L2")
    with pytest.raises(InputError, match="neither"):
        resolve_citation("[2]", repo=".")

"""Line-range and wiki citations, as LLM-written knowledge bases write them.

- ``path#L10-L20`` (or ``#L10``) and ``https://host/owner/repo/blob/<commit>/<path>#L10-L20``:
  read from a local git repository (``git cat-file blob <commit>:<path>``, never the network);
  without a commit, the file in the repository's working tree.
- ``^[slug.md]``: the one file under the wiki folder whose name starts with the slug (exports add
  a hash suffix: ``decisions 3f2a9c.md``). None is an ``orphan_citation``, several an
  ``ambiguous_citation``.

Only files inside the folder given are ever read: a cited path that is absolute, climbs with
``..``, goes into ``.git`` or resolves (through a symlink) outside the folder is an
``outside_folder`` finding, decided before the file is opened, so nothing about it (not even its
line count) leaks. A commit is a hex id, branch or tag name and reaches git after
``--end-of-options``, so it can never be read as an option; the path is given to git as
``./path``, relative to the folder, so a ``--repo`` that is a subfolder of a larger repository
never reads the files around it.

>>> parse_citation("docs/setup.md#L10-L20")
LineRef(path='docs/setup.md', first=10, last=20, commit=None)
>>> parse_citation("https://github.com/o/r/blob/4f2c1e9/src/app.py#L7").commit
'4f2c1e9'
>>> parse_citation("^[decisions.md]")
WikiRef(slug='decisions.md')
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ipsis.document import Document
from ipsis.errors import InputError

ORPHAN = "orphan_citation"
AMBIGUOUS = "ambiguous_citation"
BAD_RANGE = "bad_line_range"
OUTSIDE = "outside_folder"

_LINES = re.compile(r"#L(\d+)(?:-L?(\d+))?$")
_BLOB = re.compile(r"^(?:https?://[^/]+)?/?(?:[^/]+/[^/]+/)?(?:-/)?blob/([0-9A-Za-z._-]+)/(.+)$")
_COMMIT = re.compile(r"[0-9A-Za-z_][0-9A-Za-z._-]*")  # never a leading "-" (an option) or "."
_WIKI = re.compile(r"^\^\[([^\]]+)\]$")


@dataclass(frozen=True, slots=True)
class LineRef:
    path: str
    first: int
    last: int
    commit: str | None = None


@dataclass(frozen=True, slots=True)
class WikiRef:
    slug: str


@dataclass(frozen=True, slots=True)
class Finding:
    """A citation that cannot be resolved: ``kind`` is ``orphan_citation``, ``ambiguous_citation``
    ``bad_line_range`` or ``outside_folder`` (``unresolved_citation`` when the CLI lacks
    ``--repo``/``--wiki``);
    ``candidates`` lists the files that matched."""

    kind: str
    citation: str
    message: str
    candidates: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "citation": self.citation, "message": self.message}
        if self.candidates:
            out["candidates"] = list(self.candidates)
        return out


@dataclass(slots=True)
class Resolved:
    """A resolved citation: the cited file as a document and the cited span of its text."""

    citation: str
    document: Document
    start: int
    end: int
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return self.document.text[self.start : self.end]


def parse_citation(citation: str) -> LineRef | WikiRef | None:
    """A line-range or wiki citation, or None when ``citation`` is neither."""
    c = citation.strip()
    m = _WIKI.match(c)
    if m:
        return WikiRef(m.group(1).strip())
    m = _LINES.search(c)
    if not m:
        return None
    first = int(m.group(1))
    last = int(m.group(2)) if m.group(2) else first
    target = c[: m.start()]
    b = _BLOB.match(target)
    if b:
        return LineRef(b.group(2), first, last, b.group(1))
    return LineRef(target, first, last)


def outside_reason(root: Path, path: str, *, on_disk: bool = True) -> str | None:
    """Why ``path`` (relative, as cited) may not be read from ``root``, or None when it may.

    ``on_disk`` also resolves symlinks in the working tree (a commit is read from git's objects,
    where only the written path counts).

    >>> outside_reason(Path("."), "docs/setup.md") is None
    True
    >>> outside_reason(Path("."), "../../etc/shadow")
    "'../../etc/shadow' climbs out with '..'"
    >>> outside_reason(Path("."), "/etc/passwd")
    "'/etc/passwd' is an absolute path"
    """
    parts = path.replace("\\", "/").split("/")
    if "\0" in path:
        return f"{path!r} has a NUL character"
    if path.startswith(("/", "\\")):
        return f"{path!r} is an absolute path"
    if ".." in parts:
        return f"{path!r} climbs out with '..'"
    if ".git" in (p.lower() for p in parts):  # any case: macOS and Windows folders ignore it
        return f"{path!r} is inside the .git folder"
    if not on_disk:
        return None
    try:
        real_root = root.resolve()
        real = (root / path).resolve()
    except (OSError, RuntimeError, ValueError):  # a symlink loop
        return f"{path!r} cannot be resolved (a symlink loop?)"
    if real != real_root and real_root not in real.parents:
        return f"{path!r} resolves (through a symlink) outside"
    return None


def _outside(name: str, root: Path, reason: str, what: str) -> Finding:
    msg = f"{reason} of the {what} {root}; only files inside it are read: cite a path relative to it"
    return Finding(OUTSIDE, name, msg)


def _git_show(repo: Path, commit: str, path: str) -> str | None:
    if not _COMMIT.fullmatch(commit):
        return None
    try:
        proc = subprocess.run(
            # "./": relative to the folder given, even when it is a subfolder of a larger repository
            ["git", "--no-pager", "-C", str(repo), "cat-file", "blob", "--end-of-options", f"{commit}:./{path}"],
            capture_output=True,
            check=False,
            timeout=30,
            env={"GIT_TERMINAL_PROMPT": "0", "PATH": "/usr/bin:/bin:/usr/local/bin"},
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        msg = f"cannot run git in {repo}: {exc}; install git or check --repo"
        raise InputError(msg) from exc
    if proc.returncode != 0:
        return None
    return proc.stdout.decode("utf-8", errors="replace")


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8-sig", errors="replace")


def _line_span(text: str, first: int, last: int) -> tuple[int, int] | None:
    starts = [0] + [m.end() for m in re.finditer(r"\n", text)]
    if text.endswith("\n"):
        starts.pop()
    if first < 1 or last < first or last > len(starts):
        return None
    end = starts[last] - 1 if last < len(starts) else len(text.rstrip("\n"))
    return starts[first - 1], end


def resolve_lines(ref: LineRef, repo: str | Path, citation: str = "") -> Resolved | Finding:
    """Read the cited lines from ``repo`` (at ``ref.commit`` with git when one is given)."""
    root = Path(repo)
    name = citation or f"{ref.path}#L{ref.first}-L{ref.last}"
    reason = outside_reason(root, ref.path, on_disk=not ref.commit)
    if reason is not None:
        return _outside(name, root, reason, "repository")
    if ref.commit:
        text = _git_show(root, ref.commit, ref.path)
        where = f"{ref.path} at commit {ref.commit} in {root}"
    else:
        p = root / ref.path
        text = _read(p) if p.is_file() else None
        where = f"{ref.path} in {root}"
    if text is None:
        return Finding(ORPHAN, name, f"{where} does not exist; check the path, the commit and --repo")
    span = _line_span(text, ref.first, ref.last)
    if span is None:
        n = text.count("\n") + (0 if text.endswith("\n") else 1)
        return Finding(BAD_RANGE, name, f"lines {ref.first}-{ref.last} are outside {where} ({n} lines)")
    doc_id = f"{ref.path}@{ref.commit}" if ref.commit else ref.path
    doc = Document(doc_id, text, meta={"path": ref.path, "commit": ref.commit, "repo": str(root)})
    return Resolved(name, doc, span[0], span[1], {"lines": [ref.first, ref.last]})


def resolve_wiki(ref: WikiRef, folder: str | Path, citation: str = "") -> Resolved | Finding:
    """The one file under ``folder`` whose name is the slug or starts with it plus a suffix."""
    root = Path(folder)
    name = citation or f"^[{ref.slug}]"
    stem, dot, ext = ref.slug.rpartition(".")
    if not dot:
        stem, ext = ref.slug, ""
    suffix = rf"\.{re.escape(ext)}" if ext else r"(?:\.\w+)?"
    pattern = re.compile(rf"{re.escape(stem)}(?:[ _-][0-9a-fA-F]{{4,32}})?{suffix}")
    found = sorted(p for p in root.rglob("*") if pattern.fullmatch(p.name) and p.is_file())
    if len(found) == 1:
        reason = outside_reason(root, str(found[0].relative_to(root)))
        if reason is not None:
            return _outside(name, root, reason, "wiki folder")
    rel = tuple(str(p.relative_to(root)) for p in found)
    if not found:
        return Finding(ORPHAN, name, f"no file under {root} is named {ref.slug} or {stem} plus a suffix")
    if len(found) > 1:
        return Finding(AMBIGUOUS, name, f"{len(found)} files under {root} match {ref.slug}: {', '.join(rel)}", rel)
    text = _read(found[0])
    doc = Document(rel[0], text, meta={"path": str(found[0])})
    return Resolved(name, doc, 0, len(text), {"file": rel[0]})


def resolve_citation(
    citation: str, repo: str | Path | None = None, wiki: str | Path | None = None
) -> Resolved | Finding:
    """Resolve a line-range citation against ``repo`` or a wiki citation against ``wiki``."""
    ref = parse_citation(citation)
    if isinstance(ref, LineRef):
        if repo is None:
            msg = f"citation {citation!r} names lines of a file; give the repository with --repo DIR"
            raise InputError(msg)
        return resolve_lines(ref, repo, citation)
    if isinstance(ref, WikiRef):
        if wiki is None:
            msg = f"citation {citation!r} names a wiki page; give the wiki folder with --wiki DIR"
            raise InputError(msg)
        return resolve_wiki(ref, wiki, citation)
    msg = f"citation {citation!r} is neither path#L10-L20, .../blob/<commit>/<path>#L10-L20 nor ^[slug.md]"
    raise InputError(msg)

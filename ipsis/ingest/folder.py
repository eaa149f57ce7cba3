"""Which files in a folder are sources: one rule for ``ipsis ingest DIR`` and ``ipsis check --sources DIR``.

A folder's sources are its files, at any depth, whose suffix is one ipsis reads
(:data:`SOURCE_SUFFIXES`), in natural order of their path inside the folder (``2.txt`` before
``10.txt``). Hidden files and folders (``.ipsis/``, ``.git/``) are not looked at; any other
file is skipped and listed, so that the caller can say so. A file named on the command line is
read whatever its name.
"""

from __future__ import annotations

import re
from pathlib import Path

SOURCE_SUFFIXES = (".txt", ".text", ".md", ".pdf", ".html", ".htm", ".xhtml", ".xml")


def _natural_key(rel: Path) -> list[object]:
    return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", rel.as_posix())]


def source_files(folder: str | Path) -> tuple[list[Path], list[Path]]:
    """``(sources, skipped)`` under ``folder``, each in natural order of the path inside it."""
    root = Path(folder)
    found = [
        f
        for f in root.rglob("*")
        if f.is_file() and not any(part.startswith(".") for part in f.relative_to(root).parts)
    ]
    found.sort(key=lambda f: _natural_key(f.relative_to(root)))
    sources = [f for f in found if f.suffix.lower() in SOURCE_SUFFIXES]
    skipped = [f for f in found if f.suffix.lower() not in SOURCE_SUFFIXES]
    return sources, skipped


def skipped_note(folder: str | Path, skipped: list[Path]) -> str | None:
    """The line that says which files of ``folder`` were not taken as sources, or None.

    >>> skipped_note("docs", [Path("docs/a.csv"), Path("docs/b.png")])
    'note: docs: skipped 2 files that are not sources (not .txt .text .md .pdf .html .htm .xhtml .xml): a.csv, b.png'
    """
    if not skipped:
        return None
    names = [f.relative_to(folder).as_posix() if f.is_relative_to(folder) else str(f) for f in skipped]
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    what = "file that is not a source" if len(names) == 1 else "files that are not sources"
    return f"note: {folder}: skipped {len(names)} {what} (not {' '.join(SOURCE_SUFFIXES)}): {shown}"

"""The Tesseract engine: finding the binary and its languages, running it, reading its TSV.

Tesseract is Debian's ``tesseract-ocr`` (with ``tesseract-ocr-por``, ``-spa``, ``-eng`` data),
called as a subprocess: a page image (binary PGM) on stdin, the TSV on stdout, which gives
every word with its box and confidence. :mod:`ipsis.ingest.ocr` decides which pages to read.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass, field
from functools import lru_cache

from ipsis.errors import InputError, OcrUnavailableError

MODES = ("auto", "always", "never")
DEFAULT_LANGS = ("por", "spa", "eng")
"""Languages used when none is given: those of these three that are installed, together."""
INSTALL = (
    "install Debian's tesseract-ocr with its language data (apt-get install tesseract-ocr "
    "tesseract-ocr-por tesseract-ocr-spa tesseract-ocr-eng; pip install 'ipsis[ocr]' documents it)"
)


@dataclass(frozen=True, slots=True)
class OcrOptions:
    """How scanned pages are read.

    - ``mode``: ``auto`` (OCR only pages without usable text), ``always`` (every page, the
      text layer replaced), ``never`` (no OCR; image-only pages stay empty).
    - ``lang``: Tesseract languages, ``+``-joined (``por``, ``spa+eng``); None = every
      installed one of :data:`DEFAULT_LANGS`.
    - ``dpi``: render resolution; None chooses it per page (:func:`choose_dpi`).
    - ``binary``: the Tesseract executable.
    """

    mode: str = "auto"
    lang: str | None = None
    dpi: int | None = None
    binary: str = "tesseract"

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            msg = f"unknown OCR mode {self.mode!r}; choose one of {', '.join(MODES)} (--ocr)"
            raise InputError(msg)
        if self.dpi is not None and not 50 <= self.dpi <= 1200:
            msg = f"OCR resolution {self.dpi} dpi is out of range; give 50 to 1200"
            raise InputError(msg)


DEFAULT_OCR = OcrOptions()


@dataclass(frozen=True, slots=True)
class Engine:
    path: str
    version: str
    langs: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"tesseract {self.version}"


@lru_cache(maxsize=8)
def _engine(binary: str) -> Engine | None:
    path = shutil.which(binary)
    if path is None:
        return None
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30, check=False)
        langs = subprocess.run([path, "--list-langs"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    first = (out.stdout or out.stderr).strip().splitlines()
    version = first[0].split()[-1] if first else "unknown"
    names = tuple(sorted(w.strip() for w in langs.stdout.splitlines()[1:] if w.strip() and w.strip() != "osd"))
    return Engine(path, version, names)


def engine(options: OcrOptions = DEFAULT_OCR, why: str = "OCR was asked for") -> tuple[Engine, str]:
    """The Tesseract engine and the ``-l`` languages to use, or :class:`OcrUnavailableError`."""
    eng = _engine(options.binary)
    if eng is None:
        msg = f"{why}, but the {options.binary!r} binary is not installed; {INSTALL}, or pass --ocr never"
        raise OcrUnavailableError(msg)
    if options.lang:
        wanted = [x for x in options.lang.split("+") if x]
        missing = [x for x in wanted if x not in eng.langs]
        if missing or not wanted:
            have = ", ".join(eng.langs) or "none"
            pkgs = " ".join(f"tesseract-ocr-{x}" for x in missing)
            msg = f"--ocr-lang {options.lang}: Tesseract has no data for {', '.join(missing) or 'it'} "
            msg += f"(installed: {have}); apt-get install {pkgs}" if pkgs else f"(installed: {have})"
            raise OcrUnavailableError(msg)
        return eng, "+".join(wanted)
    langs = [x for x in DEFAULT_LANGS if x in eng.langs] or list(eng.langs[:1])
    if not langs:
        msg = f"{why}, but Tesseract has no language data installed; {INSTALL}"
        raise OcrUnavailableError(msg)
    return eng, "+".join(langs)


def run_tesseract(eng: Engine, image: bytes, dpi: int, lang: str, timeout: float | None, where: str) -> str:
    """Tesseract's TSV for one PGM image (read from stdin; one thread, as two cores are shared)."""
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    cmd = [eng.path, "stdin", "stdout", "-l", lang, "--dpi", str(dpi), "--psm", "3", "tsv"]
    try:
        out = subprocess.run(cmd, input=image, capture_output=True, timeout=timeout, env=env, check=False)
    except subprocess.TimeoutExpired as exc:
        msg = f"{where}: OCR took more than the time left ({timeout:.0f} s); raise --timeout or pass --ocr never"
        raise InputError(msg) from exc
    if out.returncode != 0:
        err = out.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
        msg = f"{where}: tesseract failed (exit {out.returncode}: {err[0]}); check the install ({INSTALL})"
        raise OcrUnavailableError(msg)
    return out.stdout.decode("utf-8", "replace")


@dataclass(slots=True)
class OcrPage:
    """One page's OCR text and words (offsets into ``text``; boxes in points, top-left origin)."""

    text: str
    words: list[list[float]] = field(default_factory=list)
    source: str = "tesseract"
    dpi: int = 0
    width: float = 0.0
    height: float = 0.0

    def confidence(self) -> float | None:
        confs = [w[6] for w in self.words if w[6] >= 0]
        return round(sum(confs) / len(confs), 1) if confs else None


def parse_tsv(tsv: str, dpi: int) -> OcrPage:
    """Page text from Tesseract's TSV: words joined by spaces, lines by newlines, blocks by a
    blank line; each word keeps its box (converted to points) and confidence.

    >>> head = "level page_num block_num par_num line_num word_num left top width height conf text"
    >>> rows = [head, "5 1 1 1 1 1 100 200 50 20 96.5 Art.", "5 1 1 1 1 2 160 200 30 20 91 5º"]
    >>> tsv = "\\n".join(r.replace(" ", "\\t") for r in rows + ["5 1 1 1 2 1 100 230 80 20 42.25 Todos"])
    >>> p = parse_tsv(tsv, 72)
    >>> p.text, p.words[2]
    ('Art. 5º\\nTodos\\n', [8, 13, 100.0, 230.0, 180.0, 250.0, 42.2])
    """
    scale = 72 / dpi
    parts: list[str] = []
    words: list[list[float]] = []
    pos = 0
    last: tuple[str, str, str] | None = None
    for row in tsv.splitlines()[1:]:
        cols = row.split("\t")
        if len(cols) < 12 or cols[0] != "5" or not cols[11].strip():
            continue
        key = (cols[2], cols[3], cols[4])
        if last is not None:
            sep = " " if key == last else ("\n\n" if key[0] != last[0] else "\n")
            parts.append(sep)
            pos += len(sep)
        last = key
        word = cols[11].strip()
        left, top, w, h = (int(c) for c in cols[6:10])
        box = [round(v * scale, 1) for v in (left, top, left + w, top + h)]
        words.append([pos, pos + len(word), *box, round(float(cols[10]), 1)])
        parts.append(word)
        pos += len(word)
    text = "".join(parts)
    return OcrPage(text + "\n" if text else "", words, dpi=dpi)

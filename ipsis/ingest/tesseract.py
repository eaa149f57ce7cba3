"""The Tesseract engine: finding the binary and its languages, running it, reading its hOCR.

Tesseract is Debian's ``tesseract-ocr`` (with ``tesseract-ocr-por``, ``-spa``, ``-eng`` data),
called as a subprocess: a page image (binary PGM) on stdin, hOCR on stdout, which gives every
word and every character with its box and confidence. :mod:`ipsis.ingest.ocr` decides which pages to read.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import lru_cache

from ipsis.errors import InputError, OcrUnavailableError

MODES = ("auto", "always", "never")
DEFAULT_LANGS = ("por", "spa", "eng")
"""Languages used when none is given: those of these three that are installed, together."""
LOW_CONFIDENCE = 60.0
"""Words Tesseract read with less confidence than this (0-100) are named in a match's result."""
LOW_CHAR_CONFIDENCE = 95.0
"""The same for characters, on the scale of Tesseract 5's LSTM, whose character confidences are
squeezed into about 86-99.6 whatever the word's: on a degraded RFC 7519 page (1,637 characters)
the 5th percentile was 97.9 and what fell below 95 was ``O`` ``0`` ``l`` ``I`` ``1`` ``q`` ``g``
and specks read as ``.`` or ``~``, the OCR confusions themselves; on the LGPD scan a word of
confidence 18 (``pessoa-``) had every character above 98 but its ``-`` speck."""

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
    import shutil  # with subprocess, only when OCR runs (every reader imports this module)
    import subprocess

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
    """Tesseract's hOCR for one PGM image, with a box and a confidence for every character
    (read from stdin; one thread, as two cores are shared)."""
    import subprocess

    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    cmd = [eng.path, "stdin", "stdout", "-l", lang, "--dpi", str(dpi), "--psm", "3", "-c", "hocr_char_boxes=1", "hocr"]
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
    """One page's OCR text and words (offsets into ``text``; boxes in points, top-left origin),
    and the characters read with low confidence (``[offset, confidence]``)."""

    text: str
    words: list[list[float]] = field(default_factory=list)
    source: str = "tesseract"
    dpi: int = 0
    width: float = 0.0
    height: float = 0.0
    low_chars: list[list[float]] = field(default_factory=list)

    def confidence(self) -> float | None:
        confs = [w[6] for w in self.words if w[6] >= 0]
        return round(sum(confs) / len(confs), 1) if confs else None


_BBOX = re.compile(r"bbox (\d+) (\d+) (\d+) (\d+)")
_WCONF = re.compile(r"x_wconf (-?[\d.]+)")
_CONF = re.compile(r"x_conf (-?[\d.]+)")


def parse_hocr(hocr: str, dpi: int, low: float = LOW_CHAR_CONFIDENCE) -> OcrPage:
    """Page text from Tesseract's hOCR: words joined by spaces, lines by newlines, blocks by a
    blank line; each word keeps its box (converted to points) and confidence, and each
    character read below ``low`` is listed with its offset and confidence.

    >>> w = "<span class='ocrx_word' title='bbox 100 200 150 220; x_wconf 96'>"
    >>> c = "<span class='ocrx_cinfo' title='x_bboxes 1 2 3 4; x_conf {}'>{}</span>"
    >>> word = w + c.format(99, "A") + c.format(41.5, "r") + c.format(98, "t") + "</span>"
    >>> par = "<div class='ocr_carea' id='b1'><p class='ocr_par' id='p1'><span class='ocr_line' id='l1'>"
    >>> p = parse_hocr("<html><body>" + par + word + "</span></p></div></body></html>", 72)
    >>> p.text, p.words, p.low_chars
    ('Art\\n', [[0, 3, 100.0, 200.0, 150.0, 220.0, 96.0]], [[1, 41.5]])
    """
    from lxml import html

    scale = 72 / dpi
    parts: list[str] = []
    words: list[list[float]] = []
    low_chars: list[list[float]] = []
    pos = 0
    last: tuple[str, str, str] | None = None
    root = html.document_fromstring(hocr.encode("utf-8")) if hocr.strip() else None
    for word in root.iterfind(".//span[@class='ocrx_word']") if root is not None else []:
        cinfo = word.findall("span[@class='ocrx_cinfo']")
        chars = [(c.text or "", c.get("title", "")) for c in cinfo]
        if not chars:  # hOCR without character boxes
            chars = [("".join(str(t) for t in word.itertext()).strip(), "")]
        text = "".join(ch for ch, _ in chars).strip()
        box = _BBOX.search(word.get("title", ""))
        if not text or box is None:
            continue
        line = word.getparent()
        par = line.getparent() if line is not None else None
        block = par.getparent() if par is not None else None
        key = tuple(str(e.get("id") if e is not None else "") for e in (block, par, line))
        if last is not None:
            sep = " " if key == last else ("\n\n" if key[0] != last[0] else "\n")
            parts.append(sep)
            pos += len(sep)
        last = key  # type: ignore[assignment]
        conf = _WCONF.search(word.get("title", ""))
        coords = [round(int(v) * scale, 1) for v in box.groups()]
        words.append([pos, pos + len(text), *coords, round(float(conf.group(1)), 1) if conf else -1.0])
        at = pos
        for ch, title in chars:
            m = _CONF.search(title)
            if m and float(m.group(1)) < low and ch.strip():
                low_chars.append([at, round(float(m.group(1)), 1)])
            at += len(ch)
        parts.append(text)
        pos += len(text)
    text = "".join(parts)
    return OcrPage(text + "\n" if text else "", words, dpi=dpi, low_chars=low_chars)

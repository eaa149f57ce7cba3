"""Scanned-document cases made here: corpus PDF pages rendered, degraded like a scan, OCR'd by
ipsis, and quotes taken from the *original* pages' text layer (the truth), each also changed in
a number, a negation and a key word (those must never be located).

Shared by ``tests/test_ocr_corpus.py`` and ``benchmarks/ocr.py``. The degradation follows the
recipe of ``../shared/corpora/scans/README.md`` (200 dpi grey, a small rotation, Gaussian blur
0.6, salt-and-pepper specks on 1/400 of the pixels, JPEG quality 70), with other angles and
seeds per document. Needs Pillow (a dev dependency) and PDFium.
"""

from __future__ import annotations

import io
import random
import re
from dataclasses import dataclass
from pathlib import Path

from tests.shared import corpus

# Development documents (the matcher was written against these) ...
DEV: tuple[tuple[str, tuple[int, ...], str], ...] = (
    ("br/cf88-camara-cedi-texto-atualizado-ec105.pdf", (20, 21), "pt"),
    ("br/lgpd-senado-edicao-2024.pdf", (12, 13), "pt"),
    ("es/constitucion-espanola-boe-consolidado-2024-02-17.pdf", (12, 13), "es"),
    ("rfc/rfc7519-rfceditor-pdfrfc.pdf", (8, 9), "en"),
)
# ... and documents kept out of the work until the end (their figures are reported apart).
HELD_OUT: tuple[tuple[str, tuple[int, ...], str], ...] = (
    ("es/es-codigo-penal-lo-10-1995-boe-consolidado-2024.pdf", (40, 41), "es"),
    ("latam/mx-cpeum-camara-diputados-2024-11-15.pdf", (30, 31), "es"),
    ("br/guia-boas-praticas-lgpd-gov-2020.pdf", (10, 11), "pt"),
)
# The five pages of ../shared/corpora/scans (their originals: the truth for both scan folders).
SCANS: tuple[tuple[str, str, tuple[int, ...], str], ...] = (
    ("scans/lgpd-camara-pp2-4-scanned.pdf", "br/lgpd-camara-cedi-2024.pdf", (2, 3, 4), "pt"),
    ("scans/constitucion-espanola-pp5-6-scanned.pdf", "es/constitucion-espanola-boe-consolidado-2024-02-17.pdf",
     (5, 6), "es"),
)  # fmt: skip

NEGATION = {"pt": "não", "es": "no", "en": "not"}


@dataclass(frozen=True)
class Quote:
    text: str
    page: int  # 1-based page of the scanned PDF
    kind: str  # original | number | negation | keyword


def page_texts(rel: str, pages: tuple[int, ...]) -> list[str]:
    """The original text layer of ``pages`` (1-based) of a corpus PDF, by PDFium."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(corpus(rel)))
    try:
        out = []
        for p in pages:
            page = pdf[p - 1]
            tp = page.get_textpage()
            out.append(tp.get_text_range().replace("\ufffe", "-").replace("\r\n", "\n"))
            tp.close()
            page.close()
        return out
    finally:
        pdf.close()


def degrade(rel: str | Path, pages: tuple[int, ...], seed: int) -> bytes:
    """An image-only PDF of ``pages`` (1-based), each degraded like a scan."""
    import pypdfium2 as pdfium
    from PIL import Image, ImageFilter

    rng = random.Random(seed)
    pdf = pdfium.PdfDocument(str(corpus(str(rel)) if not Path(rel).is_absolute() else rel))
    images = []
    try:
        for p in pages:
            page = pdf[p - 1]
            img = page.render(scale=200 / 72, grayscale=True).to_pil().convert("L")
            page.close()
            img = img.rotate(rng.uniform(-0.7, 0.7), resample=Image.BICUBIC, fillcolor=255)
            img = img.filter(ImageFilter.GaussianBlur(0.6))
            px = img.load()
            w, h = img.size
            for _ in range(w * h // 400):
                px[rng.randrange(w), rng.randrange(h)] = rng.choice((0, 255))
            buf = io.BytesIO()
            img.save(buf, "JPEG", quality=70)
            images.append(Image.open(io.BytesIO(buf.getvalue())))
    finally:
        pdf.close()
    out = io.BytesIO()
    images[0].save(out, "PDF", save_all=True, append_images=images[1:], resolution=200.0)
    return out.getvalue()


def sentences(text: str) -> list[str]:
    """Clauses of a page's text (up to ``.``, ``;`` or ``:``), whitespace collapsed, 40-220 chars."""
    flat = re.sub(r"-\n(?=[a-záéíóúâêôãõç])", "", text)  # pdfium line-end hyphens joined
    flat = re.sub(r"\s+", " ", flat)
    out = []
    for m in re.finditer(r"(?:[^.;:]|[.;:](?=\S))+[.;:](?=\s|$)", flat):
        s = m.group().strip()
        if 40 <= len(s) <= 220 and len(s.split()) >= 6 and not re.search(r"\.{3}|_{3}", s):
            out.append(s)
    return out


def quotes(truth: list[str], lang: str, seed: int, per_page: int = 6) -> list[Quote]:
    """Up to ``per_page`` original quotes per page (unique in the pages' text), each with its
    changed-meaning variants."""
    rng = random.Random(seed)
    whole = re.sub(r"\s+", " ", " ".join(truth))
    out: list[Quote] = []
    for page, text in enumerate(truth, start=1):
        lines = [x.strip() for x in text.splitlines() if x.strip()]
        edges = lines[:2] + lines[-2:]  # running headers/footers are not what people quote
        pool = [s for s in sentences(text) if whole.count(s) == 1 and not any(x in s for x in edges)]
        rng.shuffle(pool)
        for s in pool[:per_page]:
            out.append(Quote(s, page, "original"))
            # a variant still in the original (a negation dropped at the quote's very start:
            # "no dé cumplimiento" -> "dé cumplimiento") is text of the page, not a changed quote
            out.extend(Quote(v, page, k) for k, v in changed(s, lang, rng, whole) if v not in whole)
    return out


def changed(s: str, lang: str, rng: random.Random, whole: str) -> list[tuple[str, str]]:
    """The quote with a number changed (when it has one), its negation added or dropped, and a
    key word (its longest word) replaced by another long word of the pages."""
    out: list[tuple[str, str]] = []
    digits = [m.start() for m in re.finditer(r"\d", s)]
    if digits:
        i = rng.choice(digits)
        out.append(("number", s[:i] + str((int(s[i]) + 3) % 10) + s[i + 1 :]))
    neg = NEGATION[lang]
    words = s.split(" ")
    if neg in words:
        j = words.index(neg)
        out.append(("negation", " ".join(words[:j] + words[j + 1 :])))
    else:
        j = min(2, len(words) - 1)
        out.append(("negation", " ".join([*words[:j], neg, *words[j:]])))
    key = max((w.strip(",.;:()") for w in words), key=len)
    others = sorted({w for w in re.findall(r"[^\W\d_]{7,}", whole) if w.casefold() != key.casefold()})
    if others and len(key) >= 5:
        out.append(("keyword", s.replace(key, rng.choice(others), 1)))
    return out


@dataclass
class Score:
    """Originals located on their page, and changed quotes located (must be 0)."""

    originals: int = 0
    on_page: int = 0
    changed: int = 0
    changed_located: int = 0
    misses: list[tuple[Quote, str]] | None = None

    def add(self, q: Quote, status: str, page: int | None, message: str) -> None:
        if self.misses is None:
            self.misses = []
        if q.kind == "original":
            self.originals += 1
            if status == "located" and page == q.page:
                self.on_page += 1
            else:
                self.misses.append((q, f"{status} p.{page}: {message}"))
        else:
            self.changed += 1
            if status == "located":
                self.changed_located += 1
                self.misses.append((q, f"CHANGED QUOTE LOCATED p.{page}: {message}"))

    @property
    def rate(self) -> float:
        return self.on_page / self.originals if self.originals else 0.0


def score(doc: object, qs: list[Quote], into: Score | None = None) -> Score:
    """Locate every quote in the OCR'd document with the default policy."""
    from ipsis.verify import locate

    out = into or Score()
    for q in qs:
        r = locate(doc, q.text)  # type: ignore[arg-type]
        page = r.matches[0].page if r.matches else None
        if r.status == "located":
            m = r.matches[0]
            assert doc.text[m.start : m.end] == m.text  # type: ignore[attr-defined]
        out.add(q, r.status, page, r.message)
    return out

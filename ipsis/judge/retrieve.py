"""Find the passage a claim cites when there is no quote: BM25 over the source's paragraphs.

Passages are the document's paragraphs (blank-line blocks; a block of long unwrapped lines gives
one passage per line, as in the CRP), or the leaf sections when the document has a section tree.
YAML front matter, leading ``Key: value`` metadata lines and page furniture are skipped. Words are
pt/es/en content words, accents kept (:func:`ipsis.judge.text.content_stems`). An optional
``embed`` function (a local model, see :func:`load_embedder`) breaks near-ties; nothing is ever
downloaded.

>>> from ipsis.document import Document
>>> doc = Document("d", "---\\ntitle: Notes\\n---\\nRefunds take 30 days.\\n\\nShipping is free above 50 euros.\\n")
>>> p = retrieve(doc, "How long do refunds take?")[0]
>>> p.text, doc.text[p.start:p.end] == p.text
('Refunds take 30 days.', True)
"""

from __future__ import annotations

import math
import os
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ipsis.document import Document
from ipsis.errors import InputError, MissingExtraError
from ipsis.judge.support import Passage
from ipsis.judge.text import content_stems
from ipsis.sections import segment

K1, B = 1.5, 0.75
"""BM25 parameters (Robertson's usual values)."""
TIE = 0.05
"""Candidates within 5% of the best BM25 score are re-ranked by the embedding, when one is given."""
LONG_LINE = 100
"""A block whose lines average more than this is unwrapped text: one passage per line."""
MAX_PASSAGE = 3000
"""A leaf section longer than this is split into its paragraphs (twice the judge's default window)."""

_FRONT_MATTER = re.compile(r"\A\ufeff?---[ \t]*\n.*?\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
_META_LINE = re.compile(r"[A-Za-z][\w -]{0,30}:[ \t]+\S.*")

Embedder = Callable[[Sequence[str]], Sequence[Sequence[float]]]


@dataclass(frozen=True, slots=True)
class Scored:
    """A retrieved passage and its BM25 score."""

    passage: Passage
    score: float

    @property
    def text(self) -> str:
        return self.passage.text

    @property
    def start(self) -> int:
        return self.passage.start

    @property
    def end(self) -> int:
        return self.passage.end


def _skip_head(text: str) -> int:
    """Where the body starts: after YAML front matter and leading ``Key: value`` lines."""
    m = _FRONT_MATTER.match(text)
    pos = m.end() if m else 0
    while True:
        nl = text.find("\n", pos)
        line = text[pos : nl if nl != -1 else len(text)]
        if line.strip() and _META_LINE.fullmatch(line.strip()) and len(line) < 200:
            pos = nl + 1 if nl != -1 else len(text)
            continue
        return pos


def _blocks(
    document: Document, lo: int, hi: int, section: str | None = None, label: str | None = None
) -> list[Passage]:
    """The paragraph blocks of ``text[lo:hi]`` (one per line in unwrapped text), furniture skipped."""
    text = document.text
    furniture = document.marks_of({"furniture", "toc"})
    out: list[Passage] = []
    for block in re.finditer(r"(?:[^\n]*\S[^\n]*(?:\n|$))+", text[lo:hi]):
        s0 = lo + block.start()
        lines = [(s0 + m.start(), s0 + m.end()) for m in re.finditer(r"[^\n]*\S[^\n]*", block.group())]
        avg = sum(e - s for s, e in lines) / len(lines)
        spans = lines if avg > LONG_LINE and len(lines) > 1 else [(lines[0][0], lines[-1][1])]
        for s, e in spans:
            while s < e and text[s].isspace():
                s += 1
            if any(m.start <= s and e <= m.end for m in furniture):
                continue
            out.append(Passage(s, e, text[s:e], section, label))
    return out


def passages(document: Document) -> list[Passage]:
    """The retrievable passages of ``document`` (each ``text == document.text[start:end]``).

    A leaf section longer than :data:`MAX_PASSAGE` gives its paragraphs instead, so that a judge
    never reads pages of text.
    """
    text = document.text
    # the same tree locate and the judge's context read: segmented on first use (a file source
    # passed to `ipsis check` as it is, a stored one at ingest)
    tree = document.sections if document.sections is not None else segment(document)
    if tree is not None and hasattr(tree, "__iter__"):
        leaves = [s for s in tree if not getattr(s, "children", ())]
        if leaves:
            out: list[Passage] = []
            for s in leaves:
                if s.end - s.start > MAX_PASSAGE:
                    out.extend(_blocks(document, s.start, s.end, s.id, s.label))
                else:
                    out.append(Passage(s.start, s.end, text[s.start : s.end], s.id, s.label))
            return out
    return _blocks(document, _skip_head(text), len(text))


def retrieve(
    document: Document,
    claim: str,
    k: int = 3,
    embed: Embedder | None = None,
    within: tuple[int, int] | None = None,
) -> list[Scored]:
    """The ``k`` passages of ``document`` that best match ``claim`` (BM25), best first.

    ``within`` (a cited section or line range, ``[start, end)``) keeps only the passages inside
    it, cut at its edges.
    """
    cands = passages(document)
    if within is not None:
        lo, hi = within
        text = document.text
        cut = [(max(p.start, lo), min(p.end, hi), p) for p in cands if p.start < hi and p.end > lo]
        cands = [Passage(s, e, text[s:e], p.section, p.label) for s, e, p in cut if text[s:e].strip()]
    docs = [Counter(content_stems(p.text)) for p in cands]
    query = list(dict.fromkeys(content_stems(claim)))
    if not cands or not query:
        return []
    n = len(docs)
    avg = sum(sum(d.values()) for d in docs) / n or 1.0
    df = Counter(t for d in docs for t in d)
    scored: list[Scored] = []
    for p, d in zip(cands, docs, strict=True):
        length = sum(d.values())
        s = 0.0
        for t in query:
            f = d.get(t, 0)
            if f:
                idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                s += idf * f * (K1 + 1) / (f + K1 * (1 - B + B * length / avg))
        if s > 0:
            scored.append(Scored(p, s))
    scored.sort(key=lambda x: (-x.score, x.start))
    if embed is not None and len(scored) > 1:
        top = [x for x in scored if x.score >= scored[0].score * (1 - TIE)]
        if len(top) > 1:
            vecs = embed([claim] + [x.text for x in top])
            q = vecs[0]
            ranked = sorted(zip(top, vecs[1:], strict=True), key=lambda tv: -_cosine(q, tv[1]))
            scored = [x for x, _ in ranked] + scored[len(top) :]
    return scored[:k]


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    num = sum(x * y for x, y in zip(a, b, strict=True))
    den = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return num / den if den else 0.0


def load_embedder(model_path: str | Path) -> Embedder:
    """A sentence-embedding function from a local model folder (``ipsis[embed]``); never downloads."""
    path = Path(model_path)
    if not path.is_dir():
        msg = f"embedding model folder {path} does not exist; give a local sentence-transformers model path"
        raise InputError(msg)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        msg = "the embedding tie-break needs the optional extra: pip install 'ipsis[embed]'"
        raise MissingExtraError(msg) from exc
    model = SentenceTransformer(str(path), local_files_only=True)  # pragma: no cover - needs the extra

    def embed(texts: Sequence[str]) -> Sequence[Sequence[float]]:  # pragma: no cover
        return [list(map(float, v)) for v in model.encode(list(texts))]

    return embed  # pragma: no cover

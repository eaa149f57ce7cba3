"""The hunt's near misses through the other paths: an answer read by ``check`` (plain text with
``[n]`` markers, and Anthropic ``char_location`` citations whose offsets point at the real
passage), with real passages attributed to the wrong source.

Each builder returns the answer and, per citation in order, what the library's own
:func:`~ipsis.verify.locate` says of the quote against the cited source (the status ``check``
must give), or ``None`` for a real passage cited to a source it is not in (never ``located``).
"""

from __future__ import annotations

import json
import random
from typing import Any

from ipsis.document import Document
from ipsis.verify import locate
from tests.hunt.core import Case, passages

Want = list[tuple[str, str | None]]
"""Per citation: the quote, and the status of :func:`locate` (None: cited to the wrong source)."""


def _plain(q: str) -> str | None:
    """The quote on one line, or None when it holds a quote mark or bracket (the answer's syntax)."""
    if any(c in q for c in '"“”«»[]'):
        return None
    return " ".join(q.split()) or None


def _plain_cases(cases: list[Case], docs: list[Document]) -> list[tuple[Case, str, int]]:
    out = []
    for c in cases:
        q = _plain(c.quote)
        if q is not None and not (c.section or c.prefix or c.suffix or c.policy) and c.doc in docs:
            out.append((c, q, docs.index(c.doc) + 1))
    return out


def _wrong_source(docs: list[Document], per_doc: int, seed: int) -> list[tuple[str, int, tuple[int, int], int]]:
    """Real passages of each document, attributed to the next one: (quote, cited, span, owner)."""
    out = []
    for i, doc in enumerate(docs):
        for s, e in passages(doc, per_doc, random.Random(seed))[:per_doc]:
            q = _plain(doc.text[s:e])
            if q is not None:
                out.append((q, (i + 1) % len(docs) + 1, (s, e), i + 1))
    return out


def plain_answer(cases: list[Case], docs: list[Document], per_doc: int = 8, seed: int = 3) -> tuple[str, Want]:
    """A plain-text answer citing each quote ``"…" [n]``."""
    sents, want = [], []
    for c, q, n in _plain_cases(cases, docs):
        sents.append(f'The text says "{q}" [{n}].')
        want.append((q, locate(c.doc, q).status))
    for q, n, _, _ in _wrong_source(docs, per_doc, seed):
        sents.append(f'The text says "{q}" [{n}].')
        want.append((q, None))
    return " ".join(sents), want


def anthropic_answer(cases: list[Case], docs: list[Document], per_doc: int = 8, seed: int = 3) -> tuple[str, Want]:
    """An Anthropic Messages response whose ``char_location`` citations hold the quote as
    ``cited_text`` and the offsets of the real passage it was made from (the offsets claim the
    place; the text is the near miss); real passages of one document cited by index to another
    with their own offsets."""
    blocks: list[dict[str, Any]] = []
    want: Want = []

    def cite(q: str, index: int, span: tuple[int, int]) -> None:
        loc = {"type": "char_location", "cited_text": q, "document_index": index, "document_title": docs[index].id,
               "start_char_index": span[0], "end_char_index": span[1]}  # fmt: skip
        blocks.append({"type": "text", "text": "It says so", "citations": [loc]})
        blocks.append({"type": "text", "text": ". "})

    for c, q, n in _plain_cases(cases, docs):
        cite(q, n - 1, c.span)
        want.append((q, locate(c.doc, q).status))
    for q, n, span, _ in _wrong_source(docs, per_doc, seed):
        cite(q, n - 1, span)
        want.append((q, None))
    msg = {"id": "msg_hunt", "type": "message", "role": "assistant", "model": "hunt", "content": blocks,
           "stop_reason": "end_turn"}  # fmt: skip
    return json.dumps(msg, ensure_ascii=False), want

"""Documents to and from database rows (JSON columns), and the text the index holds.

The index holds the *typography view* of the document text (the view the default policy
matches against: hyphenation joined, furniture skipped, quotes and dashes unified), so a
quote's words are found as a phrase even when the document wraps or hyphenates them.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ipsis.document import Document, Hint, Mark
from ipsis.store.blobs import sha256_of

INDEX_TIER = "typography"
WORDS = re.compile(r"[^\W_]+")
_TOKEN = WORDS
MAX_QUERY_TOKENS = 64
"""A longer quote is looked up by its first words: the phrase stays selective, the query cheap."""
RARE_TERMS = 4
"""Words of a quote used to find candidate sources: the rarest ones, so the index reads short lists."""


@dataclass(frozen=True, slots=True)
class Payload:
    columns: dict[str, Any]
    index_text: str


def index_text(doc: Document) -> str:
    """The text put in the found-elsewhere index for ``doc``."""
    from ipsis.verify.match import document_view

    return document_view(doc, INDEX_TIER).text  # the view a run matches against: built once at ingest


@lru_cache(maxsize=65536)
def fold(token: str) -> str:
    """A word as the index tokenizer keeps it (unicode61, remove_diacritics 2): lower case, no accents
    (the words of recent quotes kept: a batch folds the same words over and over).

    >>> fold("Constituição"), fold("ÍNDICE")
    ('constituicao', 'indice')
    """
    decomposed = unicodedata.normalize("NFD", token.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def terms_of(text: str) -> set[str]:
    """The distinct folded words of an index text (for the document-frequency table)."""
    return {fold(t) for t in _TOKEN.findall(text)}


def rare_terms_query(quote_view_text: str, df: dict[str, int], k: int = RARE_TERMS) -> str | None:
    """An FTS5 query AND-ing the ``k`` rarest words of a quote (``df``: documents per word).

    None when the quote has no words, or a word that no document holds (it cannot be anywhere).

    >>> df = {"todos": 9, "sao": 9, "iguais": 2, "perante": 3, "a": 9, "lei": 7}
    >>> rare_terms_query("Todos são iguais perante a lei", df, k=3)
    '"iguais" AND "perante" AND "lei"'
    >>> rare_terms_query("Ολομέλεια", {"ολομελεια": 1})
    '"Ολομέλεια"'
    >>> rare_terms_query("Todos são iguais", {"todos": 9, "sao": 9}) is None
    True
    """
    words: dict[str, str] = {}
    for t in _TOKEN.findall(quote_view_text):
        words.setdefault(fold(t), t)  # the query keeps the word as written: FTS5 folds it its own way
    if not words or any(df.get(w, 0) == 0 for w in words):
        return None
    rarest = sorted(words, key=lambda w: df[w])[:k]
    return " AND ".join(f'"{words[w]}"' for w in rarest)


def phrase_query(quote_view_text: str) -> str | None:
    """An FTS5 phrase query for a normalized quote, or None when it has no words.

    >>> phrase_query("Art. 5º Todos são iguais perante a lei")
    '"Art 5º Todos são iguais perante a lei"'
    >>> phrase_query("... --") is None
    True
    """
    tokens = _TOKEN.findall(quote_view_text)[:MAX_QUERY_TOKENS]
    return '"' + " ".join(tokens) + '"' if tokens else None


def _sections_json(doc: Document) -> tuple[str | None, int | None]:
    tree = doc.sections
    if tree is None:
        from ipsis.sections import segment

        tree = segment(doc)
    to_json = getattr(tree, "to_json", None)
    if to_json is None:
        return None, None
    return json.dumps(to_json(), ensure_ascii=False), len(tree)


def document_payload(doc: Document) -> Payload:
    """The row columns of ``doc`` and its index text."""
    sections, count = _sections_json(doc)
    meta = {k: v for k, v in doc.meta.items() if k not in ("path", "sha256")}
    columns = {
        "text": doc.text,
        "text_sha256": sha256_of(doc.text.encode("utf-8", "surrogatepass")),
        "text_length": len(doc.text),
        "page_starts": json.dumps(list(doc.page_starts)),
        "marks": json.dumps([m.to_json() for m in doc.marks], ensure_ascii=False),
        "hints": json.dumps([h.to_json() for h in doc.hints], ensure_ascii=False),
        "meta": json.dumps(meta, ensure_ascii=False, default=str),
        "sections": sections,
        "page_count": len(doc.page_starts),
        "section_count": count,
    }
    return Payload(columns, index_text(doc))


def _sections_from_json(data: dict[str, Any]) -> Any:
    from ipsis.sections import Section, SectionTree
    from ipsis.sections.tree import SectionVersion

    secs = [  # positional: the fields in their order (id, kind, label, title, start, end, parent, ...)
        Section(
            s["id"],
            s["kind"],
            s["label"],
            s.get("title", ""),
            s["start"],
            s["end"],
            s.get("parent"),
            tuple(s.get("children", ())),
            bool(s.get("revoked", False)),
            bool(s.get("has_notes", False)),
            # a revoked section's own text is struck, which to_json does not say twice
            bool(s.get("has_revoked", False) or s.get("revoked", False)),
            tuple(SectionVersion(**v) for v in s.get("versions", ())),
        )
        for s in data["sections"]
    ]
    return SectionTree(data["doc_id"], secs, data["length"], data.get("family", "generic"))


def document_from_row(row: Mapping[str, Any]) -> Document:
    """Rebuild the Document of a ``versions`` row, with the store's facts in ``meta``."""
    marks = tuple(Mark(m["kind"], m["start"], m["end"], m.get("note", "")) for m in json.loads(row["marks"]))
    hints = tuple(
        Hint(h["kind"], h["value"], h["start"], h["end"], tuple(h.get("attrs", {}).items()))
        for h in json.loads(row["hints"])
    )
    meta = dict(json.loads(row["meta"]))
    meta.update(
        {
            "store_id": row["id"],
            "name": row["name"],
            "version": row["version"],
            "sha256": row["sha256"],
            "size": row["size"],
            "retrieved_at": row["retrieved_at"],
            "ingested_at": row["ingested_at"],
            "origin": row["origin"],
            "media_type": row["media_type"],
            "extractor": row["extractor"],
            "extractor_version": row["extractor_version"],
        }
    )
    doc = Document(row["id"], row["text"], tuple(json.loads(row["page_starts"])), marks, hints, meta)
    if row["sections"]:
        doc.sections = _sections_from_json(json.loads(row["sections"]))
    return doc

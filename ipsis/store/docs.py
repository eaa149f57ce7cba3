"""Documents to and from database rows (JSON columns), and the text the index holds.

The index holds the *typography view* of the document text (the view the default policy
matches against: hyphenation joined, furniture skipped, quotes and dashes unified), so a
quote's words are found as a phrase even when the document wraps or hyphenates them.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass
from typing import Any

from ipsis.document import Document, Hint, Mark
from ipsis.ingest.normalize import normalize
from ipsis.store.blobs import sha256_of

INDEX_TIER = "typography"
_TOKEN = re.compile(r"[^\W_]+")
MAX_QUERY_TOKENS = 64
"""A longer quote is looked up by its first words: the phrase stays selective, the query cheap."""


@dataclass(frozen=True, slots=True)
class Payload:
    columns: dict[str, Any]
    index_text: str


def index_text(doc: Document) -> str:
    """The text put in the found-elsewhere index for ``doc``."""
    return normalize(doc.text, INDEX_TIER, marks=doc.marks).text


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

    secs = [
        Section(
            id=s["id"],
            kind=s["kind"],
            label=s["label"],
            title=s.get("title", ""),
            start=s["start"],
            end=s["end"],
            parent=s.get("parent"),
            children=tuple(s.get("children", ())),
            revoked=bool(s.get("revoked", False)),
            has_notes=bool(s.get("has_notes", False)),
        )
        for s in data["sections"]
    ]
    return SectionTree(data["doc_id"], secs, data["length"], data.get("family", "generic"))


def document_from_row(row: sqlite3.Row) -> Document:
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

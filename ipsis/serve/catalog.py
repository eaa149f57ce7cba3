"""The sources one request may use: inline texts (cached by content) and stored sources
(only those the request's user may read; a hidden source is indistinguishable from a missing one).

Nothing here ever opens a path that came from a request.
"""

from __future__ import annotations

import hashlib
from typing import Any

from ipsis.document import Document
from ipsis.sections import segment
from ipsis.serve.cache import DocumentCache


def _segmented(doc: Document) -> Document:
    if doc.sections is None:
        segment(doc)
    return doc


class Catalog:
    """Inline and stored documents, loaded once and kept in a bounded LRU."""

    def __init__(self, cache: DocumentCache, store_dir: str | None = None) -> None:
        self.cache = cache
        self.store_dir = store_dir

    @property
    def has_store(self) -> bool:
        return self.store_dir is not None

    def inline(self, source_id: str, text: str) -> Document:
        """A document for an inline text; the same id and text reuse the same views."""
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        return self.cache.get_or_load(("inline", source_id, digest), lambda: _segmented(Document(source_id, text)))

    def stored(self, source_id: str, user: str | None) -> Document | None:
        """The stored document ``user`` may read, or None (missing and hidden look the same)."""
        return None

    def versions(self, user: str | None) -> list[dict[str, Any]]:
        """The stored source versions ``user`` may read, as ``ipsis sources --format json`` prints them."""
        return []

    def sections(self, source_id: str, user: str | None) -> dict[str, Any] | None:
        """The section tree of a stored source ``user`` may read (``ipsis sections --format json``)."""
        doc = self.stored(source_id, user)
        if doc is None:
            return None
        tree = doc.sections if doc.sections is not None else segment(doc)
        return tree.to_json()

    def stats(self) -> dict[str, Any]:
        return {"store": self.store_dir is not None, "cache": self.cache.stats()}

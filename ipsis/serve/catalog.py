"""The sources one request may use: inline texts (cached by content) and stored sources
(only those the request's user may read; a hidden source is indistinguishable from a missing one).
Inline texts are cached per user: one user's request never finds another user's text already
loaded, neither in the counters nor by its speed.

Nothing here ever opens a path that came from a request. Each worker thread has its own store
connection (SQLite connections stay in their thread); documents live in one bounded LRU shared
by the threads, keyed by id and SHA-256, so a source's normalized views are built once.
"""

from __future__ import annotations

import hashlib
import threading
from typing import TYPE_CHECKING, Any

from ipsis.doccache import DocumentCache
from ipsis.document import Document
from ipsis.ingest import text_source
from ipsis.sections import segment

if TYPE_CHECKING:
    from ipsis.store import SourceVersion, Store


def _segmented(doc: Document) -> Document:
    if doc.sections is None:
        segment(doc)
    return doc


class Catalog:
    """Inline and stored documents, loaded once and kept in a bounded LRU."""

    def __init__(self, cache: DocumentCache, store_dir: str | None = None) -> None:
        self.cache = cache
        self.store_dir = store_dir
        self._local = threading.local()

    @property
    def has_store(self) -> bool:
        return self.store_dir is not None

    def store(self) -> Store | None:
        """This thread's connection to the store (None without ``--store``)."""
        if self.store_dir is None:
            return None
        store = getattr(self._local, "store", None)
        if store is None:
            from ipsis.store import Store

            store = Store.open(self.store_dir)
            # every document the store hands out (verify runs, found elsewhere) goes through the LRU
            store.__dict__["document_of"] = lambda sv, _s=store: self._load(_s, sv)
            # a document in the LRU is shared by the threads: its lazy reads use the reader's connection
            store.__dict__["for_this_thread"] = self.store
            self._local.store = store
        return store

    def _load(self, store: Store, sv: SourceVersion) -> Document:
        def load() -> Document:
            doc = type(store).document_of(store, sv)
            store._docs.discard(sv.pk)  # held by the bounded LRU only
            return _segmented(doc)

        return self.cache.get_or_load(("stored", sv.id, sv.sha256), load)

    def inline(self, source_id: str, text: str, user: str | None = None) -> Document:
        """A document for an inline text, read as a file of that text would be (RFC page
        furniture marked: :func:`~ipsis.ingest.text_source`); the same user, id and text reuse
        the same views."""
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        load = lambda: _segmented(text_source(text, source_id))  # noqa: E731
        return self.cache.get_or_load(("inline", user, source_id, digest), load, user)

    def stored(self, source_id: str, user: str | None) -> Document | None:
        """The stored document ``user`` may read, or None (missing and hidden look the same)."""
        store = self.store()
        if store is None:
            return None
        sv = store.get(source_id, user)
        return None if sv is None else self._load(store, sv)

    def versions(self, user: str | None) -> list[dict[str, Any]]:
        """The stored source versions ``user`` may read, as ``ipsis sources --format json`` prints them."""
        store = self.store()
        return [] if store is None else [v.to_json() for v in store.versions(user)]

    def sections(self, source_id: str, user: str | None) -> dict[str, Any] | None:
        """The section tree of a stored source ``user`` may read (``ipsis sections --format json``)."""
        doc = self.stored(source_id, user)
        if doc is None:
            return None
        tree = doc.sections if doc.sections is not None else segment(doc)
        return tree.to_json()

    def stats(self, user: str | None = None) -> dict[str, Any]:
        return {"store": self.store_dir is not None, "cache": self.cache.stats(user)}

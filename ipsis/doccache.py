"""A bounded, thread-safe LRU of documents whose normalized views are reused across requests
(``ipsis serve``) and across the records of a run (the store's documents, :class:`ipsis.store.Store`).

``locate()`` builds each tier's view of a document once and keeps it on ``Document.cache``;
keeping the document itself alive between requests is what makes the second request on the
same source cheap. The cache is bounded both by the number of documents and by their total
text length (views cost a few times the text). Hits and misses are counted per user (``who``),
so that no user can learn from the counters what another one sent.

>>> from ipsis.document import Document
>>> cache = DocumentCache(max_documents=2)
>>> for name in ("a", "b", "c"):
...     _ = cache.get_or_load(("inline", name), lambda name=name: Document(name, name * 3))
>>> cache.keys()
[('inline', 'b'), ('inline', 'c')]
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from ipsis.document import Document


class DocumentCache:
    """Documents by key, least recently used evicted first."""

    def __init__(self, max_documents: int = 64, max_chars: int = 200_000_000) -> None:
        self.max_documents = max(1, max_documents)
        self.max_chars = max_chars
        self._items: OrderedDict[Hashable, Document] = OrderedDict()
        self._chars = 0
        self._lock = threading.Lock()
        self.hits: Counter[str | None] = Counter()
        self.misses: Counter[str | None] = Counter()

    def get(self, key: Hashable, who: str | None = None) -> Document | None:
        with self._lock:
            doc = self._items.get(key)
            if doc is not None:
                self._items.move_to_end(key)
                self.hits[who] += 1
            return doc

    def put(self, key: Hashable, doc: Document) -> Document:
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._chars -= len(old.text)
            self._items[key] = doc
            self._chars += len(doc.text)
            while len(self._items) > 1 and (len(self._items) > self.max_documents or self._chars > self.max_chars):
                _, gone = self._items.popitem(last=False)
                self._chars -= len(gone.text)
        return doc

    def discard(self, key: Hashable) -> None:
        """Forget ``key`` (its document changed)."""
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._chars -= len(old.text)

    def get_or_load(self, key: Hashable, load: Callable[[], Document], who: str | None = None) -> Document:
        """The cached document, or ``load()`` (run outside the lock; two racing loads are harmless)."""
        doc = self.get(key, who)
        if doc is not None:
            return doc
        with self._lock:
            self.misses[who] += 1
        return self.put(key, load())

    def keys(self) -> list[Hashable]:
        with self._lock:
            return list(self._items)

    def stats(self, who: str | None = None) -> dict[str, Any]:
        """Size and bounds, and the hits and misses of ``who``'s requests."""
        with self._lock:
            return {
                "documents": len(self._items),
                "chars": self._chars,
                "max_documents": self.max_documents,
                "max_chars": self.max_chars,
                "hits": self.hits[who],
                "misses": self.misses[who],
            }

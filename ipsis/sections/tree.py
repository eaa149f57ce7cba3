"""The section records: :class:`Section` and :class:`SectionTree` (pure, no I/O).

>>> t = SectionTree("d", [
...     Section("art-1", "artigo", "Art. 1º", "", 0, 20, None, ("art-1/par-1",)),
...     Section("art-1/par-1", "paragrafo", "§ 1º", "", 10, 20, "art-1", ()),
... ], 20)
>>> t.innermost_at(12).id, t.path(t["art-1/par-1"])
('art-1/par-1', 'Art. 1º › § 1º')
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

CONTAINER_KINDS = frozenset({"parte", "livro", "titulo", "capitulo", "secao", "subsecao", "disposiciones", "scope"})


@dataclass(frozen=True, slots=True)
class Section:
    """One section; ``text[start:end]`` is its text, children included.

    ``id`` is a stable path (``art-5/par-1/inc-II``, ``sec-4.1.2``, ``adct/art-1``); ``parent``
    is the id of the enclosing section in the tree (a chapter may enclose an article whose id
    does not name the chapter). ``revoked``: the section's own text is revoked ("(Revogado)" or
    a ``revoked`` mark); ``has_notes``: amendment notes inside its own text.
    """

    id: str
    kind: str
    label: str
    title: str
    start: int
    end: int
    parent: str | None
    children: tuple[str, ...] = ()
    revoked: bool = False
    has_notes: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "label": self.label,
            "start": self.start,
            "end": self.end,
        }
        if self.title:
            out["title"] = self.title
        out["parent"] = self.parent
        if self.children:
            out["children"] = list(self.children)
        if self.revoked:
            out["revoked"] = True
        if self.has_notes:
            out["has_notes"] = True
        return out


class SectionTree:
    """Sections of one document in document order, with lookup by id and by offset."""

    __slots__ = ("_by_id", "_sections", "_starts", "doc_id", "family", "length")

    def __init__(self, doc_id: str, sections: Sequence[Section], length: int, family: str = "generic") -> None:
        self.doc_id = doc_id
        self.family = family
        self.length = length
        self._sections = tuple(sorted(sections, key=lambda s: (s.start, -s.end)))
        self._by_id = {s.id: s for s in self._sections}
        self._starts = [s.start for s in self._sections]

    def __iter__(self) -> Iterator[Section]:
        return iter(self._sections)

    def __len__(self) -> int:
        return len(self._sections)

    def __contains__(self, section_id: object) -> bool:
        return section_id in self._by_id

    def __getitem__(self, section_id: str) -> Section:
        return self._by_id[section_id]

    def get(self, section_id: str) -> Section | None:
        return self._by_id.get(section_id)

    @property
    def roots(self) -> list[Section]:
        return [s for s in self._sections if s.parent is None]

    def of_kind(self, *kinds: str) -> list[Section]:
        return [s for s in self._sections if s.kind in kinds]

    def innermost_at(self, offset: int) -> Section | None:
        """The deepest section whose span holds ``offset`` (O(log n + depth))."""
        k = bisect_right(self._starts, offset) - 1
        if k < 0:
            return None
        sec: Section | None = self._sections[k]
        while sec is not None and not (sec.start <= offset < sec.end):
            sec = self._by_id.get(sec.parent) if sec.parent else None
        return sec

    def ancestors(self, section: Section) -> list[Section]:
        """Enclosing sections, outermost first (the section itself excluded)."""
        out: list[Section] = []
        parent = section.parent
        while parent is not None:
            p = self._by_id[parent]
            out.append(p)
            parent = p.parent
        return out[::-1]

    def path(self, section: Section, sep: str = " › ") -> str:
        """Display path from the id: ``Art. 7º › § 1º › II``, ``ADCT › Art. 1º``, ``4.1.2.``."""
        parts = section.id.split("/")
        labels = []
        for i in range(1, len(parts) + 1):
            node = self._by_id.get("/".join(parts[:i]))
            if node is not None:
                labels.append(node.label)
        return sep.join(labels) if labels else section.label

    def text_of(self, text: str, section_id: str) -> str:
        s = self._by_id[section_id]
        return text[s.start : s.end]

    def to_json(self) -> dict[str, Any]:
        return {
            "doc_id": self.doc_id,
            "family": self.family,
            "length": self.length,
            "sections": [s.to_json() for s in self._sections],
        }

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

from ipsis.sections.eid import akn_eid

CONTAINER_KINDS = frozenset(
    {"parte", "livro", "titulo", "subtitulo", "capitulo", "secao", "subsecao", "disposiciones", "scope"}
)


@dataclass(frozen=True, slots=True)
class SectionVersion:
    """One dated wording of a section (BOE ``<version>``); dates are ISO ``YYYY-MM-DD``.

    ``in_force_from``: ``fecha_vigencia``; ``published``: ``fecha_publicacion``; ``norm``: the
    norm that gave this wording (``BOE-A-1992-20403``); ``in_text``: the wording in the document
    text, by default the latest (build the document of another date with
    :func:`ipsis.sections.document_at`).
    """

    in_force_from: str
    published: str
    norm: str
    in_text: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "in_force_from": self.in_force_from,
            "published": self.published,
            "norm": self.norm,
            "in_text": self.in_text,
        }


@dataclass(frozen=True, slots=True)
class Section:
    """One section; ``text[start:end]`` is its text, children included.

    ``id`` is a stable path (``art-5/par-1/inc-II``, ``sec-4.1.2``, ``adct/art-1``); ``parent``
    is the id of the enclosing section in the tree (a chapter may enclose an article whose id
    does not name the chapter). Flags on the section's *own* text (its span minus its
    children): ``revoked`` ("(Revogado)", or struck through almost entirely), ``has_revoked``
    (some of it struck: an old wording kept next to the current one, as Planalto prints
    Art. 3º II of the LGPD three times), ``has_notes`` (amendment notes). ``versions``: the
    dated wordings of a multi-version source (BOE blocks), oldest first; ``in_text`` marks the
    one in the document text (the latest, unless the document was built for another date).
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
    has_revoked: bool = False
    versions: tuple[SectionVersion, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "eId": akn_eid(self.id),
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
        if self.has_revoked and not self.revoked:
            out["has_revoked"] = True
        if self.versions:
            out["versions"] = [v.to_json() for v in self.versions]
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
        if section.id not in self._by_id:  # a paragraph read for a reference (`art-4/prr-3`)
            labels.append(section.label)
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

"""What changed between two versions of a source, section by section (pure: no I/O).

:func:`diff_documents` segments both documents (:mod:`ipsis.sections`) and aligns their
sections by id, then, for the sections left on either side, by text (a renumbered article keeps
its words). Each section gets one :class:`SectionChange`:

- ``unchanged``: the same text (compared as :func:`comparable_text` gives it);
- ``amended``: the same id, another text (word diff and reason flags as in near misses, and the
  amending notes the newer version prints, ``(Redação dada pela Emenda Constitucional nº 45...)``);
- ``revoked``: the newer version prints the section as revoked (``(Revogado)``, struck text);
- ``added`` / ``removed``: only in the newer / the older version;
- ``moved``: another id with the same text (renumbered).

A section's text includes its children, so an article whose inciso changed is ``amended`` too;
counts are given per section kind (``artigo``, ``paragrafo``, ...).

Compared text: editorial notes are not the norm's text, so the reader's ``note`` marks,
parenthesised amendment notes (``(Incluído pela Lei nº 13.853, de 2019)``, ``(Inciso acrescido
pela Emenda Constitucional nº 45, de 2004)``, ``(Vide ...)``), veto marks, Planalto's
``Vigência`` links, struck (``revoked``) wordings kept next to the current one and what matching
skips (a PDF edition's running headers and page numbers, footnote calls) are left out; the rest
is compared in the typography view with whitespace collapsed and ordinal signs written one way
(``Art. 1o`` is ``Art. 1º``), so a re-typeset edition is not an amendment.

>>> from ipsis.document import SKIPPED_IN_MATCHING, Document, Mark
>>> a = Document("lei@1", "Art. 1º O prazo é de 30 dias.\\nArt. 2º A lei vale já.\\n")
>>> b = Document("lei@2", "Art. 1º O prazo é de 60 dias. (Redação dada pela Lei nº 2)\\nArt. 2º A lei vale já.\\n")
>>> d = diff_documents(a, b)
>>> [(c.id, c.change) for c in d.changes]
[('art-1', 'amended'), ('art-2', 'unchanged')]
>>> d.changes[0].notes, d.changes[0].flags[0]["flag"]
(('(Redação dada pela Lei nº 2)',), 'number_changed')
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ipsis.document import SKIPPED_IN_MATCHING, Document, Mark
from ipsis.ingest.normalize import normalize
from ipsis.sections import segment
from ipsis.sections.tree import Section, SectionTree
from ipsis.verify.reasons import classify, tokens, word_diff

UNCHANGED, AMENDED, REVOKED, ADDED, REMOVED, MOVED = "unchanged", "amended", "revoked", "added", "removed", "moved"
CHANGES: tuple[str, ...] = (UNCHANGED, AMENDED, REVOKED, ADDED, REMOVED, MOVED)

LINK = r"[ \t\xa0]*(?:Vigência|Regulamento)(?=[ \t\xa0]*(?:\(|\n|$))"
"""The link Planalto prints after a note or at a paragraph's end (``(Incluído pela Lei nº 13.853,
de 2019) Vigência``, ``... alterações: Vigência``, ``Regulamento``): the edition's, not the norm's."""
BARE = r"\((?:VETAD[OA]S?|Vetad[oa]s?|Revogad[oa]s?)\)"
NOTE = re.compile(
    BARE + r"\.?"
    r"|\((?=[^()]{0,300}?\b(?:[Rr]edação|[Ii]ncluíd[oa]s?|[Aa]crescid[oa]s?|[Rr]evogad[oa]s?|[Rr]enumerad[oa]s?|"
    r"[Vv]ide|[Rr]egulamento|[Vv]igência|[Pp]romulgação|[Rr]epublicad[oa]|[Ee]mendas? [Cc]onstituciona|Lei n[ºo°])\b)"
    r"[^()]{0,300}?(?:\)|(?<=\d{4})(?=[ \t]*\n))(?:" + LINK + r")?"
    r"|(?<=[).;:])" + LINK
)
"""A parenthesised editorial note that cites the act behind a wording (pt editions); one whose
closing parenthesis the edition forgot ends at the act's year and the line end. Also the bare
marks ``(VETADO).`` / ``(Vetado)`` / ``(Revogado).`` that stand for a wording (a note in one
edition's markup, plain text in another's; ``§ 3º (VETADO na Lei nº 13.853...)`` in a third), and
Planalto's links (:data:`LINK`)."""
LINK_AFTER = re.compile(LINK)
BARE_MARK = re.compile(BARE + r"\Z")
ORDINAL_SIGN = re.compile(r"(?<=\b[Nn])(?:\.?[º°o]|\.º)(?=\s*\d)|(?<=\d)[°o](?!\w)")
"""An ordinal or number sign printed another way: ``nº``/``no``/``n°`` before a number (the Senado
edition's superscript ``o`` read flat, ``Lei no 13.709``) and ``1o``/``1°`` for ``1º``; each is
written ``º``. ``1ª`` stays apart (feminine), and a letter glued to a number is left alone."""
CONTEXT_WORDS = 4
MAX_WORD_DIFF = 6000
"""Characters above which a section with children gets no word diff of its own."""


@dataclass(frozen=True, slots=True)
class SectionChange:
    """One section's fate between versions ``a`` and ``b``; ``id`` is the newer id when there is one."""

    change: str
    id: str
    kind: str
    label: str
    a: tuple[int, int] | None = None
    b: tuple[int, int] | None = None
    id_a: str | None = None
    notes: tuple[str, ...] = ()
    words: tuple[dict[str, Any], ...] = ()
    flags: tuple[dict[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"change": self.change, "id": self.id, "kind": self.kind, "label": self.label}
        if self.id_a is not None and self.id_a != self.id:
            out["id_a"] = self.id_a
        if self.a is not None:
            out["a"] = {"start": self.a[0], "end": self.a[1]}
        if self.b is not None:
            out["b"] = {"start": self.b[0], "end": self.b[1]}
        if self.notes:
            out["notes"] = list(self.notes)
        if self.words:
            out["words"] = list(self.words)
        if self.flags:
            out["flags"] = list(self.flags)
        return out


@dataclass(slots=True)
class DocumentDiff:
    """Every section's change from ``a`` to ``b``, in the order of ``b`` (then ``a``'s removed)."""

    a: str
    b: str
    changes: list[SectionChange] = field(default_factory=list)

    def counts(self, kind: str | None = None) -> dict[str, int]:
        """How many sections (of section ``kind``, e.g. ``artigo``) had each change."""
        c = Counter(ch.change for ch in self.changes if kind is None or ch.kind == kind)
        return {k: c[k] for k in CHANGES if c[k]}

    def get(self, section_id: str) -> SectionChange | None:
        return next((c for c in self.changes if c.id == section_id or c.id_a == section_id), None)

    def changed_ids(self) -> set[str]:
        """Ids (in ``a`` and ``b``) of the sections amended, revoked, removed or moved."""
        out: set[str] = set()
        for c in self.changes:
            if c.change in (AMENDED, REVOKED, REMOVED, MOVED):
                out.add(c.id)
                if c.id_a:
                    out.add(c.id_a)
        return out

    def to_json(self) -> dict[str, Any]:
        kinds = sorted({c.kind for c in self.changes})
        return {
            "a": self.a,
            "b": self.b,
            "counts": self.counts(),
            "counts_by_kind": {k: self.counts(k) for k in kinds},
            "changes": [c.to_json() for c in self.changes],
        }


EXCLUDED_MARKS = frozenset({"note", "revoked"}) | SKIPPED_IN_MATCHING
"""Marks whose text is not compared: notes, struck wordings, and what matching skips too (page
furniture: a PDF edition's running header inside a section; footnote calls)."""


def _tree(doc: Document) -> SectionTree:
    return doc.sections if isinstance(doc.sections, SectionTree) else segment(doc)


def _link_end(text: str, mark: Mark) -> int:
    """A note mark's end, past the full stop of a bare mark (``(VETADO).``) and the link the
    edition prints after it."""
    if mark.kind != "note":
        return mark.end
    end = mark.end + (text.startswith(".", mark.end) and bool(BARE_MARK.match(text, mark.start, mark.end)))
    link = LINK_AFTER.match(text, end)
    return link.end() if link else end


def _excluded(doc: Document, start: int, end: int) -> list[tuple[int, int]]:
    spans = [(max(m.start, start), min(_link_end(doc.text, m), end)) for m in doc.marks if m.kind in EXCLUDED_MARKS]
    return sorted((s, e) for s, e in spans if s < e)


def comparable_text(doc: Document, start: int, end: int) -> str:
    """``doc.text[start:end]`` without editorial notes and struck wordings, in the typography
    view, whitespace collapsed, ordinal signs written one way: what two versions must share to
    be the same wording.

    >>> t = "§ 1o (VETADO).   (Incluído pela Lei no 13.853, de 2019)   Vigência\n"
    >>> comparable_text(Document("lei", t), 0, len(t))
    '§ 1º'
    """
    parts, pos = [], start
    for s, e in _excluded(doc, start, end):
        if s > pos:
            parts.append(doc.text[pos:s])
        pos = max(pos, e)
    parts.append(doc.text[pos:end])
    text = ORDINAL_SIGN.sub("º", NOTE.sub(" ", " ".join(parts)))
    return " ".join(normalize(text, "typography").text.split())


def _body(doc: Document, sec: Section) -> str:
    """The section's comparable text without its own label (``Art. 5º``), for renumbering."""
    text = comparable_text(doc, sec.start, sec.end)
    label = " ".join(sec.label.split())
    return text[len(label) :].lstrip(" .-–:") if label and text.startswith(label) else text


def notes_in(doc: Document, start: int, end: int) -> tuple[str, ...]:
    """The amendment notes printed inside ``[start, end)``: note marks and parenthesised notes."""
    found = [(m.start, doc.text[m.start : m.end]) for m in doc.marks if m.kind == "note" and start <= m.start < end]
    found += [(m.start() + start, m.group()) for m in NOTE.finditer(doc.text, start, end)]
    return tuple(dict.fromkeys(" ".join(t.split()) for _, t in sorted(found)))


def word_changes(old: str, new: str, context: int = CONTEXT_WORDS) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The changed words of ``old`` -> ``new`` (each with a few words around), and reason flags."""
    qa, qb = tokens(old), tokens(new)
    out: list[dict[str, Any]] = []
    for op, i1, i2, j1, j2 in word_diff(qa, qb):
        if op == "equal":
            continue
        item: dict[str, Any] = {"op": op, "old": " ".join(t.text for t in qa[i1:i2])}
        item["new"] = " ".join(t.text for t in qb[j1:j2])
        item["before"] = " ".join(t.text for t in qb[max(0, j1 - context) : j1])
        item["after"] = " ".join(t.text for t in qb[j2 : j2 + context])
        out.append(item)
    return out, classify(qa, qb)


def diff_documents(a: Document, b: Document) -> DocumentDiff:
    """Every section's change from version ``a`` to version ``b``."""
    ta, tb = _tree(a), _tree(b)
    out = DocumentDiff(a.id, b.id)
    text_a = {s.id: comparable_text(a, s.start, s.end) for s in ta}
    only_b: list[Section] = []
    for sb in tb:
        sa = ta.get(sb.id)
        if sa is None:
            only_b.append(sb)
            continue
        out.changes.append(_compare(a, b, sa, sb, text_a[sa.id]))
    matched = {c.id for c in out.changes}
    only_a = [s for s in ta if s.id not in matched]
    moved = _renumbered(a, b, only_a, only_b)
    for sb in only_b:
        sa = moved.get(sb.id)
        if sa is not None:
            span_a: tuple[int, int] | None = (sa.start, sa.end)
            change, id_a = MOVED, sa.id
        else:
            span_a, change, id_a = None, REVOKED if sb.revoked else ADDED, None
        notes = notes_in(b, sb.start, sb.end)
        out.changes.append(SectionChange(change, sb.id, sb.kind, sb.label, span_a, (sb.start, sb.end), id_a, notes))
    gone = {sa.id for sa in moved.values()}
    for sa in only_a:
        if sa.id not in gone:
            out.changes.append(SectionChange(REMOVED, sa.id, sa.kind, sa.label, (sa.start, sa.end), None, sa.id))
    return out


def _compare(a: Document, b: Document, sa: Section, sb: Section, old: str) -> SectionChange:
    new = comparable_text(b, sb.start, sb.end)
    spans = (sa.start, sa.end), (sb.start, sb.end)
    notes = notes_in(b, sb.start, sb.end)
    if sb.revoked and not sa.revoked:
        return SectionChange(REVOKED, sb.id, sb.kind, sb.label, *spans, sa.id, notes)
    if old == new:
        return SectionChange(UNCHANGED, sb.id, sb.kind, sb.label, *spans, sa.id)
    if sb.children and len(new) > MAX_WORD_DIFF:
        # a title or chapter: its amended children carry the words (a word diff of the whole
        # title would cost the square of its length)
        return SectionChange(AMENDED, sb.id, sb.kind, sb.label, *spans, sa.id, notes)
    words, flags = word_changes(old, new)
    return SectionChange(AMENDED, sb.id, sb.kind, sb.label, *spans, sa.id, notes, tuple(words), tuple(flags))


def _renumbered(a: Document, b: Document, only_a: list[Section], only_b: list[Section]) -> dict[str, Section]:
    """Sections of ``b`` whose text is a section of ``a`` under another id (same kind)."""
    by_body: dict[tuple[str, str], list[Section]] = {}
    for sa in only_a:
        body = _body(a, sa)
        if body:
            by_body.setdefault((sa.kind, body), []).append(sa)
    out: dict[str, Section] = {}
    for sb in only_b:
        hits = by_body.get((sb.kind, _body(b, sb)))
        if hits:
            out[sb.id] = hits.pop(0)
    return out

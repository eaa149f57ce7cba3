"""Carry a citation located in one version to another: is what was quoted still in force, and where?

:func:`carry` takes the located place of a quote in the version it cites (``a``) and anchors the
same words in a target version (``b``), with the same :func:`~ipsis.verify.locate` and policy.
The quote's innermost section in ``a`` is the reference:

- ``unchanged``: the words are in ``b`` inside the section with the same id (new offsets; a
  ``section_amended`` note when other words of that section changed, with its amending notes);
- ``moved``: the words are in ``b`` in another section (renumbered article, text moved);
- ``revoked``: the section (or an ancestor) is printed as revoked in ``b``;
- ``amended``: the section is still in ``b`` but the quoted words are not (or only in a struck
  wording ``b`` keeps beside the current one: those places are listed in ``struck``): the words
  that changed, with reason flags as in near misses, and the amending notes ``b`` prints there;
- ``gone``: neither the words nor the section are in ``b``.

The record keeps both ends (``from``/``to``: source id, SHA-256, span, section).

>>> from ipsis.document import Document
>>> from ipsis.verify import Policy, locate
>>> a = Document("lei@1", "Art. 1º O prazo é de trinta dias corridos.\\nArt. 2º Revoga-se tudo.\\n")
>>> b = Document("lei@2", "Art. 1º O prazo é de sessenta dias corridos. (Redação dada pela Lei nº 2)\\n"
...              "Art. 2º Revoga-se tudo.\\n")
>>> m = locate(a, "O prazo é de trinta dias corridos.").matches[0]
>>> c = carry(a, m.start, m.end, b, Policy())
>>> c["status"], c["to"]["section"], c["flags"][0]["flag"], c["notes"]
('amended', 'art-1', 'number_changed', ['(Redação dada pela Lei nº 2)'])
>>> m2 = locate(a, "Art. 2º Revoga-se tudo.").matches[0]
>>> carry(a, m2.start, m2.end, b, Policy())["status"]
'unchanged'
"""

from __future__ import annotations

from typing import Any

from ipsis.document import Document
from ipsis.history.diff import comparable_text, notes_in, word_changes
from ipsis.sections import segment
from ipsis.sections.tree import Section, SectionTree
from ipsis.verify import Policy, locate
from ipsis.verify.result import AMBIGUOUS, LOCATED

UNCHANGED, AMENDED, REVOKED, MOVED, GONE = "unchanged", "amended", "revoked", "moved", "gone"
CARRY_STATUSES: tuple[str, ...] = (UNCHANGED, AMENDED, REVOKED, MOVED, GONE)


def _tree(doc: Document) -> SectionTree:
    return doc.sections if isinstance(doc.sections, SectionTree) else segment(doc)


def _end(doc: Document, section: Section | None, start: int | None = None, end: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"source_id": doc.id, "sha256": doc.meta.get("sha256")}
    if start is not None and end is not None:
        out |= {"start": start, "end": end, "text": doc.text[start:end]}
    if section is not None:
        out["section"] = section.id
        out["label"] = _tree(doc).path(section)
    return out


def _revoked_in(tree: SectionTree, section_id: str) -> Section | None:
    """The section ``section_id`` of ``tree`` or its nearest ancestor, when revoked there."""
    sec = tree.get(section_id)
    while sec is not None:
        if sec.revoked:
            return sec
        sec = tree.get(sec.parent) if sec.parent else None
    return None


def carry(a: Document, start: int, end: int, b: Document, policy: Policy) -> dict[str, Any]:
    """Where the words ``a.text[start:end]`` are in ``b``, classified (see the module doc)."""
    ta, tb = _tree(a), _tree(b)
    sec_a = ta.innermost_at(start)
    while sec_a is not None and sec_a.end < end and sec_a.parent:
        sec_a = ta.get(sec_a.parent)
    quote = a.text[start:end]
    out: dict[str, Any] = {"from": _end(a, sec_a, start, end)}
    sec_b = tb.get(sec_a.id) if sec_a is not None else None
    revoked = _revoked_in(tb, sec_a.id) if sec_a is not None else None
    found = locate(b, quote, policy=policy)
    found_at = list(found.matches) if found.status in (LOCATED, AMBIGUOUS) else []
    # words printed only in a struck wording (Planalto keeps the superseded ones) are not in force
    places = [m for m in found_at if "revoked" not in m.flags]
    struck = [{"start": m.start, "end": m.end} for m in found_at if "revoked" in m.flags]
    if struck:
        out["struck"] = struck
    inside = [m for m in places if sec_b is not None and sec_b.start <= m.start and m.end <= sec_b.end]
    if revoked is not None:
        out |= {"status": REVOKED, "to": _end(b, revoked), "notes": list(notes_in(b, revoked.start, revoked.end))}
        return out
    if inside:
        m = inside[0]
        out |= {"status": UNCHANGED, "to": _end(b, sec_b, m.start, m.end)}
        if sec_a is not None and sec_b is not None:
            before, after = comparable_text(a, sec_a.start, sec_a.end), comparable_text(b, sec_b.start, sec_b.end)
            if before != after:
                out["section_amended"] = True
                out["notes"] = list(notes_in(b, sec_b.start, sec_b.end))
        return out
    if places:
        m = places[0]
        where = tb.innermost_at(m.start)
        out |= {"status": MOVED, "to": _end(b, where, m.start, m.end)}
        if len(places) > 1:
            out["candidates"] = [{"start": p.start, "end": p.end} for p in places]
        return out
    if sec_b is not None and sec_a is not None:
        old, new = comparable_text(a, sec_a.start, sec_a.end), comparable_text(b, sec_b.start, sec_b.end)
        words, flags = word_changes(old, new)
        out |= {
            "status": AMENDED,
            "to": _end(b, sec_b),
            "words": words,
            "flags": flags,
            "notes": list(notes_in(b, sec_b.start, sec_b.end)),
        }
        return out
    out |= {"status": GONE, "to": _end(b, None)}
    return out


def describe_carry(c: dict[str, Any]) -> str:
    """One line for a carried citation: ``amended in cf88@2020 art-7/inc-XXIX (number_changed)``."""
    to = c.get("to", {})
    where = f"{to.get('source_id')} {to.get('label') or to.get('section') or ''}".strip()
    extra = ""
    if c.get("flags"):
        extra = f" ({', '.join(f['flag'] for f in c['flags'])})"
    elif c.get("section_amended"):
        extra = " (other words of the section changed)"
    return f"{c['status']} in {where}{extra}"

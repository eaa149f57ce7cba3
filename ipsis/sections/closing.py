"""Where a list item's text ends before the next marker (pure).

The stack of :mod:`ipsis.sections.segmenter` ends a section at the next marker of its level or
above, so the last item of a list (a CPEUM fracción) runs over the article's paragraphs printed
after the list. The Cámara de Diputados closes every amended fracción with its amendment note
(``Fracción reformada DOF 27-05-2015``, ``Párrafo con fracciones adicionado DOF 11-06-2013``
after the last one): a fracción ends at the first line after such a note that is neither a
note, its wrapped continuation (``17-11-1982, 20-08-1993``), nor blank, and what follows until
the next marker is the enclosing section's own text (CPEUM art. 28 after fracción XII, art. 38
after VII, art. 105 after III). An item with no closing note keeps its span, and a quote
found in it past its first paragraph, in the last item of a list that runs to the end of the
enclosing section, says so (:func:`end_uncertain`): that text may be the enclosing section's
own, printed after the list (a Chilean article's inciso after its numbers, an article's
paragraph after its letters).

>>> from ipsis.sections.tree import Section
>>> text = "Art. 1\\nI. Uno;\\nII. Dos.\\nFracción reformada DOF 01-01-2000\\nLa ley dirá.\\n"
>>> secs = [Section("art-1", "articulo", "Art. 1", "", 0, 71, None, ("art-1/inc-I", "art-1/inc-II")),
...         Section("art-1/inc-I", "inciso", "I.", "", 7, 15, "art-1"),
...         Section("art-1/inc-II", "inciso", "II.", "", 15, 71, "art-1")]
>>> s = close_at_notes(text, secs)[2]
>>> text[s.start:s.end]
'II. Dos.\\nFracción reformada DOF 01-01-2000\\n'
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ipsis.sections.paragraphs import NOTE_LINE, paragraphs_in
from ipsis.sections.tree import Section, SectionTree

if TYPE_CHECKING:
    from ipsis.document import Document

# a note that closes a fracción (the Cámara prints it under the fracción it amends)
_CLOSING = re.compile(
    r"(?m)^[ \t]*(?:Fracci[óo]n(?:es)?\b|P[áa]rrafos? con fracciones\b)[^\n]{0,200}\bDOF\b[^\n]*(?:\n|$)"
)
# a wrapped note's next line (`17-11-1982, 20-08-1993, 20-07-2007`, `DOF 13-12-1934, …`)
_NOTE_TAIL = re.compile(r"[ \t]*(?:[^\n]*\bDOF \d{2}-\d{2}-\d{4}[^\n]*|[\d\-, .()a-z]*\d{2}-\d{2}-\d{4}[^\n]*|)")
_LINE = re.compile(r"[^\n]*(?:\n|$)")


def _cut(
    text: str, s: Section, children_start: int, furniture: Sequence[tuple[int, int]], starts: list[int]
) -> int | None:
    """Where ``s`` ends by its closing note, if text not its own follows the note (page
    furniture, a running header, is skipped: the next item may follow it)."""
    m = _CLOSING.search(text, max(s.start, children_start), s.end)
    if m is None:
        return None
    pos = m.end()
    while pos < s.end:
        line = _LINE.match(text, pos)
        if line is None or not line.group(0):
            break
        body = line.group(0).rstrip("\n")
        at = pos + 1 if text[pos] == "\f" else pos
        k = bisect_right(starts, at) - 1
        if (k >= 0 and furniture[k][0] <= at < furniture[k][1]) or body.strip("\f \t") == "":
            pos = line.end()
            continue
        if not (NOTE_LINE.fullmatch(body) or _NOTE_TAIL.fullmatch(body)):
            return pos
        pos = line.end()
    return None


def close_at_notes(text: str, sections: list[Section], furniture: Sequence[tuple[int, int]] = ()) -> list[Section]:
    """End each fracción (an ``inciso`` in a list) at its closing note; its descendants end
    there too. Nothing changes where a descendant starts after the note."""
    by_id = {s.id: s for s in sections}
    starts = [a for a, _ in furniture]
    cuts: dict[str, int] = {}
    for s in sections:
        if s.kind != "inciso" or s.id in cuts:
            continue
        kids = [by_id[c] for c in s.children]
        last_kid = max((c.start for c in kids), default=s.start)
        cut = _cut(text, s, last_kid, furniture, starts)
        if cut is None or cut >= s.end:
            continue
        stack = [s]
        while stack:
            x = stack.pop()
            if x.end > cut:
                cuts[x.id] = cut
            stack.extend(by_id[c] for c in x.children)
    return [replace(s, end=cuts[s.id]) if s.id in cuts else s for s in sections]


_ENUMERATED = frozenset({"inciso", "alinea", "numero", "apartado"})
# how an enumeration's items end before its last one (`…;`, `…; y`, `…, o`, `… y`)
_ITEM_END = re.compile(r"(?:;|;\s*[yo]|,\s*[yo]|\s[yo])$")


def close_enumerations(text: str, sections: list[Section], paragraphs: Sequence[tuple[int, int]]) -> list[Section]:
    """End a list's last item at its first paragraph where the list reads as one enumeration:
    every earlier item is one paragraph closed by the enumeration's separator (`;`, `; y`, `, o`)
    and the last item's first paragraph closes it with a full stop. The paragraphs after it are
    the enclosing section's (Chile art. 130: letters a) … c), each a decree named, then the
    article's incisos `Los canales de televisión …`; art. 10 4º, art. 93 16º). Only with the
    paragraphs the markup marks (``paragraphs``, sorted spans): from line breaks alone a last
    fracción's continuation cannot be told from the article's paragraph (CPEUM art. 27 XX).

    >>> text = "Art. 1.- Son:\\na) uno;\\nb) dos, y\\nc) tres.\\nLa ley dirá.\\n"
    >>> secs = [Section("art-1", "articulo", "Art. 1", "", 0, 54, None, ("art-1/ali-a", "art-1/ali-b", "art-1/ali-c")),
    ...         Section("art-1/ali-a", "alinea", "a)", "", 14, 22, "art-1"),
    ...         Section("art-1/ali-b", "alinea", "b)", "", 22, 32, "art-1"),
    ...         Section("art-1/ali-c", "alinea", "c)", "", 32, 54, "art-1")]
    >>> paras = [(0, 13), (14, 21), (22, 31), (32, 40), (41, 53)]
    >>> s = close_enumerations(text, secs, paras)[3]
    >>> text[s.start:s.end]
    'c) tres.\\n'
    """
    if not paragraphs:
        return sections
    starts = [a for a, _ in paragraphs]

    def paras(sec: Section) -> list[tuple[int, int]]:
        k = bisect_right(starts, sec.start - 1)
        out = []
        for a, b in paragraphs[k:]:
            if a >= sec.end:
                break
            out.append((a, min(b, sec.end)))
        return out

    by_id = {x.id: x for x in sections}
    cuts: dict[str, int] = {}
    for parent in sections:
        kids = [by_id[c] for c in parent.children]
        if len(kids) < 3 or kids[-1].children or kids[-1].kind not in _ENUMERATED:
            continue
        last = kids[-1]
        if any(k.kind != last.kind for k in kids):
            continue
        own = paras(last)
        if len(own) < 2 or not text[own[0][0] : own[0][1]].rstrip().endswith("."):
            continue
        earlier = [paras(k) for k in kids[:-1]]
        if all(len(p) == 1 and _ITEM_END.search(text[p[0][0] : p[0][1]].rstrip()) for p in earlier):
            cuts[last.id] = own[1][0]
    return [replace(x, end=cuts[x.id]) if x.id in cuts else x for x in sections]


_LIST_ITEMS = frozenset({"inciso", "alinea"})
"""Kinds of list items (fracciones, incisos, letters); a ``numero`` is one in Latin America
(Chile's `1º.-`, Uruguay's numerales), elsewhere an article's numbered paragraph (Portugal's
`1 -`, whose last runs to the end of its article by design)."""


# how a paragraph names the item it belongs to (`el organismo previsto en esta fracción`,
# `lo dispuesto en el presente inciso`, `este numeral`): a later paragraph that does so is the
# item's own, and so is every paragraph of the item before it
_SELF_WORDS = {
    "inciso": r"fracci[óo]n|inciso",
    "alinea": r"inciso|letra|literal|al[íi]nea",
    "numero": r"n[úu]mero|numeral|inciso",
    "item": r"item",
}
_INTRODUCES = re.compile(r"[:：][\s\u00a0]*$")


def _names_itself(text: str, kind: str) -> re.Pattern[str] | None:
    words = _SELF_WORDS.get(kind)
    if words is None:
        return None
    return re.compile(r"(?i)\b(?:est[ae]|el presente|la presente)\s+(?:" + words + r")\b")


def _own_by_structure(tree: SectionTree, doc: Document, sec: Section, start: int) -> bool:
    """Whether the text at ``start`` is ``sec``'s own by what follows or encloses it: a later item
    of ``sec``'s own list follows it (it is before ``sec``'s last child), it is in the first
    paragraph of ``sec``'s last child where ``sec``'s head introduces that list (`II - desde a
    posse:` then `a) ser proprietários …`), or a paragraph of ``sec`` from it on names the item
    as itself (`esta fracción`, `este inciso`)."""
    text = doc.text
    if sec.children:
        first, last = tree[sec.children[0]], tree[sec.children[-1]]
        if start < last.start:
            return True
        head = _NOTE_LINES.sub("", text[sec.start : first.start]).rstrip()
        if _INTRODUCES.search(head) and start < last.end:
            kids, _ = paragraphs_in(doc, last.start, last.end)
            if (kids and start < kids[0][1]) or _own_by_structure(tree, doc, last, start):
                return True  # the last child's own text is ``sec``'s (`c) Materias:` then `1. …`)
    rx = _names_itself(text, sec.kind)
    if rx is not None and rx.search(text, start, sec.end) is not None:
        return True
    return _in_introduced_list(doc, sec, start)


# a paragraph that opens with a list marker (`1.`, `2o.`, `1.º` (BOE), `a)`, `b.`, `IV.`, `3)`)
_MARKER = re.compile(
    r"[ \t\u00a0]*(?:\d{1,3}(?:o|º|°)?\.|\d{1,3}\.[º°ª]|\d{1,3}\)|[a-z][.)]|[IVXLC]{1,7}\.)[ \t\u00a0]"
)


def _in_introduced_list(doc: Document, sec: Section, start: int) -> bool:
    """Whether the paragraph at ``start`` is in a list ``sec`` itself introduces: from ``sec``'s
    first paragraph on, each paragraph is ``sec``'s own when the one before ends with a colon
    (`c) Materias:` then `1. El registro …`) or both open with a list marker (`1. …` then
    `2. …`: the introduced list goes on); the first that is neither ends the chain."""
    paras, _ = paragraphs_in(doc, sec.start, sec.end)
    text = doc.text
    prev_marker = after_colon = False
    for k, (a, b) in enumerate(paras):
        body = _NOTE_LINES.sub("", text[a:b]).strip()
        marker = _MARKER.match(text, a) is not None
        if k and not (after_colon or (prev_marker and marker)):
            return False
        if a <= start < b or start < a:
            return k > 0
        after_colon = _INTRODUCES.search(body) is not None
        prev_marker = marker and k > 0
    return False


_NOTE_LINES = re.compile(r"(?m)^[ \t]*(?:" + NOTE_LINE.pattern + r")[ \t]*\n?")


def end_uncertain(tree: SectionTree, doc: Document, sec: Section, start: int) -> str | None:
    """Why a quote at ``start`` in the cited list item ``sec`` may be its enclosing section's own
    text, or None: ``sec`` is the last item of its list, nothing of the enclosing section follows
    it (no closing note ended it), ``start`` is past its first paragraph, and nothing tells the
    text as ``sec``'s own (:func:`_own_by_structure`; docs/end-uncertain.md measures the rule)."""
    kinds = _LIST_ITEMS | ({"numero"} if tree.family == "latam" else set())
    parent = tree.get(sec.parent) if sec.parent else None
    if sec.kind not in kinds or parent is None or not parent.children or parent.children[-1] != sec.id:
        return None
    if doc.text[sec.end : parent.end].strip():
        return None  # the enclosing section's own text follows: the item's end is marked
    paras, _ = paragraphs_in(doc, sec.start, sec.end)
    if not paras or start < paras[0][1]:
        return None
    if _own_by_structure(tree, doc, sec, start):
        return None
    return (
        f"{tree.path(sec)} is the last item of its list and nothing marks where it ends: the quote is "
        f"past its first paragraph and may be {tree.path(parent)}'s own text, printed after the list"
    )

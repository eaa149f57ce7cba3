"""Ordinal paragraphs of a cited unit (``artículo 4o., párrafo tercero``, ``tercer párrafo``,
``último párrafo``, ``second paragraph``), read from the layout, and Brazil's ``caput`` (the
article up to its first §, its incisos included) (pure).

A paragraph of a section is a run of its own lines (the text before its first subdivision: a
fracción, a §, an inciso) that ends where a line ends a sentence (``.``, ``:``, ``;``) with no
trailing space, at a blank line, or at an amendment-note line (``Párrafo reformado DOF
06-02-1976``: the Cámara de Diputados prints one under every amended paragraph). PDF readers
end a wrapped line with a space (the CPEUM: 8,034 wrapped lines end with a space, 1,021 without,
and those without end mid-word, never after a full stop), so a sentence that ends at the end of
a wrapped line does not end its paragraph. Page furniture (running headers) inside a
paragraph is skipped. Where a section's wrapped lines mostly lack that space the paragraphs
cannot be told apart, and the reference is checked against the section with a warning.

>>> text = "Artículo 4o. Uno dice\\nalgo.\\nDos. \\nsigue.\\nTres:\\n"
>>> [text[a:b] for a, b in paragraph_spans(text, 0, len(text))]
['Artículo 4o. Uno dice\\nalgo.', 'Dos. \\nsigue.', 'Tres:']
>>> ordinal_paragraph("artículo 4o., párrafo tercero")
((3,), 'párrafo tercero')
>>> ordinal_paragraph("the second paragraph of Article 7")
((2,), 'second paragraph')
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ipsis.errors import SectionNotFoundError
from ipsis.sections.grammar import SPANISH_ORDINAL_RX, spanish_ordinal
from ipsis.sections.tree import Section, SectionTree

if TYPE_CHECKING:
    from ipsis.document import Document

LAST = -1
_EN = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_EN_RX = "|".join(_EN)
# a list or a range of ordinals (`incisos segundo y tercero`, `incisos cuarto a sexto`, `párrafos
# primero, quinto y octavo`): every paragraph it names is cited
_SEP = r"(?:\s*,\s*(?:[ye]\s+)?|\s+(?:y|e|a|al|hasta)\s+)"
_WORD = SPANISH_ORDINAL_RX + r"|[úu]ltimo|final"
_INC_WORD = SPANISH_ORDINAL_RX + r"|final|\d{1,2}(?:\s?[º°o](?!\w))?(?![\w.,]?\d)"
ORDINAL = re.compile(
    r"\bp[áa]rrafos?\s+(?P<after>(?:" + _WORD + r")(?:" + _SEP + r"(?:" + _WORD + r"))*)"
    r"|\b(?P<before>" + SPANISH_ORDINAL_RX + r"|[úu]ltimo)\s+p[áa]rrafo\b"
    r"|\b(?P<en>" + _EN_RX + r"|last)\s+paragraph\b"
    r"|\bparagraph\s+(?P<en_after>" + _EN_RX + r")\b"
    r"|\b(?P<caput>caput)\b"
    # Chile's incisos are an article's paragraphs (`inciso segundo del artículo 5º`, `inciso
    # final`, `inciso 2º`): read so only where the document marks its paragraphs (refs.py)
    r"|\bincisos?\s+(?P<inc>(?:" + _INC_WORD + r")(?:" + _SEP + r"(?:" + _INC_WORD + r"))*)",
    re.I,
)
_ITEM = re.compile(r"(?P<sep>" + _SEP + r")?(?P<w>" + _INC_WORD + r"|[úu]ltimo)", re.I)
_RANGE = frozenset(("a", "al", "hasta"))
# `Párrafo reformado DOF 06-02-1976`, `Fracción adicionada DOF …`, `Fe de erratas a la fracción
# …`, `Apartado B adicionado DOF …`, `Encabezado de inciso reformado DOF …` (CPEUM, Cámara)
NOTE_LINE = re.compile(
    r"[ \t]*(?:(?:P[áa]rrafos?|Fracci[óo]n(?:es)?|Apartados?|Incisos?|Base|Bases|Art[íi]culo|Encabezado|Numeral"
    r"|Segmento|Denominaci[óo]n)\b[^\n]{0,120}?\b(?:adicionad|reformad|derogad|reubicad|recorrid|modificad)[oa]s?\b"
    r"|Fe de erratas\b|Reforma DOF\b)[^\n]*\bDOF\b[^\n]*"
)
_LINE = re.compile(r"[^\n]*\n?")
# a paragraph opening with an item marker (`h.`, `24.`, `c)`, `XX.`, `3º.-`) or a note mark (`*`, `[`)
_OPENS_ITEM = re.compile(r"[ \t]*(?:[*\[(]|[\dA-Za-z]{1,5}[º°]?(?:\.-|[.)]|[ \t]+[-–]))")


def _value(word: str) -> int | None:
    low = word.lower().rstrip("º°o ").strip() if word[:1].isdigit() else word.lower()
    if low.isdigit():
        return int(low) or None
    if low in ("último", "ultimo", "last", "final"):
        return LAST
    if low in _EN:
        return _EN.index(low) + 1
    return spanish_ordinal(word)


def ordinal_paragraph(ref: str) -> tuple[tuple[int, ...], str] | None:
    """The ordinal paragraphs a reference names (``LAST`` for ``último``/``last``/``final``; 1
    for ``caput``; a range ``cuarto a sexto`` is every one in it) and the words that name them,
    else None.

    >>> ordinal_paragraph("incisos cuarto a sexto del artículo 130"), ordinal_paragraph("inciso final")
    (((4, 5, 6), 'incisos cuarto a sexto'), ((-1,), 'inciso final'))
    """
    m = ORDINAL.search(ref)
    if m is None:
        return None
    words = " ".join(m.group(0).split())
    if m.group("caput"):
        return (1,), words
    listed = m.group("after") or m.group("inc")
    if not listed:
        n = _value(m.group("before") or m.group("en") or m.group("en_after") or "")
        return ((n,), words) if n else None
    out: list[int] = []
    for it in _ITEM.finditer(listed):
        n = _value(it.group("w"))
        if n is None:
            return None
        sep = (it.group("sep") or "").strip().lower()
        if sep in _RANGE and out and out[-1] != LAST and n != LAST and n > out[-1]:
            out.extend(range(out[-1] + 1, n + 1))
        else:
            out.append(n)
    return (tuple(dict.fromkeys(out)), words) if out else None


def _skipped(skip: Sequence[tuple[int, int]], starts: list[int], a: int, b: int) -> bool:
    k = bisect_right(starts, a) - 1
    return any(x < b and a < y for x, y in skip[max(k, 0) : k + 2])


def paragraph_spans(text: str, start: int, end: int, skip: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """The paragraphs of ``text[start:end]``, as ``(start, end)`` spans without the line break;
    ``skip``: sorted spans of page furniture (their lines are passed over)."""
    return _paragraphs(text, start, end, skip)[0]


def _paragraphs(text: str, start: int, end: int, skip: Sequence[tuple[int, int]]) -> tuple[list[tuple[int, int]], bool]:
    """The paragraphs, and whether the kept lines' wraps tell them apart (:func:`reliable`)."""
    skip = sorted(skip)
    starts = [a for a, _ in skip]
    out: list[tuple[int, int]] = []
    first = last = -1  # the open paragraph's first line start and content end
    wrapped = spaced = 0
    for m in _LINE.finditer(text, start, end):
        a, b = m.start(), m.end()
        if a == b:
            break
        line = text[a:b].rstrip("\n")
        if skip and _skipped(skip, starts, a, a + len(line)):
            continue
        if (line[:-1] if line.endswith(" ") else line)[-1:].isalpha():  # a line cut after a word
            wrapped += 1
            spaced += line.endswith(" ")
        note = NOTE_LINE.fullmatch(line) is not None
        if note or not line.strip():
            if first >= 0:
                out.append((first, last))
            first = -1
            continue
        if first < 0:
            first = a
        last = a + len(line.rstrip())
        if line.endswith((".", ":", ";", ".-")) and b > a + len(line):
            out.append((first, last))
            first = -1
    if first >= 0:
        out.append((first, last))
    # wrapped lines end with a space (so a full stop at a line end ends a paragraph), or the
    # lines are whole paragraphs (markup: few lines end in a word)
    return out, wrapped < 3 or spaced >= 0.75 * wrapped


_MARKED = ("paragraph_hints",)
"""The ``doc.cache`` key of the sorted ``(start, end)`` of the paragraphs the reader marked."""


def marked_paragraphs(doc: Document | None) -> list[tuple[int, int]]:
    """The paragraphs ``doc``'s reader marked (``paragraph`` hints: the LeyChile text indents each
    paragraph's first line), sorted; empty when the markup does not mark them."""
    if doc is None:
        return []
    kept = doc.cache.get(_MARKED)
    if kept is None:
        kept = doc.cache[_MARKED] = sorted((h.start, h.end) for h in doc.hints if h.kind == "paragraph")
    return list(kept)


def _marked_in(marked: list[tuple[int, int]], start: int, end: int, text: str) -> list[tuple[int, int]]:
    """The marked paragraphs that start in ``[start, end)``, cut at ``end`` (a span never leaves
    its section) and without trailing blanks."""
    out = []
    for a, b in marked[bisect_right(marked, (start, -1)) :]:
        if a >= end:
            break
        b = min(b, end)
        b = a + len(text[a:b].rstrip())
        if b > a:
            out.append((a, b))
    return out


def paragraphs_in(doc: Document, start: int, end: int) -> tuple[list[tuple[int, int]], bool]:
    """The paragraphs of ``doc.text[start:end]``: the ones the markup marks when it marks them,
    else as the layout gives them; and whether they can be told apart (:func:`paragraph_spans`)."""
    marked = marked_paragraphs(doc)
    if marked:  # the markup tells the paragraphs apart: no guess from the line breaks
        return _marked_in(marked, start, end, doc.text), True
    skip = sorted((m.start, m.end) for m in doc.marks if m.kind == "furniture")
    return _paragraphs(doc.text, start, end, skip)


def _heading_only(first: str, unit: Section) -> bool:
    """Whether the first line run holds only the unit's marker and title (no body text)."""
    rest = first[len(unit.label) :] if first.startswith(unit.label) else first
    rest = rest.strip(" \t\n.-–—:[]*")
    title = unit.title.strip(" .")
    return not rest or (bool(title) and rest.strip(" .").casefold() == title.casefold())


def _final_paragraph(tree: SectionTree, unit: Section, doc: Document) -> tuple[int, int] | None:
    """The last paragraph of ``unit``'s whole text when it is printed after its list (Chile's
    `inciso final del artículo 130`: the paragraph after the letters a) … c), which the tree
    leaves in the last letter): what the words name is the article's last paragraph, whichever
    section the segmenter gave it to. None when the paragraphs cannot be told apart, or when the
    last paragraph opens a subdivision (an article ending on a list item has no final inciso
    after it), or when it ends no sentence (a heading of what follows, a bracketed note: LeyChile
    prints `Atribuciones exclusivas del Senado` at the end of Artículo 52), or opens with a list
    marker or a note mark the tree does not read (Peru's `h.`, `* Artículo modificado …`). Only
    where the markup marks the paragraphs: from line breaks alone, the CPEUM's last fracción's
    continuation (art. 27 XX) cannot be told from the article's own last paragraph."""
    if not marked_paragraphs(doc):
        return None
    paras, _ = paragraphs_in(doc, unit.start, unit.end)
    if not paras:
        return None
    a, b = paras[-1]
    text = doc.text
    if not text[a:b].rstrip().endswith(".") or _OPENS_ITEM.match(text, a):
        return None
    first = a + len(text[a:b]) - len(text[a:b].lstrip())
    stack = list(unit.children)
    while stack:
        sec = tree[stack.pop()]
        if sec.start == first:
            return None
        stack.extend(sec.children)
    return a, b


def paragraph_of(
    tree: SectionTree, unit: Section, ordinal: tuple[int, str], doc: Document | None
) -> tuple[Section, str | None]:
    """The ``ordinal`` paragraph of ``unit`` as a section of its own (``art-4/prr-3``, kind
    ``parrafo``, not stored in the tree), or ``unit`` and why it could not be told apart.

    Raises :class:`SectionNotFoundError` (closest: ``unit``) when ``unit`` has no subdivision
    and fewer paragraphs than cited."""
    n, words = ordinal
    name = tree.path(unit)
    whole = f"checked against {name} as a whole"
    if doc is None:
        return unit, f"{words!r}: the paragraphs of {name} are read from the document text: {whole}"
    text = doc.text
    head_end = min((tree[c].start for c in unit.children), default=unit.end)
    if words.lower() == "caput":
        if unit.kind not in ("artigo", "articulo"):
            return unit, None  # `inciso III do caput`: the incisos of the caput, read as such
        # the caput is the article's head with its incisos (LC 95/1998, art. 10): up to its first §
        firsts = [tree[c].start for c in unit.children if tree[c].kind == "paragrafo"]
        a, b = unit.start, min(firsts, default=unit.end)
        b = a + len(text[a:b].rstrip())
        return Section(f"{unit.id}/caput", "parrafo", "caput", "", a, b, unit.id), None
    paras, reliable = paragraphs_in(doc, unit.start, head_end)
    if paras and _heading_only(text[paras[0][0] : paras[0][1]], unit):
        paras = paras[1:]  # `Artículo 2. [Derechos fundamentales de la persona]` on its own line
    if not reliable:
        return unit, f"{words!r}: the line breaks of {name} do not tell its paragraphs apart: {whole}"
    if unit.children and n == LAST and (final := _final_paragraph(tree, unit, doc)) is not None:
        a, b = final
        return Section(f"{unit.id}/prr-final", "parrafo", words, "", a, b, unit.id), None
    if unit.children and (n == LAST or n > len(paras)):
        kids = tree[unit.children[0]].label
        return unit, (
            f"{words!r}: {name} has {len(paras)} paragraph(s) before its first subdivision ({kids}), "
            f"and the paragraphs after its subdivisions cannot be told apart: {whole}"
        )
    if not paras or n > len(paras):
        msg = (
            f"{words} of {name} does not exist in {tree.doc_id}: it has {len(paras)} paragraph(s); "
            f"closest: {unit.id} (reference: {words!r})"
        )
        raise SectionNotFoundError(msg, unit.id)
    k = len(paras) if n == LAST else n
    a, b = paras[k - 1]
    if words.lower().startswith("inciso"):
        label = f"inciso {k}"
    else:
        label = f"párrafo {k}" if tree.family in ("es", "latam") else f"paragraph {k}"
    return Section(f"{unit.id}/prr-{k}", "parrafo", label, "", a, b, unit.id), None

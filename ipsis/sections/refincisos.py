"""Two ways of citing an inciso the reference reader cannot take at face value (pure).

- An item inside an ordinal inciso (`número 1 del inciso quinto del artículo 144`, `letra b) del
  inciso segundo`): the número is inside the article's fifth paragraph, not número 1's fifth
  paragraph (the reading before). Where that inciso is the last paragraph before the article's
  first subdivision it introduces the list, and the número is the article's own; any other
  inciso, the article is checked as a whole and the warning says so (:func:`item_of_inciso`).
- A relative inciso (`inciso anterior`, `el inciso siguiente`): relative to the text that cites
  it, which a citation record does not give; reading it from the quote's own place would confirm
  whatever was quoted (:func:`unread_reason`).

>>> bool(OUTER_INCISO.search("número 1 del inciso quinto del artículo 144"))
True
>>> unread_reason("inciso anterior").startswith("'inciso anterior' is relative")
True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ipsis.sections.grammar import SPANISH_ORDINAL_RX
from ipsis.sections.paragraphs import ORDINAL, ordinal_paragraph, paragraphs_in
from ipsis.sections.tree import SectionTree

if TYPE_CHECKING:
    from ipsis.document import Document

# an item of an ordinal inciso (`número 1 del inciso quinto`, `letra b) del inciso segundo`)
OUTER_INCISO = re.compile(
    r"(?i)\b(?:n[úu]meros?|n\.?\s?[º°]|letras?|literal(?:es)?|numerales?)\s+[^,;]{0,20}?\bdel?\s+incisos?\s+"
    r"(?:" + SPANISH_ORDINAL_RX + r"|final|[úu]ltimo|\d{1,2}\s?[º°])"
)
_ARTICLE_AT = re.compile(r"(?i)\bart(?:igo|ículo|iculo)?s?\.?\s*\d")
# the unit a paragraph belongs to (`artículo 41, párrafo tercero`, `párrafo quinto del Apartado A`)
_UNIT_WORD = re.compile(r"(?i)\b(art(?:[íi]culo|igo)?s?\b\.?|bases?\b|fracci[óo]n\b|apartado\b|numeral\b|n[úu]mero\b)")
_OF_UNIT = re.compile(r"(?i)\s*,?\s*(?:del?|de\s+la)\s+" + _UNIT_WORD.pattern[4:])
_UNIT_KINDS = {
    "ar": ("articulo", "artigo"),
    "ba": ("inciso",),  # CPEUM art. 41's bases are its fracciones
    "fr": ("inciso",),
    "ap": ("apartado",),
    "nu": ("numero",),
    "nú": ("numero",),
}
# a subdivision named beside the paragraph (`…, párrafo tercero, base III`)
_SUBDIVISION_WORD = re.compile(r"(?i)\b(?:bases?|fracci[óo]n|apartado|incisos?|numerales?|n[úu]mero|letra|literal)\b")
# a reference relative to the text that cites it (`inciso anterior`, `el número precedente`)
_RELATIVE = re.compile(r"(?i)\b(?:anterior(?:es)?|precedentes?|siguientes?|seguintes?|retro)\b")


def unread_reason(part: str) -> str:
    """Why ``part`` of a reference was left unread."""
    if _RELATIVE.search(part):
        return (
            f"{part!r} is relative to the text that cites it, which a citation does not give "
            "(the quote's own place would prove nothing): write the subdivision it names"
        )
    return f"{part!r} in the reference was not read"


def introduces_list(tree: SectionTree, doc: Document | None, unit: Any, n: int) -> tuple[int, int] | None:
    """The span of ``unit``'s ``n``-th paragraph when it is the last one before its first
    subdivision (it introduces the list: `… conforme a las siguientes bases:`), else None."""
    if doc is None or unit is None or not unit.children:
        return None
    head, _ = paragraphs_in(doc, unit.start, tree[unit.children[0]].start)
    return head[-1] if head and n == len(head) else None


def lead_in_of_list(tree: SectionTree, doc: Document | None, ref: str, sec: Any) -> bool:
    """Whether the ordinal paragraph ``ref`` names is the paragraph that introduces the list
    ``sec`` is in (the last one before the unit's first subdivision, ending with a colon): then it
    names where the list hangs, and ``sec`` is what is cited. The unit is the one written before
    the paragraph with the item after it (`artículo 41, párrafo tercero, base III, apartado A`),
    or after it with the item before (`inciso a) del párrafo quinto del Apartado A de la Base V`)."""
    m = ORDINAL.search(ref)
    named = ordinal_paragraph(m.group(0)) if m is not None else None
    if m is None or named is None or len(named[0]) != 1:
        return False
    after = _OF_UNIT.match(ref, m.end())
    before = list(_UNIT_WORD.finditer(ref, 0, m.start()))
    if after is not None and _SUBDIVISION_WORD.search(ref, 0, m.start()):
        word = after.group(1)
    elif before and _SUBDIVISION_WORD.search(ref, m.end()):
        word = before[-1].group(1)
    else:
        return False
    kinds = _UNIT_KINDS[word[:2].lower()]
    unit = tree.get(sec.parent) if sec.parent else None
    while unit is not None and unit.kind not in kinds:
        unit = tree.get(unit.parent) if unit.parent else None
    span = introduces_list(tree, doc, unit, named[0][0]) if unit is not None else None
    return span is not None and doc is not None and doc.text[span[0] : span[1]].rstrip().endswith(":")


def item_of_inciso(
    tree: SectionTree, doc: Document | None, ref: str, resolve: Callable[[str], Any]
) -> tuple[Any, tuple[str, ...]] | None:
    """For `número 1 del inciso quinto del artículo 144`: the resolution to take (by ``resolve``,
    the reference reader) and what was left unchecked; None when ``ref`` names no such item."""
    outer = OUTER_INCISO.search(ref)
    art = _ARTICLE_AT.search(ref, outer.end()) if outer is not None else None
    if outer is None or art is None:
        return None
    whole = resolve(ref[art.start() :])
    unit = whole.sections[0] if len(whole.sections) == 1 else None
    named = ordinal_paragraph(outer.group(0)[outer.group(0).lower().rfind("inciso") :])
    inciso = re.search(r"(?i)\s+del?\s+incisos?\s", outer.group(0))
    if named and len(named[0]) == 1 and inciso and introduces_list(tree, doc, unit, named[0][0]) is not None:
        # the inciso introduces the list: the article's own número
        found = resolve(ref[: outer.start() + inciso.start()] + " del " + ref[art.start() :])
        return found, tuple(found.unchecked)
    why = (
        f"{outer.group(0)!r}: an item inside one of the article's paragraphs is not read: "
        f"checked against {', '.join(tree.path(x) for x in whole.sections)} as a whole"
    )
    return whole, (*whole.unchecked, why)

"""Sections: segment a document into its numbered parts and resolve written references.

``segment(document_or_text, family=None) -> SectionTree`` and
``resolve_reference(tree, ref) -> Resolution``. Pure: no I/O in this package.

>>> from ipsis.sections import resolve_reference
>>> tree = segment("Art. 5º Todos são iguais.\\n§ 1º As normas.\\nI - um;\\nArt. 6º Outro.\\n")
>>> [s.id for s in tree]
['art-5', 'art-5/par-1', 'art-5/par-1/inc-I', 'art-6']
>>> resolve_reference(tree, "inciso I do § 1º do art. 5º").ids
('art-5/par-1/inc-I',)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ipsis.document import Document
from ipsis.errors import ReferenceSyntaxError, SectionNotFoundError
from ipsis.lazy import lazy_exports

if TYPE_CHECKING:
    from ipsis.sections.families import FAMILIES, detect
    from ipsis.sections.refs import Resolution, parse_reference, resolve_reference
    from ipsis.sections.tree import Section, SectionTree, SectionVersion
    from ipsis.sections.versions import document_at

_EXPORTS = {
    "FAMILIES": "ipsis.sections.families",
    "detect": "ipsis.sections.families",
    "Resolution": "ipsis.sections.refs",
    "parse_reference": "ipsis.sections.refs",
    "resolve_reference": "ipsis.sections.refs",
    "Section": "ipsis.sections.tree",
    "SectionTree": "ipsis.sections.tree",
    "SectionVersion": "ipsis.sections.tree",
    "document_at": "ipsis.sections.versions",
}
__getattr__ = lazy_exports(__name__, _EXPORTS)
"""The re-exports load on first use: a stored document's section tree needs only
:mod:`ipsis.sections.tree`, not the numbering grammars that segmenting compiles. (The
segmenter's module is not named ``segment``: importing it on first use would bind the module
over the :func:`segment` function in this package's namespace.)"""


def segment(document_or_text: Document | str, family: str | None = None) -> SectionTree:
    """The section tree of a :class:`Document` (stored in ``document.sections``) or of a text.

    ``family`` (``rfc``, ``br``, ``pt``, ``es``, ``latam``, ``ch``, ``generic``) overrides detection.
    Document marks of kind ``revoked``/``note`` set the ``revoked``/``has_notes`` flags; the
    reader's hints (RFCXML sections, BOE blocks, Senado classes, Planalto anchors) confirm or
    place markers.
    """
    from ipsis.sections.segmenter import MarkSpan, segment_text

    if isinstance(document_or_text, Document):
        doc = document_or_text
        marks = [MarkSpan(m.kind, m.start, m.end) for m in doc.marks if m.kind in ("revoked", "note", "furniture")]
        tree = segment_text(doc.text, family, doc.id, marks, doc.hints, doc.meta)
        if family is None or doc.sections is None:
            doc.sections = tree
        return tree
    return segment_text(document_or_text, family)


__all__ = [
    "FAMILIES",
    "ReferenceSyntaxError",
    "Resolution",
    "Section",
    "SectionNotFoundError",
    "SectionTree",
    "SectionVersion",
    "detect",
    "document_at",
    "parse_reference",
    "resolve_reference",
    "segment",
]

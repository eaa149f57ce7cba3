"""References written as ipsis's own section ids, or as a bare section number.

A user who reads ``ipsis sections`` and writes the id it prints (``sec-4.2.1``,
``art-5/par-1/inc-II``) into a citation record cites exactly that section; an RFC or a
document of dotted headings is cited by its bare number as often as with the word
(``4.2.1`` for ``Section 4.2.1``). Both are read only against a tree that has such ids: a bare
``5`` in a norm stays a reference nobody can read without its kind (article? paragraph?).
"""

from __future__ import annotations

import difflib
import re

from ipsis.errors import SectionNotFoundError
from ipsis.sections.tree import Section, SectionTree

# an id as ipsis writes them: `kind-number` steps joined by `/`, lower-case kinds
_ID_SHAPED = re.compile(r"(?:adct/)?[a-z]{2,4}-[0-9A-Za-z.]+(?:-[A-Z]+)?(?:/[a-z]{2,4}-[0-9A-Za-z.]+(?:-[A-Z]+)?)*")
_BARE_NUMBER = re.compile(r"(\d{1,2}(?:\.\d{1,2})*)\.?")


def as_section_word(tree: SectionTree, ref: str) -> str | None:
    """``Section 4.2.1`` for a bare ``4.2.1`` (or ``4.2.1.``) in a tree of numbered ``sec-``
    sections; None otherwise (a bare number of a norm names no kind of section).

    >>> tree = SectionTree("rfc", [Section("sec-4", "rfc_section", "4.", "", 0, 50, None)], 50, "rfc")
    >>> as_section_word(tree, "4.2."), as_section_word(tree, "art. 4")
    ('Section 4.2', None)
    """
    bare = _BARE_NUMBER.fullmatch(ref.strip())
    if bare and any(s.id.startswith("sec-") for s in tree):
        return f"Section {bare.group(1)}"
    return None


def section_by_id(tree: SectionTree, ref: str) -> Section | None:
    """The section ``ref`` names in ``tree`` when it is written as ``ipsis sections`` prints ids;
    None when ``ref`` is written another way.

    Raises :class:`SectionNotFoundError` (with the closest id) for an id-shaped reference the
    tree does not have: ``sec-4.9`` of an RFC without a 4.9 is not "Section 4" silently.

    >>> tree = SectionTree("rfc", [Section("sec-4", "rfc_section", "4.", "", 0, 50, None),
    ...     Section("sec-4.1", "rfc_section", "4.1.", "", 10, 50, "sec-4")], 50, "rfc")
    >>> section_by_id(tree, "sec-4.1").id, section_by_id(tree, "4.1"), section_by_id(tree, "Section 4.1")
    ('sec-4.1', None, None)
    >>> try:
    ...     section_by_id(tree, "sec-4.2")
    ... except SectionNotFoundError as exc:
    ...     print(exc.closest, "|", exc)  # doctest: +ELLIPSIS
    sec-4.1 | 'sec-4.2' is no section of rfc (...); closest: sec-4.1
    """
    ref = ref.strip()
    if (sec := tree.get(ref)) is not None:
        return sec
    if not _ID_SHAPED.fullmatch(ref):
        return None
    ids = [s.id for s in tree]
    close = difflib.get_close_matches(ref, ids, n=1, cutoff=0.0)
    hint = f"; closest: {close[0]}" if close else "; the document has no sections"
    msg = f"{ref!r} is no section of {tree.doc_id} (an id as 'ipsis sections' prints it){hint}"
    raise SectionNotFoundError(msg, close[0] if close else None)

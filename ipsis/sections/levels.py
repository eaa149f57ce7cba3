"""How a reference's subdivisions meet the levels a document is split into (pure): the order the
document nests them in, a level one step further down, a level the document never has.

>>> from ipsis.sections.tree import Section, SectionTree
>>> t = SectionTree("d", [
...     Section("art-1", "articulo", "Artículo 1", "", 0, 30, None, ("art-1/apt-A",)),
...     Section("art-1/apt-A", "apartado", "A.", "", 5, 30, "art-1", ("art-1/apt-A/inc-I",)),
...     Section("art-1/apt-A/inc-I", "inciso", "I.", "", 8, 30, "art-1/apt-A"),
... ], 30, "latam")
>>> reordered(t, "art-1/inc-I/apt-A"), one_level_down(t, "art-1/inc-I", "artículo 1, fracción I").id
('art-1/apt-A/inc-I', 'art-1/apt-A/inc-I')
"""

from __future__ import annotations

from itertools import permutations

from ipsis.errors import SectionNotFoundError
from ipsis.sections.tree import Section, SectionTree

_LEVEL_NAMES = {"par": "parágrafos", "num": "números (n.º)", "apt": "apartados", "abs": "Absätze"}
_ITEMS = frozenset(("num", "apt", "inc"))
_LEVEL_NAMES |= {"inc": "incisos (fracciones, numerales)", "ali": "alíneas (letras, literales)"}


def split_level(tree: SectionTree, sid: str, items_alike: bool) -> tuple[Section, str] | None:
    """The enclosing section of ``sid`` when what is below it names a level the whole document is
    never split into (CPEUM's fracciones are not segmented: ``artículo 20, fracción III`` is
    checked against Artículo 20, with a note); None when the document has that level anywhere
    (then a missing number is a wrong reference, reported as such)."""
    parts = sid.split("/")
    present = {seg.split("-")[0] for s in tree for seg in s.id.split("/")[1:]}
    if items_alike and present & _ITEMS:
        present |= _ITEMS  # `inciso 9` in a document whose items are numbered `9.`
    for cut in range(len(parts) - 1, 0, -1):
        parent = tree.get("/".join(parts[:cut]))
        if parent is None:
            continue
        levels = {p.split("-")[0] for p in parts[cut:]}
        if levels & present:
            return None
        names = ", ".join(_LEVEL_NAMES.get(k, k) for k in sorted(levels))
        return parent, f"{tree.doc_id} is not split into {names}: checked against {tree.path(parent)} as a whole"
    return None


def reordered(tree: SectionTree, sid: str) -> str:
    """``sid`` with its subdivisions in the order the document nests them: `artículo 123,
    apartado B, fracción XIII` is ``art-123/apt-B/inc-XIII``, `artículo 41, fracción V,
    apartado A` is ``art-41/inc-V/apt-A`` (CPEUM); ``sid`` itself when no order exists."""
    head, *steps = sid.split("/")
    if sid in tree or len(steps) < 2 or len(steps) > 4:
        return sid
    for order in permutations(steps):
        other = "/".join((head, *order))
        if other in tree:
            return other
    return sid


def one_level_down(tree: SectionTree, sid: str, ref: str) -> Section | None:
    """The section ``sid`` names when the document puts one more level above its last step:
    `artículo 27, inciso a)` is ``art-27/inc-VIII/ali-a``, the only a) of Artículo 27 (CPEUM).
    A § is never skipped (`art. 156, V` is the caput's inciso V; § 1º's is cited `§ 1º, V`).
    Where that step exists under several sections (`artículo 2o., fracción I`: in apartados A,
    B and C), the reference is ambiguous: :class:`SectionNotFoundError` names them."""
    head, _, last = sid.rpartition("/")
    if not head or head not in tree:
        return None
    depth = sid.count("/") + 1
    found = [
        s
        for s in tree
        if s.id.count("/") == depth
        and s.id.startswith(head + "/")
        and s.id.endswith("/" + last)
        and not s.id[len(head) + 1 :].startswith("par-")  # `art. 156, V` is the caput's, never § 1º's
    ]
    if len(found) == 1:
        return found[0]
    if found:
        where = ", ".join(tree.path(tree[s.parent]) for s in found if s.parent)
        msg = (
            f"{sid} is ambiguous in {tree.doc_id}: {last} is in {where}; name which "
            f"(reference: {ref.strip()!r}); closest: {found[0].id}"
        )
        raise SectionNotFoundError(msg, found[0].id)
    return None

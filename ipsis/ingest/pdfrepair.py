"""Damaged PDFs as viewers read them, for pypdf (which is stricter than PDFium and pdfminer).

- :func:`from_header` — junk before ``%PDF`` skipped; an end without ``%%EOF`` (a file cut
  short, or a trailer written without it or without the ``startxref`` offset: ``issue6069.pdf``)
  gets a ``startxref 0`` and ``%%EOF``, so that pypdf rebuilds the cross-reference table from
  the objects, as viewers do;
- :func:`page_tree` — a page tree that loops back on itself (``Pages-tree-refs.pdf``: pypdf
  refuses the whole file) walked with each node visited once; :func:`loop_pages` names the
  pages that are not there (a repair tool cannot bring them back: qpdf keeps the loop).
"""

from __future__ import annotations

from typing import Any

from ipsis.ingest.pdfium import PageRead

MAX_DEPTH = 64  # page tree levels followed at most
LOOP = "pypdf: the page tree loops back on itself here: there is no page to read"


def from_header(data: bytes) -> bytes:
    r"""The bytes for pypdf: from ``%PDF`` on (viewers skip junk before the header, up to
    1 KiB), with ``startxref 0`` and ``%%EOF`` appended when the last 2 KiB have no ``%%EOF``.

    >>> from_header(b"junk %PDF-1.1 ... trailer << >> startxref")
    b'%PDF-1.1 ... trailer << >> startxref\nstartxref\n0\n%%EOF\n'
    >>> from_header(b"%PDF-1.4 ... startxref\n9\n%%EOF\n")
    b'%PDF-1.4 ... startxref\n9\n%%EOF\n'
    """
    at = data.find(b"%PDF", 0, 1024)
    body = data[at:] if at > 0 else data
    if b"%%EOF" not in body[-2048:]:
        body += b"\nstartxref\n0\n%%EOF\n"
    return body


def page_tree(reader: Any) -> list[Any]:
    """The pages of a pypdf reader, walking the page tree with each node visited once: a kid
    that leads back to a node already met (or too deep) is no page and stands in the list as an
    unreadable :class:`PageRead` (PDFium counts a page there too, and fails to load it)."""
    from pypdf import PageObject
    from pypdf.generic import DictionaryObject, IndirectObject, NameObject

    out: list[Any] = []
    seen: set[tuple[int, int]] = set()
    inheritable = [NameObject(k) for k in ("/Resources", "/MediaBox", "/CropBox", "/Rotate")]

    def walk(ref: Any, inherit: dict[Any, Any], depth: int) -> None:
        key = (ref.idnum, ref.generation) if isinstance(ref, IndirectObject) else (-1, id(ref))
        node = ref.get_object()
        if key in seen or depth > MAX_DEPTH or not isinstance(node, DictionaryObject):
            out.append(PageRead("", error=LOOP))
            return
        seen.add(key)
        if node.get("/Type") == "/Pages" or "/Kids" in node:
            here = {**inherit, **{k: node[k] for k in inheritable if k in node}}
            for kid in node.get("/Kids", []):
                walk(kid, here, depth + 1)
            return
        page = PageObject(reader, ref if isinstance(ref, IndirectObject) else None)
        page.update(node)
        for k, v in inherit.items():
            if k not in page:
                page[k] = v
        out.append(page)

    walk(reader.trailer["/Root"].get_object()["/Pages"], {}, 0)
    return out


def loop_pages(data: bytes, password: str | None = None) -> set[int]:
    """The 1-based page numbers where the file's page tree loops back on itself (no page is
    there, though the page count includes one); empty when the tree has no loop or pypdf
    cannot read it at all."""
    import io

    from pypdf import PdfReader

    try:
        reader = PdfReader(io.BytesIO(from_header(data)), strict=False)
        if reader.is_encrypted and not reader.decrypt(password or ""):
            return set()
        try:
            len(reader.pages)
        except Exception as exc:
            if "cyclic" not in str(exc):
                return set()
            tree = page_tree(reader)
            return {k for k, p in enumerate(tree, start=1) if isinstance(p, PageRead) and p.error == LOOP}
    except Exception:  # pypdf raises many types on damaged files: no loop known
        return set()
    return set()

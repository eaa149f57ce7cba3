"""Akoma Ntoso 3.0 export of a document's section tree (``ipsis sections SOURCE --format akn``).

One ``<act>``: FRBR identification from what is known about the work (the declared or stated
work identifier, the country of the numbering family, the version date, the retrieval date; never
guessed: an unknown date is written as the document's own date or the export day and said so in
``FRBRdate@name``), then the sections as AKN hierarchy elements (``article``, ``paragraph``,
``point``, ``title``, ``chapter``, ``section``; others as ``hcontainer name=...``), each with its
``eId`` (:func:`ipsis.sections.eid.akn_eid`), its label in ``<num>``, its title in ``<heading>``,
its own text in ``<content><p>`` (or ``<intro><p>`` before its children, ``<wrapUp><p>`` after
them, an ``hcontainer name="unsegmented"`` for text the tree left between two). Revoked sections get
``status="removed"``; the document's amendment notes (note marks) are ``<remark
status="editorial">`` inline, so the text of an element read in order is the section's text.

>>> from ipsis.document import Document
>>> from ipsis.sections import segment
>>> d = Document("lei", "Art. 1º Esta Lei vale.\\nParágrafo único. Em todo o país.\\nArt. 2º Revogado.\\n")
>>> xml = to_akn(d, segment(d))
>>> '<article eId="art_1"' in xml and '<paragraph eId="art_1__para_unico"' in xml
True
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from lxml import etree

from ipsis.document import Document
from ipsis.sections.eid import akn_eid
from ipsis.sections.tree import Section, SectionTree

AKN_NS = "http://docs.oasis-open.org/legaldocml/ns/akn/3.0"
ELEMENT = {
    "artigo": "article",
    "articulo": "article",
    "article": "article",
    "paragrafo": "paragraph",
    "apartado": "paragraph",
    "numero": "paragraph",
    "inciso": "point",
    "alinea": "point",
    "item": "point",
    "titulo": "title",
    "capitulo": "chapter",
    "secao": "section",
    "subsecao": "subsection",
    "rfc_section": "section",
    "parte": "part",
    "livro": "book",
}
"""Section kinds -> AKN elements; any other kind is an ``hcontainer`` named after it."""
COUNTRY = {"br": "br", "pt": "pt", "es": "es"}
LANGUAGE = {"br": "por", "pt": "por", "es": "spa", "latam": "spa", "rfc": "eng", "generic": "und"}
_XML_BAD = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _clean(text: str) -> str:
    return _XML_BAD.sub(" ", text)


def _date(value: Any) -> str | None:
    m = re.search(r"\d{4}-\d{2}-\d{2}", str(value or ""))
    return m.group() if m else None


def _country_of(work: Any) -> str | None:
    """The country a work identifier names: ``urn:lex:br:...``, ``.../eli/es/...``."""
    m = re.match(r"urn:lex:([a-z]{2})\b", str(work or "")) or re.search(r"/eli/([a-z]{2})/", str(work or ""))
    return m.group(1) if m else None


def _e(parent: etree._Element, tag: str, **attrs: str) -> etree._Element:
    return etree.SubElement(parent, f"{{{AKN_NS}}}{tag}", {k.rstrip("_"): v for k, v in attrs.items()})


def _frbr(meta: etree._Element, doc: Document, family: str) -> None:
    work = (doc.meta.get("work") or {}).get("id") if isinstance(doc.meta.get("work"), dict) else None
    country = COUNTRY.get(family) or _country_of(work) or "un"
    version = _date(doc.meta.get("version")) or _date(doc.meta.get("version_date"))
    retrieved = _date(doc.meta.get("retrieved_at"))
    work_date, work_date_name = (version, "version") if version else (retrieved, "retrieved") if retrieved else (
        dt.date.today().isoformat(), "exported")  # fmt: skip
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", str(doc.meta.get("name") or doc.id)).strip("-") or "document"
    uri = f"/akn/{country}/act/{work_date}/{name}"
    lang = LANGUAGE.get(family, "und")
    ident = _e(meta, "identification", source="#ipsis")
    w = _e(ident, "FRBRWork")
    _e(w, "FRBRthis", value=f"{uri}/!main")
    _e(w, "FRBRuri", value=uri)
    if work:
        _e(w, "FRBRalias", value=str(work), name="work")
    _e(w, "FRBRdate", date=work_date, name=work_date_name)
    _e(w, "FRBRauthor", href="#source")
    _e(w, "FRBRcountry", value=country)
    ex = _e(ident, "FRBRExpression")
    _e(ex, "FRBRthis", value=f"{uri}/{lang}@/!main")
    _e(ex, "FRBRuri", value=f"{uri}/{lang}@")
    _e(ex, "FRBRdate", date=work_date, name=work_date_name)
    _e(ex, "FRBRauthor", href="#source")
    _e(ex, "FRBRlanguage", language=lang)
    ma = _e(ident, "FRBRManifestation")
    _e(ma, "FRBRthis", value=f"{uri}/{lang}@/!main.xml")
    _e(ma, "FRBRuri", value=f"{uri}/{lang}@.akn")
    _e(ma, "FRBRdate", date=dt.date.today().isoformat(), name="exported by ipsis")
    _e(ma, "FRBRauthor", href="#ipsis")
    refs = _e(meta, "references", source="#ipsis")
    _e(refs, "TLCOrganization", eId="ipsis", href="/ontology/organization/ipsis", showAs="ipsis")
    _e(refs, "TLCOrganization", eId="source", href="/ontology/organization/source", showAs=str(doc.id))


def _text_into(el: etree._Element, doc: Document, start: int, end: int) -> None:
    """Write ``doc.text[start:end]`` into ``el``, note marks as ``<remark status="editorial">``."""
    notes = sorted((max(m.start, start), min(m.end, end)) for m in doc.marks if m.kind == "note")
    notes = [(s, e) for s, e in notes if s < e]
    pos, last = start, None
    el.text = ""
    for s, e in notes:
        if s < pos:
            continue
        piece = _clean(doc.text[pos:s])
        if last is None:
            el.text = piece
        else:
            last.tail = piece
        last = _e(el, "remark", status="editorial")
        last.text = _clean(doc.text[s:e])
        pos = e
    rest = _clean(doc.text[pos:end])
    if last is None:
        el.text = rest
    else:
        last.tail = rest


def _label_end(text: str, start: int, label: str, upto: int) -> int:
    """Where ``label`` ends in ``text`` from ``start``, its spaces matching any whitespace
    (``Art.\\xa01º`` is the label ``Art. 1º``); ``start`` when the text does not open with it."""
    want = " ".join(label.split())
    i, j = start, 0
    while j < len(want) and i < upto:
        if want[j] == " ":
            if not text[i].isspace():
                return start
            while i < upto and text[i].isspace():
                i += 1
            j += 1
        elif text[i] == want[j]:
            i, j = i + 1, j + 1
        else:
            return start
    return i if want and j == len(want) else start


def _own(doc: Document, sec: Section, upto: int) -> tuple[int, int, int, int]:
    """Offsets of the label, the title, and the section's own text before ``upto``."""
    text = doc.text
    s = sec.start
    while s < upto and text[s].isspace():
        s += 1
    label_end = _label_end(text, s, sec.label, upto)
    title_end = label_end
    if sec.title:
        at = text.find(sec.title, label_end, upto)
        if at != -1 and not text[label_end:at].strip(" \t\n.-–:"):
            title_end = at + len(sec.title)
    return s, label_end, title_end, upto


def _unique(eid: str, seen: set[str]) -> str:
    out, n = eid, 2
    while out in seen:
        out, n = f"{eid}_{n}", n + 1
    seen.add(out)
    return out


def _nested(tree: SectionTree) -> tuple[list[Section], dict[int, list[Section]]]:
    """Roots and children by span containment, in document order (robust to a tree that holds
    the same id twice, as a booklet of several norms can)."""
    order = sorted(tree, key=lambda s: (s.start, -s.end))
    roots: list[Section] = []
    kids: dict[int, list[Section]] = {}
    stack: list[Section] = []
    for sec in order:
        while stack and not (stack[-1].start <= sec.start and sec.end <= stack[-1].end and stack[-1] is not sec):
            stack.pop()
        (kids.setdefault(id(stack[-1]), []) if stack else roots).append(sec)
        stack.append(sec)
    return roots, kids


def _section(parent: etree._Element, doc: Document, children: dict[int, list[Section]], sec: Section,
             seen: set[str]) -> None:  # fmt: skip
    tag = ELEMENT.get(sec.kind, "hcontainer")
    attrs = {"eId": _unique(akn_eid(sec.id), seen)}
    if tag == "hcontainer":
        attrs["name"] = re.sub(r"[^A-Za-z0-9_.-]+", "_", sec.kind) or "section"
    if sec.revoked:
        attrs["status"] = "removed"
    el = _e(parent, tag, **attrs)
    kids = children.get(id(sec), [])
    first = kids[0].start if kids else sec.end
    s, label_end, title_end, own_end = _own(doc, sec, first)
    if label_end > s:
        num = _e(el, "num")
        num.text = _clean(doc.text[s:label_end])
    if title_end > label_end:
        heading = _e(el, "heading")
        _text_into(heading, doc, label_end, title_end)
    wrapper = _e(el, "intro" if kids else "content")
    p = _e(wrapper, "p")
    _text_into(p, doc, title_end, own_end)
    if kids and not p.text and not len(p):
        el.remove(wrapper)
    pos = first
    for k in kids:
        if k.start > pos and doc.text[pos : k.start].strip():  # text the tree left between children
            gap = _e(el, "hcontainer", eId=_unique(f"{attrs['eId']}__text", seen), name="unsegmented")
            _text_into(_e(_e(gap, "content"), "p"), doc, pos, k.start)
        _section(el, doc, children, k, seen)
        pos = max(pos, k.end)
    if kids and pos < sec.end and doc.text[pos : sec.end].strip():  # text after the last child
        _text_into(_e(_e(el, "wrapUp"), "p"), doc, pos, sec.end)


def to_akn(doc: Document, tree: SectionTree) -> str:
    """The Akoma Ntoso 3.0 XML (a string) of ``doc`` and its section ``tree``."""
    root = etree.Element(f"{{{AKN_NS}}}akomaNtoso", nsmap={None: AKN_NS})  # type: ignore[dict-item]
    act = _e(root, "act", name=re.sub(r"[^A-Za-z0-9_.-]+", "-", str(doc.meta.get("name") or doc.id)) or "act")
    meta = _e(act, "meta")
    _frbr(meta, doc, tree.family)
    body = _e(act, "body")
    roots, children = _nested(tree)
    if not roots:
        wrapper = _e(body, "hcontainer", eId="body_text", name="text")
        p = _e(_e(wrapper, "content"), "p")
        _text_into(p, doc, 0, len(doc.text))
    seen: set[str] = set()
    for sec in roots:
        _section(body, doc, children, sec, seen)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=False).decode("utf-8") + "\n"

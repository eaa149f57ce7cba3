"""XML reader: BOE consolidated text, RFCXML v3, and any other XML as text.

Parsing is safe: no network, no DTD loading, no external entities (a document that declares one
is refused), no nested entity definitions (the "billion laughs" shape is refused before parsing),
``huge_tree`` off. Internal entities such as RFCXML's ``&nbsp;`` are expanded.

- BOE (``<response><data><texto><bloque id=... tipo=...><version fecha_vigencia=...>``): the
  document text holds the *latest* version of every block; every version is in
  ``meta["versions"]`` (block id -> list of ``{id_norma, fecha_publicacion, fecha_vigencia,
  text, notes}``, ``notes`` the ``nota_pie`` spans in that text); ``nota_pie`` paragraphs are
  ``note`` marks; each block is a ``block`` hint (``ipsis.sections.document_at`` rebuilds the
  document as it read on another date).
- LeyChile (BCN ``<Norma>`` with nested ``<EstructurasFuncionales>``): title, heading, the text
  of every part in order, promulgation; ``part`` hints (value ``tipoParte``), derogated parts
  marked ``revoked``; a ``paragraph`` hint for each paragraph the fixed-width text marks by
  indenting its first line (Chile's *incisos*). Numeric character references (``&#243;``) are decoded by the parser.
- RFCXML v3 (``<rfc version="3">``): title, abstract, then numbered sections rendered as
  ``4.2.1.  Calculating Freshness Lifetime``; each is a ``section`` hint whose value is the
  number computed from the nesting (appendices ``A``, ``A.1``) with ``title``/``anchor`` attrs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ipsis.document import Document, Hint, Mark
from ipsis.errors import ExtractionError, InputError

_WS = re.compile(r"\s+")
_NAMES = ("NombreParte", "TituloParte")
_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
_ENTITY_DECL = re.compile(rb"<!ENTITY\s+(%\s*)?([\w.:-]+)\s+(SYSTEM|PUBLIC|\"[^\"]*\"|'[^']*')", re.S)


def check_entities(data: bytes, name: str = "input") -> None:
    """Refuse external entities and entity definitions that reference other entities.

    >>> check_entities(b'<!DOCTYPE rfc [<!ENTITY nbsp "&#160;">]><rfc/>')
    >>> try:
    ...     check_entities(b'<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>')
    ... except InputError as exc:
    ...     print(str(exc)[:47])
    input declares the external entity 'e' (SYSTEM)
    """
    head = data[: data.find(b"]>") + 2] if b"<!ENTITY" in data else b""
    for m in _ENTITY_DECL.finditer(head):
        ent, kind = m.group(2).decode("ascii", "replace"), m.group(3)
        if kind in (b"SYSTEM", b"PUBLIC"):
            msg = (
                f"{name} declares the external entity {ent!r} ({kind.decode()}); "
                "ipsis never loads external entities: remove the declaration"
            )
            raise InputError(msg)
        if m.group(1) or re.search(rb"&(?!#)[\w.:-]+;", kind):
            msg = (
                f"{name} defines the entity {ent!r} in terms of other entities (the shape of an "
                "entity-expansion bomb); ipsis refuses it: expand the entities first"
            )
            raise InputError(msg)


MAX_DEPTH = 400
"""Deepest element nesting read (the tree walkers recurse; real documents stay under 50)."""
_DECL_ENCODING = re.compile(rb"""^(?:\xef\xbb\xbf)?<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']""")


def declared_vs_actual(data: bytes) -> tuple[bytes, str | None]:
    """``data`` with its XML declaration corrected to UTF-8 when the bytes are UTF-8 but the
    declaration names another encoding (and a note saying so), else ``data`` unchanged.

    >>> declared_vs_actual('<?xml version="1.0" encoding="shift_jis"?><a>ção</a>'.encode())[1]
    'declared shift_jis but the bytes are UTF-8; read as UTF-8'
    >>> declared_vs_actual(b'<?xml version="1.0" encoding="latin-1"?><a>plain</a>')[1] is None
    True
    """
    m = _DECL_ENCODING.match(data)
    if not m or m.group(1).lower() in (b"utf-8", b"utf8"):
        return data, None
    declared = m.group(1).decode("ascii").lower()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return data, None
    if not data.isascii() or declared.startswith(("utf-16", "utf-32", "utf16", "utf32", "ucs")):
        note = f"declared {declared} but the bytes are UTF-8; read as UTF-8"
        return data[: m.start(1)] + b"UTF-8" + data[m.end(1) :], note
    return data, None


def check_depth(root: Any, name: str, limit: int = MAX_DEPTH) -> None:
    """Refuse a tree nested deeper than ``limit`` elements (iteratively: no recursion here)."""
    from lxml import etree

    depth = 0
    for event, _ in etree.iterwalk(root, events=("start", "end")):
        depth += 1 if event == "start" else -1
        if depth > limit:
            msg = f"{name}: elements nested more than {limit} levels deep; ipsis reads at most {limit}: flatten it"
            raise ExtractionError(msg)


def parser_limit_error(name: str, message: str) -> ExtractionError:
    """libxml2 resource-limit messages in words that name the input and the fix."""
    if "depth" in message.lower():
        what = "elements nested deeper than the parser allows"
    else:
        what = f"a resource limit of the parser was reached ({message.strip()})"
    return ExtractionError(f"{name}: {what}; ipsis will not read it: flatten or split the document")


def parse_xml(data: bytes, name: str = "input") -> Any:
    """Parse safely; return the root element.

    Large text nodes are allowed (``huge_tree``) unless the document defines entities: the
    input-size limit bounds them, and entity amplification stays guarded by libxml2.
    """
    from lxml import etree

    check_entities(data, name)
    data, _ = declared_vs_actual(data)
    parser = etree.XMLParser(
        resolve_entities="internal",  # type: ignore[arg-type]  # lxml >= 5 accepts it
        no_network=True,
        load_dtd=False,
        huge_tree=b"<!ENTITY" not in data,
        remove_comments=True,
        remove_pis=True,
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        if "XML_PARSE_HUGE" in str(exc) or "Excessive depth" in str(exc):
            raise parser_limit_error(name, str(exc)) from exc
        detail = re.sub(r" \(<string>, line \d+\)$", "", str(exc))
        msg = f"{name}: not well-formed XML ({detail}); fix the file or set the input format"
        raise ExtractionError(msg) from exc
    if root is None:
        msg = f"{name}: no XML element found; fix the file or set the input format"
        raise ExtractionError(msg)
    check_depth(root, name)
    return root


def _flat(el: Any) -> str:
    return _WS.sub(" ", "".join(el.itertext())).strip()


@dataclass(slots=True)
class _Out:
    parts: list[str] = field(default_factory=list)
    pos: int = 0

    def line(self, s: str) -> tuple[int, int]:
        start = self.pos
        self.parts.append(s + "\n")
        self.pos += len(s) + 1
        return start, start + len(s)

    @property
    def text(self) -> str:
        return "".join(self.parts)


def _boe_version(v: Any) -> dict[str, Any]:
    """One ``<version>``: its dates, norm, text (one line per ``<p>``) and ``notes``, the
    ``[start, end]`` of each ``nota_pie`` line in that text."""
    lines: list[str] = []
    notes: list[list[int]] = []
    pos = 0
    for p in v.iter("p"):
        line = _flat(p)
        if p.get("class") == "nota_pie":
            notes.append([pos, pos + len(line)])
        lines.append(line)
        pos += len(line) + 1
    return {
        "id_norma": v.get("id_norma", ""),
        "fecha_publicacion": v.get("fecha_publicacion", ""),
        "fecha_vigencia": v.get("fecha_vigencia", ""),
        "text": "\n".join(lines),
        "notes": notes,
    }


def _boe(root: Any) -> tuple[str, list[Mark], list[Hint], dict[str, Any]]:
    out = _Out()
    marks: list[Mark] = []
    hints: list[Hint] = []
    versions: dict[str, list[dict[str, str]]] = {}
    for bloque in root.iter("bloque"):
        bid = bloque.get("id", "")
        vs = bloque.findall("version")
        versions[bid] = [_boe_version(v) for v in vs]
        if not vs:
            continue
        latest = max(vs, key=lambda v: v.get("fecha_vigencia", ""))
        start = out.pos
        for p in latest.iter("p"):
            s, e = out.line(_flat(p))
            if p.get("class") == "nota_pie":
                marks.append(Mark("note", s, e, "nota_pie"))
        attrs = (
            ("tipo", bloque.get("tipo", "")),
            ("titulo", bloque.get("titulo", "")),
            ("fecha_vigencia", latest.get("fecha_vigencia", "")),
            ("versions", str(len(vs))),
        )
        hints.append(Hint("block", bid, start, max(start, out.pos - 1), attrs))
    return out.text, marks, hints, {"versions": versions}


def _inline(el: Any, numbers: dict[str, str]) -> str:
    """Text of an RFCXML block with empty ``<xref>``/``<eref>`` rendered as xml2rfc does."""
    parts: list[str] = [el.text or ""]
    for child in el:
        tag = child.tag if isinstance(child.tag, str) else ""
        if tag in ("iref", "cref"):
            pass
        elif tag == "xref" and not _flat(child):
            target = child.get("target", "")
            section = child.get("section")
            if section:
                parts.append(f"Section {section} of [{target}]")
            elif target in numbers:
                n = numbers[target]
                parts.append(f"Appendix {n}" if n[:1].isalpha() else f"Section {n}")
            else:
                parts.append(f"[{target}]")
        elif tag == "eref" and not _flat(child):
            parts.append(f"<{child.get('target', '')}>")
        else:
            parts.append(_inline(child, numbers))
        parts.append(child.tail or "")
    return "".join(parts)


def _rfc_numbers(root: Any) -> dict[str, str]:
    """Section number of every ``<section>``/``<references>`` anchor (appendices lettered)."""
    numbers: dict[str, str] = {}

    def walk(el: Any, prefix: str, letters: bool) -> None:
        k = 0
        for child in el:
            if child.tag not in ("section", "references") or child.get("numbered") == "false":
                continue
            k += 1
            label = (chr(ord("A") + k - 1) if letters else str(k)) if not prefix else f"{prefix}.{k}"
            numbers[child.get("anchor") or f"_{id(child)}"] = label
            child.set("_ipsis_number", label)
            walk(child, label, False)

    middle = root.find("middle")
    back = root.find("back")
    if middle is not None:
        walk(middle, "", False)
    if back is not None:
        count = sum(1 for c in (middle if middle is not None else []) if c.tag == "section")
        refs = [c for c in back if c.tag == "references"]
        if len(refs) > 1:
            # sibling <references> (RFCXML v2, editors' XML): the published RFC numbers them
            # "10. References", "10.1. Normative References", "10.2. Informative References"
            group = f"{count + 1}"
            back.set("_ipsis_refs_group", group)
            for i, child in enumerate(refs, 1):
                child.set("_ipsis_number", f"{group}.{i}")
                numbers[child.get("anchor") or f"_{id(child)}"] = f"{group}.{i}"
                walk(child, f"{group}.{i}", False)
        for k, child in enumerate(refs if len(refs) == 1 else [], count + 1):
            child.set("_ipsis_number", str(k))
            numbers[child.get("anchor") or f"_{id(child)}"] = str(k)
            walk(child, str(k), False)
        walk_back = [c for c in back if c.tag == "section" and c.get("numbered") != "false"]
        for i, child in enumerate(walk_back):
            label = chr(ord("A") + i)
            child.set("_ipsis_number", label)
            numbers[child.get("anchor") or f"_{id(child)}"] = label
            walk(child, label, False)
    return numbers


def _rfcxml(root: Any) -> tuple[str, list[Mark], list[Hint], dict[str, Any]]:
    out = _Out()
    hints: list[Hint] = []
    numbers = _rfc_numbers(root)
    front = root.find("front")
    if front is not None:
        title = front.find("title")
        if title is not None:
            out.line(_flat(title))
        abstract = front.find("abstract")
        if abstract is not None:
            out.line("Abstract")
            for t in abstract:
                out.line(_WS.sub(" ", _inline(t, numbers)).strip())

    def body(el: Any) -> None:
        group = el.get("_ipsis_refs_group")
        for child in el:
            tag = child.tag if isinstance(child.tag, str) else ""
            if tag == "references" and group:
                start, _ = out.line(f"{group}.  References")
                hints.append(Hint("section", group, start, start + len(group) + 13, (("title", "References"),)))
                group = None
            if tag in ("section", "references"):
                section(child)
            elif tag in ("name", "iref", "cref"):
                continue
            elif tag in ("artwork", "sourcecode"):
                for line in (child.text or "").strip("\n").split("\n"):
                    out.line(line.rstrip())
            elif tag in (
                "ul",
                "ol",
                "dl",
                "figure",
                "table",
                "thead",
                "tbody",
                "tr",
                "blockquote",
                "aside",
                "note",
            ):
                body(child)
            elif tag == "reference":
                ttl = child.find(".//title")
                out.line(f"[{child.get('anchor', '')}] {_flat(ttl) if ttl is not None else ''}".strip())
            else:
                text = _WS.sub(" ", _inline(child, numbers)).strip()
                if text:
                    out.line(text)

    def section(el: Any) -> None:
        number = el.get("_ipsis_number")
        name = el.find("name")
        title = _flat(name) if name is not None else (el.get("title") or "")
        if number:
            label = f"Appendix {number}." if number.isalpha() else f"{number}."
            head = f"{label}  {title}"
        else:
            head = title
        start, _ = out.line(head)
        body(el)
        if number:
            attrs = (("title", title), ("anchor", el.get("anchor") or ""))
            hints.append(Hint("section", number, start, max(start, out.pos - 1), attrs))

    for part in ("middle", "back"):
        el = root.find(part)
        if el is not None:
            body(el)
    hints.sort(key=lambda h: (h.start, -h.end))
    meta = {"rfc_number": root.get("number"), "rfcxml_version": root.get("version")}
    return out.text, [], hints, meta


def _local(el: Any) -> str:
    tag = el.tag if isinstance(el.tag, str) else ""
    return tag.rpartition("}")[2]


def _child(el: Any, name: str) -> Any:
    return next((c for c in el if _local(c) == name), None)


def _lines(el: Any) -> list[str]:
    """The non-blank lines of an element's text, each with its whitespace collapsed."""
    raw = "".join(el.itertext()) if el is not None else ""
    return [_WS.sub(" ", line).strip() for line in raw.splitlines() if line.strip()]


# LeyChile ``<Texto>`` is fixed-width: the body wraps at ~60 columns and the right margin (from
# column ~68) holds the provenance of each passage (`CPR Art. 3° D.O.`, `LEY N° 20.050 Art. 1°`).
# Where a body line is short the margin starts earlier (`La familia es el núcleo` + 18 spaces +
# `CPR Art. 1° D.O.`: column 46); the body never has more than two spaces in a row (28 article
# lines have a run of 3 or more before column 56, each a run of 8 or more before the margin).
_MARGIN_COL = 56
_MARGIN_GAP = 8
_GAP = re.compile(r"[ \t]{2,}(?=\S)")
_INDENT = re.compile(r"[ \t]{1,7}(?=\S)")
"""A LeyChile paragraph's first line: indented (the Constitución's articles: 931 lines by 5
spaces, 8 by 2-6), its wrapped lines flush (4,029)."""


def _margin(line: str) -> tuple[str, str] | None:
    """``line`` split into its body and its right-margin note, or None when it has no margin."""
    for m in _GAP.finditer(line):
        if m.end() >= _MARGIN_COL or len(m.group()) >= _MARGIN_GAP:
            return line[: m.start()], line[m.end() :]
    return None


def _leychile_lines(el: Any) -> tuple[list[tuple[str, bool]], str]:
    """The body lines of a LeyChile ``<Texto>`` (each with whether it opens a paragraph: an
    *inciso* in Chilean usage) and its right-margin annotations (joined).

    A piece of the margin printed on a line of its own before column 56 (`            CPR Art. 19°
    N° 15`) took the indent of the paragraph after it (printed flush or by 2-4 spaces), which
    opens a paragraph.

    >>> from lxml import etree
    >>> line2 = " " * 68 + "24.10.1980"
    >>> t = etree.fromstring(f"<Texto>     Art. 4.- Chile es unitario.{' ' * 30}CPR Art. 4° D.O.\\n{line2}\\nsigue."
    ...     "\\n            CPR Art. 4° N° 2\\nOtro inciso.</Texto>")
    >>> _leychile_lines(t)  # doctest: +NORMALIZE_WHITESPACE
    ([('Art. 4.- Chile es unitario.', True), ('sigue.', False), ('Otro inciso.', True)],
     'CPR Art. 4° D.O. 24.10.1980 CPR Art. 4° N° 2')
    """
    raw = "".join(el.itertext()) if el is not None else ""
    body: list[tuple[str, bool]] = []
    notes: list[str] = []
    displaced = False  # a margin piece took the indent of the paragraph that follows it
    for line in raw.splitlines():
        line = line.rstrip()
        if not line:
            continue
        split = _margin(line)
        text, note = split if split is not None else (line, "")
        if note:
            notes.append(_WS.sub(" ", note).strip())
        if not text.strip():  # the margin alone on its line
            displaced = displaced or len(line) - len(note) < _MARGIN_COL
            continue
        opens = displaced or _INDENT.match(text) is not None
        body.append((_WS.sub(" ", text).strip(), opens))
        displaced = False
    return body, " ".join(notes)


def _leychile(root: Any) -> tuple[str, list[Mark], list[Hint], dict[str, Any]]:
    """LeyChile (BCN) ``<Norma>``: title, heading, every ``<EstructuraFuncional>``'s ``<Texto>``
    (nested parts in document order), then the promulgation. Each part is a ``part`` hint
    (value ``tipoParte``; attrs ``idParte``, ``nombre``, ``titulo``, ``fechaVersion``); a part
    with ``derogado="derogado"`` is marked ``revoked``."""
    out = _Out()
    marks: list[Mark] = []
    hints: list[Hint] = []
    meta_el = _child(root, "Metadatos")
    title = _child(meta_el, "TituloNorma") if meta_el is not None else None
    for line in _lines(title):
        out.line(line)
    head = _child(root, "Encabezado")
    for line in _lines(_child(head, "Texto") if head is not None else None):
        out.line(line)

    def walk(container: Any) -> None:
        for part in container:
            if _local(part) != "EstructuraFuncional":
                continue
            start = out.pos
            lines, notes = _leychile_lines(_child(part, "Texto"))
            opened = -1  # where the open paragraph starts
            for line, opens in lines:
                if opens and opened >= 0:
                    hints.append(Hint("paragraph", "", opened, out.pos - 1))
                a, _ = out.line(line)
                if opens:
                    opened = a
            if opened >= 0:
                hints.append(Hint("paragraph", "", opened, out.pos - 1))
            if notes:  # the margin, kept after the part's text and marked as a note
                a, b = out.line(f"[{notes}]")
                marks.append(Mark("note", a, b, "LeyChile margin annotation"))
            nested = _child(part, "EstructurasFuncionales")
            if nested is not None:
                walk(nested)
            end = max(start, out.pos - 1)
            info = _child(part, "Metadatos")
            name, title = (" ".join(_lines(_child(info, k) if info is not None else None)) for k in _NAMES)
            attrs = (
                ("idParte", part.get("idParte", "")),
                ("nombre", name),
                ("titulo", title),
                ("fechaVersion", part.get("fechaVersion", "")),
            )
            hints.append(Hint("part", part.get("tipoParte", ""), start, end, attrs))
            if part.get("derogado") == "derogado" and end > start:
                marks.append(Mark("revoked", start, end, f"{part.get('tipoParte', 'parte')} derogado"))

    top = _child(root, "EstructurasFuncionales")
    if top is not None:
        walk(top)
    promulgation = _child(root, "Promulgacion")
    for line in _lines(_child(promulgation, "Texto") if promulgation is not None else None):
        out.line(line)
    hints.sort(key=lambda h: (h.start, -h.end))
    marks.sort(key=lambda m: m.start)
    meta = {"norma_id": root.get("normaId"), "fecha_version": root.get("fechaVersion")}
    return out.text, marks, hints, meta


def _generic(root: Any) -> str:
    """Any XML: elements with mixed content are inline, others end lines."""
    parts: list[str] = []

    def walk(el: Any) -> None:
        mixed = bool((el.text or "").strip()) or any((c.tail or "").strip() for c in el)
        if mixed:
            text = _WS.sub(" ", "".join(el.itertext())).strip()
            if text:
                parts.append(text)
            return
        for child in el:
            if isinstance(child.tag, str):
                walk(child)

    walk(root)
    return "".join(p + "\n" for p in parts)


def read_xml(data: bytes, doc_id: str, name: str = "input", encoding: str | None = None) -> Document:
    """A :class:`Document` from XML bytes (BOE, RFCXML v3, or generic XML); ``encoding``
    overrides the XML declaration."""
    from lxml import etree

    if encoding:
        from ipsis.ingest.text import decode_forced

        source = _DECLARATION.sub("", decode_forced(data, name, encoding), count=1)
        root = parse_xml(source.encode("utf-8"), name)
    else:
        root = parse_xml(data, name)
    tag = root.tag if isinstance(root.tag, str) else ""
    meta: dict[str, Any] = {
        "encoding": encoding or root.getroottree().docinfo.encoding or "utf-8",
        "extractor_version": f"lxml {etree.__version__}",
        "media_type": "application/xml",
    }
    marks: list[Mark] = []
    hints: list[Hint] = []
    if root.find("data/texto/bloque") is not None or root.find(".//texto/bloque") is not None:
        text, marks, hints, extra = _boe(root)
        meta["extractor"] = "ipsis.xml (BOE consolidated text)"
    elif _local(root) == "Norma" and _child(root, "EstructurasFuncionales") is not None:
        text, marks, hints, extra = _leychile(root)
        meta["extractor"] = "ipsis.xml (LeyChile norma)"
    elif tag == "rfc":
        if root.get("version") != "3":
            meta["warning"] = "RFCXML v2: read as v3 (section titles from the title attribute)"
        text, marks, hints, extra = _rfcxml(root)
        meta["extractor"] = "ipsis.xml (RFCXML)"
        meta["media_type"] = "application/rfc+xml"
    else:
        text, extra = _generic(root), {}
        meta["extractor"] = "ipsis.xml (generic)"
    if not text.strip():
        msg = f"{name}: the XML has no text content"
        raise ExtractionError(msg)
    meta.update(extra)
    note = declared_vs_actual(data)[1]
    if note:
        meta["encoding"] = "utf-8"
        meta["repaired"] = note
    return Document(doc_id, text, marks=tuple(marks), hints=tuple(hints), meta=meta)

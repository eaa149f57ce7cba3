"""HTML reader (lxml): Planalto, Senado and generic pages into a Document.

- Encoding: a BOM decides; else bytes that are valid UTF-8 are UTF-8 (Senado pages declare
  both ``UTF-8`` and ``iso-8859-1``); else the declared charset; else windows-1252 (Planalto
  pages declare none). Mojibake from a wrong decoding upstream is repaired
  (:mod:`ipsis.ingest.mojibake`). The choice is reported in ``meta``.
- Text: scripts, styles, ``<head>`` and navigation dropped; whitespace collapsed as a browser
  does (NBSP kept); block elements end lines. A permalink, a link to a fragment of the page
  whose whole text is one sign (``<a class="self" href="#p.3">¶</a>`` of RFC renderings,
  Sphinx's ``headerlink``), is dropped: it is no part of the paragraph it ends.
- Marks: ``<strike>``/``<s>``/``<del>`` and ``text-decoration: line-through`` as ``revoked``;
  amendment notes ``(Redação dada pela ...)``, ``(Incluído pela ...)``, ``(Vide ...)``,
  ``(VETADO)`` as ``note``.
- Hints: anchors ``<a name="art5">`` (``anchor``, span of the enclosing block), Senado classes
  (``class``: ``artigo``, ``paragrafo``, ``inciso``, ...), headings (``heading``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ipsis.document import Document, Hint, Mark
from ipsis.errors import ExtractionError, InputError
from ipsis.ingest.mojibake import fix_utf8_mojibake, repair_single_byte
from ipsis.ingest.text import decode_forced, decode_wide, looks_binary, sniff_wide
from ipsis.ingest.xml import check_depth, parser_limit_error

DROP = frozenset({"script", "style", "head", "noscript", "template", "nav", "iframe", "object", "svg"})
BLOCK = frozenset(
    [
        "p",
        "div",
        "br",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "li",
        "ul",
        "ol",
        "dl",
        "dt",
        "dd",
        "tr",
        "table",
        "tbody",
        "thead",
        "tfoot",
        "blockquote",
        "pre",
        "section",
        "article",
        "aside",
        "header",
        "footer",
        "main",
        "hr",
        "center",
        "title",
        "address",
        "figure",
        "figcaption",
        "form",
        "fieldset",
        "caption",
        "td",
        "th",
        "body",
        "html",
    ]
)
STRUCK = frozenset({"strike", "s", "del"})
SENADO_CLASSES = frozenset(
    [
        "artigo",
        "paragrafo",
        "inciso",
        "alinea",
        "item",
        "caput",
        "titartb",
        "titartb1",
        "titartb2",
        "subt",
        "subt1",
        "subt2",
        "ementa",
    ]
)
PERMALINK_SIGNS = frozenset("¶§#⚓🔗")
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([\w:.-]+)""", re.I)
_WS = re.compile(r"[ \t\n\r\f]+")
_NOTE = re.compile(
    r"\((?:\s*(?:Redação dada|Incluíd[oa]s?|Acrescid[oa]s?|Revogad[oa]s?|Vide"
    r"|VETAD[OA]"
    r"|Renumerad[oa]|Vigência|Regulamento|Produção de efeito|Promulgação)\b)[^()]*"
    r"(?:\([^()]*\)[^()]*)*\)",
)


def decode_html(data: bytes, name: str = "input", encoding: str | None = None) -> tuple[str, dict[str, Any]]:
    """Decode HTML bytes; return the text and what was decided (``encoding``, declared charsets).
    ``encoding`` (``--encoding``) overrides every guess.

    >>> decode_html(b'<meta charset="iso-8859-1"><p>Uni\\xc3\\xa3o')[1]["encoding"]
    'utf-8'
    >>> decode_html(b'<p>Art. 1\\xba Esta Lei')[0]
    '<p>Art. 1º Esta Lei'
    """
    wide = sniff_wide(data)
    if wide:
        text = decode_wide(data, wide, name)
        declared = [c.lower() for c in re.findall(_CHARSET.pattern.decode(), text[:8192], re.I)]
        return text, {"declared_charsets": declared, "encoding": wide}
    declared = [c.decode("ascii", "replace").lower() for c in _CHARSET.findall(data[:8192])]
    info: dict[str, Any] = {"declared_charsets": declared}
    if encoding:
        info["encoding"] = encoding
        info["encoding_forced"] = True
        return decode_forced(data, name, encoding), info
    if data.startswith(b"\xef\xbb\xbf"):
        info["encoding"] = "utf-8-sig"
        return data[3:].decode("utf-8", errors="replace"), info
    try:
        text = data.decode("utf-8")
        info["encoding"] = "utf-8"
        return text, info
    except UnicodeDecodeError:
        pass
    for enc in [*declared, "cp1252"]:
        enc = "cp1252" if enc in ("iso-8859-1", "latin-1", "latin1", "us-ascii", "ascii") else enc
        if enc in ("utf-8", "utf8") or enc.startswith(("utf-16", "utf-32", "utf16", "utf32")):
            continue  # a <meta> that says UTF-16 was read as ASCII, so it is wrong (HTML spec)
        try:
            text = data.decode(enc)
        except (UnicodeDecodeError, LookupError):
            continue
        info["encoding"] = enc
        return text, info
    info["encoding"] = "latin-1"
    return data.decode("latin-1"), info


@dataclass(slots=True)
class _Writer:
    """Builds the document text with browser-like whitespace, tracking open spans."""

    parts: list[str] = field(default_factory=list)
    pos: int = 0
    last: str = "\n"
    space: bool = False
    brk: bool = False
    waiting: list[list[int]] = field(default_factory=list)  # spans whose start is unset (-1)

    def text(self, s: str, pre: bool = False) -> None:
        if not s:
            return
        if not pre:
            s = _WS.sub(" ", s)
            if s.startswith(" "):
                self.space = True
                s = s[1:]
            trailing = s.endswith(" ")
            s = s.rstrip(" ")
            if not s:
                return
        else:
            trailing = False
        if self.brk and self.pos:
            self._put("\n")
        elif self.space and self.last not in "\n ":
            self._put(" ")
        self.brk = self.space = False
        for span in self.waiting:
            span[0] = self.pos
        self.waiting.clear()
        self._put(s)
        self.space = trailing

    def _put(self, s: str) -> None:
        self.parts.append(s)
        self.pos += len(s)
        self.last = s[-1]

    def block(self) -> None:
        self.brk = True
        self.space = False

    def open_span(self) -> list[int]:
        span = [-1, -1]
        self.waiting.append(span)
        return span

    def close_span(self, span: list[int]) -> None:
        if span[0] < 0:
            self.waiting = [w for w in self.waiting if w is not span]
            return
        span[1] = self.pos


@dataclass(slots=True)
class _Walk:
    writer: _Writer = field(default_factory=_Writer)
    revoked: list[list[int]] = field(default_factory=list)
    hints: list[tuple[str, str, list[int], tuple[tuple[str, str], ...]]] = field(default_factory=list)
    stack: list[list[int]] = field(default_factory=list)  # spans of the open block elements
    anchors: list[tuple[str, list[int]]] = field(default_factory=list)

    def walk(self, el: Any, pre: bool = False, struck: bool = False) -> None:
        tag = el.tag if isinstance(el.tag, str) else ""
        tag = tag.rsplit("}", 1)[-1].lower()
        if not tag:  # comment or processing instruction: keep only its tail
            self.writer.text(el.tail or "", pre)
            return
        if tag in DROP or el.get("role") == "navigation" or el.get("hidden") is not None or _permalink(el, tag):
            self.writer.text(el.tail or "", pre)
            return
        w = self.writer
        block = tag in BLOCK
        if block:
            w.block()
        style = (el.get("style") or "").replace(" ", "").lower()
        strike = not struck and (tag in STRUCK or "line-through" in style)
        span = w.open_span() if (block or strike or tag == "a") else None
        if block and span is not None:
            self.stack.append(span)
        if tag == "a" and span is not None:
            value = el.get("name") or el.get("id")
            if value:
                self.anchors.append((value, self.stack[-1] if self.stack else span))
        pre = pre or tag == "pre"
        if tag == "br":
            w.block()
        w.text(el.text or "", pre)
        for child in el:
            self.walk(child, pre, struck or strike)
        if block and span is not None:
            self.stack.pop()
        if span is not None:
            w.close_span(span)
            if span[0] >= 0:
                self._record(el, tag, span, strike)
        if block:
            w.block()
        w.text(el.tail or "", pre and el.getparent() is not None and el.getparent().tag == "pre")

    def _record(self, el: Any, tag: str, span: list[int], strike: bool) -> None:
        if strike:
            self.revoked.append(span)
        cls = (el.get("class") or "").split()
        for c in cls:
            if c in SENADO_CLASSES:
                self.hints.append(("class", c, span, ()))
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.hints.append(("heading", tag, span, (("id", el.get("id") or ""),)))


def _permalink(el: Any, tag: str) -> bool:
    """A link to a fragment of this page whose whole text is one sign: a paragraph's or a
    heading's own permalink (``¶``), never text of the document.

    >>> import lxml.html
    >>> _permalink(lxml.html.fromstring('<a class="self" href="#rfc.section.1.p.3">¶</a>'), "a")
    True
    >>> _permalink(lxml.html.fromstring('<a href="#art5">§ 1º</a>'), "a")
    False
    >>> _permalink(lxml.html.fromstring('<a href="https://x.org/p">¶</a>'), "a")
    False
    """
    if tag != "a" or not (el.get("href") or "").startswith("#") or len(el):
        return False
    return (el.text or "").strip().rstrip("\ufe0f") in PERMALINK_SIGNS


def read_html(data: bytes, doc_id: str, name: str = "input", encoding: str | None = None) -> Document:
    """A :class:`Document` from HTML bytes; ``encoding`` forces the decoding (no mojibake repair)."""
    import lxml.html
    from lxml import etree

    if looks_binary(data):
        msg = f"{name}: binary data, not HTML (first bytes {data[:8]!r}); pass an HTML file"
        raise InputError(msg)
    source, meta = decode_html(data, name, encoding)
    source = re.sub(r"^\s*<\?xml[^>]*\?>", "", source)
    repaired: list[str] = []
    source, why = repair_single_byte(source) if not encoding else (source, "")
    if why:
        repaired.append(why)
    source, changed = fix_utf8_mojibake(source) if not encoding else (source, False)
    if changed:
        repaired.append("UTF-8 decoded as a single-byte code page (ftfy)")
    walk = _Walk()
    for part in split_documents(source):
        parser = lxml.html.HTMLParser(huge_tree=True)  # the input-size limit bounds text nodes
        try:
            root = lxml.html.document_fromstring(part, parser=parser)
        except (etree.ParserError, ValueError) as exc:
            msg = f"{name}: cannot parse as HTML ({exc}); check the file or set the input format"
            raise ExtractionError(msg) from exc
        for entry in parser.error_log:
            if entry.type_name == "ERR_RESOURCE_LIMIT":  # libxml2 stopped and dropped the rest
                raise parser_limit_error(name, entry.message)
        check_depth(root, name)
        walk.walk(root)
        walk.writer.block()
    text = "".join(walk.writer.parts)
    if walk.writer.parts and not text.endswith("\n"):
        text += "\n"
    if not text.strip():
        msg = (
            f"{name}: the HTML has no visible text (only scripts, styles, navigation or markup); "
            "pass the page with its content"
        )
        raise ExtractionError(msg)
    marks = [Mark("revoked", s, e, "struck through") for s, e in _merge(walk.revoked)]
    marks += [Mark("note", m.start(), m.end()) for m in _NOTE.finditer(text)]
    marks.sort(key=lambda m: (m.start, m.end))
    hints = [Hint(k, v, s[0], s[1], a) for k, v, s, a in walk.hints]
    hints += [Hint("anchor", v, s[0], max(s)) for v, s in walk.anchors if s[0] >= 0]
    hints.sort(key=lambda h: (h.start, h.end))
    meta.update(
        extractor="ipsis.html (lxml)",
        extractor_version=f"lxml {etree.__version__}",
        media_type="text/html",
    )
    if repaired:
        meta["repaired"] = "; ".join(repaired)
    return Document(doc_id, text, marks=tuple(marks), hints=tuple(hints), meta=meta)


_NEXT_DOC = re.compile(r"</html\s*>\s*(?=<!DOCTYPE|<html\b)", re.I)
_DOCTYPE = re.compile(r"^\s*<!DOCTYPE[^<>]*>?", re.I)


def split_documents(source: str) -> list[str]:
    """Split HTML pages saved one after the other in one file (Senado CF/88 + ADCT pages).

    Each page's DOCTYPE is dropped (the Senado's second one is not even closed, which made
    lxml skip the whole second page).

    >>> split_documents('<html><p>A</p></html>\\n<!DOCTYPE html "x.dtd"\\n<html><p>B</p></html>')
    ['<html><p>A</p>', '<html><p>B</p></html>']
    """
    parts = [p for p in _NEXT_DOC.split(source) if p.strip()]
    if len(parts) < 2:
        return [source]
    return [_DOCTYPE.sub("", p).strip() for p in parts]


def _merge(spans: list[list[int]]) -> list[tuple[int, int]]:
    """Sorted union of spans.

    >>> _merge([[5, 9], [0, 3], [2, 4], [9, 12]])
    [(0, 4), (5, 12)]
    """
    out: list[tuple[int, int]] = []
    for s, e in sorted((s, e) for s, e in spans if e > s):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out

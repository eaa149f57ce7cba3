"""Gold structure read from the structured renditions in corpora/ (never from the segmenter).

The documents under test are read by the real readers (:func:`load`, i.e.
``ipsis.ingest.load_document``); the gold is parsed here straight from the markup with lxml.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

from lxml import etree, html

from ipsis.document import Document
from ipsis.ingest import load_document
from ipsis.sections import SectionTree, segment
from tests.shared import SHARED

CORPORA = SHARED / "corpora"
_ART = re.compile(r"Art\.[\s\u00a0]*(\d+)[º°o]?(?:[\s\u00a0]*-[\s\u00a0]*([A-Z]{1,2}))?")
_PAR = re.compile(r"§[\s\u00a0]*(\d+)[º°o]?(?:-([A-Z]))?|(Par[áa]grafo[\s\u00a0]+[úu]nico)")


_LOADED: dict[Path, Document] = {}


def load(path: Path) -> Document:
    """A fresh Document read by the real reader (the file is read once per session)."""
    if path not in _LOADED:
        _LOADED[path] = load_document(path)
    d = _LOADED[path]
    return Document(d.id, d.text, d.page_starts, d.marks, d.hints, dict(d.meta))


def segmented_loader(sources: dict[str, str]) -> Callable[[str], tuple[Document, SectionTree]]:
    """For one test module: its corpus documents by short name (``sources``: name -> path under
    ``corpora/``), each read and segmented once, as the module's own (not shared with others)."""

    @cache
    def doc(name: str) -> tuple[Document, SectionTree]:
        d = load(CORPORA / sources[name])
        return d, segment(d)

    return doc


def _art_id(m: re.Match[str]) -> str:
    return f"art-{int(m.group(1))}" + (f"-{m.group(2)}" if m.group(2) else "")


def _senado_paragraphs(path: Path) -> list[html.HtmlElement]:
    """Every ``<p>`` of the file; the Senado saved the CF/88 page and the ADCT page one after
    the other in one file, so each ``<html>`` document is parsed on its own."""
    source = path.read_bytes().decode("utf-8")
    out: list[html.HtmlElement] = []
    for part in re.split(r"</html>\s*(?=<!DOCTYPE)", source):
        part = re.sub(r"^\s*<!DOCTYPE[^<>]*>?", "", part)
        if part.strip():
            out.extend(html.fromstring(part).iter("p"))
    return out


def senado_cf88(path: Path, part: str = "main") -> tuple[list[str], list[str]]:
    """Article and paragraph ids from the Senado classes: of the main text (``main``, before
    the ADCT restarts at Art. 1º) or of the ADCT (``adct``, ids ``adct/art-1``...)."""
    arts: list[str] = []
    pars: list[str] = []
    last = 0
    adct = False
    for p in _senado_paragraphs(path):
        cls = p.get("class")
        text = p.text_content().strip()
        if cls == "artigo":
            m = _ART.match(text)
            if not m:
                continue
            if int(m.group(1)) < last and not adct:  # the ADCT restarts at Art. 1º
                if part == "main":
                    break
                adct = True
                arts.clear()
                pars.clear()
            last = int(m.group(1))
            arts.append(("adct/" if adct else "") + _art_id(m))
        elif cls == "paragrafo" and arts:
            m = _PAR.match(text)
            if m:
                tok = "unico" if m.group(3) else str(int(m.group(1))) + (f"-{m.group(2)}" if m.group(2) else "")
                pars.append(f"{arts[-1]}/par-{tok}")
    return arts, pars


def planalto_articles(path: Path) -> list[str]:
    """Article ids from Planalto anchors ``<a name="art5">`` whose paragraph starts an article."""
    doc = html.fromstring(path.read_bytes().decode("cp1252"))
    out: list[str] = []
    for a in doc.iter("a"):
        name = a.get("name") or ""
        if not re.fullmatch(r"art\d+[a-z]?", name):
            continue
        para = next((e for e in a.iterancestors() if e.tag == "p"), None)
        text = para.text_content().strip() if para is not None else ""
        if not text.startswith("Art"):
            continue  # an anchor on an inciso (art5i) or a paragraph
        m = re.fullmatch(r"art(\d+)([a-z])?", name)
        printed = re.match(r"Art\.(\d+)", re.sub(r"[\s\u00a0]+", "", text))
        if m is None or printed is None or printed.group(1) != m.group(1):
            continue  # Planalto reuses names: <a name="art66"> marks a version of Art. 27
        tok = f"art-{int(m.group(1))}" + (f"-{m.group(2).upper()}" if m.group(2) else "")
        if tok not in out:
            out.append(tok)
    return out


def rfcxml_sections(path: Path) -> list[tuple[str, str]]:
    """(number, title) of every numbered section of an RFCXML v3 file, references included."""
    parser = etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True)
    root = etree.parse(str(path), parser).getroot()
    out: list[tuple[str, str]] = []

    def title(el: etree._Element) -> str:
        t = el.get("title")
        if t is None:
            name = el.find("name")
            t = "".join(name.itertext()) if name is not None else ""
        return " ".join(t.split())

    def walk(el: etree._Element, prefix: str, appendix: bool) -> None:
        n = 0
        for child in el:
            if child.tag not in ("section", "references") or child.get("numbered") == "false":
                continue
            n += 1
            num = chr(64 + n) if appendix and not prefix else f"{prefix}{n}"
            out.append((num, title(child)))
            walk(child, num + ".", False)

    middle = root.find("middle")
    back = root.find("back")
    walk(middle, "", False)
    top = len([c for c in middle if c.tag == "section" and c.get("numbered") != "false"])
    for refs in back.findall("references"):
        top += 1
        out.append((str(top), title(refs)))
        walk(refs, f"{top}.", False)
    walk(etree.Element("x"), "", True)
    apps = [c for c in back if c.tag == "section"]
    holder = etree.Element("x")
    holder.extend(apps)
    walk(holder, "", True)
    return out


def rfc_txt_toc(text: str) -> list[tuple[str, str]]:
    """(number, title) from the table of contents of a paginated RFC text."""
    rx = re.compile(r"^ {3,}((?:\d+|[A-Z]|Appendix [A-Z])(?:\.\d+)*)\.\s+(.*?)\s*(?:\.\s?){2,}\s*\d+$", re.M)
    # join wrapped entries: "10.2.  Sub-Namespace Registration of\n        the ... . .  20"
    text = re.sub(
        r"(^ {3,}(?:\d+|[A-Z]|Appendix [A-Z])(?:\.\d+)*\.\s+[^.\n]*[^ .\n])\n +(?=\S)",
        r"\1 ",
        text,
        flags=re.M,
    )
    out = []
    for m in rx.finditer(text):
        num = m.group(1).removeprefix("Appendix ")
        out.append((num, " ".join(m.group(2).split())))
    return out


def boe_blocks(path: Path) -> list[tuple[str, int]]:
    """(section id, number of apartados in the current version) of each precepto block."""
    root = etree.parse(str(path)).getroot()
    out: list[tuple[str, int]] = []
    disp = {"dd": "derog-1", "df": "final-1", "primera": "adic-1"}
    for b in root.iter("bloque"):
        if b.get("tipo") != "precepto":
            continue
        bid = b.get("id")
        sid = disp.get(bid) or f"art-{int(bid[1:])}"
        versions = b.findall("version")
        current = versions[-1]
        apts = sum(
            1
            for p in current.iter("p")
            if p.get("class") in ("parrafo", "parrafo_2") and re.match(r"\d+\.\s", "".join(p.itertext()))
        )
        out.append((sid, apts))
    return out


def prf(gold: list[str] | set[str], found: list[str] | set[str]) -> tuple[float, float, float]:
    g, f = set(gold), set(found)
    tp = len(g & f)
    p = tp / len(f) if f else 0.0
    r = tp / len(g) if g else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)

"""Write ``tests/cases/sections/gold_articles.json``: the article ids of the December 2026 norms,
read WITHOUT ipsis (run by hand; CI only reads the JSON it wrote).

Each document is read by an independent tool: PDFs by ``pdftotext -layout`` (poppler), HTML by
``lxml.html`` ``text_content()``, LeyChile XML by its ``<EstructuraFuncional
tipoParte="Artículo">`` elements, Markdown and text files line by line; RFCXML files get the
table of contents of the published RFC text. The article lines are then picked with a regex per
document (written after reading the document; see ``SPECS``), and a numbering restart after a
norm's heading (the booklets: CDC + five norms, Lei 7/2009 + the Código do Trabalho, Ley 24.430 +
the Constitution) opens ``part-2``, ``part-3``... as the segmenter names them. Index regions are
cut by line ranges read from the file (``skip_before``).

Usage: ``python -m tests.make_sections_gold`` (needs poppler-utils and ../shared).
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

from lxml import etree, html

from tests.shared import CORPORA

OUT = Path(__file__).parent / "cases/sections/gold_articles.json"
_SUF = {"quáter": "quater"}


def pdftotext(rel: str) -> list[str]:
    out = subprocess.run(
        ["pdftotext", "-layout", str(CORPORA / rel), "-"], capture_output=True, check=True, text=True
    ).stdout
    return out.splitlines()


def lines_of(rel: str, encoding: str = "utf-8") -> list[str]:
    return (CORPORA / rel).read_text(encoding).splitlines()


def html_lines(rel: str, encoding: str) -> list[str]:
    return str(html.fromstring((CORPORA / rel).read_bytes().decode(encoding)).text_content()).splitlines()


def _tok(num: str, suf: str | None, sep: str = "-") -> str:
    if not suf:
        return f"art-{num}"
    suf = _SUF.get(suf, suf)
    return f"art-{num}{sep}{suf}"


def by_regex(
    lines: list[str],
    rx: str,
    tok: Callable[[re.Match[str]], str],
    restart: bool = True,
    skip_before: int = 0,
    main_marker: str | None = None,
) -> list[str]:
    """Ids of the lines matching ``rx`` (first number group = article number).

    ``restart``: a number lower than the last one, back at 1, opens the next norm (``part-k``).
    ``main_marker``: a group name; an article whose marker text equals the first norm's
    (``ARTICULO`` vs ``Artículo``) and continues its numbering returns to the first norm.
    """
    out: list[str] = []
    part = 1
    last: dict[int, int] = {}
    style: dict[int, str] = {}
    seen: set[str] = set()
    pat = re.compile(rx)
    for i, line in enumerate(lines):
        if i < skip_before:
            continue
        m = pat.match(line)
        if not m:
            continue
        n = int(m.group("n") if "n" in pat.groupindex else m.group(1))
        cur = part
        st = m.group(main_marker) if main_marker else ""
        if main_marker and part > 1 and st == style.get(1) and n > last.get(1, 0):
            cur = 1
        elif restart and n == 1 and part in last:
            part += 1
            cur = part
        last[cur] = n
        style.setdefault(cur, st)
        sid = ("" if cur == 1 else f"part-{cur}/") + tok(m)
        if sid not in seen:
            seen.add(sid)
            out.append(sid)
    return out


def leychile(rel: str) -> list[str]:
    ns = "{http://www.leychile.cl/esquemas}"
    root = etree.parse(str(CORPORA / rel)).getroot()
    out = []
    for p in root.iter(ns + "EstructuraFuncional"):
        if p.get("tipoParte") != "Artículo":
            continue
        t = "".join(p.find(ns + "Texto").itertext()).strip()
        m = re.match(r"Art[íi]culo\s+(\d+)\s*[º°]?\s*(bis|ter|qu[áa]ter)?", t)
        assert m, t[:80]
        out.append(_tok(m.group(1), m.group(2)))
    return out


def rfc_toc(rel: str) -> list[str]:
    """Section numbers from the table of contents of a published RFC text (any pagination)."""
    text = (CORPORA / rel).read_text("utf-8-sig")
    toc = text[text.index("Table of Contents") :]
    body = re.search(r"\n1\.  ", toc)
    assert body
    toc = toc[: body.start()]
    out = []
    for m in re.finditer(r"(?m)^ {3,}(?:Appendix )?((?:\d+|[A-Z])(?:\.\d+)*)\.? +\S", toc):
        out.append(m.group(1))
    return out


_PT_ART = r"^\s*Artigo (\d+)\.?º(?:-([A-Z]))?\s*$"
_BR_ART = r"^\s*Art\.\s?(\d+)(?:\.?º)?(?:-([A-Z]))?\.?\s"
_ES_SUF = r"(?:\s+(bis|ter|quater|quáter|quinquies|sexies|septies|octies|nonies|decies)(?:\s+([a-z])\))?)?"


def _letter(m: re.Match[str]) -> str:
    return _tok(m.group(1), m.group(2))


def _es(m: re.Match[str]) -> str:
    t = _tok(m.group(1), m.group(2))
    return t + (f"-{m.group(3)}" if m.lastindex and m.lastindex >= 3 and m.group(3) else "")


def _swiss(lines: list[str]) -> list[str]:
    """``Art. 5a2`` = Art. 5a + footnote 2: the article number is the prefix that continues the
    sequence (read against the printed order, 1 to 197)."""
    out: list[str] = []
    last = 0
    for line in lines:
        m = re.match(r"^\s*Art\. (\d+)([a-z]?)(\d*)(?:\s{2,}\S|\s*$)", line)
        if not m:
            continue
        digits, letter = m.group(1), m.group(2)
        n = int(digits)
        if n > last + 3:  # footnote digits glued to the number
            for k in range(len(digits) - 1, 0, -1):
                if last <= int(digits[:k]) <= last + 3:
                    n, letter = int(digits[:k]), ""
                    break
        last = n
        sid = f"art-{n}{letter}"
        if sid not in out:
            out.append(sid)
    return out


def _ct() -> list[str]:
    lines = lines_of("pt/pt-codigo-trabalho-dre-2025.txt")
    body = next(i for i, s in enumerate(lines) if s.strip() == "Aprova a revisão do Código do Trabalho")
    return by_regex(lines, _PT_ART, _letter, skip_before=body)


def _ar() -> list[str]:
    lines = html_lines("latam/ar-constitucion-nacional-ley-24430-infoleg.htm", "cp1252")
    rx = r"^[\s\xa0]*(?P<kw>ARTICULO|Art[íi]culo)[\s\xa0]+(?P<n>\d+)[º°]?(?:[\s\xa0]+(bis))?\.-"
    out = by_regex(lines, rx, lambda m: _tok(m.group(2), m.group(3)), main_marker="kw")
    return out


def _until(lines: list[str], rx: str) -> list[str]:
    """The lines before the first one matching ``rx`` (CPEUM: the 1917 transitorios)."""
    end = next(i for i, s in enumerate(lines) if re.match(rx, s))
    return lines[:end]


def _dof() -> list[str]:
    out: list[str] = []
    for line in pdftotext("latam/mx-dof-1995-01-09-tlc-g3-segunda-seccion.pdf"):
        m = re.match(r"^\s*Art[íi]culo (\d+)-(\d+)[:.]?\s", line)
        if m:
            sid = f"art-{int(m.group(1))}-{m.group(2)}"
            if sid not in out:
                out.append(sid)
    return out


SPECS: dict[str, Callable[[], list[str]]] = {
    "br/br-cdc-procon-sp-2026.pdf": lambda: by_regex(pdftotext("br/br-cdc-procon-sp-2026.pdf"), _BR_ART, _letter),
    "br/br-eca-lei-8069-ms-2006.pdf": lambda: by_regex(
        pdftotext("br/br-eca-lei-8069-ms-2006.pdf"), _BR_ART, _letter, restart=False
    ),
    "pt/pt-codigo-penal-legix-2007.txt": lambda: by_regex(
        lines_of("pt/pt-codigo-penal-legix-2007.txt"), r"^\s*Artigo (\d+)º(?:-([A-Z]))?\s*$", _letter, restart=False
    ),
    "pt/pt-codigo-trabalho-dre-2025.txt": _ct,
    "es/es-lopdgdd-lo-3-2018-legalize.md": lambda: by_regex(
        lines_of("es/es-lopdgdd-lo-3-2018-legalize.md"), r"^#{5} Artículo (\d+)" + _ES_SUF + r"\.", _es, restart=False
    ),
    "es/es-lec-ley-1-2000-boe-consolidado-2024.pdf": lambda: by_regex(
        pdftotext("es/es-lec-ley-1-2000-boe-consolidado-2024.pdf"),
        r"^Artículo (\d+)" + _ES_SUF + r"\.",
        _es,
        restart=False,
    ),
    "es/es-codigo-penal-lo-10-1995-boe-consolidado-2024.pdf": lambda: by_regex(
        pdftotext("es/es-codigo-penal-lo-10-1995-boe-consolidado-2024.pdf"),
        r"^Artículo (\d+)" + _ES_SUF + r"\.",
        _es,
        restart=False,
    ),
    "latam/pe-constitucion-1993-legalize.md": lambda: by_regex(
        lines_of("latam/pe-constitucion-1993-legalize.md"),
        r"^[\s\xa0]*Artículo (\d+)(?:-([A-Z]))?\.[\s\xa0]*\[",
        _letter,
        restart=False,
    ),
    "latam/mx-cpeum-camara-diputados-2024-11-15.pdf": lambda: by_regex(
        _until(pdftotext("latam/mx-cpeum-camara-diputados-2024-11-15.pdf"), r"^\s*Artículo Primero\."),
        r"^\s*Artículo (\d+)o?\.",
        lambda m: _tok(m.group(1), None),
        restart=False,
    ),
    "latam/uy-constitucion-1967-impo-legalize.md": lambda: by_regex(
        lines_of("latam/uy-constitucion-1967-impo-legalize.md"),
        r"^#{5} Artículo (\d+)\s*$",
        lambda m: _tok(m.group(1), None),
        restart=False,
    ),
    "latam/uy-constitucion-1967-2004-parlamento.html": lambda: [
        f"art-{int(a.get('name')[3:])}"
        for a in html.fromstring(
            (CORPORA / "latam/uy-constitucion-1967-2004-parlamento.html").read_bytes().decode("cp1252")
        ).iter("a")
        if re.fullmatch(r"art\d+", a.get("name") or "")
    ],
    "rfc/rfc7232.txt": lambda: rfc_toc("rfc/rfc7232.txt"),
    "rfc/rfc7232-auth48-to-be.v2.xml": lambda: rfc_toc("rfc/rfc7232.txt"),
    "rfc/rfc9112.txt": lambda: rfc_toc("rfc/rfc9112.txt"),
    "rfc/rfc9112-httpwg.xml": lambda: rfc_toc("rfc/rfc9112.txt"),
    "latam/ar-constitucion-nacional-ley-24430-infoleg.htm": _ar,
    "latam/cl-constitucion-politica-bcn-leychile-242302.xml": lambda: leychile(
        "latam/cl-constitucion-politica-bcn-leychile-242302.xml"
    ),
    "latam/mx-dof-1995-01-09-tlc-g3-segunda-seccion.pdf": _dof,
    "pdf/ch-bundesverfassung-sr101-2020.pdf": lambda: _swiss(pdftotext("pdf/ch-bundesverfassung-sr101-2020.pdf")),
}


def main() -> None:
    gold = {}
    for rel, fn in SPECS.items():
        ids = fn() if callable(fn) else fn
        gold[rel] = ids
        print(rel, len(ids))
    OUT.write_text(json.dumps(gold, ensure_ascii=False, indent=0) + "\n")


if __name__ == "__main__":
    main()

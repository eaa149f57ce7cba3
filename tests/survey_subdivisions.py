"""Survey: how subdivisions are printed in the corpus's norms and how citations name them.

``python -m tests.survey_subdivisions`` prints, per norm, how many line-start markers of each
subdivision form its text has (as the real reader gives it), and how often each citation form
occurs in the recorded real answers and the project's cases. ``--xrefs`` resolves each norm's own
cross-references (`inciso séptimo del número 15º del artículo 19`) against its own tree and counts,
per citation family, how many resolve, warn (`unchecked`) or name no section
(docs/citation-forms.md). It reads ../shared (never copies it); the held-out norms of the
subdivision work (Argentina, Chile, Uruguay's HTML) are left out of the markers unless ``--all``.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

from tests.shared import ANSWERS_REAL, CORPORA

HELD_OUT = (
    "ar-constitucion-nacional-ley-24430-infoleg.htm",
    "cl-constitucion-politica-bcn-leychile-242302.xml",
    "uy-constitucion-1967-2004-parlamento.html",
)
NORMS = (
    "latam/mx-cpeum-camara-diputados-2024-11-15.pdf",
    "latam/mx-dof-1995-01-09-tlc-g3-segunda-seccion.pdf",
    "latam/pe-constitucion-1993-legalize.md",
    "latam/uy-constitucion-1967-impo-legalize.md",
    "es/constitucion-espanola-boe-consolidado-2024-02-17.pdf",
    "pt/crp-constituicao-republica-portuguesa.txt",
    "br/lgpd-camara-cedi-2024.pdf",
)
_BOL = r"(?m)^[ \t\u00a0]*"
MARKERS = {
    "roman `III.`/`I.-`/`II)`": re.compile(_BOL + r"[IVXLC]{1,7}(?:-[A-Z]| Bis)?(?:\.-|\.|\))[ \t]"),
    "roman `I -` (Brazil inciso)": re.compile(_BOL + r"[IVXLC]{1,7}[ \t]*[-–][ \t]"),
    "capital `A.`": re.compile(_BOL + r"[A-H]\.[ \t]+[A-ZÁÉÍÓÚ]"),
    "`Apartado A.`": re.compile(_BOL + r"Apartado [A-H]\."),
    "capital `A)`": re.compile(_BOL + r"[A-H]\)[ \t]"),
    "letter `a)`": re.compile(_BOL + r"[a-z]\)[ \t]"),
    "letter `a.`": re.compile(_BOL + r"[a-z]\.[ \t]"),
    "number `1.`": re.compile(_BOL + r"\d{1,3}\.[ \t]"),
    "`§ 1º`": re.compile(_BOL + r"§"),
    "amendment note `Párrafo reformado DOF`": re.compile(_BOL + r"(?:P[áa]rrafo|Fracci[óo]n)[^\n]{0,60}DOF"),
}
CITATIONS = {
    "fracción": re.compile(r"\bfracci[óo]n(?:es)?\s+[IVXLC]+", re.I),
    "apartado letter": re.compile(r"\bapartado\s+[A-H]\b", re.I),
    "apartado number": re.compile(r"\bapartado\s+\d", re.I),
    "párrafo ordinal": re.compile(
        r"\bp[áa]rrafo\s+(?:primer|segund|tercer|cuart|quint|sext|s[ée]ptim|octav|noven|d[ée]cim|[úu]ltim)", re.I
    ),
    "ordinal párrafo": re.compile(r"\b(?:primer|segund[oa]|tercer|cuarto|quinto|[úu]ltimo)\s+p[áa]rrafo", re.I),
    "párrafo N": re.compile(r"\bp[áa]rrafo\s+\d", re.I),
    "inciso a)": re.compile(r"\binciso\s+[a-z]\)", re.I),
    "inciso N / numeral N": re.compile(r"\b(?:inciso|numeral)\s+\d", re.I),
    "caput": re.compile(r"\bcaput\b", re.I),
    "§ N": re.compile(r"§\s*\d"),
    "alínea": re.compile(r"\bal[íi]nea\s+[a-z]\b", re.I),
    "n.º N": re.compile(r"\bn\.\s?º\s*\d"),
    "nth paragraph (en)": re.compile(r"\b(?:first|second|third|last)\s+paragraph\b", re.I),
    "inciso ordinal word": re.compile(
        r"\bincisos?\s+(?:primer|segund|tercer|cuart|quint|sext|s[ée]ptim|octav|final)", re.I
    ),
}


def survey_norms(paths: list[str]) -> None:
    from ipsis.ingest import load_document

    for rel in paths:
        text = load_document(CORPORA / rel).text
        counts = {name: len(rx.findall(text)) for name, rx in MARKERS.items()}
        shown = ", ".join(f"{k} {v}" for k, v in counts.items() if v)
        print(f"{rel}: {shown}")


def survey_citations(folders: list[Path]) -> None:
    counts: Counter[str] = Counter()
    for folder in folders:
        for path in folder.rglob("*"):
            if path.suffix not in (".json", ".jsonl", ".md", ".txt") or not path.is_file():
                continue
            text = path.read_text("utf-8", errors="replace")
            for name, rx in CITATIONS.items():
                counts[name] += len(rx.findall(text))
    print("citations in " + ", ".join(str(f) for f in folders) + ":")
    for name, n in counts.most_common():
        print(f"  {name}: {n}")


XREF_NORMS = (
    *NORMS,
    "latam/cl-constitucion-politica-bcn-leychile-242302.xml",
    "latam/uy-constitucion-1967-2004-parlamento.html",
    "br/lei-14133-2021-planalto-reserialized-cp1252.html",
    "br/cf88-senado-compilado-ec108-2020.html",
    "pt/pt-codigo-penal-legix-2007.txt",
    "pt/pt-codigo-trabalho-dre-2025.txt",
    "es/es-lopdgdd-lo-3-2018-legalize.md",
)
_SUB = (
    r"(?:incisos?|p[áa]rrafos?|apartados?|fracci[óo]n(?:es)?|numerales?|n[úu]meros?|n\.\s?[º°]s?|N[º°]|letras?"
    r"|literal(?:es)?|al[íi]neas?|§§?|par[áa]grafos?|caput|itens?)"
)
_ART = r"(?:art[íi]culos?|artigos?|arts?\.)\s+\d+(?:\.\s?[º°]|[º°o])?(?:-[A-Z])?(?:\s+bis)?"
_TO = r"\b[^.;:\n]{0,90}?\b(?:del?|da|do|de la)\s+(?:presente\s+|mismo\s+)?"
XREF = re.compile(r"(?i)\b(" + _SUB + _TO + _ART + r")")


def survey_cross_references(paths: list[str]) -> None:
    from ipsis.errors import IpsisError
    from ipsis.ingest import load_document
    from ipsis.sections import resolve_reference, segment

    counts: Counter[tuple[str, str]] = Counter()
    for rel in paths:
        doc = load_document(CORPORA / rel)
        tree = segment(doc)
        text = " ".join(doc.text.split())
        for ref in sorted({m.group(1) for m in XREF.finditer(text)}):
            family = next((name for name, rx in CITATIONS.items() if rx.search(ref)), "other")
            try:
                outcome = "unchecked" if resolve_reference(tree, ref, doc).unchecked else "resolved"
            except IpsisError:
                outcome = "no such section"
            counts[(family, outcome)] += 1
    for family in dict.fromkeys(f for f, _ in sorted(counts)):
        shown = ", ".join(f"{o} {counts[(family, o)]}" for o in ("resolved", "unchecked", "no such section"))
        print(f"  {family}: {shown}")


def main(argv: list[str]) -> None:
    if "--xrefs" in argv:
        survey_cross_references(list(XREF_NORMS))
        return
    paths = list(NORMS)
    if "--all" in argv:
        paths += [f"latam/{h}" for h in HELD_OUT]
    survey_norms(paths)
    survey_citations([ANSWERS_REAL, Path(__file__).parent / "cases"])


if __name__ == "__main__":
    main(sys.argv[1:])

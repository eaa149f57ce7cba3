"""Survey: what the ``subdivision_end_uncertain`` warning costs on real passages.

``python -m tests.survey_end_uncertain [--show N] [FILE ...]`` takes, in each corpus norm, every
list item's paragraphs (a fracción's second paragraph, a letter's continuation, the paragraphs
the segmenter leaves in a list's last item), quotes the opening words of each as a person
would (at most 14 words of the document's own text), cites the item the way the norm itself
cites it (``fracción XII del artículo 28``, ``inciso II do art. 5º``, ``alínea b) do n.º 2 do
artigo 52.º``) and counts the located quotes that carry the warning. ``--show N`` prints N
warned passages per file with the line before them, to be read: whether the passage is the
item's own text (noise) or the article's, printed after the list (the warning is right).
docs/end-uncertain.md holds the table. It reads ../shared (never copies it).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from typing import Any

from tests.shared import CORPORA

NORMS = (
    "latam/mx-cpeum-camara-diputados-2024-11-15.pdf",
    "latam/cl-constitucion-politica-bcn-leychile-242302.xml",
    "latam/uy-constitucion-1967-2004-parlamento.html",
    "latam/uy-constitucion-1967-impo-legalize.md",
    "latam/pe-constitucion-1993-legalize.md",
    "br/cf88-senado-compilado-ec108-2020.html",
    "br/lei-13709-2018-lgpd-planalto.html",
    "es/constitucion-espanola-boe-api-texto-excerpt.xml",
    "pt/crp-constituicao-republica-portuguesa.txt",
)
HELD_OUT = (
    "latam/ar-constitucion-nacional-ley-24430-infoleg.htm",
    "es/es-lopdgdd-lo-3-2018-legalize.md",
)
_WORDS = {
    "latam": {
        "articulo": "artículo",
        "inciso": "fracción",
        "alinea": "inciso",
        "numero": "número",
        "apartado": "apartado",
        "paragrafo": "párrafo",
    },
    "es": {"articulo": "artículo", "apartado": "apartado", "numero": "apartado", "alinea": "letra", "inciso": "inciso"},
    "br": {"artigo": "art.", "paragrafo": "§", "inciso": "inciso", "alinea": "alínea", "item": "item"},
    "pt": {"artigo": "artigo", "articulo": "artigo", "numero": "n.º", "alinea": "alínea"},
}
_GLUE = {"latam": " del ", "es": " del ", "br": " do ", "pt": " do "}
_KINDS = ("inciso", "alinea", "numero", "item")


def _number(sec: Any) -> str:
    n = sec.id.rsplit("/", 1)[-1].split("-", 1)[-1]
    return re.sub(r"-(bis|ter|quater)$", r" \1", n)


def citation(tree: Any, sec: Any, chile: bool = False) -> str | None:
    """``sec`` cited as the norm's own cross-references cite it, innermost first; None when no
    article holds it (a transitory decree's fracciones)."""
    family = tree.family if tree.family in _WORDS else "latam"
    words = dict(_WORDS[family])
    if chile:  # Chile: números and letras
        words.update({"numero": "número", "alinea": "letra"})
    chain = []
    s = sec
    while s is not None:
        word = words.get(s.kind)
        if word is None:
            break
        n = _number(s)
        if s.kind == "alinea":
            n = n + ")"
        chain.append(f"{word} {n}" if word != "§" else f"§ {n}º")
        if s.kind in ("artigo", "articulo"):
            break
        s = tree.get(s.parent) if s.parent else None
    else:
        return None
    if s is None or s.kind not in ("artigo", "articulo"):
        return None
    out = _GLUE[family].join(chain)
    return re.sub(r"\bdel (fracci[óo]n|letra)\b", r"de la \1", out)


def _passage(text: str, a: int, b: int) -> str | None:
    words = re.findall(r"\S+", text[a:b])
    if len(words) < 5:
        return None
    return " ".join(words[:14])


def survey(rel: str, show: int) -> Counter[str]:
    from ipsis.ingest import load_document
    from ipsis.sections import segment
    from ipsis.sections.paragraphs import paragraphs_in
    from ipsis.verify import locate

    doc = load_document(CORPORA / rel)
    doc.sections = tree = segment(doc)
    counts: Counter[str] = Counter()
    shown = 0
    for sec in tree:
        if sec.kind not in _KINDS:
            continue
        ref = citation(tree, sec, chile=rel.startswith("latam/cl-"))
        if ref is None:
            counts["no article"] += 1
            continue
        paras, _ = paragraphs_in(doc, sec.start, sec.end)
        for k, (a, b) in enumerate(paras):
            quote = _passage(doc.text, a, b)
            if quote is None:
                continue
            where = "first" if k == 0 else "later"
            r = locate(doc, quote, section=ref)
            warned = any(w.get("kind") == "subdivision_end_uncertain" for w in r.warnings)
            unchecked = any(w.get("kind") == "section_unchecked" for w in r.warnings)
            counts[f"{where} {r.status}"] += 1
            if r.status == "located" and warned:
                counts[f"{where} warned"] += 1
                if show > shown:
                    shown += 1
                    before = doc.text[max(sec.start, a - 90) : a].replace("\n", " | ")
                    print(f"  [{ref}] (para {k + 1}) …{before}| >> {quote}")
            if unchecked:
                counts[f"{where} unchecked"] += 1
    return counts


def main(argv: list[str]) -> None:
    show = 0
    if argv[:1] == ["--show"]:
        show, argv = int(argv[1]), argv[2:]
    for rel in argv or NORMS:
        c = survey(rel, show)
        later = c["later located"]
        print(
            f"{rel}: first paragraphs located {c['first located']} (warned {c['first warned']}), "
            f"later paragraphs located {later} (warned {c['later warned']}), "
            f"not found {c['first not_found'] + c['later not_found']}, "
            f"unchecked {c['first unchecked'] + c['later unchecked']}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])

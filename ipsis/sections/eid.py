"""Other names of an ipsis section id: the Akoma Ntoso ``eId`` and the LexML fragment (pure).

ipsis ids are paths of ``kind-number`` steps (``art-5/par-1/inc-II``, ``tit-2/cap-1``,
``adct/art-1``, ``sec-4.1.2``). :func:`akn_eid` writes them as the Akoma Ntoso 3.0 naming
convention does: each step ``prefix_num`` (AKN element abbreviations), steps joined by ``__``,
characters outside ``[A-Za-z0-9_.-]`` folded (``art_5__para_1__point_II``). :func:`lexml_fragment`
writes the dispositivo part of a LexML URN (``art5_cpt_inc78``: incisos, alíneas and itens in
arabic numbers; ``par1u`` for a parágrafo único; incisos of the caput under ``cpt``).

>>> akn_eid("art-5/par-1/inc-II"), akn_eid("adct/art-1"), akn_eid("sec-4.1.2")
('art_5__para_1__point_II', 'adct__art_1', 'sec_4.1.2')
>>> akn_eid("art-13/apt-2/let-a"), akn_eid("art-55-A/par-unico")
('art_13__para_2__point_a', 'art_55-A__para_unico')
>>> lexml_fragment("art-5/inc-LXXVIII"), lexml_fragment("art-5/par-1/inc-II/ali-a")
('art5_cpt_inc78', 'art5_par1_inc2_ali1')
>>> lexml_fragment("art-18/par-unico"), lexml_fragment("sec-4.1.2")
('art18_par1u', None)
"""

from __future__ import annotations

import re
import unicodedata

AKN_PREFIX: dict[str, str] = {
    "art": "art",
    "par": "para",
    "apt": "para",
    "num": "para",
    "inc": "point",
    "ali": "point",
    "let": "point",
    "item": "point",
    "ite": "point",
    "tit": "title",
    "cap": "chp",
    "sec": "sec",
    "secao": "sec",
    "subsec": "subsec",
    "livro": "book",
    "book": "book",
    "parte": "part",
    "part": "part",
    "app": "annex",
}
"""ipsis step kinds -> AKN eId prefixes (art, para, point, title, chp, sec, ...)."""
AKN_KIND: dict[str, str] = {
    "art": "article",
    "para": "paragraph",
    "point": "point",
    "title": "title",
    "chp": "chapter",
    "sec": "section",
    "subsec": "subsection",
    "book": "book",
    "part": "part",
    "dvs": "division",
    "annex": "division",
}
"""AKN eId prefix -> the AKN element written for it."""
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")
ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def _fold(text: str) -> str:
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return _UNSAFE.sub("-", text).strip("-") or "x"


def _split(step: str) -> tuple[str, str]:
    kind, sep, num = step.partition("-")
    return (kind, num) if sep else (step, "")


def akn_eid(section_id: str) -> str:
    """The AKN eId of an ipsis section id (see the module doc)."""
    parts = []
    for step in section_id.split("/"):
        kind, num = _split(step)
        prefix = AKN_PREFIX.get(kind, _fold(kind).lower())
        parts.append(f"{prefix}_{_fold(num)}" if num else prefix)
    return "__".join(parts)


def akn_element(section_id: str) -> str:
    """The AKN element for the last step of ``section_id`` (``article``, ``point``, ...)."""
    kind, _ = _split(section_id.rsplit("/", 1)[-1])
    return AKN_KIND.get(AKN_PREFIX.get(kind, ""), "hcontainer")


def roman_value(text: str) -> int | None:
    """``LXXVIII`` -> 78; None when ``text`` is not a roman numeral."""
    up = text.upper()
    if not up or any(c not in ROMAN for c in up):
        return None
    total = 0
    for i, c in enumerate(up):
        v = ROMAN[c]
        total += -v if i + 1 < len(up) and ROMAN[up[i + 1]] > v else v
    return total


def _arabic(num: str) -> str:
    r = roman_value(num)
    if r is not None:
        return str(r)
    if len(num) == 1 and num.isalpha():
        return str(ord(num.lower()) - ord("a") + 1)
    return num


def lexml_fragment(section_id: str) -> str | None:
    """The LexML dispositivo fragment (``art5_cpt_inc78``), or None for ids LexML does not name."""
    steps = [_split(s) for s in section_id.split("/")]
    if steps and steps[0][0] == "adct":
        steps = steps[1:]
    if not steps or steps[0][0] != "art":
        return None
    out: list[str] = []
    for i, (kind, num) in enumerate(steps):
        if kind == "art":
            out.append(f"art{num.replace('-', '')}")
        elif kind == "par":
            out.append("par1u" if num == "unico" else f"par{num}")
        elif kind == "inc":
            if i > 0 and steps[i - 1][0] == "art":
                out.append("cpt")
            out.append(f"inc{_arabic(num)}")
        elif kind in ("ali", "let"):
            out.append(f"ali{_arabic(num)}")
        elif kind in ("item", "ite"):
            out.append(f"ite{num}")
        else:
            return None
    return "_".join(out)

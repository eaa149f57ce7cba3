"""Family detection and marker candidates, one function per numbering family (pure).

>>> detect("Artigo 1.º\\nRepública Portuguesa\\n\\nArtigo 2.º\\nEstado\\n\\nArtigo 3.º\\nX\\n")
'pt'
>>> [c.token for c in candidates("Art. 1º Texto.\\nI - um;\\n", "br")]
['art-1', 'inc-I']
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ipsis.sections.patterns import (
    BR_MARKERS,
    ES_MARKERS,
    GENERIC_MARKERS,
    LATAM_MARKERS,
    PT_MARKERS,
    RFC_MARKERS,
    SPANISH_ORDINALS,
    letter_rank,
    roman_to_int,
)

FAMILIES = ("rfc", "br", "pt", "es", "latam", "generic")
ARTICLE_LEVEL = 10
FLAT_KINDS = frozenset({"rfc_section", "appendix", "rfc_unnumbered", "section"})
CONTAINER_LEVEL = {
    "parte": 1,
    "livro": 1,
    "titulo": 2,
    "disposiciones": 2,
    "capitulo": 3,
    "secao": 4,
    "subsecao": 5,
}
SUB_LEVEL = {"paragrafo": 11, "numero": 11, "apartado": 11, "inciso": 12, "alinea": 13, "item": 14}
_WS = re.compile(r"[\s\u00a0]+")
_LINE_END = re.compile(r"[\n\r\f]")
_DISP_TOKEN = {
    "adicional": "adic",
    "transitoria": "trans",
    "derogatoria": "derog",
    "final": "final",
}


@dataclass(slots=True)
class Cand:
    """A marker found at a line start, before filtering."""

    start: int
    mend: int
    kind: str
    level: int
    token: str
    label: str
    key: tuple[int, ...] = ()
    title: str = ""
    sequenced: bool = False
    scope: str = ""
    confirmed: bool = False  # a structural hint of the source markup vouches for it


def _label(s: str) -> str:
    return _WS.sub(" ", s).strip().rstrip(".").rstrip() if not s.endswith(".º") else _WS.sub(" ", s)


def _line_rest(text: str, pos: int) -> tuple[str, int]:
    m = _LINE_END.search(text, pos)
    end = m.start() if m else len(text)
    return text[pos:end], end


def _next_line(text: str, pos: int, pattern: re.Pattern[str] | None) -> str:
    """First non-empty line after the line holding ``pos`` (unless it is a marker)."""
    _, end = _line_rest(text, pos)
    for _ in range(3):
        if end >= len(text):
            return ""
        if pattern is not None and pattern.match(text, end):
            return ""
        line, nxt = _line_rest(text, end + 1)
        if line.strip():
            s = _WS.sub(" ", line).strip()
            return s if len(s) <= 200 else ""
        end = nxt
    return ""


def _container(kind_word: str) -> str:
    w = kind_word.lower()
    for prefix, kind in (
        ("t", "titulo"),
        ("cap", "capitulo"),
        ("subse", "subsecao"),
        ("se", "secao"),
        ("parte", "parte"),
        ("livro", "livro"),
        ("libro", "livro"),
    ):
        if w.startswith(prefix):
            return kind
    return "secao"


_CTOKEN = {
    "titulo": "tit",
    "capitulo": "cap",
    "secao": "sec",
    "subsecao": "subsec",
    "parte": "parte",
    "livro": "livro",
}


def _cnum_token(cnum: str) -> tuple[str, int]:
    c = cnum.strip().lower().rstrip(".ªa") if cnum[:1].isdigit() else cnum.strip().lower()
    if c.isdigit():
        return c, int(c)
    r = roman_to_int(cnum.strip().upper())
    if r is not None and cnum.isupper():
        return str(r), r
    if c in SPANISH_ORDINALS:
        return str(SPANISH_ORDINALS[c]), SPANISH_ORDINALS[c]
    c = c.replace("ú", "u")
    return c, 0


def _container_cand(text: str, m: re.Match[str], pattern: re.Pattern[str]) -> Cand | None:
    cnum = m.group("cnum")
    if not cnum:
        return None
    kind = _container(m.group("ckind"))
    tok, val = _cnum_token(cnum)
    rest, _ = _line_rest(text, m.end())
    title = rest.strip(" \t\u00a0.–—-:")
    if not title:
        title = _next_line(text, m.end(), pattern)
    return Cand(
        m.start("ckind"),
        m.end(),
        kind,
        CONTAINER_LEVEL[kind],
        f"{_CTOKEN[kind]}-{tok}",
        _label(m.group(0)),
        (val,),
        _WS.sub(" ", title).strip(),
    )


def _br(text: str) -> list[Cand]:
    out: list[Cand] = []
    scope = ""
    for m in BR_MARKERS.finditer(text):
        g = m.lastgroup
        if m.group("adct"):
            scope = "adct"
            out.append(
                Cand(
                    m.start("adct"),
                    m.end(),
                    "scope",
                    0,
                    "adct",
                    "ADCT",
                    title=_label(m.group("adct")),
                )
            )
        elif m.group("ckind"):
            c = _container_cand(text, m, BR_MARKERS)
            if c:
                out.append(c)
        elif m.group("art"):
            num, let = int(m.group("anum")), m.group("alet")
            tok = f"art-{num}" + (f"-{let}" if let else "")
            out.append(
                Cand(
                    m.start("art"),
                    m.end("art"),
                    "artigo",
                    ARTICLE_LEVEL,
                    tok,
                    _label(m.group("art")),
                    (num, letter_rank(let)),
                    sequenced=True,
                    scope=scope,
                )
            )
        elif m.group("par"):
            num, let = int(m.group("pnum")), m.group("plet")
            tok = f"par-{num}" + (f"-{let}" if let else "")
            out.append(
                Cand(
                    m.start("par"),
                    m.end("par"),
                    "paragrafo",
                    11,
                    tok,
                    _label(m.group("par")),
                    (num, letter_rank(let)),
                )
            )
        elif m.group("paru"):
            out.append(
                Cand(
                    m.start("paru"),
                    m.end("paru"),
                    "paragrafo",
                    11,
                    "par-unico",
                    _label(m.group("paru")),
                    (1, 0),
                )
            )
        elif m.group("inc"):
            val = roman_to_int(m.group("inum"))
            if val is None:
                continue
            let = m.group("ilet")
            tok = f"inc-{m.group('inum')}" + (f"-{let}" if let else "")
            out.append(
                Cand(
                    m.start("inc"),
                    m.end("inc"),
                    "inciso",
                    12,
                    tok,
                    _label(m.group("inc")),
                    (val, letter_rank(let)),
                )
            )
        elif g == "ali" or m.group("ali"):
            let = m.group("alet2")
            out.append(
                Cand(
                    m.start("ali"),
                    m.end("ali"),
                    "alinea",
                    13,
                    f"ali-{let}",
                    m.group("ali"),
                    (ord(let),),
                )
            )
    return out


def _pt(text: str) -> list[Cand]:
    out: list[Cand] = []
    for m in PT_MARKERS.finditer(text):
        if m.group("ckind"):
            c = _container_cand(text, m, PT_MARKERS)
            if c:
                out.append(c)
        elif m.group("art"):
            num, let = int(m.group("anum")), m.group("alet")
            tok = f"art-{num}" + (f"-{let}" if let else "")
            out.append(
                Cand(
                    m.start("art"),
                    m.end("art"),
                    "artigo",
                    ARTICLE_LEVEL,
                    tok,
                    _label(m.group("art")),
                    (num, letter_rank(let)),
                    _next_line(text, m.end(), PT_MARKERS),
                    sequenced=True,
                )
            )
        elif m.group("num"):
            n = int(m.group("nnum"))
            out.append(Cand(m.start("num"), m.end("num"), "numero", 11, f"num-{n}", m.group("num"), (n,)))
        elif m.group("ali"):
            let = m.group("alet2")
            out.append(
                Cand(
                    m.start("ali"),
                    m.end("ali"),
                    "alinea",
                    13,
                    f"ali-{let}",
                    m.group("ali"),
                    (ord(let),),
                )
            )
    return out


def _es(text: str) -> list[Cand]:
    out: list[Cand] = []
    group = ""
    for m in ES_MARKERS.finditer(text):
        if m.group("ckind"):
            c = _container_cand(text, m, ES_MARKERS)
            if c:
                out.append(c)
            group = ""
        elif m.group("dgroup"):
            dk = _DISP_TOKEN[m.group("dkind").lower()]
            label = _label(m.group("dgroup"))
            if label.upper().endswith(("ES", "AS")):  # plural: a group of numbered dispositions
                group = dk
                out.append(Cand(m.start("dgroup"), m.end(), "disposiciones", 2, f"disp-{dk}", label))
            else:
                group = ""
                out.append(Cand(m.start("dgroup"), m.end(), "disposicion", ARTICLE_LEVEL, f"{dk}-1", label))
        elif m.group("disp"):
            dk = _DISP_TOKEN[m.group("dkind2").lower()]
            n = SPANISH_ORDINALS.get((m.group("dord") or "única").lower(), 1)
            out.append(
                Cand(
                    m.start("disp"),
                    m.end("disp"),
                    "disposicion",
                    ARTICLE_LEVEL,
                    f"{dk}-{n}",
                    _label(m.group("disp")),
                )
            )
        elif m.group("dword"):
            if not group:
                continue
            n = SPANISH_ORDINALS[m.group("dord2").lower()]
            out.append(
                Cand(
                    m.start("dword"),
                    m.end("dword"),
                    "disposicion",
                    ARTICLE_LEVEL,
                    f"{group}-{n}",
                    _label(m.group("dword")),
                )
            )
        elif m.group("art"):
            num, suf = int(m.group("anum")), m.group("asuf")
            group = ""
            tok = f"art-{num}" + (f"-{suf}" if suf else "")
            rest, _ = _line_rest(text, m.end("art"))
            title = rest.strip() if len(rest.strip()) <= 80 and rest.strip().endswith(".") else ""
            out.append(
                Cand(
                    m.start("art"),
                    m.end("art"),
                    "articulo",
                    ARTICLE_LEVEL,
                    tok,
                    _label(m.group("art")),
                    (num, letter_rank(suf)),
                    title,
                    sequenced=True,
                )
            )
        elif m.group("num"):
            n = int(m.group("nnum"))
            out.append(Cand(m.start("num"), m.end("num"), "apartado", 11, f"apt-{n}", m.group("num"), (n,)))
        elif m.group("ali"):
            let = m.group("alet2")
            out.append(
                Cand(
                    m.start("ali"),
                    m.end("ali"),
                    "alinea",
                    13,
                    f"ali-{let}",
                    m.group("ali"),
                    (ord(let),),
                )
            )
    return out


def _latam(text: str) -> list[Cand]:
    """Latin-American norms; a restart at ``ARTICULO 1º`` (or ``1-01``) opens ``part-2``: a
    promulgating law wraps the norm it publishes (its own articles keep the plain ids)."""
    out: list[Cand] = []
    part = 1
    last: tuple[int, ...] = ()
    last_art = -1  # index in ``out`` of the last article
    for m in LATAM_MARKERS.finditer(text):
        if m.group("ckind"):
            c = _container_cand(text, m, LATAM_MARKERS)
            if c:
                out.append(c)
        elif m.group("art") or m.group("bare"):
            raw = m.group("anum") or m.group("bnum")
            nums = tuple(int(x) for x in raw.split("-"))
            suf = m.group("asuf")
            if nums in ((1,), (1, 1)) and last and nums < last:
                part += 1
                # the wrapped norm starts at its first heading after the last article
                heads = [c for c in out[last_art + 1 :] if c.level < ARTICLE_LEVEL]
                at = heads[0].start if heads else m.start()
                label = f"Part {part}"
                out.insert(len(out) - len(heads), Cand(at, at, "scope", 0, f"part-{part}", label))
            last = nums
            tok = f"art-{raw}" + (f"-{suf}" if suf else "")
            start = m.start("art") if m.group("art") else m.start("bare")
            out.append(
                Cand(
                    start,
                    m.end(),
                    "articulo",
                    ARTICLE_LEVEL,
                    tok,
                    _label(m.group(0)).rstrip(".-:–—").rstrip(),
                    (*nums, letter_rank(suf)),
                    sequenced=True,
                    scope=str(part),
                )
            )
            last_art = len(out) - 1
        elif m.group("dword"):
            n = SPANISH_ORDINALS[m.group("dord2").lower()]
            out.append(
                Cand(
                    m.start("dword"),
                    m.end("dword"),
                    "disposicion",
                    ARTICLE_LEVEL,
                    f"trans-{n}",
                    m.group("dword").rstrip(".-"),
                )
            )
        elif m.group("ali"):
            let = m.group("alet2")
            out.append(
                Cand(
                    m.start("ali"),
                    m.end("ali"),
                    "alinea",
                    13,
                    f"ali-{let}",
                    m.group("ali"),
                    (ord(let),),
                )
            )
    return out


_WRAPPED = re.compile(r"(?:\b(?:of|and|or|the|for|to|in|a|an|with|on|by|from)|[-,:])$")
_CONT = re.compile(r"\r?\n[ \t]+(\S[^\n\r]*)")


def _rfc_title(text: str, m: re.Match[str], group: str) -> str:
    """A heading title; a title cut after "of"/"and"... continues on the next indented line."""
    title = m.group(group).strip()
    if _WRAPPED.search(title):
        c = _CONT.match(text, m.end())
        if c:
            title = f"{title} {c.group(1).strip()}"
    return title


def _rfc(text: str) -> list[Cand]:
    out: list[Cand] = []
    for m in RFC_MARKERS.finditer(text):
        start = m.start(m.lastgroup or 0) if m.lastgroup else m.start()
        if m.group("num"):
            num = m.group("num")
            key = tuple(int(x) for x in num.split("."))
            out.append(
                Cand(
                    m.start("num"),
                    m.end(),
                    "rfc_section",
                    ARTICLE_LEVEL + len(key) - 1,
                    f"sec-{num}",
                    f"{num}.",
                    key,
                    _rfc_title(text, m, "title"),
                    sequenced=True,
                )
            )
        elif m.group("app"):
            a = m.group("app")
            out.append(
                Cand(
                    m.start("app") - len("Appendix "),
                    m.end(),
                    "appendix",
                    ARTICLE_LEVEL,
                    f"app-{a}",
                    f"Appendix {a}.",
                    (1000 + ord(a),),
                    _rfc_title(text, m, "atitle"),
                    sequenced=True,
                )
            )
        elif m.group("sub"):
            sub = m.group("sub")
            parts = sub.split(".")
            key = (1000 + ord(parts[0]), *(int(x) for x in parts[1:]))
            out.append(
                Cand(
                    m.start("sub"),
                    m.end(),
                    "appendix",
                    ARTICLE_LEVEL + len(parts) - 1,
                    f"app-{sub}",
                    f"{sub}.",
                    key,
                    _rfc_title(text, m, "stitle"),
                    sequenced=True,
                )
            )
        elif m.group("unn"):
            u = m.group("unn")
            slug = re.sub(r"[^a-z]+", "-", u.lower()).strip("-")
            out.append(Cand(m.start("unn"), m.end(), "rfc_unnumbered", ARTICLE_LEVEL, slug, u, title=u))
        del start
    return out


def _generic(text: str) -> list[Cand]:
    out: list[Cand] = []
    for m in GENERIC_MARKERS.finditer(text):
        num = m.group("num").rstrip(".")
        key = tuple(int(x) for x in num.split("."))
        out.append(
            Cand(
                m.start("num"),
                m.end(),
                "section",
                ARTICLE_LEVEL + len(key) - 1,
                f"sec-{num}",
                m.group("num"),
                key,
                m.group("title").strip(),
                sequenced=True,
            )
        )
    return out


_BY_FAMILY: dict[str, Callable[[str], list[Cand]]] = {
    "rfc": _rfc,
    "br": _br,
    "pt": _pt,
    "es": _es,
    "latam": _latam,
    "generic": _generic,
}


def candidates(text: str, family: str) -> list[Cand]:
    """Every marker of ``family`` in ``text``, in document order."""
    return _BY_FAMILY[family](text)


_DETECT = {
    # the first-page header of an RFC, or the running header of an RFC or Internet-Draft page
    "rfc": re.compile(r"(?:^|\f)(?:Request for Comments: \d+|RFC \d{3,5} {2,}|Internet-Draft {2,})", re.M),
    "br": re.compile(r"^[ \t\u00a0]*(?:Art\.[\s\u00a0]*\d+(?:º|°|o)?[ \u00a0.]|§[ \u00a0]*\d)", re.M),
    "pt": re.compile(r"^Artigo \d+\.?º", re.M),
    # `Artículo 13.` alone (CE BOE PDF) or with its epigraph, `Artículo 1. Objeto.` (BOE laws)
    "es": re.compile(
        r"^[ \t]*Art[íi]culo \d+(?: bis| ter)?(?:\.?|\.[ \t]+[A-ZÁÉÍÓÚÑ][^\n.]{0,120}\.)[ \t]*\r?$"
        r"|^Disposici[óo]n adicional",
        re.M,
    ),
    "latam": re.compile(
        r"^[ \t]*(?:ART[IÍ]CULO|Art[íi]culo) \d+[º°]?(?: bis| ter)?[ ]?\.-"
        r"|^\d+[°º]\.-|^[ \t]*Art[íi]culo \d+-\d+:",
        re.M,
    ),
}


def detect(text: str) -> str:
    """The numbering family of ``text`` (``generic`` when no legal or RFC marker dominates)."""
    head = text[:300_000]
    if _DETECT["rfc"].search(head[:20_000]):
        return "rfc"
    scores = {fam: len(rx.findall(head)) for fam, rx in _DETECT.items() if fam != "rfc"}
    best = max(scores, key=lambda f: scores[f])
    return best if scores[best] >= 2 else "generic"

"""Family detection and marker candidates (pure): every legal family is read by one function
through the group names of :mod:`ipsis.sections.grammar`; RFC and generic headings have their own.

>>> detect("Artigo 1.º\\nRepública Portuguesa\\n\\nArtigo 2.º\\nEstado\\n\\nArtigo 3.º\\nX\\n")
'pt'
>>> [c.token for c in candidates("Art. 1º Texto.\\nI - um;\\n", "br")]
['art-1', 'inc-I']
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ipsis.sections.grammar import EVIDENCE, MARKERS, TABLES, fold, spanish_ordinal, suffix_rank, suffix_token
from ipsis.sections.patterns import GENERIC_MARKERS, RFC_MARKERS, roman_to_int

FAMILIES = ("rfc", "br", "pt", "es", "latam", "ch", "generic")
ARTICLE_LEVEL = 10
FLAT_KINDS = frozenset({"rfc_section", "appendix", "rfc_unnumbered", "section"})
CONTAINER_LEVEL = {
    "parte": 1,
    "livro": 1,
    "titulo": 2,
    "disposiciones": 2,
    "subtitulo": 3,
    "capitulo": 4,
    "secao": 5,
    "subsecao": 6,
}
SUB_LEVEL = {"paragrafo": 11, "numero": 11, "apartado": 11, "absatz": 11, "inciso": 12, "alinea": 13, "item": 14}
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
    consecutive: bool = False  # a list that starts at its first number and skips at most one
    nests: bool = False  # goes under an open list item of this kind when there is one (CPEUM)
    sic: bool = False  # its printed number is marked wrong (`XI (sic 05-12-1960).`): numbered by place


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
        ("subt", "subtitulo"),
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
    "subtitulo": "subtit",
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
    n = spanish_ordinal(c)
    if n is not None:
        return str(n), n
    c = c.replace("ú", "u")
    return c, 0


def _container_cand(text: str, m: re.Match[str], pattern: re.Pattern[str]) -> Cand | None:
    cnum = m.group("cnum")
    word, _, named = m.group("ckind").strip().partition(" ")
    if not cnum and not named:
        return None
    kind = _container(word)
    if cnum:
        tok, val = _cnum_token(cnum)
    else:  # `Parte Geral` / `Parte Especial`: named, ordered general first
        tok = fold(named)
        val = 1 if tok.startswith("ger") else 2
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
        _label(text[m.start("ckind") : m.end()]),
        (val,),
        _WS.sub(" ", title).strip(),
    )


def _article_cand(text: str, m: re.Match[str], family: str, pattern: re.Pattern[str]) -> Cand:
    """An article marker read through the grammar's group names (every legal family)."""
    num = m.group("anum")
    nums = tuple(int(x) for x in num.split("-"))
    groups = pattern.groupindex
    let = m.group("alet") if "alet" in groups else None
    suf = m.group("asuf") if "asuf" in groups else None
    sub = m.group("asl") if "asl" in groups else None
    low = m.group("alow") if "alow" in groups else None
    tok = f"art-{num}"
    key: tuple[int, ...] = (*nums, 0)
    if let:
        tok, key = f"{tok}-{let}", (*nums, suffix_rank(let))
    if suf:
        tok, key = f"{tok}-{suffix_token(suf)}", (*nums, suffix_rank(suf))
        if sub:
            tok, key = f"{tok}-{sub}", (*key, ord(sub) - 96)
    if low:
        tok, key = f"{tok}{low}", (*nums, suffix_rank(low))
    end = m.end("art")
    label = _label(text[m.start("art") : end])
    if "afn" in groups and m.group("afn"):
        label = label[: len(label) - len(m.group("afn"))]
    rest, _ = _line_rest(text, m.end())
    title = _same_line_title(rest, family)
    if family == "pt":
        title = _next_line(text, m.end(), pattern)
    return Cand(
        m.start("art"),
        end,
        "artigo" if family in ("br", "pt") else "articulo",
        ARTICLE_LEVEL,
        tok,
        label,
        key,
        title,
        sequenced=True,
    )


_TITLE_LINE = re.compile(r"^[\s\u00a0.:–—*_-]*(\[[^\]]{1,150}\]|[A-ZÁÉÍÓÚÑÄÖÜ][^\n]{0,150}?\.)\s*\**\s*$")


def _same_line_title(rest: str, family: str) -> str:
    """``Principio de legalidad procesal`` (LEC), ``Defensa de la persona humana`` (Peru
    ``[…]``), ``Rechtsgleichheit`` (Bundesverfassung: the title after a gap)."""
    if family == "ch":
        t = rest.strip(" \t\u00a0*")
        return t if t and len(t) <= 150 and not t.endswith((".", ",")) else ""
    m = _TITLE_LINE.match(rest)
    if m is None:
        return ""
    return _WS.sub(" ", m.group(1).strip("[]").rstrip(".")).strip()


def _legal(text: str, family: str) -> list[Cand]:
    """Every marker of a legal family, read through the group names of the one grammar
    (:mod:`ipsis.sections.grammar`)."""
    pattern = MARKERS[family]
    out: list[Cand] = []
    scope = ""
    dgroup = ""
    letters: list[str] = []  # the apartado letters met in the current article
    for m in pattern.finditer(text):
        g = {k: v for k, v in m.groupdict().items() if v is not None}
        if "art" in g or "disp" in g or "bare" in g:
            letters.clear()
        if "adct" in g:
            scope = "adct"
            out.append(Cand(m.start("adct"), m.end(), "scope", 0, "adct", "ADCT", title=_label(g["adct"])))
        elif "ckind" in g:
            c = _container_cand(text, m, pattern)
            if c:
                out.append(c)
            dgroup = ""
        elif "ckind_pre" in g:
            kind = (TABLES[family].number_first or {})[g["ckind_pre"]]
            n = int(g["cnum_pre"])
            rest, _ = _line_rest(text, m.end())
            out.append(
                Cand(
                    m.start("cnum_pre"),
                    m.end(),
                    kind,
                    CONTAINER_LEVEL[kind],
                    f"{_CTOKEN[kind]}-{n}",
                    _label(text[m.start("cnum_pre") : m.end()]).rstrip(":"),
                    (n,),
                    _WS.sub(" ", rest).strip(" :"),
                )
            )
        elif "dgroup" in g:
            dk = _DISP_TOKEN[g["dkind"].lower()]
            label = _label(g["dgroup"])
            if label.upper().endswith(("ES", "AS")):  # plural: a group of numbered dispositions
                dgroup = dk
                out.append(Cand(m.start("dgroup"), m.end(), "disposiciones", 2, f"disp-{dk}", label))
            else:
                dgroup = ""
                out.append(Cand(m.start("dgroup"), m.end(), "disposicion", ARTICLE_LEVEL, f"{dk}-1", label))
        elif "disp" in g:
            dk = _DISP_TOKEN[g["dkind2"].lower()]
            n = spanish_ordinal(g.get("dord") or "única") or 1
            rest, _ = _line_rest(text, m.end("disp"))
            out.append(
                Cand(
                    m.start("disp"),
                    m.end("disp"),
                    "disposicion",
                    ARTICLE_LEVEL,
                    f"{dk}-{n}",
                    _label(g["disp"]),
                    title=_same_line_title(rest, family),
                )
            )
        elif "dword" in g:
            word = spanish_ordinal(g["dord2"])
            if word is None or (family == "es" and not dgroup):
                continue
            n = word
            out.append(
                Cand(
                    m.start("dword"),
                    m.end("dword"),
                    "disposicion",
                    ARTICLE_LEVEL,
                    f"{dgroup or 'trans'}-{n}",
                    _label(g["dword"]).rstrip(".-"),
                )
            )
        elif "art" in g:
            dgroup = ""
            c = _article_cand(text, m, family, pattern)
            c.scope = scope
            out.append(c)
        elif "bare" in g:
            n = int(g["bnum"])
            out.append(
                Cand(
                    m.start("bare"),
                    m.end(),
                    "articulo",
                    ARTICLE_LEVEL,
                    f"art-{n}",
                    _label(g["bare"]).rstrip(".-"),
                    (n, 0),
                    sequenced=True,
                )
            )
        elif "par" in g:
            num, let = int(g["pnum"]), g.get("plet")
            tok = f"par-{num}" + (f"-{let}" if let else "")
            out.append(
                Cand(m.start("par"), m.end("par"), "paragrafo", 11, tok, _label(g["par"]), (num, suffix_rank(let)))
            )
        elif "paru" in g:
            out.append(Cand(m.start("paru"), m.end("paru"), "paragrafo", 11, "par-unico", _label(g["paru"]), (1, 0)))
        elif "inc" in g:
            val = roman_to_int(g["inum"])
            if val is None:
                continue
            let = g.get("ilet")
            tok = f"inc-{g['inum']}" + (f"-{let}" if let else "")
            out.append(Cand(m.start("inc"), m.end("inc"), "inciso", 12, tok, _label(g["inc"]), (val, suffix_rank(let))))
        elif "aptl" in g and dgroup and not g["aptl"].startswith("Apartado"):
            # `H)` in a group of transitory provisions is a provision (Uruguay: A) … Z), Z'), Z"))
            primes = "p" * (g.get("aprime") or "").replace('"', "''").count("'")
            tok = f"{dgroup}-{g['aletr']}" + (f"-{primes}" if primes else "")
            out.append(Cand(m.start("aptl"), m.end("aptl"), "disposicion", ARTICLE_LEVEL, tok, g["aptl"]))
            letters.clear()
        elif "aptl" in g and (g["aletr"] > "J" or g.get("aprime")):
            continue  # an apartado letter past J, or primed, only numbers a transitory provision
        elif "frac" in g or "aptl" in g:
            item = _fraccion_or_apartado(g, m, letters)
            if item is not None:
                out.append(item)
        elif "num" in g or "npar" in g:
            group = "num" if "num" in g else "npar"
            n = int(g["nnum" if group == "num" else "npnum"])
            # `1º)`, `10)` (Uruguay's numerales) are a list: it starts at 1 and skips at most one
            label = _WS.sub(" ", g[group])
            out.append(
                Cand(m.start(group), m.end(group), "numero", 11, f"num-{n}", label, (n,), consecutive=group == "npar")
            )
        elif "apt" in g:
            n = int(g["anum2"])
            out.append(Cand(m.start("apt"), m.end("apt"), "apartado", 11, f"apt-{n}", g["apt"], (n,)))
        elif "abs" in g:
            n = int(g["absnum"])
            out.append(Cand(m.start("abs"), m.end("abs"), "absatz", 11, f"abs-{n}", g["abs"], (n,)))
        elif "ali" in g:
            let = g["alet2"]
            label = _WS.sub(" ", g["ali"])
            out.append(Cand(m.start("ali"), m.end("ali"), "alinea", 13, f"ali-{let}", label, (ord(let),)))
    return _lists_of_one(out) if "fraccion" in TABLES[family].subs else out


def _fraccion_or_apartado(g: dict[str, str], m: re.Match[str], letters: list[str]) -> Cand | None:
    """A Mexican fracción (``III.``, ``I.-``: an inciso, ``inc-III``) or apartado (``A.``:
    ``apt-A``). A letter that is also a roman numeral is the next apartado right after the one
    before it (``C.`` after ``B.``; ``I.`` after ``H.`` in art. 72); a number marked ``(sic …)``
    is numbered by its place (art. 72 prints its inciso J as ``I (sic DOF 24-11-1923).``). Both
    are lists that start at their first item (:attr:`Cand.consecutive`); ``Apartado A.`` written
    out goes under an open fracción (art. 41, fracción V, Apartado A)."""
    sic = bool(g.get("fsic"))
    if "frac" in g:
        num = g["fnum"]
        prev = ord(letters[-1]) if letters else -9
        plain = len(num) == 1 and not (g.get("flet") or g.get("fsuf"))
        if not (plain and (ord(num) - prev == 1 or (sic and ord(num) == prev))):
            val = roman_to_int(num)
            if val is None:
                return None
            label = _WS.sub(" ", g["frac"])
            tok, key = f"inc-{num}", (val, 0)
            if g.get("flet") or g.get("fsuf"):  # `XXIX-A.` -> inc-XXIX-A, `XXIII Bis.` -> inc-XXIII-bis
                suffix = g.get("flet") or suffix_token(g["fsuf"])
                tok, key = f"{tok}-{suffix}", (val, suffix_rank(suffix))
            item = Cand(m.start("frac"), m.end("frac"), "inciso", 12, tok, label, key, consecutive=True)
            item.sic = sic
            return item
        letter = chr(prev + 1)
    else:
        letter = g["aletr"]
    group = "aptl" if "aptl" in g else "frac"
    letters.append(letter)
    label = _WS.sub(" ", g[group])
    nests = label.startswith("Apartado")
    return Cand(
        m.start(group),
        m.end(group),
        "apartado",
        11,
        f"apt-{letter}",
        label,
        (ord(letter) - 64,),
        consecutive=True,
        nests=nests,
    )


def _lists_of_one(cands: list[Cand]) -> list[Cand]:
    """Drop a fracción or apartado list that has no second item in its article (``A. Cepeda``
    signing under the last article is no apartado)."""
    out: list[Cand] = []
    group: list[Cand] = []

    def flush() -> None:
        seconds = {c.kind for c in group if c.consecutive and c.key[0] == 2}
        out.extend(c for c in group if not c.consecutive or c.kind in seconds)
        group.clear()

    for c in cands:
        if c.level <= ARTICLE_LEVEL:
            flush()
            out.append(c)
        else:
            group.append(c)
    flush()
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


_BY_FAMILY: dict[str, Callable[[str], list[Cand]]] = {"rfc": _rfc, "generic": _generic}


def candidates(text: str, family: str) -> list[Cand]:
    """Every marker of ``family`` in ``text``, in document order."""
    if family in TABLES:
        return _legal(text, family)
    return _BY_FAMILY[family](text)


# the first-page header of an RFC, or the running header of an RFC or Internet-Draft page
_RFC = re.compile(r"(?:^|\f)(?:Request for Comments: \d+|RFC \d{3,5} {2,}|Internet-Draft {2,})", re.M)


def detect(text: str) -> str:
    """The numbering family of ``text``: the legal family with the most weighted evidence over
    the whole text (:data:`ipsis.sections.grammar.EVIDENCE`), ``rfc`` for RFC page furniture,
    ``generic`` when no legal or RFC marker dominates."""
    if _RFC.search(text[:20_000]):
        return "rfc"
    scores = evidence(text)
    best = max(scores, key=lambda f: scores[f])
    return best if scores[best] >= 2 else "generic"


def evidence(text: str) -> dict[str, int]:
    """Weighted evidence of each legal family in ``text``."""
    return {fam: sum(w * len(pos) for w, pos in hits) for fam, hits in evidence_at(text).items()}


def evidence_at(text: str) -> dict[str, list[tuple[int, list[int]]]]:
    """Where each family's evidence is: (weight, line starts) per pattern of
    :data:`ipsis.sections.grammar.EVIDENCE` (the patterns start at a newline; one is prepended)."""
    padded = "\n" + text
    return {fam: [(w, [m.start() for m in rx.finditer(padded)]) for rx, w in ev] for fam, ev in EVIDENCE.items()}

"""Written references ("art. 5º, § 1º, II", "Section 4.1.2", "artículo 18.2") -> section ids.

:func:`parse_reference` turns a reference into id candidates without a document (suffixes and
ordinals from the tables of :mod:`ipsis.sections.grammar`; a norm's designation such as ``da Lei
n.º 7/2009`` is never read as a section);
:func:`resolve_reference` checks them against a :class:`SectionTree` and, when the cited
section does not exist, raises :class:`SectionNotFoundError` naming the closest one (the section
just before it in numbering order: never a silent substitute). In a booklet of several norms the
reference lands in the norm it names (its title's words and numbers), else in the largest one.

>>> parse_reference("inciso II do § 1º do art. 5º")
('art-5/par-1/inc-II',)
>>> parse_reference("arts. 5º e 6º"), parse_reference("arts. 5, 6"), parse_reference("Artículo 13, 2", "es")
(('art-5', 'art-6'), ('art-5', 'art-6'), ('art-13/apt-2',))
>>> parse_reference("RFC 7519, Section 4.1.4")
('sec-4.1.4',)
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ipsis.errors import ReferenceSyntaxError, SectionNotFoundError
from ipsis.sections.grammar import LATIN_RX, SPANISH_ORDINAL_RX, fold, spanish_ordinal, suffix_rank, suffix_token
from ipsis.sections.levels import one_level_down, reordered, split_level
from ipsis.sections.paragraphs import ORDINAL, marked_paragraphs, ordinal_paragraph, paragraph_of
from ipsis.sections.patterns import int_to_roman, roman_to_int
from ipsis.sections.refids import as_section_word, section_by_id
from ipsis.sections.refincisos import item_of_inciso, lead_in_of_list, unread_reason
from ipsis.sections.reflists import expand_list
from ipsis.sections.tree import Section, SectionTree

if TYPE_CHECKING:
    from ipsis.document import Document

_ORD = r"(?:\.?\s?[º°ª]|o\b)?"
# suffixes as the grammar writes them: `55-A`, `7-A`, `5a` (Swiss), `14 bis`, `570 quáter`, `283 bis a)`
_SUFFIX = r"(?:-[A-ZÑ]\b|[a-z]\b)?(?:\s+(?i:" + LATIN_RX + r")\b(?:\s*[a-z]\))?)?"
_NUM_LIST = r"\d+(?:-\d{2,3}(?!\d))?" + _ORD + _SUFFIX + r"(?:\.\d+(?![º°]))?"
_INC_WORD = r"\b(?:incisos?|inc\.|fracci[óo]n(?:es)?|fracc?\.)"
# the words of a subdivision; one left unread after every pattern has run is reported, never
# dropped silently (the reference would otherwise be checked against the whole article)
_SUBDIVISION = re.compile(
    r"(?:\b(?:incisos?|inc\.|numerale?s?|ordinale?s?|fracci[óo]n(?:es)?|fracc?\.|literal(?:es)?|lit\.|al[íi]neas?|letras?"
    r"|[íi]tems?|apartados?|p[áa]rrafos?|par[áa]grafos?|n[úu]meros?|Abs\.|Absatz|Satz|Ziff\.)|§)\s*[\w\"“]+",
    re.I,
)
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("rfc", re.compile(r"\bRFC\s*(\d{1,5})\b", re.I)),
    (
        "section",
        re.compile(r"\b(?:sections?|sec\.|secci[óo]n|se[çc][ãa]o)\s*(\d+(?:\.\d+)*)\.?(?!\d)", re.I),
    ),
    ("appendix", re.compile(r"\b(?:appendix|ap[ée]ndice|anexo)\s+([A-Z](?:\.\d+)*)\b", re.I)),
    (
        "adct",
        re.compile(r"\bADCT\b|Ato das Disposi[çc][õo]es Constitucionais Transit[óo]rias", re.I),
    ),
    # `literal W) de las Disposiciones Transitorias y Especiales`, `la Cláusula F) de estas
    # Disposiciones Transitorias` (Uruguay's own, transitoria H)), `disposición transitoria Z')`:
    # Uruguay letters its transitory provisions A) … Z), Z'), Z")
    (
        "disp_letter",
        re.compile(
            r"(?:\b(?i:literal|letra|apartado|cl[áa]usula)\s+)?\b([A-Z])('{1,2}|\")?\)\s+"
            r"(?i:de\s+(?:las|estas)\s+disposiciones\s+transitorias)(?:\s+(?i:y\s+especiales))?"
            r"|\b(?i:disposici[óo]n(?:es)?\s+transitorias?)(?:\s+(?i:y\s+especiales))?,?\s+"
            r"(?:(?i:literal|letra|apartado|cl[áa]usula)\s+)?([A-Z])('{1,2}|\")?\)"
        ),
    ),
    (
        "disp",
        re.compile(
            r"\bdisposici[óo]n\s+(adicional|transitoria|derogatoria|final)"
            r"(?:\s+(" + SPANISH_ORDINAL_RX + r"))?",
            re.I,
        ),
    ),
    (
        "art",
        re.compile(
            r"\b(?:art(?:igo|ículo|iculo|icle)?s?\.?)\s*((?:"
            + _NUM_LIST
            + r")(?:\s*(?:,|\be\b|\by\b|\band\b)\s*(?:"
            + _NUM_LIST
            + r"))*)",
            re.I,
        ),
    ),
    ("caput", re.compile(r"\bcaput\b", re.I)),
    ("par_unico", re.compile(r"\bpar[áa]grafo\s+[úu]nico\b", re.I)),
    ("par", re.compile(r"(?:§|\bpar[áa]grafo)\s*(\d+)" + _ORD + r"(?:-([A-Z])\b)?", re.I)),
    # `n.º 2`, `número 2`; `párrafo 3 del artículo 3-11` (the DOF treaty numbers its paragraphs)
    ("num", re.compile(r"\b(?:n\.\s?[º°]|n[º°]|n[úu]mero|p[áa]rrafo)\s*(\d+)", re.I)),
    # `apartado 2` (Spain), `apartado B` (CPEUM: a letter)
    ("apt", re.compile(r"\bapartados?\s+(\d+|[A-J]\b)", re.I)),
    ("abs", re.compile(r"\b(?:Abs\.|Absatz)\s*(\d+)")),
    # `fracción XXIX-A`, `fracción XXIII Bis` (CPEUM art. 73), `XXIII-Bis` (never read as XXIII);
    # `Base III` (art. 41 calls its fracciones bases: `los apartados A y B de esta base`)
    (
        "inc",
        re.compile(
            r"(?:" + _INC_WORD + r"|\b[Bb]ases?)\s+([IVXLC]+)(?:-([A-ZÑ])\b|(?:\s+|-)((?i:" + LATIN_RX + r"))\b)?\b"
            r"|(?:^|,)\s*([IVXLC]+)(?:-([A-ZÑ]))?\s*(?=,|$)"
        ),
    ),
    # `inciso 24`, `numeral 9`, `fracción 3`: an item written in arabic numbers (Peru numbers its
    # incisos `9.`; a Brazilian reader may write `inciso 24` for XXIV)
    (
        "inc_num",
        re.compile(r"(?:" + _INC_WORD + r"|\b(?:numeral|ordinal)(?:es)?\b)\s*(\d+)" + _ORD + r"(?!\s*[.,]?\d)", re.I),
    ),
    (
        "ali",
        # `alínea a`, `a)`; `inciso a)` and `literal b)` name a letter in Mexico and Uruguay (an
        # alínea); a bare letter between commas after an inciso (`art. 5º, XXVIII, a`)
        re.compile(
            r"(?i:\b(?:al[íi]nea|letra|literal|inciso)\s+[\"“]?([a-z])(?:\b[\"”]?\)?|\))|(?:^|,)\s*([a-z])\))"
            r"|,\s*([a-z])\s*(?=,|$)"
        ),
    ),
]
_DISP = {"adicional": "adic", "transitoria": "trans", "derogatoria": "derog", "final": "final"}
_ART_ITEM = re.compile(
    r"(\d+(?:-\d{2,3}(?!\d))?)" + _ORD + r"(?:-([A-Z])\b|([a-z])\b)?(?:\s+((?i:" + LATIN_RX + r"))\b(?:\s*([a-z])\))?)?"
    r"(?:\.(\d+)(?![º°]))?"
)


@dataclass(frozen=True, slots=True)
class Resolution:
    """A resolved reference: the ids (one per cited section) and their sections."""

    ref: str
    ids: tuple[str, ...]
    sections: tuple[Section, ...]
    unchecked: tuple[str, ...] = ()
    """Why part of the reference could not be checked (a word left unread, a level the document
    is not split into): the quote was checked against the enclosing section."""


# A norm's designation inside a reference (`da Lei n.º 7/2009`, `do Decreto nº 7.962`, `de la Ley
# 24.430`): it names the norm, its number is no section (`n.º 7` there is not a número)
_NORM_DESIGNATION = re.compile(
    r"\b(?:Lei|Ley|Decreto(?:-Lei)?|Decreto Legislativo|Medida Provis[óo]ria|Lei Complementar|Ley Org[áa]nica"
    r"|Real Decreto|Decreto Supremo|Portaria|Resolu[çc][ãa]o|Instru[çc][ãa]o Normativa)"
    r"\s+(?:n\.?\s?[º°o]\.?\s*|N[º°]\s*|nro\.\s*)?\d[\d./-]*",
    re.I,
)


def _components(ref: str, incisos_are_paragraphs: bool = False) -> dict[str, list[str]]:
    """The parts of ``ref`` by kind. ``incisos_are_paragraphs``: the document marks its paragraphs
    and `inciso segundo` names one (Chile); elsewhere an inciso is a numbered item (Brazil's
    `inciso II`, Uruguay's `inciso 17`, Peru's `inciso 9`) and an ordinal word after it is
    reported unread."""
    comps: dict[str, list[str]] = {}
    rest = _NORM_DESIGNATION.sub(lambda m: " " * len(m.group(0)), ref)
    for m in ORDINAL.finditer(rest):  # `párrafo tercero`, `último párrafo`, `caput`
        if m.group("inc") and not incisos_are_paragraphs:
            continue
        comps.setdefault("ordinal", []).append(m.group(0))
        rest = rest[: m.start()] + " " * (m.end() - m.start()) + rest[m.end() :]
    for name, rx in _PATTERNS:
        for m in rx.finditer(rest):
            groups = [g for g in m.groups() if g is not None]
            if name == "adct":
                comps.setdefault("adct", []).append("adct")
            elif name == "disp_letter":
                letter, primes = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
                n_primes = (primes or "").replace('"', "''").count("'")
                comps.setdefault("disp", []).append(f"trans-{letter}" + (f"-{'p' * n_primes}" if n_primes else ""))
            elif name == "disp":
                kind = _DISP[m.group(1).lower()]
                n = spanish_ordinal(m.group(2) or "única") or 1
                comps.setdefault("disp", []).append(f"{kind}-{n}")
            elif name == "art":
                # one article named in the singular ("Artigo 222.º, 5.", "Artículo 13, 2"): a bare
                # number after a comma is its numbered paragraph, not a second article
                singular = not m.group(0)[: m.start(1) - m.start(0)].rstrip(" .").lower().endswith("s")
                items = list(_ART_ITEM.finditer(m.group(1)))
                for k, it in enumerate(items):
                    if k and singular and _bare_after_comma(m.group(1), items[k - 1].end(), it):
                        comps.setdefault("apt", []).append(it.group(1))
                        continue
                    num = it.group(1)
                    tok = f"art-{int(num)}" if num.isdigit() else f"art-{num}"
                    if it.group(2):
                        tok += f"-{it.group(2).upper()}"
                    if it.group(3):
                        tok += it.group(3)  # Swiss `Art. 5a`
                    if it.group(4):
                        tok += f"-{suffix_token(it.group(4))}"
                        if it.group(5):
                            tok += f"-{it.group(5)}"  # `283 bis a)`
                    comps.setdefault("art", []).append(tok)
                    if it.group(6):
                        comps.setdefault("apt", []).append(it.group(6))
            elif name == "caput":
                comps["caput"] = ["caput"]
            elif name == "par_unico":
                comps.setdefault("par", []).append("unico")
            elif name == "par":
                comps.setdefault("par", []).append(
                    str(int(m.group(1))) + (f"-{m.group(2).upper()}" if m.group(2) else "")
                )
            elif name == "inc":
                roman = groups[0].upper()
                if roman_to_int(roman) is None:
                    continue
                suffix = suffix_token(groups[1]) if len(groups) > 1 else ""
                comps.setdefault("inc", []).append(roman + (f"-{suffix}" if suffix else ""))
            elif name == "inc_num":
                if "inc" in comps and any(x.isalpha() for x in comps.get("apt", ())) and 0 < int(groups[0]) < 100:
                    # `Base V, Apartado B, inciso a), numeral 1`: the number inside the letter
                    comps.setdefault("item", []).append(str(int(groups[0])))
                elif "inc" in comps or not 0 < int(groups[0]) < 4000:
                    continue
                else:
                    comps["inc"] = [int_to_roman(int(groups[0]))]
                    comps["inc_arabic"] = [groups[0]]
            elif groups:
                comps.setdefault(name, []).append(groups[0])
            # blank out what was consumed so later patterns do not re-read it
            rest = rest[: m.start()] + " " * (m.end() - m.start()) + rest[m.end() :]
    # a bare number left after a comma ("Disposición derogatoria, 3.") is a numbered paragraph
    # of what the reference named: dropped, the quote would be checked against all of it
    bare = _BARE_NUMBER.search(rest)
    if bare and ("art" in comps or "disp" in comps) and not comps.get("apt") and not comps.get("num"):
        comps["apt"] = [bare.group(1)]
        rest = rest[: bare.start()] + " " * (bare.end() - bare.start()) + rest[bare.end() :]
    unread = [" ".join(m.group(0).split()) for m in _SUBDIVISION.finditer(rest)]
    # a second subdivision of one level that no list reading took (`fracción V, el primer párrafo
    # del Apartado C, y el primer párrafo de la fracción VI`): only the first is read, said so
    for kind in ("par", "inc", "ali"):
        unread += [f"{_KIND_WORD[kind]} {x}" for x in dict.fromkeys(comps.get(kind, ())) if x != comps[kind][0]]
    # a part left alone between commas that looks like a label (`art. 7º, III, A`: an uppercase
    # letter is no alínea; `Appendix A., A.1.`) names a subdivision the reader did not take: never
    # dropped silently (the quote is checked against what was read, with a warning)
    unread += [seg.strip() for seg in rest.split(",")[1:] if _LEFT_LABEL.fullmatch(seg.strip())]
    if unread:
        comps["unread"] = unread
    return comps


_KIND_WORD = {"par": "§", "inc": "inciso/fracción", "ali": "alínea/inciso"}
_BARE_NUMBER = re.compile(r",\s*(\d{1,3})\.?\s*(?=,|$)")
_LEFT_LABEL = re.compile(r"(?:[A-Za-z]|[A-Za-z]?\d+[a-z]?)(?:\.(?:[A-Za-z]|\d+))*\.?\)?")


def _bare_after_comma(items: str, prev_end: int, it: re.Match[str]) -> bool:
    """``it`` is a plain number (an ordinal sign allowed, no suffix or sub-number) that only a
    comma separates from the item before it. With its sign too (``Artículo 19, 11º``): one
    article named in the singular, so the number is its subdivision, never a second article
    (read as two, a quote of either was located: the reading that widens the check)."""
    label = _ORD_SIGN.sub("", it.group(0).strip())
    return items[prev_end : it.start()].strip() == "," and label == it.group(1)


_ORD_SIGN = re.compile(r"(?:\.?\s?[º°]|o)$")


def parse_reference(ref: str, family: str | None = None) -> tuple[str, ...]:
    """Candidate section ids for ``ref`` (several for "arts. 5º e 6º"); no document needed.

    ``family`` picks the name of numbered paragraphs: ``num`` (pt), ``apt`` (es) or ``par``.

    >>> parse_reference("artigo 8.º, n.º 2, alínea a)", "pt")
    ('art-8/num-2/ali-a',)
    """
    return tuple(dict.fromkeys(i for r in expand_list(ref) for i in _ids(_components(r), r, family)))


def _ids(comps: dict[str, list[str]], ref: str, family: str | None) -> tuple[str, ...]:
    if "section" in comps:
        return tuple(f"sec-{s}" for s in comps["section"])
    if "appendix" in comps:
        return tuple(f"app-{a.upper()}" for a in comps["appendix"])
    heads = comps.get("art") or comps.get("disp")
    if not heads:
        msg = (
            f"cannot read a section in {ref!r}; write it like 'art. 5º, § 1º, II', "
            f"'artigo 8.º, n.º 2', 'artículo 18.2' or 'Section 4.1.2'"
        )
        raise ReferenceSyntaxError(msg)
    tail = ""
    if comps.get("par"):
        tail += f"/par-{comps['par'][0]}"
    numbered_list = comps.get("num") or comps.get("apt") or []
    numbered = numbered_list[0] if numbered_list else None
    letter = next((x for x in comps.get("apt") or () if x.isalpha()), None)
    if letter is not None and numbered is not None and not numbered.isalpha() and comps.get("inc"):
        # `Base V, Apartado B, inciso a), número 5` (CPEUM art. 41): an apartado and, inside its
        # letter, a numbered item: both are read (the number once took the apartado's place)
        comps.setdefault("item", []).append(str(int(numbered)))
        numbered = letter
    if numbered is not None and numbered.isalpha():
        tail += f"/apt-{numbered.upper()}"  # `apartado B` of the CPEUM
    elif numbered is not None:
        name = {"pt": "num", "es": "apt", "latam": "apt"}.get(family or "")
        name = name or ("num" if comps.get("num") else "apt")
        tail += f"/{name}-{int(numbered)}"
    if comps.get("abs"):
        tail += f"/abs-{int(comps['abs'][0])}"
    if comps.get("inc"):
        tail += f"/inc-{comps['inc'][0]}"
    if comps.get("ali"):
        tail += f"/ali-{comps['ali'][0].lower()}"
    if comps.get("item"):
        tail += f"/num-{comps['item'][0]}"
    scope = "adct/" if comps.get("adct") else ""
    return tuple(f"{scope}{h}{tail}" for h in heads)


def _display(sid: str) -> str:
    return re.sub(r"\b(?:sec|app)-", "", sid)


def _describe(sid: str) -> str:
    if sid.startswith("sec-"):
        return f"Section {sid[4:]}"
    if sid.startswith("app-"):
        return f"Appendix {sid[4:]}"
    return sid


_TITLE_WORD = re.compile(r"[^\W\d_]{4,}|\d+(?:[./]\d+)+")


_NAMES_NORM = re.compile(r"\b(?:lei|ley|decreto|c[óo]digo|constitu|estatuto|convenç|convenci|tratado)", re.I)


def _title_words(s: str) -> set[str]:
    """Words that name a norm (4+ letters or ``7/2009``, ``10.962``), case and accents folded."""
    return {fold(w) for w in _TITLE_WORD.findall(s)} - {"artigo", "articulo", "article", "anexo"}


def _norm_of(tree: SectionTree, sid: str, ref: str) -> str:
    """Where a reference without a norm lands in a booklet of several norms (``part-2``…): the
    norm whose title the reference names (``do Código do Trabalho``), else the norm with the
    most articles (the Code, not the law approving it; the Constitution, not Ley 24.430)."""
    if sid.startswith(("adct/", "part-")):
        return sid
    scopes = [s for s in tree.roots if s.kind == "scope" and s.id.startswith("part-")]
    if not scopes:
        return sid
    # in the order the document nests them (`Apartado A de la Base III`: art-41/inc-III/apt-A)
    options = [x for x in (sid, *(f"{p.id}/{sid}" for p in scopes)) if reordered(tree, x) in tree]
    if len(options) == 1:
        return options[0]
    if not options:  # not found anywhere: report it in the largest norm
        options = [sid, *(f"{p.id}/{sid}" for p in scopes)]
    words = _title_words(ref)

    def named(x: str) -> int:  # how well the reference names the norm of ``x`` (numbers weigh most)
        norm = tree.get(x.split("/")[0]) if x.startswith("part-") else None  # `art-75/…`: no norm
        shared = words & _title_words(norm.title) if norm is not None else set()
        return sum(3 if any(ch.isdigit() for ch in w) else 1 for w in shared)

    scores = sorted(((named(x), x) for x in options), reverse=True)
    if scores[0][0] > 0 and (len(scores) == 1 or scores[0][0] > scores[1][0]):
        return scores[0][1]
    if scores[0][0] == 0 and sid in options and _NAMES_NORM.search(ref):
        return sid  # "artigo 1.º da Lei n.º 7/2009": a norm that is none of the later ones

    def size(x: str) -> int:
        prefix = x.split("/")[0] + "/" if x.startswith("part-") else ""
        return sum(
            1
            for s in tree
            if s.kind in ("artigo", "articulo") and s.id.count("/") == prefix.count("/") and s.id.startswith(prefix)
        )

    return max(options, key=size)


_LAST = re.compile(r"^(?P<head>(?:.*/)?[a-z]+-)(?P<n>\d+|[IVXLC]+)(?P<tail>(?:-[^/-]+)*)$")


def _order(m: re.Match[str]) -> tuple[int, ...]:
    n = m.group("n")
    value = int(n) if n.isdigit() else roman_to_int(n) or 0  # `inc-XXXII` -> `inc-XXXI`
    return (value, *(suffix_rank(x) for x in m.group("tail").split("-")[1:]))


def _nearest_number(sid: str, pool: list[str]) -> str | None:
    """The existing section just before ``sid`` in numbering order (else just after), among
    those of its kind and parent: ``adic-11`` -> ``adic-10``, ``art-570-quater`` ->
    ``art-570``, ``art-283-bis-l`` -> ``art-283-bis-k``, ``art-7-B`` -> ``art-7-A``."""
    m = _LAST.match(sid)
    if m is None:
        return None
    key = _order(m)
    below: tuple[tuple[int, ...], str] | None = None
    above: tuple[tuple[int, ...], str] | None = None
    for x in pool:
        o = _LAST.match(x)
        if o is None or o.group("head") != m.group("head"):
            continue
        k = _order(o)
        if k <= key and (below is None or k > below[0]):
            below = (k, x)
        elif k > key and (above is None or k < above[0]):
            above = (k, x)
    best = below or above
    return best[1] if best else None


def _caput(tree: SectionTree, sec: Section) -> Section:
    """The caput of an article ("art. 7º, caput"): its text before its first paragraph (its
    incisos are the caput's); the article itself when it has no paragraph."""
    pars = [c for c in (tree.get(cid) for cid in sec.children) if c is not None and c.kind in _PARAGRAPH_KINDS]
    return replace(sec, end=min(c.start for c in pars)) if pars else sec


_PARAGRAPH_KINDS = frozenset({"paragrafo"})
"""Kinds of the parts of an article that are not its caput (§ 1º, parágrafo único)."""


def resolve_reference(tree: SectionTree, ref: str, doc: Document | None = None) -> Resolution:
    """Resolve ``ref`` against ``tree``; raise :class:`SectionNotFoundError` with the closest id.

    Never a silent substitute: a subdivision word left unread (``Satz 1``) or a level the
    document is not split into is named in :attr:`Resolution.unchecked`. An ordinal paragraph
    (``párrafo tercero``) is read from ``doc``'s layout (:mod:`ipsis.sections.paragraphs`).
    An id as ``ipsis sections`` prints it, or an RFC's bare number, names its section
    (:mod:`ipsis.sections.refids`)."""
    if (named := section_by_id(tree, ref)) is not None:
        return Resolution(ref, (named.id,), (named,))
    if (written := as_section_word(tree, ref)) is not None:  # `4.2.1` of an RFC
        return replace(resolve_reference(tree, written, doc), ref=ref)
    items = expand_list(ref)
    if len(items) > 1:  # `incisos II e V`, `alíneas d) a f)`: each item read on its own
        return _resolve_items(tree, ref, items, doc)
    inciso = item_of_inciso(tree, doc, ref, lambda r: resolve_reference(tree, r, doc))
    if inciso is not None:  # `número 1 del inciso quinto del artículo 144` (:mod:`refincisos`)
        taken, reasons = inciso
        return Resolution(ref, taken.ids, taken.sections, reasons)
    comps = _components(ref, bool(marked_paragraphs(doc)))
    ids = _ids(comps, ref, tree.family)
    unchecked = [unread_reason(part) for part in comps.get("unread", ())]
    found: list[Section] = []
    for sid in ids:
        sid = reordered(tree, _norm_of(tree, sid, ref))
        sec = tree.get(sid)
        if sec is None and tree.family in ("pt", "es", "latam") and "/apt-" in sid:
            sec = tree.get(sid.replace("/apt-", "/num-"))
        items_alike = tree.family in ("pt", "es", "latam") and "inc_arabic" in comps
        if sec is None and items_alike and "/inc-" in sid:
            # `artículo 2, inciso 9`: Peru numbers them `9.`; `numeral 11, literal b)` (Uruguay)
            item = re.search(r"/inc-([IVXLC]+)(?=/|$)", sid)
            number = roman_to_int(item.group(1)) if item else None
            if item and number is not None:
                # in the order the document nests them (`numeral 1) del literal d)`: the letter's)
                sec = tree.get(reordered(tree, f"{sid[: item.start()]}/num-{number}{sid[item.end() :]}"))
        if sec is None and (letter := re.search(r"/ali-([a-j])$", sid)):
            sec = tree.get(sid[: letter.start()] + f"/apt-{letter.group(1).upper()}")  # art. 72, inciso h)
        if sec is None:
            sec = one_level_down(tree, sid, ref)
        if sec is None and (split := split_level(tree, sid, items_alike)) is not None:
            sec, why = split
            unchecked.append(why)
        if sec is None:
            if re.search(r"/apt-\d", sid) and any("/num-" in s.id for s in tree):
                sid = sid.replace("/apt-", "/num-")  # the closest numbered paragraph, named as read
            if items_alike and "/inc-" in sid and not any("/inc-" in s.id for s in tree):
                # `inciso 33`: items `33.` (what follows the item stays: `numeral 11, literal z)`)
                sid = re.sub(r"/inc-[IVXLC]+(?=/|$)", f"/num-{comps['inc_arabic'][0]}", sid, count=1)
            same_depth = [
                s.id for s in tree if s.id.count("/") == sid.count("/") and s.id.split("-")[0] == sid.split("-")[0]
            ]
            pool = same_depth or [s.id for s in tree]
            closest = _nearest_number(sid, pool) or _cited_ancestor(tree, sid, pool)
            if closest is None:
                close = difflib.get_close_matches(sid, pool, n=1, cutoff=0.0)
                closest = close[0] if close else None
            hint = f"; closest: {_display(closest)}" if closest else "; the document has no sections"
            where = f"{_describe(sid)} does not exist in {tree.doc_id}"
            msg = f"{where}{hint} (reference: {ref.strip()!r})"
            raise SectionNotFoundError(msg, closest)
        parts = [sec]
        for words in comps.get("ordinal", ())[:1]:
            if lead_in_of_list(tree, doc, ref, sec):
                break  # `artículo 41, párrafo tercero, base III`: the paragraph leads into the bases
            ordinal = ordinal_paragraph(words)
            if ordinal is None:
                unchecked.append(f"{words!r} in the reference was not read")
                continue
            parts = []
            for n in ordinal[0]:  # `incisos segundo y tercero`: each one cited
                part, note = paragraph_of(tree, sec, (n, ordinal[1]), doc)
                parts.append(part)
                if note:
                    unchecked.append(note)
            if sec in parts:  # one could not be told apart: the whole unit, said so
                parts = [sec]
        found += [_caput(tree, p) if "caput" in comps and p.id == sid else p for p in parts]
    return Resolution(ref, tuple(s.id for s in found), tuple(found), tuple(dict.fromkeys(unchecked)))


def _resolve_items(tree: SectionTree, ref: str, items: list[str], doc: Document | None) -> Resolution:
    """Each item of a list resolved; one that does not exist is named in ``unchecked`` (the quote
    is checked against the others), all missing raises the first one's error."""
    parts: list[Resolution] = []
    missing: list[SectionNotFoundError] = []
    for item in items:
        try:
            parts.append(resolve_reference(tree, item, doc))
        except SectionNotFoundError as exc:
            missing.append(exc)
    if not parts:
        raise missing[0]
    found = list({s.id: s for p in parts for s in p.sections}.values())
    unread = [u for p in parts for u in p.unchecked]
    unread += [f"{exc}: the other items of {ref.strip()!r} were checked" for exc in missing]
    return Resolution(ref, tuple(s.id for s in found), tuple(found), tuple(dict.fromkeys(unread)))


def _cited_ancestor(tree: SectionTree, sid: str, pool: list[str]) -> str | None:
    """Inside the deepest section the reference names that exists, the id most like ``sid``
    (`apartado C` of art. 123: apt-B), else that section itself (`letra a) del artículo 13`
    where art. 13 has no letters: art-13, never a look-alike elsewhere such as art-131/ali-a)."""
    parts = sid.split("/")
    for cut in range(len(parts) - 1, 0, -1):
        head = "/".join(parts[:cut])
        if head in tree:
            close = difflib.get_close_matches(sid, [x for x in pool if x.startswith(head + "/")], n=1, cutoff=0.0)
            return close[0] if close else head
    return None

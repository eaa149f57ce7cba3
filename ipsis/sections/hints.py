"""Structural hints from the source markup confirm or place section markers (pure).

Readers in :mod:`ipsis.ingest` leave :class:`~ipsis.document.Hint` records on a Document:

- RFCXML ``section`` hints (value ``4.2.1`` or ``A.1``, attrs ``title``): authoritative; the
  numbered RFC sections are built from them (a body line such as ``1.  Foo`` is never a section);
- BOE ``block`` hints (value ``a13``, attrs ``tipo``, ``titulo``): an article or disposición
  must start its ``precepto`` block; markers elsewhere inside a block are dropped, and a block
  whose marker the patterns missed gets one from its first line;
- Senado ``class`` hints (``artigo``, ``paragrafo``, ``inciso``, ``alinea``): a marker of that
  kind is kept only on a line the publisher gave that class;
- Planalto ``anchor`` hints (``art57``): place an article where the printed marker is broken
  (``Art. 5 7.`` in lei-13709-2018-lgpd-planalto.html). They never overrule the ordering filter:
  Planalto reuses names (``<a name="art66">`` on an old wording of Art. 27).

Confirmed markers survive the ordering filters of :mod:`ipsis.sections.segmenter`. Text with
no hints is segmented by the patterns alone.

>>> from ipsis.document import Hint
>>> text = "Art. 5 7. (VETADO).\\n"
>>> [c.token for c in apply_hints(text, [], [Hint("anchor", "art57", 0, 19)], "br")]
['art-57']
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from ipsis.document import Hint
from ipsis.sections.families import ARTICLE_LEVEL, Cand, candidates

_LINE_END = re.compile(r"[\n\r\f]")
_SENADO = {"artigo": "artigo", "paragrafo": "paragrafo", "inciso": "inciso", "alinea": "alinea"}
_PLANALTO_ART = re.compile(r"art(\d{1,4})([a-z]{0,2})")
# `Art. 5 7. (VETADO).` (lei-13709-2018-lgpd-planalto.html): digits split by a space
_LOOSE_ART = re.compile(r"[ \t\u00a0]*(Art\.[\s\u00a0]*(\d[\d \u00a0]{0,6}\d|\d)[º°o]?(?:-([A-Z]))?\.?)")


def family_from_hints(hints: Sequence[Hint]) -> str | None:
    """The family the hints imply (``rfc`` for RFCXML sections, ``es`` for BOE blocks).

    >>> family_from_hints([Hint("section", "1", 0, 5)]), family_from_hints([])
    ('rfc', None)
    """
    kinds = {h.kind for h in hints}
    if "section" in kinds:
        return "rfc"
    if "block" in kinds:
        return "es"
    if "part" in kinds:
        return "latam"
    return None


def _line_end(text: str, pos: int) -> int:
    m = _LINE_END.search(text, pos)
    return m.start() if m else len(text)


def _line_start(text: str, pos: int) -> int:
    return max(text.rfind("\n", 0, pos), text.rfind("\r", 0, pos), text.rfind("\f", 0, pos)) + 1


def _rfc_sections(text: str, cands: list[Cand], hints: Sequence[Hint]) -> list[Cand]:
    out = [c for c in cands if c.kind == "rfc_unnumbered"]
    for h in hints:
        if h.kind != "section":
            continue
        num = h.value
        attrs = dict(h.attrs)
        parts = num.split(".")
        if parts[0].isalpha():
            key: tuple[int, ...] = (1000 + ord(parts[0]), *(int(x) for x in parts[1:]))
            kind, token = "appendix", f"app-{num}"
            label = f"Appendix {num}." if len(parts) == 1 else f"{num}."
        else:
            key = tuple(int(x) for x in parts)
            kind, token, label = "rfc_section", f"sec-{num}", f"{num}."
        mend = h.start + len(label)
        level = ARTICLE_LEVEL + len(parts) - 1
        out.append(Cand(h.start, mend, kind, level, token, label, key, attrs.get("title", ""), True, "", True))
    return sorted(out, key=lambda c: c.start)


def _in_span(starts: list[int], spans: Sequence[Hint], pos: int) -> Hint | None:
    k = bisect_right(starts, pos) - 1
    if k >= 0 and spans[k].start <= pos <= spans[k].end:
        return spans[k]
    return None


def _boe(text: str, cands: list[Cand], hints: Sequence[Hint]) -> list[Cand]:
    blocks = sorted((h for h in hints if h.kind == "block"), key=lambda h: h.start)
    starts = [b.start for b in blocks]
    at_start: set[int] = set()
    out: list[Cand] = []
    for c in cands:
        b = _in_span(starts, blocks, c.start)
        if b is None or c.level > ARTICLE_LEVEL:
            out.append(c)
            continue
        tipo = dict(b.attrs).get("tipo", "")
        first_line = c.start < _line_end(text, b.start)
        if c.level == ARTICLE_LEVEL and not (tipo == "precepto" and first_line):
            continue  # an article marker must open its precepto block
        if first_line:
            c.confirmed = True
            at_start.add(b.start)
        out.append(c)
    for b in blocks:
        if b.start in at_start or dict(b.attrs).get("tipo") not in ("precepto", "encabezado"):
            continue
        end = _line_end(text, b.start)
        for c in candidates(text[b.start : end] + "\n", "es")[:1]:
            out.append(_shifted(c, b.start))
    return sorted(out, key=lambda c: c.start)


def _shifted(c: Cand, by: int) -> Cand:
    return Cand(
        c.start + by, c.mend + by, c.kind, c.level, c.token, c.label, c.key, c.title, c.sequenced, c.scope, True
    )


def _senado(text: str, cands: list[Cand], hints: Sequence[Hint]) -> list[Cand]:
    lines: dict[str, set[int]] = {}
    for h in hints:
        if h.kind == "class" and h.value in _SENADO:
            lines.setdefault(_SENADO[h.value], set()).add(_line_start(text, h.start))
    out = []
    for c in cands:
        if c.kind in lines:
            if _line_start(text, c.start) not in lines[c.kind]:
                continue  # the publisher did not mark this line as that kind
            c.confirmed = True
        out.append(c)
    return out


def _planalto(text: str, cands: list[Cand], hints: Sequence[Hint]) -> list[Cand]:
    by_line = {_line_start(text, c.start): c for c in cands if c.kind == "artigo"}
    added: list[Cand] = []
    replaced: set[int] = set()
    for h in hints:
        m = _PLANALTO_ART.fullmatch(h.value) if h.kind == "anchor" else None
        if m is None:
            continue
        line = _line_start(text, h.start)
        c = by_line.get(line)
        num = int(m.group(1))
        if c is not None and c.key[:1] == (num,):
            continue
        lm = _LOOSE_ART.match(text, line)
        if lm is None or int(re.sub(r"\D", "", lm.group(2))) != num:
            continue
        let = lm.group(3)
        token = f"art-{num}" + (f"-{let}" if let else "")
        rank = ord(let) - 64 if let else 0
        label = re.sub(r"[\s\u00a0]+", " ", lm.group(1)).rstrip(".")
        # not `confirmed`: Planalto reuses anchor names for old wordings, so the ordering
        # filter still judges the placed marker
        cand = Cand(lm.start(1), lm.end(1), "artigo", ARTICLE_LEVEL, token, label, (num, rank), "", True)
        if c is not None:
            replaced.add(id(c))  # `Art. 5` read from `Art. 5 7.`
        by_line[line] = cand
        added.append(cand)
    if not added:
        return cands
    return sorted([*(c for c in cands if id(c) not in replaced), *added], key=lambda c: c.start)


_LEYCHILE_HEADS = {"Artículo": "articulo", "Disposición Transitoria": "disposicion"}


def _leychile(text: str, cands: list[Cand], hints: Sequence[Hint]) -> list[Cand]:
    """LeyChile ``part`` hints (``<EstructuraFuncional tipoParte=…>``): an article (or
    transitory provision) is the part's first line; numbered items inside it (``1º.- El derecho
    a la vida``, art. 19) are its numerals ``num-1``…, never articles."""
    parts = sorted(
        (h for h in hints if h.kind == "part" and h.value in _LEYCHILE_HEADS and h.end > h.start),
        key=lambda h: h.start,
    )
    if not parts:
        return cands
    leaves = [h for h in parts if not any(o is not h and h.start <= o.start and o.end <= h.end for o in parts)]
    starts = [h.start for h in leaves]
    heads: dict[int, Cand] = {}
    out: list[Cand] = []
    for c in cands:
        part = _in_span(starts, leaves, c.start)
        if part is None or c.level != ARTICLE_LEVEL:
            out.append(c)
            continue
        if c.start < _line_end(text, _line_end(text, part.start) + 1) and part.start not in heads:
            c.confirmed = True
            heads[part.start] = c
            out.append(c)
        elif c.kind == "articulo" and c.key[:1]:
            n = c.key[0]  # `1º.- El derecho a la vida` inside art. 19: a numeral
            out.append(Cand(c.start, c.mend, "numero", 11, f"num-{n}", c.label, (n,)))
    for h in leaves:
        if h.start in heads:
            continue
        end = _line_end(text, h.start)
        for c in candidates(text[h.start : end] + "\n", "latam")[:1]:
            if c.level == ARTICLE_LEVEL:
                out.append(_shifted(c, h.start))
    return sorted(out, key=lambda c: c.start)


def apply_hints(text: str, cands: list[Cand], hints: Sequence[Hint], family: str) -> list[Cand]:
    """``cands`` confirmed, dropped or completed by ``hints`` (unchanged when there are none)."""
    if not hints:
        return cands
    kinds = {h.kind for h in hints}
    if family == "rfc" and "section" in kinds:
        cands = _rfc_sections(text, cands, hints)
    if family == "es" and "block" in kinds:
        cands = _boe(text, cands, hints)
    if family == "br" and "class" in kinds:
        cands = _senado(text, cands, hints)
    if family == "br" and "anchor" in kinds:
        cands = _planalto(text, cands, hints)
    if family == "latam" and "part" in kinds:
        cands = _leychile(text, cands, hints)
    return cands

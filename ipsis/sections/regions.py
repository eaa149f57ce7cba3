"""Regions above the line: index/TOC regions, quoted amendments, norm boundaries, glued
footnote digits (pure passes over the marker candidates; see :mod:`ipsis.sections.grammar`).

>>> from ipsis.sections.families import candidates
>>> text = "Art. 1º Um.\\nArt. 2º Dois.\\nLEI Nº 2\\nArt. 1º Outra.\\nArt. 2º Mais.\\n"
>>> [(c.token, c.scope) for c in norms(text, candidates(text, "br"))]
[('art-1', ''), ('art-2', ''), ('part-2', ''), ('art-1', 'part-2'), ('art-2', 'part-2')]
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left, bisect_right
from typing import Any

from ipsis.sections import families
from ipsis.sections.families import Cand
from ipsis.sections.grammar import NORM_HEADING
from ipsis.sections.patterns import REVOKED_TEXT

ARTICLE_LEVEL = families.ARTICLE_LEVEL


_VETO = re.compile(r"\((?:VETAD|Vetad)|\[(?:Revogad|Derogad)|Revogad[oa]\.|Derogad[oa]\.", re.I)


def _is_article(c: Cand) -> bool:
    return c.level == ARTICLE_LEVEL and c.kind not in families.FLAT_KINDS and c.kind != "scope"


def _has_body(text: str, a: int, b: int) -> bool:
    """Whether ``text[a:b]`` (an article after its marker) holds a provision: a sentence-like
    line, a revoked/vetoed note, or enough words. An index entry is its title alone."""
    seg = text[a:b]
    if REVOKED_TEXT.search(seg) or _VETO.search(seg):
        return True
    words = 0
    for line in seg.splitlines():
        n = len(line.split())
        words += n
        if n >= 5 and line.rstrip().endswith((".", ";", ":")):
            return True
    return words >= 40


def drop_index(text: str, cands: list[Cand]) -> list[Cand]:
    """Drop an index/TOC region before the articles: the markers before a numbering restart
    when most of them are bodiless (a title alone) and their ids come again after it (Código do
    Trabalho DRE: every ``Artigo N.º`` + epigraph of the law and of the Code, ~5000 lines,
    before the law's articles). The region's headings go with it."""
    arts = [i for i, c in enumerate(cands) if _is_article(c) and c.sequenced and not c.confirmed]
    if len(arts) < 10:
        return cands
    restarts = [n for n in range(1, len(arts)) if cands[arts[n]].key[0] == 1 and cands[arts[n - 1]].key[0] > 1]
    memo: dict[int, bool] = {}

    def empty(n: int) -> bool:  # article ``n`` is a title alone (computed once, on demand)
        if n not in memo:
            memo[n] = not _has_body(text, cands[arts[n]].mend, cands[arts[n + 1]].start)
        return memo[n]

    last_at = {cands[i].token: n for n, i in enumerate(arts)}
    for r in reversed(restarts):
        if r < 5:
            continue
        tail = [empty(n) for n in range(max(0, r - 10), r)]  # the region ends on index entries
        if sum(tail) < 0.6 * len(tail):
            continue
        head = arts[:r]
        if sum(empty(n) for n in range(r)) >= 0.7 * r and sum(last_at[cands[i].token] >= r for i in head) >= 0.8 * r:
            first = next((i for i, c in enumerate(cands) if c.level <= ARTICLE_LEVEL), arts[0])
            return cands[:first] + [c for c in cands[first : arts[r]] if c.kind == "scope"] + cands[arts[r] :]
    return cands


_QUOTE_OPEN = re.compile(r"«")


def drop_quoted(text: str, cands: list[Cand]) -> list[Cand]:
    """Markers inside a quoted passage spanning lines are the text of another norm being amended
    (BOE: ``Disposición final quinta. Modificación de la Ley 14/1986 … «CAPÍTULO II …
    Artículo 105 bis. …»``): not sections of this one. A quote left open (no closing ``»``
    within 60,000 characters) is ignored."""
    regions: list[tuple[int, int]] = []
    pos = 0
    while True:
        m = _QUOTE_OPEN.search(text, pos)
        if m is None:
            break
        end = text.find("»", m.end(), m.end() + 60_000)
        if end < 0:
            pos = m.end()
            continue
        if "\n" in text[m.end() : end]:
            regions.append((m.end(), end))
        pos = end + 1
    if not regions:
        return cands
    starts = [a for a, _ in regions]

    def inside(p: int) -> bool:
        k = bisect_right(starts, p) - 1
        return k >= 0 and regions[k][0] <= p < regions[k][1]

    return [c for c in cands if c.confirmed or c.level > ARTICLE_LEVEL or not inside(c.start)]


def unglue(cands: list[Cand]) -> list[Cand]:
    """Footnote digits glued to an article number by PDF extraction: ``Art. 6324`` between
    ``Art. 62`` and ``Art. 63a`` is Art. 63 (+ footnote 24). Only when the prefix continues
    the numbering and the next article continues from it."""
    arts = [c for c in cands if _is_article(c) and c.sequenced]
    for n in range(1, len(arts)):
        c, prev = arts[n], arts[n - 1]
        digits = c.token.removeprefix("art-")
        if not digits.isdigit() or len(c.key) < 2 or c.key[0] <= prev.key[0] + 20:
            continue
        nxt = arts[n + 1].key[0] if n + 1 < len(arts) else None
        if nxt is not None and c.key[0] <= nxt <= c.key[0] + 3:
            continue  # the next article goes on from the number as printed (58, 58-A)
        for k in range(len(digits) - 1, 0, -1):
            v = int(digits[:k])
            # the next article goes on from it (itself maybe glued: 12267, 12368), or is no article
            goes_on = nxt is None or v <= nxt <= v + 3 or str(nxt).startswith(str(v + 1)) or nxt < prev.key[0]
            if prev.key[0] < v <= prev.key[0] + 2 and goes_on:
                c.token, c.key = f"art-{v}", (v, *c.key[1:])
                c.label = c.label[: len(c.label) - (len(digits) - k)]
                break
    return cands


def _continues(arts: list[Cand], n: int) -> bool:
    """The article after ``arts[n]`` (a restart at 1) goes on from it: 1 -> 2, or 1 -> 1-A."""
    c = arts[n]
    nxt = next((arts[k] for k in range(n + 1, len(arts)) if arts[k].sequenced and not arts[k].scope), None)
    return nxt is not None and c.key < nxt.key and nxt.key[0] <= c.key[0] + 1


_BY_ORDINALS = "\x00ordinals"  # marker style of a norm opened by its ordinal dispositions


def _heading_between(text: str, a: Cand, b: Cand) -> bool:
    """A norm's heading line between two markers (``DECRETO por el que se reforman…``)."""
    return NORM_HEADING.search(text, a.mend, b.start) is not None


def _norm_start(text: str, cands: list[Cand], starts: list[int], prev: Cand, c: Cand) -> tuple[int, str]:
    """Where a new norm starts and its title: its heading lines (``LEI Nº 10.962…``, ``Anexo`` +
    ``CÓDIGO DO TRABALHO``) before its first heading, else its first heading, else the article."""
    lo, hi = bisect_right(starts, prev.start), bisect_left(starts, c.start)
    heads = [h for h in cands[lo:hi] if h.level < ARTICLE_LEVEL]
    bound = heads[0].start if heads else c.start
    found = list(NORM_HEADING.finditer(text, prev.mend, bound))
    if found:
        first = last = found[-1]
        for m in reversed(found[:-1]):  # heading lines right above it (blank lines between)
            if text[m.end() : first.start()].strip():
                break
            first = m
        lines = [x for x in found if first.start() <= x.start() <= last.start()]
        title = " ".join(_WS_RX.sub(" ", x.group(0)).strip() for x in lines)
        return first.start() + len(first.group(0)) - len(first.group(0).lstrip("\n\r \t\u00a0#")), title
    if heads:
        return heads[0].start, ""
    return c.start, ""


_WS_RX = re.compile(r"[\s\u00a0]+")


def norms(text: str, cands: list[Cand]) -> list[Cand]:
    """Norm boundaries: numbering restarting at 1 (and going on) after a norm's articles opens a
    new top-level norm ``part-k`` (the CDC booklet's five laws and decrees, the Código do
    Trabalho after Lei 7/2009, the Constitution inside Ley 24.430); an article written as an
    earlier norm's (``ARTICULO`` vs ``Artículo``) that continues its numbering returns to it.
    Articles under an explicit scope (the ADCT) are left alone."""
    arts = [c for c in cands if _is_article(c)]
    starts = [c.start for c in cands]  # cands are in document order
    norms: list[list[Any]] = [["", None, ()]]  # scope id, marker style, last key
    cur = 0
    prev: Cand | None = None
    added: list[Cand] = []
    seen: dict[str, int] = {}  # disposition kinds of the current norm (`trans`, `adic`…)
    quoted: set[int] = set()
    last_disp: Cand | None = None
    for n, c in enumerate(arts):
        if c.scope or c.kind == "superseded":
            continue
        if not c.sequenced:  # dispositions belong to the current norm…
            kind, _, num = c.token.rpartition("-")
            # …unless their ordinals restart under a new norm's heading: each reform decree
            # printed after the CPEUM has its own `TRANSITORIOS / PRIMERO.-`
            if num == "1" and kind in seen and last_disp is not None and _heading_between(text, last_disp, c):
                sid = f"part-{len(norms) + 1}"
                norms.append([sid, _BY_ORDINALS, ()])
                cur = len(norms) - 1
                at, title = _norm_start(text, cands, starts, last_disp, c)
                added.append(Cand(at, at, "scope", 0, sid, f"Part {len(norms)}", title=title))
                seen = {}
            seen[kind] = seen.get(kind, 0) + 1
            c.scope = norms[cur][0]
            last_disp = c
            continue
        style = c.label.split()[0] if c.label else ""
        if norms[cur][1] is None:
            norms[cur][1] = style
        st, last = norms[cur][1], norms[cur][2]
        if st == _BY_ORDINALS and c.key[0] != 1:
            # a decree whose articles are ordinals (`ARTICULO UNICO.-`): a numbered article in it
            # is the reformed text it quotes (`para quedar como sigue: Artículo 105.-`)
            quoted.add(id(c))
            continue
        back = None
        if style != st:
            back = next(
                (j for j in range(cur) if norms[j][1] == style and norms[j][2] < c.key <= (norms[j][2][0] + 2,)),
                None,
            )
        if back is not None:
            cur = back
        elif (
            prev is not None
            and last
            and c.key[0] == 1
            and (c.key < last or (c.key == last and style != st))
            and _continues(arts, n)
        ):
            sid = f"part-{len(norms) + 1}"
            norms.append([sid, style, ()])
            cur = len(norms) - 1
            at, title = _norm_start(text, cands, starts, prev, c)
            added.append(Cand(at, at, "scope", 0, sid, f"Part {len(norms)}", title=title))
            seen = {}
        c.scope = norms[cur][0]
        norms[cur][2] = max(norms[cur][2], c.key)
        prev = c
    if not added:
        return cands
    kept = [c for c in cands if id(c) not in quoted]
    return sorted([*kept, *added], key=lambda x: (x.start, x.level))


def mixed_families(text: str, family: str, cands: list[Cand]) -> list[Cand]:
    """The family may change at a norm boundary: after a norm's heading line (``ANEXO``,
    ``CONVENÇÃO…``, ``LEI Nº…``), a stretch whose markers are clearly another legal family's
    (evidence >= 10 and >= 3x the document's family there, or >= 2 where the document's family
    has none) is read with that family's table;
    the numbering restart then makes it a norm of its own (``part-k``)."""
    if family not in families.TABLES:
        return cands
    heads = [m.start() for m in NORM_HEADING.finditer(text) if m.group(0).strip()[:4].isupper()]
    if not heads:
        return cands
    bounds = sorted({0, *heads, len(text)})
    # every piece of evidence found once, then counted per stretch (linear in the text)
    found = families.evidence_at(text)
    swaps: list[tuple[int, int, str]] = []
    for a, b in itertools.pairwise(bounds):
        ev = {
            fam: sum(w * (bisect_left(pos, b) - bisect_left(pos, a)) for w, pos in hits) for fam, hits in found.items()
        }
        other = max((f for f in ev if f != family), key=lambda f: ev[f])
        mine = ev.get(family, 0)
        # clearly another family's markers: many of them, or a few and none of the document's
        if (ev[other] >= 10 and ev[other] >= 3 * mine) or (ev[other] >= 2 and mine == 0):
            if swaps and swaps[-1][1] == a and swaps[-1][2] == other:
                swaps[-1] = (swaps[-1][0], b, other)
            else:
                swaps.append((a, b, other))
    for a, b, other in swaps:
        inside = families.candidates(text[a:b], other)
        for c in inside:
            c.start, c.mend = c.start + a, c.mend + a
        cands = [c for c in cands if not a <= c.start < b] + inside
    return sorted(cands, key=lambda c: c.start) if swaps else cands


def rank_containers(cands: list[Cand]) -> list[Cand]:
    """Heading ranks from the document's own numbering: a heading kind whose numbers restart at 1
    right after another kind's headings sits under it. Spain: ``CAPÍTULO SEGUNDO`` then
    ``Sección 1.ª`` (sections in chapters); Uruguay and Argentina: ``SECCION II`` then
    ``CAPITULO I`` (chapters in sections). Without such evidence the default ranks hold."""
    heads = [c for c in cands if c.kind in families.CONTAINER_LEVEL and c.kind != "disposiciones"]
    kinds = sorted({c.kind for c in heads}, key=lambda k: families.CONTAINER_LEVEL[k])
    if len(kinds) < 2:
        return cands
    under: dict[tuple[str, str], int] = {}
    for prev, c in itertools.pairwise(heads):
        if prev.kind != c.kind and c.key[:1] == (1,):
            under[(prev.kind, c.kind)] = under.get((prev.kind, c.kind), 0) + 1
    order = list(kinds)
    changed = True
    while changed:
        changed = False
        for i in range(len(order) - 1):
            a, b = order[i], order[i + 1]
            if under.get((b, a), 0) >= 2 and under.get((b, a), 0) > under.get((a, b), 0):
                order[i], order[i + 1] = b, a
                changed = True
    if order == kinds:
        return cands
    level = dict(zip(order, (families.CONTAINER_LEVEL[k] for k in kinds), strict=True))
    for c in heads:
        c.level = level[c.kind]
    return cands

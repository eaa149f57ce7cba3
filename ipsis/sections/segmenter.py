"""Pure segmentation: document text (plus optional marks) -> :class:`SectionTree`.

Three passes over the markers that :mod:`ipsis.sections.patterns` finds at line starts:

1. *candidates*: every marker, with its kind, level, id token and ordering key;
2. *filters*: the reader's hints confirm, drop or place markers (:mod:`ipsis.sections.hints`);
   the region passes of :mod:`ipsis.sections.regions` read a stretch of another family with its
   table, drop an index region and markers quoted inside amendments, split footnote digits
   glued to a number and open a new norm (``part-2``…) where the numbering restarts;
   a struck article whose id is in force elsewhere becomes an old wording (``old/art-55-C``);
   table-of-contents lines are dropped, articles (and RFC sections) keep the longest
   non-decreasing run of their numbers per scope (a stray ``Art. 100`` at a line start cannot
   break the sequence), sub-article markers must not go backwards inside their parent, and
   headings (títulos, capítulos) are kept only when an article falls under them (so headings in
   a table of contents vanish);
3. *tree*: a stack by level gives parents and ends; a marker repeating the id of its previous
   sibling (Planalto prints struck and current wording of one inciso in a row; BOE prints each
   dated version) extends that section instead of opening a new one.

>>> t = segment_text("Art. 1º Esta Lei.\\nParágrafo único. Aplica-se.\\nArt. 2º Outra.\\n")
>>> [(s.id, s.label) for s in t]
[('art-1', 'Art. 1º'), ('art-1/par-unico', 'Parágrafo único'), ('art-2', 'Art. 2º')]
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ipsis.document import Hint
from ipsis.sections import families
from ipsis.sections.closing import close_at_notes, close_enumerations
from ipsis.sections.families import Cand
from ipsis.sections.hints import apply_hints, family_from_hints
from ipsis.sections.patterns import NOTE_TEXT, REVOKED_TEXT, TOC_LINE, int_to_roman
from ipsis.sections.regions import drop_index, drop_quoted, mixed_families, norms, rank_containers, unglue
from ipsis.sections.tree import Section, SectionTree
from ipsis.sections.versions import attach_versions

ARTICLE_LEVEL = families.ARTICLE_LEVEL
_LINE_END = re.compile(r"[\n\r\f]")


@dataclass(frozen=True, slots=True)
class MarkSpan:
    """A revoked/note/furniture span (from ``Document.marks``) the segmenter uses for flags and
    list ends."""

    kind: str
    start: int
    end: int


def _line_end(text: str, pos: int) -> int:
    m = _LINE_END.search(text, pos)
    return m.start() if m else len(text)


def _drop_toc(text: str, cands: list[Cand]) -> list[Cand]:
    out = []
    for c in cands:
        line = text[c.start : _line_end(text, c.mend)]
        if not c.confirmed and TOC_LINE.search(line):
            continue
        out.append(c)
    return out


def _lis(keys: Sequence[tuple[int, ...]]) -> set[int]:
    """Indices of a longest non-decreasing subsequence of ``keys``.

    >>> sorted(_lis([(1,), (2,), (100,), (3,), (3,), (4,)]))
    [0, 1, 3, 4, 5]
    """
    tails: list[tuple[int, ...]] = []
    tails_idx: list[int] = []
    prev: list[int] = [-1] * len(keys)
    for i, k in enumerate(keys):
        j = bisect_right(tails, k)
        if j == len(tails):
            tails.append(k)
            tails_idx.append(i)
        else:
            tails[j] = k
            tails_idx[j] = i
        prev[i] = tails_idx[j - 1] if j > 0 else -1
    keep: set[int] = set()
    i = tails_idx[-1] if tails_idx else -1
    while i != -1:
        keep.add(i)
        i = prev[i]
    return keep


def _filter_sequenced(cands: list[Cand]) -> list[Cand]:
    """Keep the longest non-decreasing run of ``sequenced`` markers per scope."""
    groups: dict[str, list[int]] = {}
    for i, c in enumerate(cands):
        if c.sequenced:
            groups.setdefault(c.scope, []).append(i)
    drop: set[int] = set()
    for idxs in groups.values():
        keep = _lis([cands[i].key for i in idxs])
        drop.update(idx for n, idx in enumerate(idxs) if n not in keep and not cands[idx].confirmed)
    return [c for i, c in enumerate(cands) if i not in drop]


def _mark_superseded(cands: list[Cand], marks: Sequence[MarkSpan]) -> list[Cand]:
    """A struck article marker whose id also has an unstruck marker elsewhere in its scope, with
    other articles in between, opens an old-wording section ``old/art-55-C`` (kind
    ``superseded``): Planalto prints the lapsed MP 869 wording of Art. 55-A to 55-K as a struck
    block before the articles in force. A struck wording right before the current one stays in
    the current section (Art. 3º II of the LGPD: three wordings, one section)."""
    rev = sorted((m.start, m.end) for m in marks if m.kind == "revoked")
    if not rev:
        return cands
    rev_starts = [a for a, _ in rev]

    def struck(pos: int) -> bool:
        k = bisect_right(rev_starts, pos) - 1
        return k >= 0 and rev[k][0] <= pos < rev[k][1]

    arts = [i for i, c in enumerate(cands) if c.level == ARTICLE_LEVEL and c.sequenced]
    flags = {i: struck(cands[i].start) for i in arts}
    live: dict[tuple[str, str], list[int]] = {}
    for n, i in enumerate(arts):
        if not flags[i]:
            live.setdefault((cands[i].scope, cands[i].token), []).append(n)
    old: set[int] = set()
    for n, i in enumerate(arts):
        c = cands[i]
        if not flags[i] or c.confirmed or (c.scope, c.token) not in live:
            continue
        # the nearest unstruck marker of the same id, and the article markers in between
        m = min(live[(c.scope, c.token)], key=lambda x: abs(x - n))
        lo, hi = sorted((n, m))
        if any(cands[arts[k]].token != c.token for k in range(lo + 1, hi)):
            old.add(i)
    for i in old:
        c = cands[i]
        c.kind, c.token, c.sequenced = "superseded", f"old/{c.token}", False
    return cands


def _drop_empty_containers(cands: list[Cand]) -> list[Cand]:
    """Drop headings with no article (or RFC section) before the next heading of their rank."""
    anchors = [c.start for c in cands if c.level == ARTICLE_LEVEL]
    if not anchors:
        return cands
    heads = [i for i, c in enumerate(cands) if c.level < ARTICLE_LEVEL and c.kind != "scope"]
    scopes = [c.start for c in cands if c.kind == "scope"]
    drop: set[int] = set()
    for n, i in enumerate(heads):
        c = cands[i]
        end = None
        for j in heads[n + 1 :]:
            if cands[j].level <= c.level:
                end = cands[j].start
                break
        m = bisect_right(scopes, c.start)
        if m < len(scopes):
            end = scopes[m] if end is None else min(end, scopes[m])
        k = bisect_left(anchors, c.mend)
        if not (k < len(anchors) and (end is None or anchors[k] < end)):
            drop.add(i)
    return [c for i, c in enumerate(cands) if i not in drop]


@dataclass(slots=True)
class _Open:
    cand: Cand
    id: str
    children: list[str] = field(default_factory=list)
    last_key: dict[str, tuple[int, ...]] = field(default_factory=dict)
    last_wording: int = -1  # start of the latest repeated marker merged into this section


def _next_item(key: tuple[int, ...], last: tuple[int, ...]) -> bool:
    """Whether ``key`` may follow ``last`` in a list that skips at most one number: `III.` after
    `II.` or `I.`, `XXIX-A.` after `XXIX.`, `XXIX-B.` after `XXIX-A.`."""
    return 0 < key[0] - last[0] <= 2 or (key[0] == last[0] and key > last)


def _in_fraccion(c: Cand, stack: list[_Open]) -> int:
    """The level of a marker inside an open CPEUM fracción: ``Apartado A.`` written out goes
    under the fracción, its ``a)`` under it, and a ``1.`` list under the innermost item (art. 41,
    fracción V, Apartado B, a), 1.)."""
    if c.nests:
        return 13
    if c.kind == "alinea" and any(o.cand.nests for o in stack):
        return 14
    return 15 if c.kind == "numero" else c.level


def _numeral_level(text: str, c: Cand, stack: list[_Open]) -> int:
    """The level of a numeral closed by a parenthesis (``8º)``, ``1)``), by the document's own
    evidence: it continues the open list of numerales whose next number it is (innermost first:
    Uruguay art. 168's ``8º)`` after ``7º)``'s letters a) … h) is the article's); a ``1)`` right
    after a letter whose text leads into it (``… se expresará el voto:``) opens a list under that
    letter; anything else keeps its family's level."""
    for o in reversed(stack):
        if o.cand.kind == "numero" and o.cand.consecutive and _next_item(c.key, o.cand.key):
            return o.cand.level
    top = stack[-1].cand if stack else None
    if (
        top is not None
        and c.key[0] == 1
        and top.kind in ("alinea", "apartado")
        and text[top.mend : c.start].rstrip().endswith(":")
    ):
        return top.level + 1
    return c.level


def _build(text: str, cands: list[Cand]) -> tuple[list[Section], dict[str, int]]:
    """Stack by level: parents, ends, ids; merge repeated siblings.

    Also returns, per merged section, where its last wording starts."""
    n = len(text)
    stack: list[_Open] = []
    done: dict[str, tuple[_Open, int, str | None]] = {}
    order: list[str] = []
    taken: dict[str, int] = {}  # base id -> the last ~k suffix given to a repeat of it

    def close_to(level: int, pos: int) -> None:
        while stack and stack[-1].cand.level >= level:
            o = stack.pop()
            parent = stack[-1].id if stack else None
            done[o.id] = (o, pos, parent)

    for c in cands:
        flat = c.kind in families.FLAT_KINDS
        if c.level > ARTICLE_LEVEL and any(o.cand.consecutive and o.cand.kind == "inciso" for o in stack):
            c.level = _in_fraccion(c, stack)
        elif c.kind == "numero" and c.consecutive:
            c.level = _numeral_level(text, c, stack)
        host = next((o for o in reversed(stack) if o.cand.level < c.level), None)
        if flat or c.kind == "scope":
            prefix = ""
        elif c.level > ARTICLE_LEVEL:
            # a sub-article marker needs an open article (or disposición) and must not go back
            if host is None or host.cand.level < ARTICLE_LEVEL:
                continue
            last = host.last_key.get(c.kind)
            if c.sic and last:  # `XI (sic …).` after `VIII.`: fracción IX, where the list has it
                c.key, c.token = (last[0] + 1, 0), f"inc-{int_to_roman(last[0] + 1)}"
            if (last is not None and c.key < last) or f"{host.id}/{c.token}" in done:
                if c.consecutive and c.key[0] == 1 and last is not None and c.key < last:
                    # a second list restarting at I. (CPEUM art. 28: the commissioners'
                    # requirements I.-VIII. after fracciones I.-XII.) is not inside the last
                    # item of the first: that item ends here, the second list is the article's text
                    close_to(c.level, c.start)
                continue  # backwards, or inside a later wording of its parent
            if c.consecutive and not (_next_item(c.key, last) if last else c.key[0] == 1):
                continue  # a fracción list starts at I and skips at most one (`V.` in prose)
            prefix = host.id + "/"
        elif c.level == ARTICLE_LEVEL:
            scope_node = next((o for o in reversed(stack) if o.cand.kind == "scope"), None)
            if scope_node is not None and c.scope != scope_node.id:
                close_to(0, c.start)  # back to an earlier norm (Ley 24.430 after the Constitution)
                scope_node = None
            prefix = scope_node.id + "/" if scope_node else (c.scope + "/" if c.scope else "")
        else:
            prefix = host.id + "/" if host else ""
        sid = prefix + c.token
        same = next((o for o in reversed(stack) if o.cand.level <= c.level), None)
        if same is not None and same.cand.level == c.level and same.id == sid:
            # a repeated marker (Planalto: struck and current wording of one inciso in a row;
            # BOE: each dated version of an article) extends the open section; the sections
            # inside the earlier wording end here
            close_to(c.level + 1, c.start)
            same.last_wording = c.start
            continue
        if sid in done or any(o.id == sid for o in stack):
            # ids are only ever added, so every suffix below the last one given is taken:
            # start there (a text with thousands of "1." headings is not quadratic)
            k = taken.get(sid, 1) + 1
            while f"{sid}~{k}" in done or any(o.id == f"{sid}~{k}" for o in stack):
                k += 1
            taken[sid] = k
            sid = f"{sid}~{k}"
        close_to(c.level, c.start)
        host = stack[-1] if stack else None
        if host is not None:
            host.children.append(sid)
            host.last_key[c.kind] = c.key
        stack.append(_Open(c, sid))
        order.append(sid)
    close_to(-1, n)
    out = []
    wordings = {}
    for sid in order:
        o, end, parent = done[sid]
        c = o.cand
        out.append(Section(sid, c.kind, c.label, c.title, c.start, end, parent, tuple(o.children)))
        if o.last_wording >= 0:
            wordings[sid] = o.last_wording
    return out, wordings


def _own_spans(s: Section, by_id: dict[str, Section]) -> list[tuple[int, int]]:
    """The parts of ``s`` outside its children (a merged wording may follow the children)."""
    out = []
    pos = s.start
    for cid in s.children:
        c = by_id[cid]
        if c.start > pos:
            out.append((pos, c.start))
        pos = max(pos, c.end)
    if s.end > pos:
        out.append((pos, s.end))
    return out


def _covered(spans: list[tuple[int, int]], starts: list[int], a: int, b: int) -> int:
    k = max(bisect_right(starts, a) - 1, 0)
    total = 0
    for x, y in spans[k:]:
        if x >= b:
            break
        total += max(0, min(y, b) - max(x, a))
    return total


def _flags(text: str, sections: list[Section], marks: Sequence[MarkSpan], wordings: dict[str, int]) -> list[Section]:
    """Flags on the own text (span minus children). ``revoked``: the *last* wording says
    "(Revogado)" or is >= 90% struck (an old wording struck before the current one does not
    revoke the section); ``has_revoked``: some of the own text is struck; ``has_notes``: an
    amendment note in the own text."""
    if not sections:
        return sections
    by_id = {s.id: s for s in sections}
    rev = sorted((m.start, m.end) for m in marks if m.kind == "revoked")
    notes = sorted((m.start, m.end) for m in marks if m.kind == "note")
    rev_starts = [a for a, _ in rev]
    note_starts = [a for a, _ in notes]
    out = []
    for s in sections:
        own = _own_spans(s, by_id)
        last = wordings.get(s.id, s.start)
        tail = [(max(a, last), b) for a, b in own if b > last]
        head = text[tail[0][0] : tail[0][1]] if tail else ""
        revoked = bool(REVOKED_TEXT.search(head[:400]))
        has_notes = any(NOTE_TEXT.search(text, a, b) for a, b in own)
        has_revoked = revoked
        if rev:
            has_revoked = has_revoked or any(_covered(rev, rev_starts, a, b) for a, b in own)
            body = covered = 0
            for a, b in tail:
                if a in (s.start, last):  # the marker itself does not count
                    a = min(b, a + len(s.label))
                seg = text[a:b]
                a += len(seg) - len(seg.lstrip(" \t\u00a0-–—.:"))
                b = a + len(text[a:b].rstrip())
                if b > a:
                    body += b - a
                    covered += _covered(rev, rev_starts, a, b)
            revoked = revoked or (body > 0 and covered >= 0.9 * body)
        if notes and not has_notes:
            has_notes = any(_covered(notes, note_starts, a, b) for a, b in own)
        if revoked or has_notes or has_revoked:
            s = replace(s, revoked=revoked, has_notes=has_notes, has_revoked=has_revoked)
        out.append(s)
    return out


def segment_text(
    text: str,
    family: str | None = None,
    doc_id: str = "text",
    marks: Sequence[MarkSpan] = (),
    hints: Sequence[Hint] = (),
    meta: dict[str, Any] | None = None,
) -> SectionTree:
    """Segment ``text``; ``family`` (rfc, br, pt, es, latam, ch, generic) overrides detection.

    ``hints`` (from the reader's markup) confirm or place markers (:mod:`ipsis.sections.hints`);
    with BOE block hints, ``meta["versions"]`` gives sections their dated ``versions``.
    """
    fam = family or family_from_hints(hints) or families.detect(text)
    if fam not in families.FAMILIES:
        msg = f"unknown section family {fam!r}; use one of {', '.join(families.FAMILIES)}"
        raise ValueError(msg)
    cands = families.candidates(text, fam)
    if family is None and not hints:
        cands = mixed_families(text, fam, cands)
    cands = apply_hints(text, cands, hints, fam)
    cands = _drop_toc(text, cands)
    cands = drop_index(text, cands)
    cands = drop_quoted(text, cands)
    cands = unglue(cands)
    cands = norms(text, cands)
    cands = rank_containers(cands)
    cands = _mark_superseded(cands, marks)
    cands = _filter_sequenced(cands)
    cands = _drop_empty_containers(cands)
    sections, wordings = _build(text, cands)
    sections = close_at_notes(text, sections, sorted((m.start, m.end) for m in marks if m.kind == "furniture"))
    sections = close_enumerations(text, sections, sorted((h.start, h.end) for h in hints if h.kind == "paragraph"))
    sections = _flags(text, sections, marks, wordings)
    if meta:
        sections = attach_versions(sections, hints, meta)
    return SectionTree(doc_id, sections, len(text), fam)

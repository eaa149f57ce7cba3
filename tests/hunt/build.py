"""Cases built from the passages (the edit families and the structural ones: glued sentences,
other and sibling sections, the caput, a cut token) and their outcomes."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import regex

from ipsis.document import Document
from ipsis.sections import segment
from ipsis.verify import locate
from ipsis.verify.prepare import prepare_stages
from tests.hunt.core import DOCS, HELD_OUT, MISS, Case, Outcome, _flat, _flat_text, _load, passages
from tests.hunt.families import FAMILIES
from tests.hunt.moves import MOVES, structural
from tests.hunt.third import THIRD, third_structural


def _real(doc: Document, quote: str) -> bool:
    """``quote`` is text of the document as written (a variant that is no near miss), or so is
    one of the readings quote preparation searches (``...`` at an end, wrapping quote marks)."""
    flat = _flat_text(doc)
    return any(_flat(q).strip("“”«»") in flat for q in (quote, *(s for s, _ in prepare_stages(quote))))


def _glued(doc: Document, spans: list[tuple[int, int]]) -> Iterator[Case]:
    """Two sentences glued over the one between them (same document, in order)."""
    text = doc.text
    ends = sorted(spans)
    for (a, b), (c, d) in itertools.pairwise(ends):
        between = text[b:c]
        if 20 <= len(between.strip()) <= 600:
            yield Case("glued", MISS, "", doc, (a, d), text[a:b] + " " + text[c:d])


def _other_section(doc: Document, lang: str, spans: list[tuple[int, int]], rng: random.Random) -> Iterator[Case]:
    """The passage cited to another top-level section (article, RFC section) of the document."""
    tree = doc.sections if doc.sections is not None else segment(doc)
    tops = [s for s in tree if s.parent is None and s.label]
    if len(tops) < 3:
        return
    for s, e in spans:
        own = tree.innermost_at(s)
        while own is not None and own.parent is not None:
            own = tree.get(own.parent)
        if own is None:
            continue
        other = rng.choice([t for t in tops if t.id != own.id])
        if not (other.start <= s < other.end):
            yield Case("other_section", MISS, lang, doc, (s, e), doc.text[s:e], section=other.label)


def _cut_token(doc: Document, lang: str) -> Iterator[Case]:
    """A quote that ends or starts inside a token glued by a hyphen or a dot (``art. 55`` of
    ``art. 55-A``, ``Section 7.`` of ``Section 7.2``, ``A desta Lei`` of ``55-A desta Lei``)."""
    text = doc.text
    for m in regex.finditer(r"\d+[ºª]?(?P<cut>-)\p{Lu}\b|\d(?P<cut>\.)\d|\p{L}{3}(?P<cut>-)\p{L}{3}", text):
        cut = m.start("cut")
        s = text.rfind(" ", 0, max(0, cut - 50)) + 1
        end = cut + (1 if text[cut] == "." else 0)
        after = text.find(" ", cut + 60)
        for a, b in ((s, end), (cut + 1, after if after > 0 else cut + 60)):
            q = text[a:b]
            if len(q.strip()) >= 30 and "\n\n" not in q and "\f" not in q:
                yield Case("cut_token", MISS, lang, doc, (a, b), q)


def _sibling_section(doc: Document, lang: str, spans: list[tuple[int, int]]) -> Iterator[Case]:
    """The passage cited to a sibling of its own section (``§ 2º`` for ``§ 1º``, ``III`` for
    ``II``), by id and in the form people write (labels of the path joined by commas)."""
    tree = doc.sections if doc.sections is not None else segment(doc)
    for s, e in spans:
        own = tree.innermost_at(s)
        if own is None or own.parent is None:
            continue
        parent = tree.get(own.parent)
        sibs = [tree.get(c) for c in parent.children if c != own.id] if parent else []
        sibs = [x for x in sibs if x is not None and not (x.start <= s < x.end) and x.kind == own.kind]
        if not sibs:
            continue
        sib = sibs[min(len(sibs) - 1, parent.children.index(own.id) if parent else 0)]
        path, at = [], sib
        while at is not None and not (path and regex.match(r"(?:sec|app)-", sib.id)):  # 4.1.2 names its path
            path.append(at.label)
            at = tree.get(at.parent) if at.parent else None
        for ref in (sib.id, ", ".join(reversed(path))):
            yield Case("sibling_section", MISS, lang, doc, (s, e), doc.text[s:e], section=ref)


def _caput(doc: Document, lang: str, spans: list[tuple[int, int]]) -> Iterator[Case]:
    """A passage of an article's paragraph (``§ 3º``) cited to the article's caput."""
    tree = doc.sections if doc.sections is not None else segment(doc)
    for s, e in spans:
        sec = tree.innermost_at(s)
        while sec is not None and sec.kind != "paragrafo" and sec.parent:
            sec = tree.get(sec.parent)
        art = tree.get(sec.parent) if sec is not None and sec.kind == "paragrafo" and sec.parent else None
        if art is not None and art.kind == "artigo":
            yield Case("caput", MISS, lang, doc, (s, e), doc.text[s:e], section=f"{art.label}, caput")


def build(per_family: int, held_out: bool = False, seed: int = 5, docs: tuple[tuple[str, str], ...] = ()) -> list[Case]:
    """Up to ``per_family`` cases of each family per document (``docs``, else :data:`DOCS` or
    :data:`HELD_OUT`)."""
    rng = random.Random(seed)
    cases: list[Case] = []
    for lang, rel in docs or (HELD_OUT if held_out else DOCS):
        doc = _load(rel)
        spans = passages(doc, per_family, rng)
        own = random.Random(f"{seed}:{rel}")  # the third hunt's draws leave the others' sample as it was
        for name, (expect, family) in {**FAMILIES, **MOVES, **THIRD}.items():
            draw = own if name in THIRD else rng
            made = 0
            for s, e in spans:
                if made >= per_family:
                    break
                p = doc.text[s:e]
                variants = [v for v in family(p, lang, draw, doc) if v != p]
                if expect == MISS:
                    variants = [v for v in variants if not _real(doc, v)]
                if variants:
                    cases.append(Case(name, expect, lang, doc, (s, e), draw.choice(variants)))
                    made += 1
        glued = list(_glued(doc, spans))
        cases += [Case(c.family, c.expect, lang, doc, c.span, c.quote) for c in glued[:per_family]]
        cases += list(_other_section(doc, lang, spans, rng))[:per_family]
        cases += list(_sibling_section(doc, lang, spans))[: 2 * per_family]
        cases += list(_caput(doc, lang, spans))[:per_family]
        cut = list(_cut_token(doc, lang))
        rng.shuffle(cut)
        cases += cut[:per_family]
        cases += structural(doc, lang, spans, rng, per_family)
        cases += third_structural(doc, lang, spans, own, per_family)
    return cases


def run(cases: list[Case]) -> list[Outcome]:
    out = []
    for c in cases:
        kw = {"policy": c.policy} if c.policy is not None else {}
        out.append(Outcome(c, locate(c.doc, c.quote, section=c.section, prefix=c.prefix, suffix=c.suffix, **kw)))
    return out

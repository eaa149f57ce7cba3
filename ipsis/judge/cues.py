"""The built-in deterministic judge: cues compared between a claim and the passage it cites.

Cues, each turned into evidence a person can read:

- numbers, dates, periods and units (:mod:`ipsis.judge.numbers`): ``claim: 48 horas; section: 72 horas``;
- negation polarity around the same words: ``claim: não aliena; section: aliena (no negation)``;
- deontic modality (RFC 2119 MUST/MUST NOT/SHALL/SHOULD/MAY/REQUIRED/OPTIONAL; pt deverá/poderá/é
  vedado/é permitido/é obrigatório/é facultado; es deberá/podrá/queda prohibido/es obligatorio);
- limiter clauses (salvo, exceto, desde que, unless, except ...) in the passage but not in the claim;
- lexical overlap of content words (pt/es/en stopwords, accents kept) and names the passage lacks.

>>> a = CueJudge().answer("A detenção é apreciada por um juiz em 48 horas.",
...     "A detenção será submetida, no prazo máximo de quarenta e oito horas, a apreciação judicial.")
>>> a.answer
'supports'
>>> b = CueJudge().answer("A detenção é apreciada por um juiz em 72 horas.",
...     "A detenção será submetida, no prazo máximo de quarenta e oito horas, a apreciação judicial.")
>>> b.answer, b.evidence[0]
('contradicts', 'number: claim: 72 horas; section: quarenta e oito horas')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ipsis.judge.numbers import Quantity, comparable, quantities, same_quantity
from ipsis.judge.slots import slot_cues
from ipsis.judge.structure import bound_cues, bound_pairs, structure_cues
from ipsis.judge.support import Answer
from ipsis.judge.text import Token, fold, guess_language, is_content, sentences, stem, tokens
from ipsis.lexicon import (
    CHAIN,
    COMPEL,
    DEONTIC,
    DISCOURAGED,
    NEGATORS,
    OBLIGATION,
    PERMISSION,
    PROHIBITION,
    RECOMMENDATION,
    RESTRICTORS,
    words,
)
from ipsis.lexicon import LIMITERS as LEXICON_LIMITERS

ALL_NEGATORS = NEGATORS["pt"] | NEGATORS["es"] | NEGATORS["en"]
CANNOT_BE = re.compile(r"(?:in|im|ir|i)([a-zà-ú]{4,}?)(?:ível|ável|íveis|áveis|ible|able|ibles|ables)$")
"""A negative-prefixed adjective of possibility (``insusceptível``, ``inalienable``, ``irrevocable``): the
passage says the thing cannot be done, as a prohibition anchored to the words after it and to its root."""
NP_GLUE = words("o e y ou or and de do da dos das del of")
"""Words inside a noun phrase between a negative determiner and its verb (``nenhuma forma de censura pode``)."""
NEGATIVE_DETERMINERS = words("nenhum nenhuma nenhuns nenhumas ningún ninguna ninguno no neither")
"""Negators that open a noun phrase and negate the verb after it (``ninguna entrada ... podrá``)."""
CONTINUING = words("nem ni nor")
"""Negators that continue an earlier negation of the same sentence rather than add one."""
NEGATING_VERBS = words("deixar deixa deixe deixam deixem deixarem deixou dejar deja deje dejan dejen fail fails failed")
"""Verbs that negate the verb after ``de``/``to``: ``deixar de adotar`` = ``não adotar``."""
NOT_NEGATION: tuple[tuple[str, ...], ...] = (
    ("não", "só"),
    ("não", "obstante"),
    ("no", "obstante"),
    ("no", "sólo"),
    ("no", "solo"),
    ("not", "only"),
    ("no", "more", "than"),
    ("no", "later", "than"),
    ("a", "não", "ser"),
    ("a", "no", "ser"),
    ("whether", "or", "not"),
    ("quer", "ou", "não"),
)
"""Fixed expressions whose negator does not negate the predicate."""

MODALS: dict[tuple[str, ...], str] = {tuple(p.split()): cls for cls, ps in DEONTIC.items() for p in ps}
"""Modal phrases (token tuples, casefolded) and their deontic class."""
_MAX_MODAL = max(len(k) for k in MODALS)
NOT_OBLIGED = "negated obligation"
NEGATED_MODAL = {OBLIGATION: NOT_OBLIGED, PERMISSION: PROHIBITION, PROHIBITION: PERMISSION}
NEGATED_MODAL |= {RECOMMENDATION: DISCOURAGED}
NEGATIVE_MODALS = frozenset({PROHIBITION, NOT_OBLIGED, DISCOURAGED})
"""A negator right before a modal verb changes its class: ``não pode`` / ``no podrá`` is a
prohibition; ``não deve`` / ``ninguém deve`` is a negated obligation, kept apart because its force
differs by language (pt "must not", en "need not") and a swap between the two is a finding."""

LIMITERS: dict[str, tuple[str, ...]] = {lang: LEXICON_LIMITERS[lang] + RESTRICTORS[lang] for lang in LEXICON_LIMITERS}
"""Limiter clauses and restrictive adverbs (:mod:`ipsis.lexicon`): a passage's limiter the claim drops is a cue."""
_LIMITER_TUPLES = sorted({tuple(p.split()) for ps in LIMITERS.values() for p in ps}, key=len, reverse=True)

# How much each cue lowers the support score (multiplied in).
NUMBER_CONFLICT, NUMBER_ABSENT = 0.08, 0.45
NEGATION_CONFLICT, MODALITY_CONFLICT, MODALITY_ABSENT, MODALITY_UNSTATED = 0.1, 0.1, 0.6, 0.9
LIMITER_DROPPED, ENTITY_ABSENT = 0.45, 0.6
MIN_COVERAGE = 0.35
"""Below this share of the claim's content words in the passage, the passage says nothing on it."""
FOCUS_COVERAGE = 0.8
"""Share of the claim's content words the quote's own sentences must hold to be read alone."""
MIN_SLOT = 2
"""Words around a number that must agree before two numbers are taken to fill the same slot."""
ANCHOR_SPAN = 4
"""Content words on each side of a modal or after a negator that tie it to a predicate."""


@dataclass(frozen=True, slots=True)
class Site:
    """A negation, modal or limiter at token ``i``..``j``; ``anchors`` are nearby content stems."""

    kind: str
    i: int
    j: int
    surface: str
    anchors: tuple[str, ...]
    cls: str = ""


def _plain(low: str) -> bool:
    return is_content(low) and low not in ALL_NEGATORS and (low,) not in MODALS


class Analysis:
    """A text's tokens, stems and cue sites, computed once."""

    def __init__(self, text: str, lang: str | None = None) -> None:
        self.text = text
        self.lang = lang or guess_language(text)
        self.toks: list[Token] = tokens(text)
        self.low = [t.low for t in self.toks]
        self.sent = self._sentence_ids()
        self.consumed: set[int] = set()
        self.modals = self._modals()
        self.limiters = self._limiters()
        self.negations = self._negations()
        skip = self.consumed | {k for s in self.negations for k in range(s.i, s.j)}
        self.stems = [stem(w) if is_content(w) and k not in skip else "" for k, w in enumerate(self.low)]
        self.stem_set = {s for s in self.stems if s}
        self.quantities: list[Quantity] = quantities(text)

    def _match(self, k: int, phrases: list[tuple[str, ...]] | dict[tuple[str, ...], str]) -> tuple[str, ...] | None:
        for n in range(min(_MAX_MODAL, len(self.low) - k), 0, -1):
            cand = tuple(self.low[k : k + n])
            if cand in phrases:
                return cand
        return None

    def _sentence_ids(self) -> list[int]:
        out, sid, prev_end = [], 0, 0
        for t in self.toks:
            gap = self.text[prev_end : t.start]
            if re.search(r"[.;:!?]\s|\n\s*\n", gap):
                sid += 1
            out.append(sid)
            prev_end = t.end
        return out

    def _span(self, i: int, j: int) -> str:
        return self.text[self.toks[i].start : self.toks[j - 1].end]

    def _anchors(self, i: int, j: int, before: bool = True) -> tuple[str, ...]:
        sid = self.sent[i]
        ahead = range(j, min(len(self.low), j + 3 * ANCHOR_SPAN))
        after = [stem(self.low[k]) for k in ahead if self.sent[k] == sid and _plain(self.low[k])]
        out = after[:ANCHOR_SPAN]
        if before:
            behind = range(max(0, i - 3 * ANCHOR_SPAN), i)
            prev = [stem(self.low[k]) for k in behind if self.sent[k] == sid and _plain(self.low[k])]
            out = out + prev[-ANCHOR_SPAN:]
        return tuple(out)

    def _modals(self) -> list[Site]:
        out: list[Site] = []
        k = 0
        negators = NEGATORS.get(self.lang, frozenset()) | NEGATORS["en"]
        while k < len(self.low):
            phrase = self._match(k, MODALS)
            if phrase is None:
                k += 1
                continue
            cls, i, j = MODALS[phrase], k, k + len(phrase)
            if self.lang == "en" and phrase == ("may",) and self.toks[k].text == "May" and k > 0:
                k = j
                continue
            neg = self._negator_before(i, negators)
            if neg is not None and NEGATED_MODAL.get(cls):
                cls = NEGATED_MODAL[cls]
                self.consumed.add(neg)  # the words between stay content ("nenhuma forma de censura pode")
                i = neg if neg == i - 1 else i
            self.consumed.update(range(i, j))
            out.append(Site("modal", i, j, self._span(i, j), self._anchors(i, j), cls))
            k = j
        for k, w in enumerate(self.low):  # "insusceptível de transmissão": it cannot be transmitted
            m = CANNOT_BE.match(w)
            if m is None or k in self.consumed:
                continue
            anchors = (*self._anchors(k, k + 1, before=False)[:2], stem(m.group(1)))
            out.append(Site("modal", k, k + 1, self._span(k, k + 1), anchors, PROHIBITION))
        out.sort(key=lambda site: site.i)
        return out

    def _negator_before(self, i: int, negators: frozenset[str]) -> int | None:
        """The negator that reaches the modal at token ``i`` through at most three auxiliaries,
        clitics or modal verbs of the same clause (``ninguém nela podendo``, ``no pudiendo ser
        obligada``), or None."""
        k, nouns = i - 1, 0
        while k >= 0 and i - k <= 6 and self.sent[k] == self.sent[i]:
            between = self.text[self.toks[k].end : self.toks[k + 1].start]
            if any(c in between for c in ",;:"):
                return None
            w = self.low[k]
            if w in negators:
                # past a noun phrase only a negative determiner reaches: "ninguna entrada o
                # registro podrá" is a prohibition, "não o juiz ... pode" is not
                return k if not nouns or w in NEGATIVE_DETERMINERS else None
            if w not in CHAIN and (w,) not in MODALS:
                if not is_content(w) and w not in NP_GLUE:
                    return None
                nouns += 1
                if nouns > 3:
                    return None
            k -= 1
        return None

    def _limiters(self) -> list[Site]:
        out: list[Site] = []
        for k in range(len(self.low)):
            for phrase in _LIMITER_TUPLES:
                if tuple(self.low[k : k + len(phrase)]) == phrase and not self.consumed & set(range(k, k + 1)):
                    end = self.toks[k].start
                    rest = self.text[end:]
                    stop = min((p for p in (rest.find(c) for c in ",;.") if p > 0), default=len(rest))
                    clause = tokens(rest[:stop])
                    clause_stems = tuple(stem(t.low) for t in clause if is_content(t.low))
                    prev = [stem(w) for w in self.low[max(0, k - 12) : k] if is_content(w)][-ANCHOR_SPAN:]
                    site = Site("limiter", k, k + len(phrase), rest[:stop].strip(), tuple(prev), " ".join(clause_stems))
                    out.append(site)
                    self.consumed.update(range(k, k + len(phrase)))
                    break
        return out

    def _negations(self) -> list[Site]:
        out: list[Site] = []
        negators = NEGATORS[self.lang]
        for k, w in enumerate(self.low):
            if w not in negators or k in self.consumed:
                continue
            if any(tuple(self.low[k - off : k - off + len(e)]) == e for e in NOT_NEGATION for off in (0, 1, 2)):
                continue
            t = self.toks[k]
            if self.text[t.start - 1 : t.start] == "-" or self.text[t.end : t.end + 1] == "-":
                continue  # a part of a name ("If-None-Match"), not a negation
            if w in CONTINUING and any(s.i < k and self.sent[s.i] == self.sent[k] for s in out):
                continue  # "ninguém será preso nem mantido": one negation over both verbs
            out.append(Site("negation", k, k + 1, self._span(k, k + 1), self._anchors(k, k + 1, before=False)[:2]))
        for k, w in enumerate(self.low[:-1]):  # "ao deixar de adotar" = "não adotar"
            if w in NEGATING_VERBS and self.low[k + 1] in ("de", "to") and k not in self.consumed:
                out.append(Site("negation", k, k + 2, self._span(k, k + 2), self._anchors(k, k + 2, before=False)[:2]))
        out.sort(key=lambda site: site.i)
        return out

    def negated_near(self, anchors: tuple[str, ...], after: int = 0) -> bool | None:
        """None if the anchored words are absent; else whether some occurrence is negated
        (a negator up to 5 tokens before it, or up to ``after`` tokens after it).

        An occurrence of ``anchors[0]`` followed within 4 words by ``anchors[1]`` is preferred, so
        that a repeated verb (``tiver ... pronunciado`` / ``tiver votado``) is told apart.
        """
        first = [k for k, s in enumerate(self.stems) if s == anchors[0]]
        hits = [k for k in first if len(anchors) > 1 and anchors[1] in self.stems[k + 1 : k + 5]] or first
        if not hits:
            return None
        neg_pos = {s.i for s in self.negations} | {s.i for s in self.modals if s.cls in NEGATIVE_MODALS}
        return any(any(h - 5 <= p < h or h < p <= h + after for p in neg_pos) for h in hits)


def coverage(claim: Analysis, passage: Analysis) -> float:
    """Share of the claim's content words (names count twice) that the passage has."""
    total = found = 0.0
    for k, s in enumerate(claim.stems):
        if not s:
            continue
        tok = claim.toks[k].text
        weight = 2.0 if tok[:1].isupper() and k > 0 and not tok.isupper() else 1.0
        total += weight
        found += weight if s in passage.stem_set else 0.0
    return found / total if total else 0.0


def _aligned(claim: Analysis, passage: Analysis) -> set[int]:
    """Token indices of the passage sentences closest to the claim."""
    scored = []
    for s, e in sentences(passage.text):
        idx = [k for k, t in enumerate(passage.toks) if s <= t.start < e]
        stems = {passage.stems[k] for k in idx if passage.stems[k]}
        score = len(stems & claim.stem_set) / max(1, len(claim.stem_set))
        scored.append((score, idx))
    if not scored:
        return set()
    best = max(sc for sc, _ in scored)
    return {k for sc, idx in scored if sc >= max(0.2, 0.6 * best) for k in idx}


def _context(a: Analysis, q: Quantity) -> tuple[list[str], list[str]]:
    """Up to 5 words before (nearest first) and after a quantity, casefolded."""
    before = [t.low for t in a.toks if t.end <= q.start][-5:][::-1]
    after = [t.low for t in a.toks if t.start >= q.end][:5]
    return before, after


def _run(x: list[str], y: list[str]) -> int:
    n = 0
    for u, v in zip(x, y, strict=False):
        if u != v and stem(u) != stem(v):
            break
        n += 1
    return n


def _slot_match(x: tuple[list[str], list[str]], y: tuple[list[str], list[str]]) -> int:
    """How many words around two quantities agree, outward from each (their shared slot)."""
    return _run(x[0], y[0]) + _run(x[1], y[1])


def number_cues(claim: Analysis, passage: Analysis) -> list[tuple[str, float, bool]]:
    """Each claim number must be in the passage; the one in the same slot must be equal."""
    out: list[tuple[str, float, bool]] = []
    slots = [(_context(passage, p), p) for p in passage.quantities]
    for q in claim.quantities:
        qs = _context(claim, q)
        scored = [(_slot_match(qs, ps), p) for ps, p in slots]
        best = max((sc for sc, _ in scored), default=0)
        if best >= MIN_SLOT:
            peers = [p for sc, p in scored if sc == best]
            if any(same_quantity(q, p) for p in peers):
                continue
            rivals = [p for p in peers if comparable(q, p) or (q.unit is None and p.unit is None)]
        else:
            if any(same_quantity(q, p) for p in passage.quantities):
                continue
            rivals = [p for p in passage.quantities if comparable(q, p)]
        if rivals:
            shown = "; ".join(dict.fromkeys(p.surface for p in rivals[:3]))
            out.append((f"number: claim: {q.surface}; section: {shown}", NUMBER_CONFLICT, True))
        else:
            out.append((f"number: claim: {q.surface}; section: no such number", NUMBER_ABSENT, False))
    return out


def negation_cues(claim: Analysis, passage: Analysis, aligned: set[int]) -> list[tuple[str, float, bool]]:
    out: list[tuple[str, float, bool]] = []
    for site in claim.negations:
        if not site.anchors or passage.negated_near(site.anchors) is not False:
            continue
        word = passage.toks[passage.stems.index(site.anchors[0])].text
        out.append((f"negation: claim: {site.surface} {word}; section: {word} (no negation)", NEGATION_CONFLICT, True))
    for site in passage.negations:
        # "nenhuma pena passará" negates the verb after its noun: "a pena não pode passar" says it
        after = 3 if site.surface.casefold() in NEGATIVE_DETERMINERS else 0
        if site.i not in aligned or not site.anchors or claim.negated_near(site.anchors, after) is not False:
            continue
        word = claim.toks[claim.stems.index(site.anchors[0])].text
        out.append((f"negation: section: {site.surface} {word}; claim: {word} (no negation)", NEGATION_CONFLICT, True))
    return out


_COMPEL_STEMS = frozenset(stem(w) for w in COMPEL)


def _force(site: Site) -> str:
    """The deontic class, with a prohibition to compel read as a negated obligation
    (``ninguém poderá ser compelido a`` = ``ninguém é obrigado a``)."""
    if site.anchors[:1] and site.anchors[0] in _COMPEL_STEMS:
        # "não pode ser obrigado" = "não é obrigado"; "não deve ser obrigado" is a third thing
        return NOT_OBLIGED if site.cls == PROHIBITION else f"{site.cls} to compel"
    return site.cls


_RESTRICTOR_WORDS = frozenset(w for ps in RESTRICTORS.values() for p in ps for w in p.split())


def _only_if(a: Analysis, site: Site) -> bool:
    """A permission restricted in its sentence (``Solo por causa justificada ... puede``) or a
    prohibition with an exception after it (``Nadie podrá ... sino por causa justificada``):
    both say the act is allowed in the named cases only."""
    same = [k for k in range(len(a.low)) if a.sent[k] == a.sent[site.i]]
    restricted = any(a.low[k] in _RESTRICTOR_WORDS for k in same if k < site.i)
    if site.cls == PERMISSION:
        return restricted
    if site.cls == PROHIBITION:  # "só não poderá ... se" is another rule
        return not restricted and any(lim.i > site.i and a.sent[lim.i] == a.sent[site.i] for lim in a.limiters)
    return False


def _agree(p: Site, site: Site, passage: Analysis | None = None, claim: Analysis | None = None) -> bool:
    if _force(p) == _force(site):
        return True
    if passage is None or claim is None or {p.cls, site.cls} != {PERMISSION, PROHIBITION}:
        return False
    return _only_if(passage, p) and _only_if(claim, site)


def modality_cues(claim: Analysis, passage: Analysis) -> list[tuple[str, float, bool]]:
    out: list[tuple[str, float, bool]] = []
    for site in claim.modals:
        anchors = set(site.anchors)
        scored = [(len(anchors & set(p.anchors)), p) for p in passage.modals]
        scored = [(n, p) for n, p in scored if n]
        if not scored:
            if not any(_agree(p, site, passage, claim) for p in passage.modals):
                # a section that states the rule without a modal verb ("ninguém será preso senão
                # ...", "não superior a") is weaker evidence against a claim's modal than a
                # section whose modal verbs say something else
                factor = MODALITY_ABSENT if passage.modals else MODALITY_UNSTATED
                out.append((f"modality: claim: {site.surface}; section: no such modal", factor, False))
            continue
        best = max(n for n, _ in scored)
        top = [p for n, p in scored if n == best]
        if any(_agree(p, site, passage, claim) for p in top):
            continue
        shown = top[0].surface
        text = f"modality: claim: {site.surface} ({site.cls}); section: {shown} ({top[0].cls})"
        out.append((text, MODALITY_CONFLICT, True))
    return out


def limiter_cues(claim: Analysis, passage: Analysis, aligned: set[int]) -> list[tuple[str, float, bool]]:
    out: list[tuple[str, float, bool]] = []
    claim_limiters = {fold(claim._span(s.i, s.j).casefold()) for s in claim.limiters}
    for site in passage.limiters:
        if site.i not in aligned:
            continue
        marker = fold(passage._span(site.i, site.j).casefold())
        clause = [s for s in site.cls.split() if s]
        covered = sum(a in claim.stem_set for a in site.anchors) >= min(2, len(site.anchors))
        if not covered or marker in claim_limiters:
            continue
        if clause and sum(s in claim.stem_set for s in clause) >= len(clause) / 2:
            continue
        out.append((f"limiter: section: {site.surface}; claim: (absent)", LIMITER_DROPPED, False))
    return out


def entity_cues(claim: Analysis, passage: Analysis) -> list[tuple[str, float, bool]]:
    out: list[tuple[str, float, bool]] = []
    first = {claim.toks[0].start} if claim.toks else set()
    for k, t in enumerate(claim.toks):
        s = claim.stems[k]
        if s and t.text[:1].isupper() and not t.text.isupper() and t.start not in first and s not in passage.stem_set:
            if k > 0 and claim.text[claim.toks[k - 1].end : t.start].strip() in (".", ":", ";"):
                continue
            out.append((f"name: claim: {t.text}; section: absent", ENTITY_ABSENT, False))
    return out[:2]


class CueJudge:
    """Deterministic, offline judge; ``answer(claim, passage)`` with readable evidence."""

    name = "cues"

    def answer(self, claim: str, passage: str, focus: tuple[int, int] | None = None) -> Answer:
        """``focus``: the located quote's span in ``passage``. Its sentences are read first: when
        they hold the claim's content words, numbers, negation, modality and names are compared
        with them alone, and the rest of the passage lends its limiter clauses, plus the numbers
        and modal verbs the quote's sentences do not have (a quote restated as the claim is not
        contradicted by another sentence of its section; "jti is REQUIRED" still meets the
        section's OPTIONAL when the quoted sentence has no modal verb)."""
        p = Analysis(passage)
        c = Analysis(claim, guess_language(f"{claim} {passage[:2000]}"))
        core = near = p
        if focus is not None:
            lo, hi = _sentence_bounds(passage, *focus)
            near = Analysis(passage[lo:hi], p.lang)
            if coverage(c, near) >= FOCUS_COVERAGE:
                core = near
        cov = coverage(c, core)
        aligned = _aligned(c, p)
        stated = number_cues(c, core) + modality_cues(c, core)
        if core is not p and any(not hard for _, _, hard in stated):
            stated = number_cues(c, p) + modality_cues(c, p)  # what the quote does not say, its section may
        cues = stated + negation_cues(c, core, _aligned(c, core))
        cues += limiter_cues(c, p, aligned) + entity_cues(c, core)
        cues += bound_cues(c, core, bound_pairs(c, core)) + structure_cues(c, p, core, aligned)
        if near is not core and not any(text.startswith("words:") for text, _, _ in cues):
            # a word the section uses elsewhere, put in a slot of the quote's own sentence
            # ("O ensino particular" for "O ensino público", in an article on "escolas particulares")
            cues += slot_cues(c, near)
        score = min(1.0, cov / 0.9)
        for _, factor, _hard in cues:
            score *= factor
        evidence = [text for text, _, _ in cues] + [f"overlap: {cov:.2f} of the claim's content words in the section"]
        hard = any(h for _, _, h in cues)
        if cov < MIN_COVERAGE:
            return Answer("says_nothing", round(0.95 - cov, 3), tuple(evidence), score)
        if hard:
            return Answer("contradicts", round(0.55 + 0.4 * cov, 3), tuple(evidence), score)
        return Answer("supports", round(score, 3), tuple(evidence), score)


def _sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentences of ``text`` that ``[start, end)`` touches, as one span."""
    spans = [(s, e) for s, e in sentences(text) if s < max(end, start + 1) and e > start]
    if not spans:
        return start, end
    return min(spans[0][0], start), max(spans[-1][1], end)

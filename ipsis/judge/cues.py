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

from dataclasses import dataclass
from typing import Any

from ipsis.judge.align import substitution_cues
from ipsis.judge.analysis import (
    ALL_NEGATORS,
    NEGATIVE_DETERMINERS,
    NEGATIVE_MODALS,
    Analysis,
    Site,
)
from ipsis.judge.bounds import bound_cues, bound_pairs
from ipsis.judge.modality import (
    NEGATION_CONFLICT,
    RESTRICTOR_FOLDED,
    RESTRICTOR_WORDS,
    modality_cues,
    other_than,
    prohibited_cues,
    states_exception,
)
from ipsis.judge.numbercues import number_cues, quote_number_cues
from ipsis.judge.restrict import dropped_cues, privative_cues, quantifier_cues, traded_cues, universal_cues
from ipsis.judge.scope import hedge_cues
from ipsis.judge.slots import slot_cues
from ipsis.judge.structure import structure_cues
from ipsis.judge.support import Answer
from ipsis.judge.text import fold, guess_language, sentences
from ipsis.lexicon import (
    NEGATIVE_PREFIXES,
    REQUIRING,
    SYNONYMS,
    words,
)

# How much each cue lowers the support score (multiplied in).
LIMITER_DROPPED, ENTITY_ABSENT = 0.45, 0.6
MIN_COVERAGE = 0.35
"""Below this share of the claim's content words in the passage, the passage says nothing on it."""
FOCUS_COVERAGE = 0.8
"""Share of the claim's content words the quote's own sentences must hold to be read alone."""


LIGHT = words("""caso casos hipótese forma modo maneira vez vezes tipo parte coisa fato torna tornar fica ficar
    vai ir passa passar faz fazer dá dar põe pôr chega chegar leva levar supuesto manera regla veces cosa hecho
    vuelve volver queda quedar va pasa hace hacer da pone poner llega llegar lleva llevar case cases way manner
    kind type thing fact becomes become gets get goes go makes make gives give puts put comes come takes take""")
"""Light verbs and generic nouns: a paraphrase adds them (``se torna evidente`` for ``ficar evidenciado``),
so a claim's light word the section lacks counts half in :func:`coverage`."""


def coverage(claim: Analysis, passage: Analysis) -> float:
    """Share of the claim's content words (names count twice) that the passage has, in one form
    or another (``naturalizar``/``naturalização``) or as a word of its synonym group."""
    total = found = 0.0
    folded = {fold(p)[:5] for p in passage.stem_set if len(p) >= 5}
    words_ = set(passage.low)
    for k, s in enumerate(claim.stems):
        if not s:
            continue
        tok = claim.toks[k].text
        weight = 2.0 if tok[:1].isupper() and k > 0 and not tok.isupper() else 1.0
        if s in passage.stem_set or (len(s) >= 5 and fold(s)[:5] in folded) or _has_synonym(claim.low[k], words_):
            found += weight
        elif claim.low[k] in LIGHT:
            weight = 0.5  # "o prazo só começa a correr quando o defeito se torna evidente": rewording
        total += weight
    return found / total if total else 0.0


def _has_synonym(w: str, words_: set[str]) -> bool:
    return any(w in g and g & words_ for g in SYNONYMS)


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


def _negative_twin(a: Analysis, site: Site, other: Analysis) -> bool:
    """A word the negation at ``site`` reaches whose negative-prefixed form ``other`` has (or the
    other way round): ``não ter recursos suficientes`` = ``insuficiência de recursos``, ``not case
    sensitive`` = ``case-insensitive``."""
    reach = [a.low[k] for k in range(site.j, min(len(a.low), site.j + 5)) if a.sent[k] == a.sent[site.i]]
    have = set(other.low)
    return any(_twin(w, o) for w in reach if len(w) >= 5 and w not in have for o in have if len(o) >= 5)


def _twin(x: str, y: str) -> bool:
    """One word is the other with a negative prefix, over all but its last three letters."""
    fx, fy = fold(x), fold(y)
    for a, b in ((fx, fy), (fy, fx)):
        for p in NEGATIVE_PREFIXES:
            if b.startswith(p) and b[len(p) :].startswith(a[: max(5, len(a) - 3)]):
                return True
    return False


def negation_cues(
    claim: Analysis, passage: Analysis, aligned: set[int], section: Analysis | None = None
) -> list[tuple[str, float, bool]]:
    """A negation in one text that the other does not make about the same words. ``section``:
    where the anchored words are not together in ``passage`` (the quote's sentences), the
    section's sentence that has them decides (``have neither a cache validator nor ...``);
    ``aligned``: the tokens of ``passage`` whose negations the claim must keep."""
    out: list[tuple[str, float, bool]] = []
    for site in claim.negations:
        if not site.anchors or passage.negated_near(site.anchors) is not False or _negative_twin(claim, site, passage):
            continue
        if (
            section is not None
            and not passage.has_pair(site.anchors)
            and section.has_pair(site.anchors)
            and section.negated_near(site.anchors) is not False
        ):
            continue
        word = passage.toks[passage.stems.index(site.anchors[0])].text
        out.append((f"negation: claim: {site.surface} {word}; section: {word} (no negation)", NEGATION_CONFLICT, True))
    for site in passage.negations:
        # "nenhuma pena passará" negates the verb after its noun: "a pena não pode passar" says it
        after = 3 if site.surface.casefold() in NEGATIVE_DETERMINERS else 0
        if site.i not in aligned or not site.anchors or claim.negated_near(site.anchors, after) is not False:
            continue
        if _negative_twin(passage, site, claim) or states_exception(claim, passage, site.i):
            continue
        if other_than(passage, site.i) and set(claim.low) & RESTRICTOR_WORDS:
            continue  # "ninguna finalidad distinta de la señalada" = "solo para la finalidad señalada"
        word = claim.toks[claim.stems.index(site.anchors[0])].text
        out.append((f"negation: section: {site.surface} {word}; claim: {word} (no negation)", NEGATION_CONFLICT, True))
    return out


DOUBLE_OPENERS = NEGATIVE_DETERMINERS | {"ninguém", "nadie", "nobody", "nada", "nothing", "nunca", "never"}


def _doubled(a: Analysis) -> list[int]:
    """Tokens of negations that a second negator before the same modal verb repeats (``Nenhuma
    causa não pode``, ``Nadie no puede``): the two cancel, or the text says something else."""
    def repeated(s: Site) -> bool:
        near = [m for m in a.modals if 0 < m.i - s.i <= 6 and a.sent[m.i] == a.sent[s.i]]
        return any(m.cls in NEGATIVE_MODALS and a.low[m.i] in ALL_NEGATORS for m in near)

    return [s.i for s in a.negations if a.low[s.i] in DOUBLE_OPENERS and repeated(s)]


def double_negation_cues(claim: Analysis, passage: Analysis) -> list[tuple[str, float, bool]]:
    """A negation doubled in the claim and not in the passage (see :func:`_doubled`)."""
    mine = _doubled(claim)
    if not mine or _doubled(passage):
        return []
    i = mine[0]
    said = claim._span(i, min(len(claim.toks), i + 4))
    return [(f"negation: claim: {said} (double negation); section: one negation", NEGATION_CONFLICT, True)]


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
        if clause and sum(s in claim.stem_set or _formed(s, claim) for s in clause) >= len(clause) / 2:
            continue  # the claim states the limiter's clause, in one form or another ("conservarlas" / "conservados")
        if marker in RESTRICTOR_FOLDED and set(claim.low) & REQUIRING:
            continue  # "só podem ser dissolvidas mediante decisão" = "dissolver exige decisão"
        out.append((f"limiter: section: {site.surface}; claim: (absent)", LIMITER_DROPPED, False))
    return out


def _formed(s: str, claim: Analysis) -> bool:
    """A claim stem of the same word as ``s`` (five letters in common at the start: ``conserv``)."""
    return len(s) >= 5 and any(len(c) >= 5 and fold(c)[:5] == fold(s)[:5] for c in claim.stem_set)


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


Cue = tuple[str, float, bool]
"""One cue: its evidence text, the factor the hand rules multiply the support score by, whether it is hard."""


@dataclass(frozen=True, slots=True)
class Reading:
    """What the cues found on one claim and passage: the analyses they compared, the claim's
    coverage by the text it was read against and every cue. :mod:`ipsis.judge.features` turns it
    into the fitted combination's feature vector; :attr:`rule_score` is the hand rules' score."""

    claim: Analysis
    passage: Analysis
    core: Analysis
    """The quote's own sentences when they hold the claim's content words, else the passage."""
    near: Analysis
    """The quote's own sentences (the passage when there is no quote)."""
    quote: Analysis | None
    coverage: float
    cues: tuple[Cue, ...]

    @property
    def hard(self) -> bool:
        return any(h for _, _, h in self.cues)

    @property
    def rule_score(self) -> float:
        """The hand rules' support score: coverage, times each cue's factor."""
        score = min(1.0, self.coverage / 0.9)
        for _, factor, _hard in self.cues:
            score *= factor
        return score


class CueJudge:
    """Deterministic, offline judge; ``answer(claim, passage)`` with readable evidence.

    ``model``: the fitted combination of the cues (:mod:`ipsis.judge.fitted`) that scores a claim
    anchored by a located quote; ``"default"`` loads the one shipped with the package when it is
    adopted, None keeps the hand rules' score (coverage times each cue's factor). A hard cue is
    decisive either way."""

    name = "cues"

    def __init__(self, model: Any = "default") -> None:
        if model == "default":
            from ipsis.judge.fitted import default_model

            model = default_model()
        self.model = model

    def read(self, claim: str, passage: str, focus: tuple[int, int] | None = None) -> Reading:
        """Every cue on ``claim`` against ``passage``. ``focus``: the located quote's span in
        ``passage``. Its sentences are read first: when they hold the claim's content words,
        numbers, negation, modality and names are compared with them alone, and the rest of the
        passage lends its limiter clauses, plus the numbers and modal verbs the quote's sentences
        do not have (a quote restated as the claim is not contradicted by another sentence of its
        section; "jti is REQUIRED" still meets the section's OPTIONAL when the quoted sentence has
        no modal verb)."""
        quote = None
        p = Analysis(passage)
        c = Analysis(claim, guess_language(f"{claim} {passage[:2000]}"))
        core = near = p
        lo, hi = 0, len(passage)
        if focus is not None:
            lo, hi = _sentence_bounds(passage, *focus)
            near = Analysis(passage[lo:hi], p.lang)
            if coverage(c, near) >= FOCUS_COVERAGE:
                core = near
        cov = coverage(c, core)
        aligned = _aligned(c, p)
        stated = number_cues(c, core) + modality_cues(c, core)
        if core is not p and (any(not hard for _, _, hard in stated) or (c.modals and not core.modals)):
            stated = number_cues(c, p) + modality_cues(c, p)  # what the quote does not say, its section may
        # the negations the claim must keep are the quote's own ("values that are not JWTs" in
        # another sentence of the section is not what a claim on the quote restates)
        kept = _aligned(c, core) if near is p else {k for k, t in enumerate(p.toks) if lo <= t.start < hi}
        cues = stated + negation_cues(c, core, kept if core is p else _aligned(c, core), p)
        cues += double_negation_cues(c, core)
        cues += limiter_cues(c, p, aligned) + entity_cues(c, core)
        cues += bound_cues(c, core, bound_pairs(c, core)) + structure_cues(c, p, core, aligned)
        if near is not core and not any(text.startswith("words:") for text, _, _ in cues):
            # a word the section uses elsewhere, put in a slot of the quote's own sentence
            # ("O ensino particular" for "O ensino público", in an article on "escolas particulares")
            cues += slot_cues(c, near)
        if not any(text.startswith("words:") for text, _, _ in cues):
            cues += substitution_cues(c, near, p)
        if focus is not None:  # the quote's own "preferencialmente", numbers, prohibitions
            quote = Analysis(passage[focus[0] : focus[1]], p.lang)
            cues += hedge_cues(c, quote)
            if not any(text.startswith("limiter:") for text, _, _ in cues):
                cues += universal_cues(c, quote) or (dropped_cues(c, quote) if core is near else [])
            cues += quantifier_cues(c, quote) + privative_cues(c, quote)
            if not any(hard for _, _, hard in cues):
                cues += traded_cues(c, quote)
            if not any(hard for _, _, hard in cues):
                cues += prohibited_cues(c, quote)
            if not any(text.startswith("number:") and hard for text, _, hard in cues):
                cues += quote_number_cues(c, quote)
        return Reading(c, p, core, near, quote, cov, tuple(cues))

    def answer(self, claim: str, passage: str, focus: tuple[int, int] | None = None) -> Answer:
        """The verdict on ``claim``: ``says_nothing`` below :data:`MIN_COVERAGE`, ``contradicts``
        on a hard cue (decisive whatever the score), else ``supports`` with the score as its
        confidence: the fitted combination's probability when a model is set and the claim is
        anchored by a located quote (``focus``: what it was fitted on), else the rules' score (a
        claim judged against a retrieved passage, without a quote)."""
        r = self.read(claim, passage, focus)
        evidence = [text for text, _, _ in r.cues]
        evidence.append(f"overlap: {r.coverage:.2f} of the claim's content words in the section")
        score = r.rule_score
        if self.model is not None and r.quote is not None:  # fitted on claims anchored by a located quote
            score, said = self.model.explain(r)
            evidence.append(said)
        if r.coverage < MIN_COVERAGE:
            return Answer("says_nothing", round(0.95 - r.coverage, 3), tuple(evidence), score)
        if r.hard:
            return Answer("contradicts", round(0.55 + 0.4 * r.coverage, 3), tuple(evidence), score)
        return Answer("supports", round(score, 3), tuple(evidence), score)


def _sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentences of ``text`` that ``[start, end)`` touches, as one span."""
    spans = [(s, e) for s, e in sentences(text) if s < max(end, start + 1) and e > start]
    if not spans:
        return start, end
    return min(spans[0][0], start), max(spans[-1][1], end)

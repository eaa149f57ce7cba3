"""Second stage for answers (``ipsis check --judge``): does the cited source say what the answer says?

Each citation's claim is the answer sentence that carries it (or the span the provider tied it
to: a Cohere/Gemini fragment, an ``afirmaciones`` claim), with the citation markers taken out.

- A citation whose quote was **located** is judged against the section around that quote.
- A **bare** citation (a ``[2]`` marker, a provider citation without cited text) gets a passage
  retrieved from each cited source (BM25, :func:`ipsis.judge.retrieve.retrieve`); the best
  scoring judgment is kept, with the passage's offsets, section and text.
- A quote that was not located never reaches a judge.

A verdict other than ``supported`` is a finding: ``claim_contradicted``, ``claim_unsupported``
(``no_support``) or ``claim_needs_review``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ipsis.answers.markers import BRACKET, FOOTNOTE_REF, LENTICULAR, LINK, PAREN_SOURCE, SUPERSCRIPT_REF
from ipsis.answers.model import Citation, Finding, FindingKind, ParsedAnswer
from ipsis.answers.sentences import split_sentences
from ipsis.answers.sources import Sources
from ipsis.answers.tags import paired
from ipsis.judge import Judge, judge_claim, judge_passage
from ipsis.judge.context import DEFAULT_WINDOW
from ipsis.judge.retrieve import retrieve
from ipsis.judge.support import CONTRADICTED, NEEDS_REVIEW, NO_SUPPORT, SUPPORTED, Support
from ipsis.judge.text import content_stems
from ipsis.spans import Span
from ipsis.verify.policy import Policy

if TYPE_CHECKING:
    from ipsis.answers.check import CheckedCitation

VERDICT_KIND: dict[str, FindingKind] = {
    CONTRADICTED: "claim_contradicted",
    NO_SUPPORT: "claim_unsupported",
    NEEDS_REVIEW: "claim_needs_review",
}
"""The finding each verdict other than ``supported`` gives."""

_DROP = (BRACKET, LENTICULAR, FOOTNOTE_REF, PAREN_SOURCE)
_LINK_ONLY = re.compile(rf"\([ \t]{{0,10}}{LINK.pattern}[ \t]{{0,10}}\)")
_SPACE_BEFORE = re.compile(r"(?<![ \t])[ \t]+(?=[.,;:!?)])")
"""A link alone in parentheses names the source (``([Remote Work Policy](https://...))``): dropped."""


@dataclass(frozen=True, slots=True)
class ClaimSupport:
    """The judgment of one citation's claim against one cited source."""

    citation_id: str
    claim: str
    claim_span: Span | None
    source: int
    support: Support
    retrieved: bool
    """True when the passage was retrieved for a bare citation (no quote)."""
    quote: str | None = None

    def to_json(self) -> dict[str, Any]:
        support = self.support.to_json()
        if self.support.passage is not None:
            support["passage"]["text"] = self.support.passage.text
            support["passage"]["retrieved"] = self.retrieved
        return {
            "citation_id": self.citation_id,
            "claim": self.claim,
            "claim_span": list(self.claim_span) if self.claim_span is not None else None,
            "source": self.source,
            "quote": self.quote,
            "support": support,
        }


def clean_claim(text: str) -> str:
    """The claim without citation markers (a link or ``<cite>`` keeps its text).

    >>> clean_claim("Receipts are required above €25 [1, 3].")
    'Receipts are required above €25.'
    >>> clean_claim("Work abroad needs HR approval ([Remote Work Policy](https://x.example/r)).¹")
    'Work abroad needs HR approval.'
    >>> clean_claim("See the [travel portal](https://x.example/t) for hotels [2].")
    'See the travel portal for hotels.'
    """
    text = _unwrap_cites(text)
    text = _LINK_ONLY.sub("", text)
    text = LINK.sub(lambda m: m.group(1), text)
    for pattern in _DROP:
        text = pattern.sub("", text)
    text = SUPERSCRIPT_REF.sub("", text)
    text = _SPACE_BEFORE.sub("", text)
    text = re.sub(r"\(\s*\)", "", text)
    return re.sub(r"\s+", " ", text).strip()


def _unwrap_cites(text: str) -> str:
    """``<cite …>claim</cite>`` -> ``claim``."""
    out: list[str] = []
    pos = 0
    for tag in paired(text, "cite"):
        out.append(text[pos : tag.start])
        out.append(text[tag.inner_start : tag.inner_end])
        pos = tag.end
    out.append(text[pos:])
    return "".join(out)


def claim_span(answer: ParsedAnswer, c: Citation, fixed: Span | None = None) -> Span | None:
    """The answer text the citation is meant to support (``fixed``: the checker's corrected span
    when the provider's answer offsets were wrong)."""
    text = answer.text
    anchor = c.answer_span or c.quote_span
    if c.claim_span is not None and c.claim_span.end > c.claim_span.start:
        span = c.claim_span
        if c.offsets is not None and c.offsets.where == "answer" and fixed is not None:
            span = anchor = fixed
        if content_stems(clean_claim(span.slice(text))):
            return span
        # the provider's span is only the marker (an OpenAI url_citation link): its sentence
    sents = [s for s in split_sentences(text) if not any(s.overlaps(x) for x in answer.exclude_spans)]
    if anchor is not None:
        for s in sents:
            if s.start <= anchor.start < s.end or (anchor.start == anchor.end == s.end):
                return s
        before = [s for s in sents if s.end <= anchor.start]
        return before[-1] if before else None
    if c.quote is None or not sents:  # answer-level citation without a quote: nothing to tie it to
        return None
    words = set(content_stems(c.quote))
    return max(sents, key=lambda s: (len(words & set(content_stems(s.slice(text)))), -s.start))


def _empty(judge: Judge, source: int) -> Support:
    msg = f"retrieval: no passage of source {source} shares a content word with the claim"
    return Support(NO_SUPPORT, 1.0, judge.name, (msg,), None, 0.0)


def _judge_bare(
    claim: str, numbers: Sequence[int], sources: Sources, judge: Judge, threshold: float
) -> tuple[int, Support]:
    best: tuple[int, Support] | None = None
    for n in numbers:
        src = sources.number(n)
        if src is None:
            continue
        found = retrieve(src.document, claim, k=1)
        support = judge_passage(claim, found[0].passage, judge, threshold) if found else _empty(judge, n)
        if best is None or support.score > best[1].score:
            best = (n, support)
    assert best is not None
    return best


def judge_citations(
    answer: ParsedAnswer,
    sources: Sources,
    checked: Sequence[CheckedCitation],
    policy: Policy,
    judge: Judge,
    window: int = DEFAULT_WINDOW,
) -> tuple[list[ClaimSupport], list[Finding]]:
    """Judge every located quote's claim and every bare citation's claim; findings for the rest."""
    out: list[ClaimSupport] = []
    findings: list[Finding] = []
    text = answer.text
    for ch in checked:
        c = ch.citation
        if not ch.numbers:
            continue
        span = claim_span(answer, c, ch.span)
        claim = clean_claim(span.slice(text)) if span is not None else ""
        if not claim:
            continue
        if c.quote is not None:
            res = ch.result
            if res is None or not res.located or not res.matches:
                continue
            n = int(res.extra["source"])
            src = sources.number(n)
            assert src is not None
            m = res.matches[0]
            support = judge_claim(claim, src.document, (m.start, m.end), policy, judge, window)
            res.extra["claim"] = claim
            res.extra["support"] = support.to_json()
        else:
            n, support = _judge_bare(claim, ch.numbers, sources, judge, policy.accept_threshold)
        cs = ClaimSupport(c.citation_id, claim, span, n, support, c.quote is None, c.quote)
        out.append(cs)
        if support.verdict != SUPPORTED:
            why = support.evidence[0] if support.evidence else ""
            how = "quote's section" if c.quote is not None else "retrieved passage"
            msg = f"source {n} ({how}): {support.verdict} ({support.confidence:.2f}){': ' + why if why else ''}"
            extra = (("verdict", support.verdict), ("confidence", round(support.confidence, 3)))
            findings.append(Finding(VERDICT_KIND[support.verdict], msg, span, n, c.quote, c.citation_id, extra))
    return out, findings

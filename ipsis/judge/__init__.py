"""Support judgment (second stage): does the passage around a located quote say what the claim says?

``judge_claim(claim, document, span, policy) -> Support`` reads the section (or a bounded window)
around ``span``, never the whole document, and answers ``supported``, ``contradicted``,
``no_support`` or ``needs_review`` with a confidence and the evidence. Judges: ``cues`` (built in,
deterministic, the default), ``llm`` (an OpenAI-compatible endpoint) and ``nli`` (a local model).
With ``llm`` or ``nli``, the deterministic cues run first: a hard conflict they find (a changed
number, a flipped negation or modality) is reported without asking the model.

>>> from ipsis.document import Document
>>> from ipsis.verify import Policy
>>> doc = Document("crp", "Artigo 28.º\\n\\n1. A detenção será submetida, no prazo máximo de quarenta e oito "
...     "horas, a apreciação judicial.")
>>> s = judge_claim("A detenção é submetida a apreciação judicial em 72 horas.", doc, (16, 40), Policy(judge="cues"))
>>> s.verdict, s.evidence[0]
('contradicted', 'number: claim: 72 horas; section: quarenta e oito horas')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from ipsis.document import Document
from ipsis.errors import InputError
from ipsis.judge.context import DEFAULT_WINDOW, passage_around
from ipsis.judge.support import (
    ANSWERS,
    CONTRADICTED,
    NEEDS_REVIEW,
    NO_SUPPORT,
    SUPPORTED,
    VERDICTS,
    Answer,
    JudgeError,
    JudgeReplyError,
    JudgeUnavailableError,
    MissingExtraError,
    Passage,
    Support,
    verdict_for,
)
from ipsis.lazy import lazy_exports
from ipsis.spans import Span
from ipsis.verify.policy import Policy

__getattr__ = lazy_exports(__name__, {"CueJudge": "ipsis.judge.cues"})
"""The cue judge (its lexicons and rules) loads on first use: ``ipsis verify`` without ``--judge``
reads none of it."""

JUDGES: tuple[str, ...] = ("cues", "llm", "nli")


class Judge(Protocol):
    """Anything with a ``name`` that answers a claim against a passage."""

    name: str

    def answer(self, claim: str, passage: str) -> Answer: ...


def make_judge(name: str, **options: Any) -> Judge:
    """A judge by name: ``cues``; ``llm`` (url, model, key_env, timeout, retries); ``nli`` (model_path)."""
    if name == "cues":
        from ipsis.judge.cues import CueJudge

        return CueJudge()
    if name == "llm":
        from ipsis.judge.llm import LlmJudge

        return LlmJudge(**options)
    if name == "nli":
        from ipsis.judge.nli import NliJudge

        return NliJudge(**options)
    msg = f"unknown judge {name!r}; choose one of {', '.join(JUDGES)}"
    raise InputError(msg)


def judge_passage(claim: str, passage: Passage, judge: Judge, threshold: float) -> Support:
    """Judge ``claim`` against an already chosen passage (cues first, then ``judge``)."""
    from ipsis.judge.cues import CueJudge

    cues = judge if isinstance(judge, CueJudge) else CueJudge()
    cue = cues.answer(claim, passage.text, focus=passage.focus)
    if judge.name != "cues" and cue.answer != "contradicts":
        model = judge.answer(claim, passage.text)
        evidence = model.evidence + tuple(f"cue {e}" for e in cue.evidence)
        ans = Answer(model.answer, model.confidence, evidence, model.score)
        name = judge.name
    else:
        ans, name = cue, ("cues" if judge.name == "cues" else f"{judge.name} (cues first)")
    score = ans.score if ans.score is not None else (ans.confidence if ans.answer == "supports" else 0.0)
    verdict = verdict_for(ans.answer, ans.confidence, threshold)
    return Support(verdict, ans.confidence, name, ans.evidence, passage, score)


def judge_claim(
    claim: str,
    document: Document,
    span: Span | Sequence[int],
    policy: Policy,
    judge: Judge | None = None,
    window: int = DEFAULT_WINDOW,
) -> Support:
    """Judge ``claim`` against the section around ``span`` (a located quote) of ``document``.

    ``judge`` defaults to the one ``policy.judge`` names (``cues`` when unset); the verdict uses
    ``policy.accept_threshold``.
    """
    if not isinstance(claim, str) or not claim.strip():
        msg = "the claim is empty; give the sentence the citation is meant to support"
        raise InputError(msg)
    start, end = int(span[0]), int(span[1])
    if not 0 <= start <= end <= len(document.text):
        msg = f"span [{start}, {end}) is outside the document {document.id!r} ({len(document.text)} characters)"
        raise InputError(msg)
    if judge is None:
        judge = make_judge(policy.judge or "cues")
    passage = passage_around(document, start, end, window)
    return judge_passage(claim, passage, judge, policy.accept_threshold)


__all__ = [
    "ANSWERS",
    "CONTRADICTED",
    "JUDGES",
    "NEEDS_REVIEW",
    "NO_SUPPORT",
    "SUPPORTED",
    "VERDICTS",
    "Answer",
    "CueJudge",
    "Judge",
    "JudgeError",
    "JudgeReplyError",
    "JudgeUnavailableError",
    "MissingExtraError",
    "Passage",
    "Support",
    "judge_claim",
    "judge_passage",
    "make_judge",
]

"""One word list module for the judge's cues and the near-miss reasons; judge errors in ipsis.errors."""

from __future__ import annotations

import ipsis.errors
import ipsis.judge
import ipsis.judge.support
from ipsis import lexicon
from ipsis.judge import analysis
from ipsis.judge.cues import CueJudge
from ipsis.verify import reasons
from ipsis.verify.reasons import classify, tokens


def test_both_stages_read_the_same_lists() -> None:
    assert reasons.NEGATIONS is lexicon.NEGATORS and reasons.LIMITERS is lexicon.LIMITERS
    assert reasons.MODALITY is lexicon.MODAL_WORDS
    assert frozenset().union(*lexicon.NEGATORS.values()) == analysis.ALL_NEGATORS
    for lang, clauses in lexicon.LIMITERS.items():
        assert set(clauses) | set(lexicon.RESTRICTORS[lang]) == set(analysis.LIMITERS[lang])
    assert {cls for cls in analysis.MODALS.values()} == set(lexicon.DEONTIC)


def test_a_shared_word_drives_both_stages() -> None:
    # "tampouco" (pt) is a negation for the near-miss reasons; "ressalvados" a limiter for the judge
    q, s = tokens("O prazo tampouco se suspende."), tokens("O prazo se suspende.")
    assert [r["flag"] for r in classify(q, s, "pt")] == ["negation_changed"]
    section = "O prazo de recurso suspende-se durante as férias judiciais, ressalvados os processos urgentes."
    a = CueJudge().answer("O prazo de recurso suspende-se durante as férias judiciais.", section)
    assert a.answer == "supports" and a.confidence < 0.8  # needs review: the claim drops the limiter
    assert "limiter: section: ressalvados os processos urgentes; claim: (absent)" in a.evidence
    q, s = tokens("prazo de dez dias"), tokens("prazo de dez dias, ressalvados os urgentes")
    assert "limiter_dropped" in [r["flag"] for r in classify(q, s, "pt")]


def test_judge_errors_live_in_errors_and_are_re_exported() -> None:
    for name in ("JudgeError", "JudgeUnavailableError", "JudgeReplyError", "MissingExtraError"):
        cls = getattr(ipsis.errors, name)
        assert getattr(ipsis.judge, name) is cls and getattr(ipsis.judge.support, name) is cls
        assert issubclass(cls, ipsis.errors.IpsisError)
    assert issubclass(ipsis.errors.MissingExtraError, ImportError)

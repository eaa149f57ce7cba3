"""Check a whole answer against the sources it was written from.

Every quote goes through :func:`ipsis.verify.locate` (the same statuses as ``ipsis verify``);
around it the checker looks at what only a whole answer has: source numbers and ids that name
nothing, provider offsets that do not point at the text they claim, sentences (or claims)
without a citation, sources never cited, no citations at all, truncation, stream errors and a
``sin_informacion`` flag that contradicts the claims.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ipsis.answers.detect import parse_answer
from ipsis.answers.model import Citation, Finding, FindingKind, ParsedAnswer, Ref
from ipsis.answers.offset_checks import answer_offsets, source_offsets
from ipsis.answers.sentences import heading_spans, split_sentences
from ipsis.answers.sources import Source, Sources
from ipsis.document import Document
from ipsis.judge.context import DEFAULT_WINDOW
from ipsis.spans import Span
from ipsis.verify import DEFAULT_POLICY, Policy, Result, locate
from ipsis.verify.insection import section_of
from ipsis.verify.result import MAX_ELSEWHERE

if TYPE_CHECKING:
    from ipsis.answers.support import ClaimSupport
    from ipsis.judge import Judge

STATUS_KIND: dict[str, FindingKind] = {
    "not_found": "quote_not_found",
    "ambiguous": "quote_ambiguous",
    "too_short": "quote_too_short",
    "empty_quote": "quote_empty",
    "invalid_record": "quote_empty",
    "unknown_source": "unknown_source",
}
FAILING = frozenset({"unknown_source", "quote_not_found", "quote_ambiguous", "quote_too_short", "quote_empty"})


@dataclass(frozen=True, slots=True)
class CheckedCitation:
    """A citation with the sources it resolved to and its locate result (when it has a quote)."""

    citation: Citation
    numbers: tuple[int, ...]
    span: Span | None  # where it sits in the answer, corrected when the offsets were wrong
    result: Result | None = None


@dataclass(frozen=True, slots=True)
class CheckReport:
    """The outcome of :func:`check_answer`; ``to_json()`` is the CLI's JSON output."""

    answer: ParsedAnswer
    sources: Sources
    cited: frozenset[int]
    findings: tuple[Finding, ...]
    checked: tuple[CheckedCitation, ...]
    claims: tuple[ClaimSupport, ...] = ()
    judge: str | None = None
    """The judge that ran (None: no second stage, and no ``claims`` key in the JSON)."""

    @property
    def clean(self) -> bool:
        return not self.findings

    def to_json(self) -> dict[str, Any]:
        out = {
            "format": self.answer.format,
            "truncated": self.answer.truncated,
            "sources": [{"number": s.number, "id": s.id, "cited": s.number in self.cited} for s in self.sources],
            "findings": [f.to_json() for f in self.findings],
            "citations": [c.result.to_json() for c in self.checked if c.result is not None],
        }
        if self.judge is not None:
            out["judge"] = self.judge
            out["claims"] = [c.to_json() for c in self.claims]
        return out


def _unknown_message(ref: Ref, sources: Sources, note: str) -> str:
    numbers = [s.number for s in sources]
    known = f"sources are numbered {min(numbers)}–{max(numbers)}" if numbers else "no sources were given"
    if ref.kind in ("number", "index0"):
        what = f"{ref.label} names no source that was sent ({known})"
    elif ref.kind == "url":
        what = (
            f"{ref.label} is not the URL of any source sent "
            "(compared without #fragment, trailing slash and tracking parameters such as utm_source)"
        )
    elif ref.kind == "chunk":
        what = f"{ref.label}: the retrieved chunk is in none of the sources sent (by URI, title or its text)"
    else:
        what = f"{ref.label!r} matches no source sent (by id, file id, URL or title); {known}"
    return f"{what}; {note}" if note else what


def _holders(text: str, sources: Sources, policy: Policy) -> list[int]:
    """The sources a retrieved chunk's text is in (located or ambiguous there)."""
    return [s.number for s in sources if locate(s.document, text, policy=policy).status in ("located", "ambiguous")]


def _locate_all(c: Citation, numbers: Sequence[int], sources: Sources, policy: Policy) -> Result:
    quote = c.quote or ""
    first: Result | None = None
    for n in numbers:
        src = sources.number(n)
        assert src is not None
        position = None
        pol = policy
        if c.offsets is not None and c.offsets.where == "source" and c.offsets.kind == "chars":
            position, pol = c.offsets.start, dataclasses.replace(policy, position_breaks_ties=True)
        res = locate(
            src.document,
            quote,
            position=position,
            policy=pol,
            citation_id=c.citation_id,
            source_id=src.id,
        )
        res.extra.setdefault("source", n)
        if res.status == "located":
            return res
        first = first or res
    assert first is not None
    if first.status == "not_found" and quote.strip():
        _found_in_others(first, quote, numbers, sources, policy)
    return first


def _found_in_others(res: Result, quote: str, numbers: Sequence[int], sources: Sources, policy: Policy) -> None:
    """DESIGN.md's wrong reference: a quote not in the sources it cites is looked for in the
    other sources of the answer; the places go to ``found_elsewhere`` and the message names the
    sources, the verdict for the cited source unchanged (``not_found``)."""
    names = []
    for src in sources:
        if src.number in numbers:
            continue
        other = locate(src.document, quote, policy=policy)
        if other.status not in ("located", "ambiguous"):
            continue
        names.append(f"source {src.number} ({src.id})")
        for m in other.matches[: MAX_ELSEWHERE - len(res.found_elsewhere)]:
            place: dict[str, Any] = {"source_id": src.id, "source": src.number, "start": m.start, "end": m.end}
            section = section_of(src.document, m.start)
            if section is not None:
                place["section"] = section
            res.found_elsewhere.append(place)
    if names:
        res.message += f"; found elsewhere, in {', '.join(names)}"


def _check_citation(
    c: Citation,
    text: str,
    sources: Sources,
    policy: Policy,
    findings: list[Finding],
    seen: set[Any],
    memo: dict[Any, list[int]],
) -> CheckedCitation:
    numbers: list[int] = []
    where = next((s for s in (c.quote_span, c.claim_span, c.answer_span) if s is not None), None)
    for ref in c.refs:
        if ref.kind == "artifact":
            continue
        n = sources.resolve(ref)
        if n is None and ref.kind == "chunk" and c.quote:
            held_key = ("holders", c.quote)
            if held_key not in memo:  # supports often share a chunk: locate its text once
                memo[held_key] = _holders(c.quote, sources, policy)
            held = memo[held_key]
            numbers.extend(h for h in held if h not in numbers)
            if held:
                continue
        if n is None:
            key = ("unknown", c.answer_span, ref.label)
            if key not in seen:
                seen.add(key)
                msg = _unknown_message(ref, sources, c.note)
                findings.append(Finding("unknown_source", msg, c.answer_span, None, c.quote, c.citation_id))
        elif n not in numbers:
            numbers.append(n)
    span = c.answer_span
    if c.offsets is not None and c.offsets.where == "answer":
        finding, fixed = answer_offsets(text, c)
        if finding is not None:
            findings.append(finding)
        span = fixed
    result: Result | None = None
    if c.quote is not None:
        if numbers:
            result = _locate_all(c, numbers, sources, policy)
            kind = STATUS_KIND.get(result.status)
            if kind is not None:
                msg = f"source {result.extra['source']}: {result.message}"
                cited_src = sources.number(result.extra["source"])
                if cited_src is not None and not cited_src.text.strip() and kind == "quote_not_found":
                    msg = (
                        f"source {cited_src.number} ({cited_src.id}) has no text, "
                        "so no quote can be found in it; pass its text"
                    )
                if c.offsets is not None and c.offsets.where == "source":
                    msg += source_offsets(sources.number(numbers[0]), c, None)[1]
                findings.append(Finding(kind, msg, where, result.extra["source"], c.quote, c.citation_id))
            elif result.matches and all("revoked" in m.flags for m in result.matches):
                msg = f"source {result.extra['source']}: {result.message}; the wording in force is another"
                findings.append(Finding("quote_revoked", msg, where, result.extra["source"], c.quote, c.citation_id))
            elif c.offsets is not None and c.offsets.where == "source":
                src = sources.number(result.extra["source"])
                ok, msg = source_offsets(src, c, result)
                if not ok:
                    findings.append(
                        Finding(
                            "offset_mismatch",
                            msg,
                            where,
                            src.number if src else None,
                            c.quote,
                            c.citation_id,
                        )
                    )
        else:
            label = ", ".join(r.label for r in c.refs)
            result = Result(
                c.citation_id,
                None,
                c.quote,
                "unknown_source",
                message=f"{label} names no source that was sent",
            )
    return CheckedCitation(c, tuple(numbers), span, result)


def _needs_citation(text: str, span: Span) -> bool:
    """Prose that makes a claim (headings and definition lines are already left out): not a
    lead-in ending in a colon, and with at least one letter."""
    s = span.slice(text)
    if s.rstrip().rstrip("*_").endswith(":"):
        return False
    return any(ch.isalpha() for ch in s)


def _covered(text: str, spans: Sequence[Span], units: Sequence[Span], *, adjacent: bool = True) -> list[bool]:
    """For each unit (in text order), whether a citation covers it: one that overlaps it, a
    point citation that ends it (a Responses ``file_citation`` index) or one that directly
    follows it (``… in Gaza. ([reuters.com](…))``: only spaces between them). One sweep."""
    order = sorted(spans)
    out: list[bool] = []
    i, reach = 0, -1
    for unit in units:
        while i < len(order) and order[i].start < unit.end:
            reach = max(reach, order[i].end)
            i += 1
        covered = reach > unit.start
        if adjacent and not covered and i < len(order):
            covered = not text[unit.end : order[i].start].strip(" \t")
        out.append(covered)
    return out


def _uncited(answer: ParsedAnswer, checked: Sequence[CheckedCitation]) -> list[Finding]:
    text = answer.text
    spans = [s for c in checked for s in (c.span, c.citation.claim_span, c.citation.answer_span) if s is not None]
    out: list[Finding] = []
    if answer.units == "claims":
        for i, unit in enumerate(answer.claim_spans, start=1):
            if not any(s == unit for s in spans):
                msg = f"claim {i} has no citation: {unit.slice(text)!r}"
                out.append(Finding("uncited_sentence", msg, unit))
    elif answer.units == "sentences" and spans:
        # citations without a position (xAI url_citation, OpenRouter's 0/0) cite the whole
        # answer: with no positioned citation at all, no sentence can be said to lack one
        excluded = sorted([*answer.exclude_spans, *heading_spans(text)])
        units = split_sentences(text)
        skip = _covered(text, excluded, units, adjacent=False)
        for unit, covered, off in zip(units, _covered(text, spans, units), skip, strict=True):
            if not covered and not off and _needs_citation(text, unit):
                out.append(Finding("uncited_sentence", f"no citation: {unit.slice(text)!r}", unit))
    return out


def check_parsed(
    answer: ParsedAnswer,
    sources: Sources,
    policy: Policy = DEFAULT_POLICY,
    judge: Judge | None = None,
    window: int = DEFAULT_WINDOW,
) -> CheckReport:
    """Check an answer already read by :func:`ipsis.answers.parse_answer` (and judge its claims)."""
    findings: list[Finding] = []
    seen: set[Any] = set()
    memo: dict[Any, list[int]] = {}
    checked = [_check_citation(c, answer.text, sources, policy, findings, seen, memo) for c in answer.citations]
    cited = frozenset(n for c in checked for n in c.numbers)
    end = Span(len(answer.text), len(answer.text))
    if answer.no_information is True and answer.claim_spans:
        msg = f"sin_informacion is true but the answer makes {len(answer.claim_spans)} claim(s)"
        findings.append(Finding("no_information_conflict", msg))
    elif answer.no_information is False and not answer.claim_spans:
        findings.append(Finding("no_information_conflict", "no claims, but sin_informacion is false"))
    silent = answer.no_information is True or not answer.text.strip()
    if not answer.citations and not silent:
        findings.append(Finding("no_citations", "the answer cites no source at all", Span(0, len(answer.text))))
    elif answer.citations:
        findings.extend(_uncited(answer, checked))
        for s in sources:
            if s.number not in cited:
                findings.append(
                    Finding(
                        "unused_source",
                        f"source {s.number} ({s.id}) is never cited",
                        source=s.number,
                    )
                )
    for err in answer.stream_errors:
        where = f" (line {err.line})" if err.line else ""
        findings.append(
            Finding(
                "stream_error",
                f"the stream reported an error{where}: {err.message}",
                Span(err.offset, err.offset),
            )
        )
    if answer.truncated:
        findings.append(Finding("truncated", f"the answer is cut off: {answer.truncation_reason}", end))
    if judge is None:
        return CheckReport(answer, sources, cited, tuple(findings), tuple(checked))
    from ipsis.answers.support import judge_citations

    claims, claim_findings = judge_citations(answer, sources, checked, policy, judge, window)
    findings.extend(claim_findings)
    return CheckReport(answer, sources, cited, tuple(findings), tuple(checked), tuple(claims), judge.name)


def check_answer(
    answer: ParsedAnswer | str | bytes,
    sources: Sources | Sequence[Source | Document | str],
    *,
    policy: Policy = DEFAULT_POLICY,
    answer_format: str | None = None,
    name: str = "answer",
    judge: Judge | None = None,
    window: int = DEFAULT_WINDOW,
) -> CheckReport:
    """Read ``answer`` (any format; detected unless ``answer_format`` is given) and check it.

    ``sources`` are what was sent to the model, numbered from 1 in order: :class:`Sources`, or a
    list of :class:`Source`, :class:`~ipsis.Document` or plain text. With a ``judge``
    (:func:`ipsis.judge.make_judge`), each claim is also judged (``claims``).

    >>> from ipsis.answers.sources import sources_from_json
    >>> srcs = sources_from_json(["Returns are accepted within 30 days of delivery."])
    >>> answer = 'You have "within 30 days of delivery" [1]. Refunds take a week [2].'
    >>> report = check_answer(answer, srcs)
    >>> [(f.kind, f.answer_span) for f in report.findings]
    [('unknown_source', Span(start=63, end=66))]
    """
    if not isinstance(answer, ParsedAnswer):
        answer = parse_answer(answer, answer_format, name)
    if not isinstance(sources, Sources):
        sources = Sources(
            [
                s if isinstance(s, Source) else Source(i, s if isinstance(s, Document) else Document(f"source-{i}", s))
                for i, s in enumerate(sources, start=1)
            ]
        )
    return check_parsed(answer, sources, policy, judge, window)

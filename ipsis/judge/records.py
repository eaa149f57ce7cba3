"""Second stage for citation records (``ipsis verify --judge``), knowledge-base citations included.

- A record whose ``source_id`` is not a known source but a line-range or wiki citation
  (``path#L10-L20``, ``.../blob/<commit>/<path>#L10-L20``, ``^[slug.md]``) is read from the
  repository or wiki folder given (:mod:`ipsis.judge.citations`). One that cannot be resolved is
  ``unknown_source`` with an ``orphan_citation``, ``ambiguous_citation``, ``bad_line_range`` or
  ``outside_folder`` (a path out of the repository or wiki: never read)
  warning; a quote located outside the cited lines gets an ``outside_cited_lines`` warning.
- A ``located`` record with a ``claim`` is judged against the section around its quote.
- A record with a ``claim`` and a ``source_id`` but no ``quote`` is ``invalid_record`` without a
  judge; with one it becomes ``retrieved``: the judge reads the cited lines, or the passage of the
  source (of its ``section`` when one is given) that best matches the claim (BM25).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ipsis.document import Document
from ipsis.errors import IpsisError
from ipsis.judge import Judge, judge_claim, judge_passage
from ipsis.judge.context import DEFAULT_WINDOW
from ipsis.judge.support import NO_SUPPORT, Passage, Support
from ipsis.verify.policy import Policy
from ipsis.verify.records import Resolver
from ipsis.verify.result import INVALID_RECORD, LOCATED, RETRIEVED, UNKNOWN_SOURCE, Result

if TYPE_CHECKING:  # the citation grammars load when a source is not known otherwise
    from ipsis.judge.citations import Finding, Resolved


class CitedSources:
    """A resolver: the user's sources first, then line-range citations (``repo``) and wiki
    citations (``wiki``). ``cited`` keeps what each citation resolved to; ``documents`` every
    document handed out (for the HTML report); ``known`` documents already resolved elsewhere
    (a stored source version) are handed out first, then ``stored`` (the store, when there is one:
    a record with a claim and no quote reaches no other lookup)."""

    def __init__(self, resolve: Resolver, repo: str | Path | None = None, wiki: str | Path | None = None) -> None:
        self._resolve = resolve
        self.repo = repo
        self.wiki = wiki
        self.cited: dict[str, Resolved | Finding] = {}
        self.documents: dict[str, Document] = {}
        self.known: Mapping[str, Document] = {}
        self.stored: Resolver | None = None

    def __call__(self, source_id: str) -> Document | None:
        doc = self.known.get(source_id) or (self.stored(source_id) if self.stored else None) or self._resolve(source_id)
        if doc is None:
            doc = self._cited(source_id)
        if doc is not None:
            self.documents[source_id] = doc
        return doc

    def _cited(self, source_id: str) -> Document | None:
        """The document a line-range or wiki citation resolves to (its finding kept in ``cited``)."""
        from ipsis.judge.citations import Finding, Resolved, parse_citation, resolve_citation

        doc = None
        if parse_citation(source_id) is not None:
            if source_id not in self.cited:
                try:
                    self.cited[source_id] = resolve_citation(source_id, self.repo, self.wiki)
                except IpsisError as exc:  # no --repo / --wiki for this kind of citation
                    self.cited[source_id] = Finding("unresolved_citation", source_id, str(exc))
            hit = self.cited[source_id]
            doc = hit.document if isinstance(hit, Resolved) else None
        return doc

    def lines(self, source_id: str | None) -> Resolved | None:
        """The cited line range of a line-range citation (None for anything else)."""
        hit = self.cited.get(source_id or "")
        if hit is None:
            return None
        from ipsis.judge.citations import Resolved

        return hit if isinstance(hit, Resolved) and "lines" in hit.meta else None


def _claim(record: Any) -> str | None:
    claim = record.get("claim") if isinstance(record, dict) else None
    return claim if isinstance(claim, str) and claim.strip() else None


def _wants_retrieval(record: Any, result: Result) -> bool:
    return (
        result.status == INVALID_RECORD
        and result.field_name == "quote"
        and isinstance(record, dict)
        and record.get("quote") is None
        and isinstance(record.get("source_id"), str)
        and _claim(record) is not None
    )


def _explain(result: Result, sources: CitedSources) -> None:
    hit = sources.cited.get(result.source_id or "")
    if hit is None:
        return  # no line-range or wiki citation
    from ipsis.judge.citations import Finding

    if result.status == UNKNOWN_SOURCE and isinstance(hit, Finding):
        result.message = hit.message
        result.warnings.append(hit.to_json())
    cited = sources.lines(result.source_id)
    if cited is not None:
        result.extra["cited"] = {"lines": cited.meta["lines"], "start": cited.start, "end": cited.end}
        if result.status == LOCATED and result.matches:
            m = result.matches[0]
            if m.start < cited.start or m.end > cited.end:
                first, last = cited.meta["lines"]
                msg = f"the quote is at line {m.line}, outside the cited lines {first}-{last}"
                result.warnings.append({"kind": "outside_cited_lines", "message": msg})


def _retrieved(record: dict[str, Any], sources: CitedSources, policy: Policy, judge: Judge, window: int) -> Result:
    cid, sid, claim = str(record.get("citation_id", "")), record["source_id"], str(record["claim"])
    doc = sources(sid)
    if doc is None:
        result = Result(cid, sid, None, UNKNOWN_SOURCE, message=f"unknown source {sid!r}")
        _explain(result, sources)
        return result
    within: tuple[int, int] | None = None
    cited = sources.lines(sid)
    section = record.get("section")
    if cited is not None:
        within = (cited.start, cited.end)
    elif isinstance(section, str) and section.strip():
        from ipsis.sections import resolve_reference, segment

        tree = doc.sections if doc.sections is not None else segment(doc)
        try:  # an id as `ipsis sections` prints it is read there too
            secs = list(resolve_reference(tree, section, doc).sections)
        except IpsisError as exc:
            return Result(cid, sid, None, INVALID_RECORD, message=f"field 'section': {exc}", field_name="section")
        within = (min(s.start for s in secs), max(s.end for s in secs))
    passage: Passage | None = None
    score = None
    if cited is not None and cited.end - cited.start <= 2 * window:
        passage = Passage(cited.start, cited.end, doc.text[cited.start : cited.end])
    else:
        from ipsis.judge.retrieve import retrieve  # BM25 and stemming only for a record without a quote

        found = retrieve(doc, claim, k=1, within=within)
        if found:
            passage, score = found[0].passage, found[0].score
    if passage is None:
        msg = "retrieval: no passage of the source shares a content word with the claim"
        support = Support(NO_SUPPORT, 1.0, judge.name, (msg,), None, 0.0)
    else:
        support = judge_passage(claim, passage, judge, policy.accept_threshold)
    result = Result(cid, sid, None, RETRIEVED, section=passage.section if passage else None)
    result.message = "no quote: the claim was judged against " + (
        "the cited lines" if cited is not None and score is None else "the passage retrieved for it (BM25)"
    )
    out = support.to_json()
    if passage is not None:
        out["passage"]["text"] = passage.text
        out["passage"]["retrieved"] = score is not None
        if score is not None:
            out["passage"]["bm25"] = round(score, 3)
    result.extra["claim"] = claim
    result.extra["support"] = out
    _explain(result, sources)
    return result


def finish_records(
    records: Iterable[Any],
    results: Iterable[Result],
    sources: CitedSources,
    policy: Policy,
    judge: Judge | None = None,
    window: int = DEFAULT_WINDOW,
) -> list[Result]:
    """``results`` (one per record, in order) with citation findings explained and, when a
    ``judge`` is given, each claim judged (``support``) or its passage retrieved first."""
    return list(iter_finish_records(records, results, sources, policy, judge, window))


def iter_finish_records(
    records: Iterable[Any],
    results: Iterable[Result],
    sources: CitedSources,
    policy: Policy,
    judge: Judge | None = None,
    window: int = DEFAULT_WINDOW,
) -> Iterator[Result]:
    """:func:`finish_records` one result at a time (a streamed run keeps flat memory)."""
    # the result first: a read error in ``records`` (shared through a tee with the run that
    # reads ahead in blocks) is raised by ``results`` after the results before it
    for result, record in zip(results, records, strict=False):
        claim = _claim(record)
        if judge is not None and _wants_retrieval(record, result):
            yield _retrieved(record, sources, policy, judge, window)
            continue
        _explain(result, sources)
        if judge is not None and claim is not None:
            doc = sources(result.source_id) if result.status == LOCATED and result.source_id else None
            if doc is not None and result.matches:
                m = result.matches[0]
                result.extra["support"] = judge_claim(claim, doc, (m.start, m.end), policy, judge, window).to_json()
            else:
                msg = f"quote is {result.status}: the claim was not judged"
                result.warnings.append({"kind": "not_judged", "message": msg})
        yield result

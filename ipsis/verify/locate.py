"""``locate``: where is this quote in this document? (``describe``, how to cite a range, is in
:mod:`ipsis.verify.describe`.)

Candidates are every occurrence in the view of the policy's last accepted tier (normalization
only merges, so this is the complete set); a W3C prefix/suffix narrows them, a position hint
breaks a remaining tie only when the policy says so, and otherwise a tie is ``ambiguous`` with
every candidate and the selector that singles it out. A quote found only in a lossy tier is
``not_found`` with a diagnosis, unless the policy accepts that tier.

>>> doc = Document("help-v1", "Contact support. Read the guide. Contact support.")
>>> r = locate(doc, "Contact support.")
>>> r.status, [(m.start, m.end) for m in r.matches]
('ambiguous', [(0, 16), (33, 49)])
>>> r = locate(doc, "Contact support.", prefix="guide. ")
>>> r.status, r.matches[0].start, r.matches[0].text
('located', 33, 'Contact support.')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from ipsis.document import FLAGGED_IN_RESULTS, Document
from ipsis.ingest.normalize import LOSSY_TIERS, TIERS, Normalized, normalize, tier_rank
from ipsis.spans import Span
from ipsis.verify import batch
from ipsis.verify.choose import by_context, by_position
from ipsis.verify.compounds import compound_hits, compound_view, may_hold_compound
from ipsis.verify.contexts import minimal_contexts
from ipsis.verify.elision import locate_elided, split_fragments, truncated_before_limiter
from ipsis.verify.insection import restrict_to_section, section_finder, section_of
from ipsis.verify.lossy import not_in_lossy_view
from ipsis.verify.match import (
    _CACHED_QUOTE,
    Context,
    _back,
    _fwd,
    _mark_kinds,
    document_view,
    extend_to_word,
    find_all,
    furniture_view,
    is_furniture_line,
    minimal_context,
    other_views,
    quote_view,
)
from ipsis.verify.policy import DEFAULT_POLICY, Policy
from ipsis.verify.prepare import cut_words, goes_on, prepare_stages
from ipsis.verify.result import (
    AMBIGUOUS,
    EMPTY_QUOTE,
    LOCATED,
    NOT_FOUND,
    TOO_SHORT,
    Match,
    Result,
)
from ipsis.verify.selectors import TextQuoteSelector
from ipsis.verify.spacing import SCRIPT_SPACING, SPACING_NOTE, has_scripts, script_spacing_hits, scripts_view
from ipsis.verify.wordings import older_wordings

MAX_SELECTORS = 200
"""Most places of an ambiguous quote that each get a selector: a limit on the size of the
output (the contexts of all places are found by sorting, :mod:`ipsis.verify.contexts`)."""

MAX_STAGES = 8
"""Most stages of quote preparation searched one by one (each is one pass over the view)."""

TIER_WORDS = {
    "exact": "exactly",
    "whitespace": "whitespace differs",
    "typography": "typography differs",
    "case": "differs in case",
    "accents": "differs in accents",
    "ordinals": "differs in ordinal signs",
    "ocr": "differs by OCR confusions",
}


def _match_record(doc: Document, span: Span, selector: TextQuoteSelector | None, unique: bool = True) -> Match:
    return _match_records(doc)(span, selector, unique)


def _match_records(doc: Document) -> Callable[[Span, TextQuoteSelector | None, bool], Match]:
    """The :class:`Match` of each place of ``doc`` (its text, line, page, section and flags),
    with what is the same for every place looked up once: an ambiguous quote may have hundreds."""
    flagged = doc.marks and not _mark_kinds(doc).isdisjoint(FLAGGED_IN_RESULTS)  # else no flag anywhere
    text, line_of, page_of, section = doc.text, doc.line_of, doc.page_of, section_finder(doc)

    def record(span: Span, selector: TextQuoteSelector | None, unique: bool = True) -> Match:
        start = span.start
        flags = sorted({m.kind for m in doc.marks_overlapping(span, FLAGGED_IN_RESULTS)}) if flagged else []
        return Match(
            start=start,
            end=span.end,
            text=text[start : span.end],
            line=line_of(start),
            page=page_of(start),
            selector=selector,
            unique=unique,
            section=section(start),
            flags=flags,
        )

    return record


def _contexts(
    view: Normalized, hits: Sequence[tuple[int, int]], targets: Sequence[tuple[int, int]], cap: int
) -> dict[tuple[int, int], tuple[int, int, bool]]:
    """Minimal (prefix, suffix, unique) context of each of ``targets`` among ``hits``: all at once
    by sorting the contexts, or per pair on the reference path (:data:`ipsis.verify.batch.reference`)."""
    if batch.reference.on:
        return {t: minimal_context(view.text, t[0], t[1], [h for h in hits if h != t], cap) for t in targets}
    return minimal_contexts(view.text, hits, targets, cap)


def _selector_for(
    doc: Document,
    view: Normalized,
    hit: tuple[int, int],
    context: tuple[int, int, bool],
    span: Span | None = None,
) -> tuple[TextQuoteSelector, bool]:
    """The minimal TextQuoteSelector (in document text) that singles ``hit`` out in ``view``,
    given its minimal ``context`` from :func:`_contexts` (``span``: ``hit`` in the document
    text, when the caller has mapped it already)."""
    vt = view.text
    s, e = hit
    p, q, unique = context
    om = view.offsets
    if span is None:
        span = om.span_to_source(Span(s, e))
    raw_p = om.to_source(extend_to_word(vt, _back(vt, s) - p, -1)) if p else span.start
    raw_s = om.to_source_end(extend_to_word(vt, _fwd(vt, e) + q, +1)) if q else span.end
    text = doc.text
    return TextQuoteSelector(text[span.start : span.end], text[raw_p : span.start], text[span.end : raw_s]), unique


def _cheapest_tier(raw: str, quote: str, policy: Policy, marks_free: bool) -> tuple[str, list[str]]:
    """The first tier in which the document's slice and the quote agree, and the steps needed."""
    for tier in policy.accepted_tiers:
        a = quote_view(raw, tier, policy.disabled_steps)
        b = quote_view(quote, tier, policy.disabled_steps)
        if a.text == b.text:
            steps = [s for s in _ordered(a.steps + b.steps)]
            return tier, steps
    tier = policy.max_tier
    a = quote_view(raw, tier, policy.disabled_steps)
    b = quote_view(quote, tier, policy.disabled_steps)
    extra = [] if marks_free else ["skip_marks"]
    return tier, _ordered(a.steps + b.steps + tuple(extra))


def _ordered(steps: Sequence[str]) -> list[str]:
    from ipsis.ingest.normalize import PIPELINE

    seen = set(steps)
    return [s for s in PIPELINE if s in seen]


def _first_difference(raw: str, quote: str, tier: str, disabled: Sequence[str]) -> int:
    a = normalize(raw, tier, disabled=disabled)
    b = quote_view(quote, tier, disabled).text
    at = a.text
    i = 0
    while i < min(len(at), len(b)) and at[i] == b[i]:
        i += 1
    return a.offsets.to_source(min(i, len(at)))


def _diagnose(
    doc: Document, quote: str, policy: Policy, context: Context | None = None
) -> tuple[str, dict[str, Any] | None]:
    """Why a quote is not found: a lossy tier where it is, or a match inside a longer token."""
    from ipsis.verify.nearest import describe_nearest, nearest_passage, tier_reasons, token_reasons  # with edlib

    for tier in LOSSY_TIERS:
        if tier_rank(tier) <= tier_rank(policy.max_tier) or tier == "ocr":
            continue  # the ocr tier is judged by its exact differences (ipsis.verify.ocr), never by its view
        if not_in_lossy_view(doc, quote, tier, policy.disabled_steps):
            continue  # no place there: its lossy views need not be built
        view = document_view(doc, tier, policy.disabled_steps)
        q = quote_view(quote, tier, policy.disabled_steps).text
        hits = find_all(view.text, q, boundaries=policy.boundaries)
        if hits:
            span = view.offsets.span_to_source(Span(hits[0], hits[0] + len(q)))
            raw = doc.text[span.start : span.end]
            at = span.start + _first_difference(raw, quote, policy.max_tier, policy.disabled_steps)
            where = f"at offset {at}" + (f" (line {doc.line_of(at)})" if doc.line_of(at) > 1 else "")
            also = f"; {len(hits)} places" if len(hits) > 1 else ""
            nearest = {
                "start": span.start,
                "end": span.end,
                "text": raw,
                "tier": tier,
                "reason": f"{tier}_only",
                "places": len(hits),
                "reasons": tier_reasons(quote_view(quote, policy.max_tier).text, raw, tier),
            }
            return f"not found; {TIER_WORDS[tier]} {where}{also} (tier {tier} is not accepted by the policy)", nearest
    if policy.boundaries:
        view = document_view(doc, policy.max_tier, policy.disabled_steps)
        q = quote_view(quote, policy.max_tier, policy.disabled_steps).text
        hits = find_all(view.text, q, boundaries=False, limit=1)
        if hits:
            span = view.offsets.span_to_source(Span(hits[0], hits[0] + len(q)))
            ctx = doc.text[max(0, span.start - 10) : span.end + 10]
            return (
                "not found as whole words; it occurs only inside a longer word or number"
                f" at offset {span.start} ({ctx!r})",
                {
                    "start": span.start,
                    "end": span.end,
                    "text": doc.text[span.start : span.end],
                    "reason": "inside_token",
                    "reasons": token_reasons(doc.text, span.start, span.end),
                },
            )
    if policy.error_rate > 0:
        near = nearest_passage(doc, quote, policy, context)
        if near is not None:
            return describe_nearest(near), near
    return "not found in the source", None


def searched_stages(quote: str, policy: Policy) -> list[tuple[str, list[str]]]:
    """The stages of quote preparation ``locate`` searches, in order (see :func:`prepare_stages`)."""
    literal = policy.max_tier == "exact"
    # a record's stages are wanted by the block's pass, by locate and by the found-elsewhere
    # look-up: those of recent quotes are kept (fresh lists each time: callers may keep them),
    # not on the per-quote reference path
    short = len(quote) <= _CACHED_QUOTE and not batch.reference.on
    stages = _cached_stages(quote, literal) if short else _stages(quote, literal)
    return [(stage, list(removed)) for stage, removed in stages]


def _stages(quote: str, literal: bool) -> tuple[tuple[str, tuple[str, ...]], ...]:
    stages = [(q, tuple(removed)) for q, removed in prepare_stages(quote, literal=literal)]
    if len(stages) > MAX_STAGES:  # decorations nested thousands deep: search the first ones and the last
        stages = [*stages[: MAX_STAGES - 1], stages[-1]]
    return tuple(stages)


_cached_stages = lru_cache(maxsize=4096)(_stages)


def _first_stage_found(
    doc: Document,
    view: Normalized,
    quote: str,
    policy: Policy,
    *,
    batched: bool = True,
    spacing: bool = False,
    compounds: bool = False,
) -> tuple[str, list[tuple[int, int]], list[str]]:
    """The quote as written if it is in the view, else the first stage of quote preparation
    that is (or the fully prepared quote when none is), its hits and what was removed.
    ``batched=False`` searches ``view`` itself (not the block's one pass over the policy's view);
    ``spacing`` searches it with :func:`~ipsis.verify.spacing.script_spacing_hits`, ``compounds``
    with :func:`~ipsis.verify.compounds.compound_hits`."""
    tier, dis = policy.max_tier, policy.disabled_steps
    stages = searched_stages(quote, policy)
    last: tuple[str, list[str]] = (quote.strip(), [])
    for stage, removed in stages:
        cut = "cut_word" in removed
        if not cut:
            last = (stage, removed)
        q = quote_view(stage, tier, dis).text
        if not q.strip():
            continue
        if spacing or compounds:
            find = script_spacing_hits if spacing else compound_hits
            hits = find(doc, view, q, policy.boundaries)
        elif batched:
            hits = [(h, h + len(q)) for h in batch.find_in_view(doc, view, q, policy)]
        else:
            hits = [(h, h + len(q)) for h in find_all(view.text, q, boundaries=policy.boundaries)]
        if cut:  # only where the source's words go on from the letters cut off
            hits = goes_on(view.text, hits, *(quote_view(w, tier, dis).text for w in cut_words(quote)))
        if hits:
            return stage, hits, removed
    return last[0], [], last[1]


def _search(
    document: Document, quote: str, policy: Policy, tier: str
) -> tuple[Normalized, str, list[tuple[int, int]], list[str], str]:
    """The view, the stage of the quote found and its hits in the view, what was taken off the
    quote, and which other reading found it: ``""`` (the tier's own view), ``"furniture"``
    (the view with page furniture), ``"spaced"`` (scripts set apart by spaces) or
    ``SCRIPT_SPACING`` (the script_spacing search)."""
    dis = policy.disabled_steps
    view = document_view(document, tier, dis)
    search = replace(policy, max_tier=tier) if tier != policy.max_tier else policy
    prepared, hits, removed = _first_stage_found(document, view, quote, search)
    found_by = ""
    for name, other in other_views(document, tier, dis, quote):
        # the quote may hold what the view skips (a superscript or footnote call copied with the
        # sentence, a superscript set apart by spaces, a running header or footer quoted by
        # itself): search the same tier in the other views, and keep a reading that needs less
        # taken off the quote; a header or footer is printed on its pages, flagged ``furniture``
        if hits and not removed:
            break
        reading = _first_stage_found(document, other, quote, search, batched=False)
        if reading[1] and (not hits or len(reading[2]) < len(removed)):
            view, (prepared, hits, removed) = other, reading
            found_by = name if name in ("furniture", "spaced") else ""
    kept = furniture_view(document, tier, dis, quote) if hits and found_by != "furniture" else None
    if kept is not None and is_furniture_line(document, tier, quote):
        # a whole running header or footer quoted by itself, also printed as text (a title
        # page): it is on every page it is printed on, not only where the view keeps it
        reading = _first_stage_found(document, kept, quote, search, batched=False)
        if len(reading[1]) > len(hits) and len(reading[2]) <= len(removed):
            view, (prepared, hits, removed), found_by = kept, reading, "furniture"
    typographic = tier_rank(tier) >= tier_rank("typography")
    if not hits and typographic and "dehyphenate" not in dis and may_hold_compound(quote):
        # a compound quoted with its hyphen, printed at a line end (joined in the view)
        folded = compound_view(document, view)
        reading = _first_stage_found(document, folded, quote, search, batched=False, compounds=True)
        if reading[1]:
            view, (prepared, hits, removed) = folded, reading
    if not hits and typographic and has_scripts(document):
        # spaces that differ only at a script's edge (S 1 ... e2πit, Ts S)
        other = scripts_view(document, tier, dis)
        reading = _first_stage_found(document, other, quote, search, batched=False, spacing=True)
        if reading[1]:
            view, (prepared, hits, removed), found_by = other, reading, SCRIPT_SPACING
    return view, prepared, hits, removed, found_by


def places(document: Document, quote: str, policy: Policy = DEFAULT_POLICY) -> list[tuple[Span, dict[str, Any] | None]]:
    """The span and section of each match of ``locate(document, quote, policy=policy)`` when it
    is ``located`` or ``ambiguous``, else none: the places without the selectors, tiers,
    messages and diagnosis of a result (the found-elsewhere look-up wants only the places).

    >>> places(Document("d", "Contact support. Read the guide. Contact support."), "Contact support.")
    [(Span(start=0, end=16), None), (Span(start=33, end=49), None)]
    """
    tier = "ordinals" if policy.max_tier == "ocr" else policy.max_tier
    view, prepared, hits, *_ = _search(document, quote, policy, tier)
    if not hits or batch.reference.on:  # OCR text and inner ellipses: as locate finds them
        from ipsis.verify import ocr as ocr_matching  # (OCR matching only for a quote not found as it is)

        if not batch.reference.on and not ocr_matching.applies(document, policy) and split_fragments(prepared) is None:
            return []  # not_found (or empty): the diagnosis would say why
        r = locate(document, quote, policy=policy)
        ok = r.status in (LOCATED, AMBIGUOUS)
        return [(Span(m.start, m.end), m.section) for m in r.matches] if ok else []
    q = quote_view(prepared, tier, policy.disabled_steps).text
    if not q.strip() or (len(hits) == 1 and policy.min_length and len(q) < policy.min_length):
        return []  # empty_quote, too_short
    spans = [view.offsets.span_to_source(Span(*h)) for h in hits]
    return [(sp, section_of(document, sp.start)) for sp in spans]


def locate(
    document: Document,
    quote: str,
    *,
    prefix: str | None = None,
    suffix: str | None = None,
    position: int | None = None,
    policy: Policy = DEFAULT_POLICY,
    citation_id: str | None = None,
    source_id: str | None = None,
    section: str | None = None,
) -> Result:
    """Locate ``quote`` in ``document`` and return one :class:`Result`.

    ``section`` is a cited section as people write it ("art. 5º, § 1º, II", "Section 4.1.2"):
    the quote must be inside it; when it is elsewhere in the document, the result is
    ``not_found`` in the cited section and ``found_elsewhere`` says where it is.
    """
    result = Result(citation_id, source_id if source_id is not None else document.id, quote, NOT_FOUND)
    result.section = section
    result.warnings.extend(document.meta.get("warnings", ()))
    tier = "ordinals" if policy.max_tier == "ocr" else policy.max_tier  # the ocr tier: ipsis.verify.ocr
    dis = policy.disabled_steps
    view, prepared, hits, removed, found_by = _search(document, quote, policy, tier)
    result.prepared = removed
    q = quote_view(prepared, tier, dis).text if prepared else ""
    if not q.strip():
        result.status = EMPTY_QUOTE
        result.message = "the quote is empty" + (" after removing " + ", ".join(removed) if removed else "")
        return result
    context = Context(
        quote_view(prefix, tier, dis).text if prefix else "",
        quote_view(suffix, tier, dis).text if suffix else "",
        position,
    )
    if not hits:
        from ipsis.verify import ocr as ocr_matching

        if ocr_matching.applies(document, policy):
            found = ocr_matching.match_ocr(document, prepared, policy)
            if found:
                return _ocr_located(document, found, prepared, q, policy, result, section)
        fragments = split_fragments(prepared)
        if fragments is not None:
            return _elided(document, view, fragments, policy, result, section)
        result.message, result.nearest = _diagnose(document, prepared, policy, context)
        older_wordings(document, prepared, policy, tier, result)  # a BOE block's wording no longer in force
        return result

    notes: list[str] = (
        ["the quote sets a raised or lowered script apart by spaces (S 2 for S², R n for Rⁿ)"]
        if found_by == "spaced"
        else []
    ) + ([SPACING_NOTE] if found_by == SCRIPT_SPACING else [])
    if section is not None:
        hits = restrict_to_section(document, view, hits, section, result)
        if not hits:
            return result
    candidates = hits
    if prefix or suffix:
        candidates, warning = by_context(view.text, hits, context, prefix or "", suffix or "", policy)
        if warning is not None:
            result.warnings.append(warning)
            if not candidates:  # the literal W3C reading: no place has the given context
                result.message = "not found with the given context: " + warning["message"]
                return result
            notes.append(warning["message"])
    if len(candidates) > 1 and position is not None:
        candidates, note = by_position(view, candidates, position, policy)
        if note:
            notes.append(note)

    if len(candidates) > 1:
        result.status = AMBIGUOUS
        propose = len(candidates) <= MAX_SELECTORS  # a limit on output size
        contexts = _contexts(view, hits, candidates, policy.context_cap) if propose else {}
        record, to_source, add = _match_records(document), view.offsets.span_to_source, result.matches.append
        for hit in candidates:
            sel, unique = None, False
            span = to_source(Span(*hit))
            if propose:
                sel, unique = _selector_for(document, view, hit, contexts[hit], span)
            add(record(span, sel, unique))
        result.tier, result.steps = _cheapest_tier(result.matches[0].text, prepared, policy, not document.marks)
        result.message = f"{len(candidates)} places match; add the prefix/suffix of one of them to choose"
        revoked = sum("revoked" in m.flags for m in result.matches)
        if revoked:
            result.message += f" ({revoked} of them in revoked text)"
        if not propose:
            result.message += f" (too many to propose a selector for each, over {MAX_SELECTORS}: quote more)"
        elif not all(m.unique for m in result.matches):
            result.message += " (the text repeats: no context under the cap singles every place out)"
    else:
        hit = candidates[0]
        span = view.offsets.span_to_source(Span(*hit))
        sel, unique = _selector_for(document, view, hit, _contexts(view, hits, [hit], policy.context_cap)[hit], span)
        m = _match_record(document, span, sel, unique)
        result.matches.append(m)
        result.tier, result.steps = _cheapest_tier(m.text, prepared, policy, not document.marks)
        if policy.min_length and len(q) < policy.min_length:
            result.status = TOO_SHORT
            result.message = f"found once, but {len(q)} characters is below the minimum of {policy.min_length}"
        else:
            result.status = LOCATED
            result.message = f"located once ({TIER_WORDS[result.tier]})"
            if result.tier in LOSSY_TIERS:
                result.message += "; accepted because the policy allows it"
        cut = truncated_before_limiter(document, view, hit[1]) if result.status == LOCATED else None
        if cut is not None:
            result.warnings.append(cut)
            result.message += "; it stops right before a limiting clause"
        if "revoked" in m.flags:
            result.warnings.append({"kind": "revoked", "message": "the quoted text is revoked in this source"})
            result.message += "; the text is revoked"
    if found_by == SCRIPT_SPACING:
        result.steps = [*result.steps, SCRIPT_SPACING]
    if found_by == "furniture":
        for m in result.matches:
            if _in_furniture(document, m):
                m.flags = sorted({*m.flags, "furniture"})
        result.message += "; the text is page furniture (a running header, footer or page number)"
    if notes:
        result.message += "; " + "; ".join(notes)
    return result


def _in_furniture(doc: Document, m: Match) -> bool:
    """The match overlaps page furniture."""
    return bool(doc.marks_overlapping(Span(m.start, m.end), frozenset({"furniture"})))


def _ocr_located(
    doc: Document,
    found: list[dict[str, Any]],
    prepared: str,
    q: str,
    policy: Policy,
    result: Result,
    section: str | None,
) -> Result:
    """A quote found on OCR text up to OCR noise (:func:`ipsis.verify.ocr.match_ocr`): located
    (or ambiguous) in the ``ocr`` tier, every difference listed in ``result.extra["ocr"]``."""
    from ipsis.verify import ocr as ocr_matching

    exact = document_view(doc, "exact")
    hits = [(f["start"], f["end"]) for f in found]
    if section is not None:
        hits = restrict_to_section(doc, exact, hits, section, result)
        if not hits:
            return result
        found = [f for f in found if (f["start"], f["end"]) in hits]
    steps = [*quote_view(doc.text[hits[0][0] : hits[0][1]], "ocr").steps, *quote_view(prepared, "ocr").steps, "ocr"]
    result.tier, result.steps = "ocr", _ordered(steps)
    if len(found) > 1:
        result.status = AMBIGUOUS
        contexts = _contexts(exact, hits, hits, policy.context_cap)
        for hit in hits:
            sel, unique = _selector_for(doc, exact, hit, contexts[hit])
            result.matches.append(_match_record(doc, Span(*hit), sel, unique))
        result.message = f"{len(found)} places match up to OCR noise; add the prefix/suffix of one of them to choose"
    else:
        sel, unique = _selector_for(doc, exact, hits[0], _contexts(exact, hits, hits[:1], policy.context_cap)[hits[0]])
        result.matches.append(_match_record(doc, Span(*hits[0]), sel, unique))
        if policy.min_length and len(q) < policy.min_length:
            result.status = TOO_SHORT
            result.message = f"found once, but {len(q)} characters is below the minimum of {policy.min_length}"
        else:
            result.status = LOCATED
            result.message = f"located once on OCR text ({ocr_matching.describe(found[0])})"
            cut = truncated_before_limiter(doc, exact, hits[0][1])
            if cut is not None:
                result.warnings.append(cut)
                result.message += "; it stops right before a limiting clause"
    result.extra["ocr"] = found if len(found) > 1 else found[0]
    return result


def _elided(
    doc: Document, view: Normalized, fragments: list[str], policy: Policy, result: Result, section: str | None
) -> Result:
    """A quote with inner ellipses: one Match per fragment when located (the elided text is
    not part of the quote, so no span covers it), one covering Match per reading when ambiguous."""
    out = locate_elided(doc, view, fragments, policy)
    if section is not None and out.readings:  # every fragment must be inside the cited section
        views = [(r[0].start, r[-1].end) for r in out.readings]  # identity view of the text itself
        inside = restrict_to_section(doc, document_view(doc, "exact"), views, section, result)
        out.readings = [r for r in out.readings if (r[0].start, r[-1].end) in inside]
        if not out.readings:
            out.status, out.message = NOT_FOUND, result.message
    result.prepared = sorted({*result.prepared, "inner_ellipsis"})
    result.status, result.message, result.nearest = out.status, out.message, out.nearest
    if out.status in (LOCATED, TOO_SHORT):
        spans = out.readings[0]
        result.matches = [_match_record(doc, sp, None) for sp in spans]
        cover = [spans[0].start, spans[-1].end]
        result.extra["elision"] = {"fragments": len(spans), "span": cover, "gaps": out.gaps(doc)}
        pairs = zip(spans, fragments, strict=True)
        tiers = [_cheapest_tier(doc.text[sp.start : sp.end], f, policy, not doc.marks) for sp, f in pairs]
        result.tier = max((t for t, _ in tiers), key=tier_rank)
        result.steps = _ordered([s for _, st in tiers for s in st])
        cut = truncated_before_limiter(doc, document_view(doc, "exact"), spans[-1].end)
        if cut is not None and out.status == LOCATED:
            result.warnings.append(cut)
    elif out.status == AMBIGUOUS:
        result.matches = [_match_record(doc, Span(r[0].start, r[-1].end), None, unique=False) for r in out.readings]
    return result


__all__ = ["TIERS", "locate", "places"]

"""A located quote against the section a citation names: the section of a place, and the
restriction of the places to the cited section (``found_elsewhere`` when none is inside)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ipsis.document import Document
from ipsis.errors import InputError
from ipsis.ingest.normalize import Normalized
from ipsis.spans import Span
from ipsis.verify.result import Result


def section_of(doc: Document, start: int) -> dict[str, Any] | None:
    """The innermost section of ``doc`` at ``start`` (id, label, path, citable URI), or None."""
    return section_finder(doc)(start)


def section_finder(doc: Document) -> Callable[[int], dict[str, Any] | None]:
    """:func:`section_of` for many places of ``doc``: the tree, the work and the kept section
    records are looked up once (a result may list hundreds of places)."""
    tree = doc.sections
    finder = getattr(tree, "innermost_at", None)
    if finder is None:
        return _no_section
    work = doc.meta.get("work")
    kept = doc.cache.get(_SECTION_RECORDS)
    if kept is None or kept[0] is not tree or kept[1] != work:  # each section's record, built once
        kept = doc.cache[_SECTION_RECORDS] = (tree, work, {})
    records: dict[str, tuple[tuple[str, Any], ...]] = kept[2]

    def at(start: int) -> dict[str, Any] | None:
        sec = finder(start)
        if sec is None:
            return None
        items = records.get(sec.id)
        if items is None:
            items = records[sec.id] = tuple(_section_record(doc, tree, sec).items())
        return dict(items)  # a fresh record for each match

    return at


def _no_section(_start: int) -> None:
    return None


_SECTION_RECORDS = ("section_records",)


def _section_record(doc: Document, tree: Any, sec: Any) -> dict[str, Any]:
    path = getattr(tree, "path", None)
    out: dict[str, Any] = {"id": sec.id, "label": sec.label}
    if path is not None:
        out["path"] = path(sec)
    work = doc.meta.get("work")
    if isinstance(work, dict) and work.get("id"):  # a citable URI of the section (LexML, ELI)
        from ipsis.formats.ids import section_uri

        uri = section_uri(work, sec.id)
        if uri:
            out["uri"] = uri
    return out


def _section_name(sec: dict[str, Any] | None) -> str:
    if not sec:
        return "outside any section"
    return str(sec.get("path") or sec.get("label") or sec.get("id"))


def _citable(tree: Any, ref: str) -> Any:
    """A section cited as a LexML URN or an ELI (``urn:lex:...!art7_cpt_inc2``, ``.../eli/...#art_6``):
    the resolution to the section it names; None for any other way of writing a reference."""
    from ipsis.formats.ids import is_citable_uri, section_for_uri
    from ipsis.sections import SectionNotFoundError
    from ipsis.sections.refs import Resolution

    ref = ref.strip()
    if not is_citable_uri(ref):
        return None
    sec = section_for_uri(tree, ref)
    if sec is None:
        msg = f"{ref!r} names no section of {tree.doc_id} (a LexML fragment or an AKN eId after ! or #)"
        raise SectionNotFoundError(msg, None)
    return Resolution(ref, (sec.id,), (sec,))


def restrict_to_section(
    doc: Document, view: Normalized, hits: list[tuple[int, int]], ref: str, result: Result
) -> list[tuple[int, int]]:
    """Keep the hits inside the cited section; when none is, fill ``result`` as not_found
    in that section with the places where the quote is (``found_elsewhere``)."""
    from ipsis.sections import SectionNotFoundError, resolve_reference, segment

    tree = doc.sections if doc.sections is not None else segment(doc)
    spans = [view.offsets.span_to_source(Span(*h)) for h in hits]
    elsewhere: list[dict[str, Any]] = [
        {"source_id": result.source_id, "start": sp.start, "end": sp.end, "section": section_of(doc, sp.start)}
        for sp in spans
    ]
    try:
        resolution = _citable(tree, ref) or resolve_reference(tree, ref, doc)
    except (SectionNotFoundError, InputError) as exc:
        result.message = f"{exc}; the quote is elsewhere in the document"
        result.found_elsewhere = elsewhere
        return []
    result.warnings.extend({"kind": "section_unchecked", "message": why} for why in resolution.unchecked)
    inside = [
        h
        for h, sp in zip(hits, spans, strict=True)
        if any(sec.start <= sp.start and sp.end <= sec.end for sec in resolution.sections)
    ]
    if inside:
        from ipsis.sections.closing import end_uncertain

        at = [sp for h, sp in zip(hits, spans, strict=True) if h in inside]
        result.warnings.extend(
            {"kind": "subdivision_end_uncertain", "message": why}
            for why in dict.fromkeys(
                end_uncertain(tree, doc, sec, sp.start)
                for sp in at
                for sec in resolution.sections
                if sec.start <= sp.start and sp.end <= sec.end
            )
            if why
        )
    if not inside:
        labels = ", ".join(tree.path(sec) for sec in resolution.sections)
        where = "; ".join(f"{_section_name(e['section'])} [{e['start']}, {e['end']})" for e in elsewhere)
        result.message = f"not found in the cited section {labels}; it is in {where}"
        result.found_elsewhere = elsewhere
    return inside

"""Which stored runs cite a section that a new version changes (``ipsis store affected``).

Every verification run against the store records, in its manifest, the sections its located
citations fell in (``cited_sections``: source id -> section id -> count and the first citation
ids). :func:`affected_runs` diffs each older cited version of the new version's source with the
new one (:func:`~ipsis.history.diff.diff_documents`, once per pair) and lists every run citation
whose section is amended, revoked, removed or moved in the new version: the verdicts to review
once it is ingested.
"""

from __future__ import annotations

from typing import Any

from ipsis.errors import InputError
from ipsis.history.diff import UNCHANGED, DocumentDiff, diff_documents
from ipsis.store.db import Store
from ipsis.store.ids import version_key


def affected_runs(store: Store, new_id: str, user: str | None = None) -> list[dict[str, Any]]:
    """Run citations whose section changes in ``new_id`` (older versions of the same source)."""
    new = store.get(new_id, user)
    if new is None:
        msg = f"{new_id} is not a stored source version; list them with `ipsis sources`"
        raise InputError(msg)
    older = {v.id: v for v in store.family(new.name, user) if version_key(v.version) < version_key(new.version)}
    new_doc = store.document_of(new)
    diffs: dict[str, DocumentDiff] = {}
    out: list[dict[str, Any]] = []
    for run_id in store.run_ids():
        manifest = store.run(run_id) or {}
        for source_id, sections in sorted((manifest.get("cited_sections") or {}).items()):
            if source_id not in older:
                continue
            if source_id not in diffs:
                diffs[source_id] = diff_documents(store.document_of(older[source_id]), new_doc)
            diff = diffs[source_id]
            for section_id, info in sorted(sections.items()):
                change = diff.get(section_id)
                kind = change.change if change is not None else "removed"
                if kind == UNCHANGED:
                    continue
                out.append(
                    {
                        "run_id": run_id,
                        "source_id": source_id,
                        "new_version": new.id,
                        "section": section_id,
                        "change": kind,
                        "new_section": change.id if change is not None and change.id != section_id else None,
                        "notes": list(change.notes) if change is not None else [],
                        "citations": info.get("citations", []),
                        "count": info.get("count", 0),
                    }
                )
    return out

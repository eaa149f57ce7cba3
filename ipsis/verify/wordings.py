"""A quote not found in the text in force of a multi-version source, found in an older wording.

A BOE consolidated XML keeps every dated wording of each block (``meta["versions"]``:
:mod:`ipsis.sections.versions`); the document text is the wording in force, and a quote is
checked against it. When the quote is not there but is in a wording no longer in force (the
1978 Artículo 49 after the 2024 reform), the status stays ``not_found`` for the text cited
(DESIGN.md: a cited version is never silently replaced); the result says which wording holds
it and how to cite it (``ID@DATE``, :func:`ipsis.sections.versions.document_at`), in
``found_elsewhere`` and in the message.
"""

from __future__ import annotations

from typing import Any

from ipsis.document import Document
from ipsis.verify.match import find_all, quote_view
from ipsis.verify.policy import Policy
from ipsis.verify.result import Result

MAX_WORDINGS = 20_000
"""Wordings compared at most (a consolidated code has a few thousand blocks)."""


def older_wordings(doc: Document, prepared: str, policy: Policy, tier: str, result: Result) -> None:
    """Add to a ``not_found`` ``result`` the older wordings of ``doc`` that hold the quote."""
    versions = doc.meta.get("versions")
    if not isinstance(versions, dict) or not versions:
        return
    q = quote_view(prepared, tier, policy.disabled_steps).text
    current = {h.value: dict(h.attrs).get("fecha_vigencia", "") for h in doc.hints if h.kind == "block"}
    found: list[dict[str, Any]] = []
    seen = 0
    for block, wordings in versions.items():
        for w in wordings if isinstance(wordings, list) else ():
            seen += 1
            if seen > MAX_WORDINGS or len(found) >= 5:
                break
            day = str(w.get("fecha_vigencia", ""))
            if day == current.get(block) or not isinstance(w.get("text"), str):
                continue  # the wording in force is the document text
            if find_all(
                quote_view(w["text"], tier, policy.disabled_steps).text, q, boundaries=policy.boundaries, limit=1
            ):
                date = f"{day[:4]}-{day[4:6]}-{day[6:8]}" if len(day) == 8 else day
                found.append({"source_id": f"{result.source_id}@{date}", "block": block, "version": date,
                              "norm": w.get("id_norma", ""), "in_force": False})  # fmt: skip
    if found:
        result.found_elsewhere.extend(found)
        where = ", ".join(f"{f['block']} [{f['version']}]" for f in found)
        cite = found[0]["source_id"]
        result.message += f"; it is in an older wording (block {where}), not in the text in force: cite {cite}"

"""Multi-version sources (BOE consolidated XML): each dated wording of a block (pure).

The XML reader puts the latest wording of every ``<bloque>`` in the document text, one
``block`` hint per block, and every wording in ``meta["versions"]`` (block id -> list of
``{id_norma, fecha_publicacion, fecha_vigencia, text, notes}``). Here:

- :func:`attach_versions` gives each section that opens a block its ``versions``
  (:class:`~ipsis.sections.tree.SectionVersion`, oldest first; ``in_text`` marks the wording in
  the document text). Section ids do not depend on the version.
- :func:`document_at` builds the Document as it read on a date (``lei@1980-01-01``): each block
  in the wording in force that day; segmenting it gives the same ids with that day's text.

>>> iso_date("19920828"), iso_date("1992-08-28")
('1992-08-28', '1992-08-28')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ipsis.document import Document, Hint, Mark
from ipsis.errors import InputError
from ipsis.sections.tree import Section, SectionVersion

_DATE = re.compile(r"(\d{4})-?(\d{2})-?(\d{2})")


def iso_date(value: str) -> str:
    """``YYYYMMDD`` (BOE) or ``YYYY-MM-DD`` as ``YYYY-MM-DD``; anything else is an InputError."""
    m = _DATE.fullmatch(value.strip())
    if m is None:
        msg = f"version date {value!r} is not a date; write it as YYYY-MM-DD (e.g. 1992-08-28)"
        raise InputError(msg)
    return "-".join(m.groups())


def _versions(meta: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    v = meta.get("versions")
    return v if isinstance(v, dict) else {}


def attach_versions(sections: list[Section], hints: Sequence[Hint], meta: dict[str, Any]) -> list[Section]:
    """Sections that open a multi-version block get that block's ``versions``."""
    versions = _versions(meta)
    if not versions:
        return sections
    by_start: dict[int, tuple[str, str]] = {}
    for h in hints:
        if h.kind == "block" and versions.get(h.value):
            by_start[h.start] = (h.value, dict(h.attrs).get("fecha_vigencia", ""))
    out = []
    for s in sections:
        hit = by_start.get(s.start)
        if hit is not None and s.kind not in ("titulo", "capitulo", "secao", "scope"):
            block, current = hit
            vs = tuple(
                SectionVersion(
                    iso_date(v["fecha_vigencia"]),
                    iso_date(v["fecha_publicacion"]) if v.get("fecha_publicacion") else "",
                    v.get("id_norma", ""),
                    v["fecha_vigencia"] == current,
                )
                for v in sorted(versions[block], key=lambda v: v["fecha_vigencia"])
            )
            s = replace(s, versions=vs)
        out.append(s)
    return out


def document_at(doc: Document, date: str) -> Document:
    """``doc`` as it read on ``date``: every block in the wording in force that day.

    Blocks not yet in force that day are left out. The id is ``{doc.id}@{date}``; ``meta``
    keeps the versions and records ``version_date``. Raises InputError when the document has
    no dated versions or nothing was in force on ``date``.
    """
    day = iso_date(date).replace("-", "")
    versions = _versions(doc.meta)
    blocks = [h for h in doc.hints if h.kind == "block"]
    if not versions or not blocks:
        msg = (
            f"{doc.id} has no dated versions (only BOE consolidated XML has them); "
            "cite the document without a version date"
        )
        raise InputError(msg)
    parts: list[str] = []
    marks: list[Mark] = []
    hints: list[Hint] = []
    pos = 0
    for h in sorted(blocks, key=lambda h: h.start):
        in_force = [v for v in versions.get(h.value, []) if v.get("fecha_vigencia", "") <= day]
        if not in_force:
            continue
        v = max(in_force, key=lambda v: v["fecha_vigencia"])
        text = v["text"] + "\n"
        for a, b in v.get("notes", []):
            marks.append(Mark("note", pos + a, pos + b, "nota_pie"))
        attrs = tuple((k, v["fecha_vigencia"] if k == "fecha_vigencia" else x) for k, x in h.attrs)
        hints.append(Hint("block", h.value, pos, pos + len(text) - 1, attrs))
        parts.append(text)
        pos += len(text)
    if not parts:
        first = min(v["fecha_vigencia"] for vs in versions.values() for v in vs)
        msg = f"nothing of {doc.id} was in force on {iso_date(date)}; its first wording is of {iso_date(first)}"
        raise InputError(msg)
    meta = {**doc.meta, "version_date": iso_date(date)}
    return Document(f"{doc.id}@{iso_date(date)}", "".join(parts), (), tuple(marks), tuple(hints), meta)

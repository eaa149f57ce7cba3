"""A highlighted copy of a source PDF (``ipsis verify ... --annotate out.pdf``; issue 23).

Each result's places become PDF ``Highlight`` annotations (QuadPoints over its line boxes,
:mod:`ipsis.pdfboxes`), coloured by status, with the citation id and the message as the note:
located in green, ambiguous candidates in yellow, the nearest passage of a not-found quote in
red, found-elsewhere places in blue. The original bytes (in the store or on disk) are only read.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

COLOURS = {"located": "33cc55", "ambiguous": "ffcc00", "not_found": "ff3333", "found_elsewhere": "3388ff"}


def highlight_items(result: Any) -> list[tuple[list[dict[str, Any]], str, str]]:
    """``(boxes, colour, note)`` for every place of a result that has boxes."""
    note = f"{result.citation_id}: {result.status}: {result.message}"
    out = []
    colour = COLOURS.get(result.status, COLOURS["ambiguous"])
    for m in result.matches:
        if m.boxes:
            out.append((m.boxes, colour, note))
    near = result.nearest if isinstance(result.nearest, dict) else None
    if near and near.get("boxes"):
        out.append((near["boxes"], COLOURS["not_found"], f"{note} (nearest passage)"))
    for place in result.found_elsewhere or []:
        if isinstance(place, dict) and place.get("boxes"):
            out.append((place["boxes"], COLOURS["found_elsewhere"], f"{note} (found elsewhere)"))
    return out


def annotate_pdf(data: bytes, items: Iterable[tuple[list[dict[str, Any]], str, str]]) -> bytes:
    """``data`` (a PDF) with one Highlight annotation per item, one quad per box, on its page."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.annotations import Highlight
    from pypdf.generic import ArrayObject, FloatObject, NameObject, TextStringObject

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    for boxes, colour, note in items:
        by_page: dict[int, list[dict[str, Any]]] = {}
        for b in boxes:
            by_page.setdefault(int(b["page"]), []).append(b)
        for page, bs in by_page.items():
            if not 1 <= page <= len(writer.pages):
                continue
            quads: list[FloatObject] = []
            for b in bs:
                x0, y0, x1, y1 = b["x0"], b["y0"], b["x1"], b["y1"]
                quads += [FloatObject(v) for v in (x0, y1, x1, y1, x0, y0, x1, y0)]
            rect = (min(b["x0"] for b in bs), min(b["y0"] for b in bs), max(b["x1"] for b in bs),
                    max(b["y1"] for b in bs))  # fmt: skip
            annot = Highlight(rect=rect, quad_points=ArrayObject(quads), highlight_color=colour, printing=True)
            annot[NameObject("/Contents")] = TextStringObject(note)
            annot[NameObject("/T")] = TextStringObject("ipsis")
            writer.add_annotation(page_number=page - 1, annotation=annot)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()

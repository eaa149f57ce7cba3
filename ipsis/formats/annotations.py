"""W3C Web Annotations (JSON-LD) for results: ``--format annotations`` on locate, describe, verify.

One Annotation per result, with the ``assessing`` motivation: its body says the status and the
message (two ``TextualBody`` values, purposes ``assessing`` and ``commenting``); its target is
the source, refined by selectors for every place found: a ``TextQuoteSelector`` (the matched
words with the minimal unique prefix/suffix, so that it resolves back to the same span), a
``TextPositionSelector`` (code-point offsets into the document text, as everywhere in ipsis),
and for a PDF page a ``FragmentSelector`` (``page=N``, RFC 8118). A quote that was not found has
the source alone as target. The source is named by its origin URL when it has one, else its
work identifier (ELI, LexML URN), else ``urn:ipsis:source:ID``.

>>> a = annotation({"citation_id": "c1", "source_id": "lei", "status": "located", "message": "located once",
...     "matches": [{"start": 4, "end": 9, "text": "prazo", "page": 2,
...                  "selector": {"type": "TextQuoteSelector", "exact": "prazo", "prefix": "O ", "suffix": ""}}]})
>>> a["type"], a["target"][0]["source"], [s["type"] for s in a["target"][0]["selector"]]
('Annotation', 'urn:ipsis:source:lei', ['TextQuoteSelector', 'TextPositionSelector', 'FragmentSelector'])
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Mapping
from typing import Any, TextIO
from urllib.parse import quote

from ipsis import __version__
from ipsis.document import Document
from ipsis.formats.ids import section_uri, work_of

CONTEXT = "http://www.w3.org/ns/anno.jsonld"
PDF_FRAGMENT = "http://tools.ietf.org/rfc/rfc8118"
GENERATOR = {"id": f"urn:ipsis:software:{__version__}", "type": "Software", "name": f"ipsis {__version__}"}


def _iri(text: str) -> str:
    return quote(text, safe=":/@!$&'()*+,;=-._~")


def source_iri(source_id: str | None, doc: Document | None = None) -> str:
    """How an annotation names its source: origin URL, else work id, else an ``urn:ipsis`` name."""
    if doc is not None:
        origin = doc.meta.get("origin")
        if isinstance(origin, str) and origin.split(":", 1)[0] in ("http", "https", "file"):
            return origin
        work = work_of(doc)
        if work:
            return str(work["id"])
    return f"urn:ipsis:source:{_iri(source_id or 'unknown')}"


def _selectors(m: Mapping[str, Any]) -> list[dict[str, Any]]:
    sel = m.get("selector") or {}
    exact = sel.get("exact", m.get("text", ""))
    out: list[dict[str, Any]] = [{"type": "TextQuoteSelector", "exact": exact}]
    if sel.get("prefix"):
        out[0]["prefix"] = sel["prefix"]
    if sel.get("suffix"):
        out[0]["suffix"] = sel["suffix"]
    out.append({"type": "TextPositionSelector", "start": int(m["start"]), "end": int(m["end"])})
    if m.get("boxes"):  # the first line run of the quote on the page, as RFC 8118 names a region
        from ipsis.pdfboxes import viewrect

        out.append({"type": "FragmentSelector", "conformsTo": PDF_FRAGMENT, "value": viewrect(m["boxes"][0])})
    elif m.get("page"):
        out.append({"type": "FragmentSelector", "conformsTo": PDF_FRAGMENT, "value": f"page={int(m['page'])}"})
    return out


def annotation(
    result: Mapping[str, Any], doc: Document | None = None, *, run_id: str | None = None, created: str | None = None
) -> dict[str, Any]:
    """The Web Annotation of one result record (``Result.to_json()`` or a describe record)."""
    source = source_iri(result.get("source_id"), doc)
    cid = result.get("citation_id")
    local = f"{run_id or 'result'}:{cid if cid is not None else result.get('source_id', '')}"
    body = [{"type": "TextualBody", "purpose": "assessing", "value": str(result.get("status", "")),
             "format": "text/plain"}]  # fmt: skip
    if result.get("message"):
        body.append({"type": "TextualBody", "purpose": "commenting", "value": str(result["message"]),
                     "format": "text/plain"})  # fmt: skip
    targets: list[Any] = []
    work = work_of(doc) if doc is not None else None
    for m in result.get("matches") or []:
        target: dict[str, Any] = {"type": "SpecificResource", "source": source, "selector": _selectors(m)}
        section = m.get("section") or {}
        uri = section.get("uri") or (section_uri(work, section["id"]) if work and section.get("id") else None)
        if uri:
            target["scope"] = uri
        targets.append(target)
    return {
        "@context": CONTEXT,
        "id": f"urn:ipsis:annotation:{_iri(local)}",
        "type": "Annotation",
        "motivation": "assessing",
        "created": created or dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "generator": GENERATOR,
        "body": body,
        "target": targets or [source],
    }


def write_annotations(
    results: Iterable[Mapping[str, Any]], out: TextIO, documents: Mapping[str, Document] | None = None,
    run_id: str | None = None,
) -> int:  # fmt: skip
    """Write a JSON array of annotations as the results come; return how many."""
    n = 0
    out.write("[")
    for r in results:
        doc = (documents or {}).get(str(r.get("source_id"))) if r.get("source_id") is not None else None
        item = json.dumps(annotation(r, doc, run_id=run_id), ensure_ascii=False, indent=2).replace("\n", "\n  ")
        out.write(("," if n else "") + "\n  " + item)
        n += 1
    out.write("\n]\n" if n else "]\n")
    return n

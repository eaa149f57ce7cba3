"""Work identifiers (LexML URN, ELI) and the citable URI of a section.

A source's work identifier is never guessed: it is what the user declared at ingest (``ipsis
ingest --work URN_OR_ELI``, kept in the version's meta) or what the document itself states, an
ELI or a LexML URN that the document prints (the ``source:`` of a Markdown front matter from
legalize, an ELI link in a BOE page, ``urn:lex:`` in a Planalto/LexML page), and only when it
states exactly one. :func:`section_uri` then names a section: a LexML URN with its dispositivo
fragment (``urn:lex:br:federal:lei:2018-08-14;13709!art7_cpt_inc2``) or an ELI with the AKN eId
as fragment (``https://www.boe.es/eli/es/lo/2018/12/05/3#art_6__para_1``). :func:`section_for_uri`
finds the section such a URI names, so a record's ``section`` may be written that way.

>>> work_of_text("---\\nsource: 'https://www.boe.es/eli/es/lo/2018/12/05/3'\\n---\\n# Ley")["id"]
'https://www.boe.es/eli/es/lo/2018/12/05/3'
>>> section_uri({"id": "urn:lex:br:federal:lei:2018-08-14;13709", "scheme": "lexml"}, "art-7/inc-II")
'urn:lex:br:federal:lei:2018-08-14;13709!art7_cpt_inc2'
>>> from ipsis.sections import segment
>>> tree = segment("Art. 7º O tratamento:\\nI - mediante consentimento;\\nII - para obrigação legal.\\n", "br")
>>> section_for_uri(tree, "urn:lex:br:federal:lei:2018-08-14;13709!art7_cpt_inc2").id
'art-7/inc-II'
"""

from __future__ import annotations

import re
from typing import Any

from ipsis.document import Document
from ipsis.errors import InputError

ELI = re.compile(r"https?://[A-Za-z0-9.-]+/eli/[A-Za-z0-9/()_.:;,~-]+[A-Za-z0-9)/]")
LEXML = re.compile(r"urn:lex:[a-z]{2}(?:[.;:][A-Za-z0-9.;:~_-]+)+")
STATED_WINDOW = 20000
"""Characters at the start of a document searched for the identifier it states."""


def scheme_of(work_id: str) -> str:
    """``lexml`` or ``eli`` for a work identifier; anything else is an InputError naming the forms."""
    if LEXML.fullmatch(work_id):
        return "lexml"
    if ELI.fullmatch(work_id):
        return "eli"
    msg = (
        f"--work {work_id!r} is neither a LexML URN (urn:lex:br:federal:lei:2018-08-14;13709) nor an ELI "
        "(https://www.boe.es/eli/es/lo/2018/12/05/3)"
    )
    raise InputError(msg)


def declared_work(work_id: str) -> dict[str, Any]:
    """The ``meta["work"]`` record of an identifier given at ingest."""
    return {"id": work_id, "scheme": scheme_of(work_id), "from": "declared"}


def work_of_text(text: str) -> dict[str, Any] | None:
    """The one ELI or LexML URN the start of ``text`` states, or None (none, or several)."""
    head = text[:STATED_WINDOW]
    found = {m.group(): "eli" for m in ELI.finditer(head)}
    found |= {m.group(): "lexml" for m in LEXML.finditer(head)}
    if len(found) != 1:
        return None
    (work_id, scheme), = found.items()
    return {"id": work_id, "scheme": scheme, "from": "document"}


def work_of(doc: Document) -> dict[str, Any] | None:
    """The work identifier of ``doc``: declared (meta), else stated by the document, else None."""
    work = doc.meta.get("work")
    if isinstance(work, dict) and work.get("id"):
        return work
    return work_of_text(doc.text)


def section_uri(work: dict[str, Any] | None, section_id: str) -> str | None:
    """The citable URI of ``section_id`` in the work, or None when there is no work id."""
    from ipsis.sections.eid import akn_eid, lexml_fragment  # here: loading a text needs no sections

    if not work:
        return None
    if work.get("scheme") == "lexml":
        frag = lexml_fragment(section_id)
        return f"{work['id']}!{frag}" if frag else None
    return f"{str(work['id']).rstrip('/')}#{akn_eid(section_id)}"


def section_for_uri(tree: Any, uri: str) -> Any:
    """The section of ``tree`` that a LexML URN fragment (``!art7_cpt_inc2``) or an ELI with an
    AKN eId fragment (``#art_6__para_1``) names, or None."""
    from ipsis.sections.eid import akn_eid, lexml_fragment  # here: loading a text needs no sections

    if uri.startswith("urn:lex:") and "!" in uri:
        frag = uri.split("!", 1)[1]
        return next((sec for sec in tree if lexml_fragment(sec.id) == frag), None)
    if "#" in uri and ELI.match(uri):
        frag = uri.split("#", 1)[1]
        return next((sec for sec in tree if akn_eid(sec.id) == frag), None)
    return None


def is_citable_uri(value: str) -> bool:
    """Whether a record's ``section`` is written as a LexML URN or an ELI."""
    return value.startswith("urn:lex:") or bool(ELI.match(value))

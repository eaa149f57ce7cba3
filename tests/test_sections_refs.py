"""Written references resolved against real documents (cases in tests/cases/sections)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from ipsis.document import Document
from ipsis.errors import InputError
from ipsis.sections import SectionNotFoundError, SectionTree, resolve_reference, segment
from tests.sections_gold import CORPORA, load

CASES = json.loads((Path(__file__).parent / "cases/sections/references.json").read_text("utf-8"))
SOURCES = {
    "cf88": "br/cf88-camara-cedi-texto-atualizado-ec105.pdf",
    "lgpd": "br/lgpd-camara-cedi-2024.pdf",
    "crp": "pt/crp-constituicao-republica-portuguesa.txt",
    "ce": "es/constitucion-espanola-boe-consolidado-2024-02-17.pdf",
    "rfc7519": "rfc/rfc7519.txt",
    "rfc9111": "rfc/rfc9111.txt",
}


@cache
def _doc(name: str) -> tuple[Document, SectionTree]:
    doc = load(CORPORA / SOURCES[name])
    return doc, segment(doc)


def test_there_are_enough_cases() -> None:
    assert len(CASES) >= 40
    assert sum("fail" in c for c in CASES) >= 10


@pytest.mark.parametrize("case", CASES, ids=[f"{c['doc']}:{c['ref']}" for c in CASES])
def test_reference(case: dict[str, object]) -> None:
    doc, tree = _doc(str(case["doc"]))
    assert doc.sections is tree
    ref = str(case["ref"])
    if "fail" in case:
        with pytest.raises(InputError) as info:
            resolve_reference(tree, ref)
        assert str(case["fail"]) in str(info.value)
        if isinstance(info.value, SectionNotFoundError):
            assert info.value.closest in tree
        return
    res = resolve_reference(tree, ref)
    assert list(res.ids) == case["ids"]
    for sec in res.sections:
        body = doc.text[sec.start : sec.end]
        assert body.startswith(sec.label.split()[0]), (sec, body[:40])


def test_section_errors_live_in_ipsis_errors() -> None:
    import ipsis.errors
    import ipsis.sections

    assert ipsis.sections.SectionNotFoundError is ipsis.errors.SectionNotFoundError
    assert ipsis.sections.ReferenceSyntaxError is ipsis.errors.ReferenceSyntaxError
    assert issubclass(ipsis.errors.SectionNotFoundError, (ipsis.errors.InputError, LookupError))

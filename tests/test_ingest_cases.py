"""Golden ingest cases (tests/cases/ingest/*.json) on the real documents in corpora/.

Each case names a corpus file and what its document text must hold: passages (with their page),
passages that must not be there, marks and hints with their exact text, counts and meta. Every
span is checked by slicing the document text.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from ipsis.document import Document
from ipsis.ingest import load_document
from tests.shared import resolve

ROOT = Path(__file__).resolve().parent.parent
CASES = sorted((ROOT / "tests" / "cases" / "ingest").glob("*.json"))


def _cases() -> list[Any]:
    out = []
    for path in CASES:
        for case in json.loads(path.read_text(encoding="utf-8")):
            out.append(pytest.param(case, id=f"{path.stem}:{case['label'][:60]}"))
    return out


@cache
def _load(file: str, options: str) -> Document:
    return load_document(resolve(file), **json.loads(options))


def _span_text(doc: Document, item: Any) -> str:
    return doc.text[item.start : item.end]


def _matches(doc: Document, item: Any, want: dict[str, Any]) -> bool:
    got = _span_text(doc, item)
    if "text" in want and got != want["text"]:
        return False
    if "starts" in want and not got.startswith(want["starts"]):
        return False
    if "page" in want and doc.page_of(item.start) != want["page"]:
        return False
    return "before" not in want or doc.text[: item.start].endswith(want["before"])


@pytest.mark.parametrize("case", _cases())
def test_ingest_case(case: dict[str, Any]) -> None:
    doc = _load(case["file"], json.dumps(case.get("options", {}), sort_keys=True))
    text = doc.text
    for key, value in case.get("meta", {}).items():
        assert doc.meta.get(key) == value, key
    for want in case.get("contains", []):
        at = text.find(want["text"])
        assert at >= 0, want["text"]
        if "page" in want:
            assert doc.page_of(at) == want["page"], want["text"]
    for absent in case.get("absent", []):
        assert absent not in text
    for needle, count in case.get("counts", {}).items():
        assert text.count(needle) == count, needle
    for want in case.get("marks", []):
        kind = [m for m in doc.marks if m.kind == want["kind"]]
        assert any(_matches(doc, m, want) for m in kind), want
    for kind, (low, high) in case.get("mark_counts", {}).items():
        assert low <= sum(m.kind == kind for m in doc.marks) <= high, kind
    for passage in case.get("not_marked", []):
        at = text.find(passage)
        assert at >= 0, passage
        assert not doc.marks_overlapping(type(doc.marks[0].span)(at, at + len(passage)), {"furniture"}), passage
    for want in case.get("hints", []):
        hits = [h for h in doc.hints if h.kind == want["kind"] and h.value == want["value"]]
        assert any(_matches(doc, h, want) for h in hits), want
        if "attrs" in want:
            assert any(dict(h.attrs) == want["attrs"] for h in hits), want
    for block, expected in case.get("versions", {}).items():
        versions = doc.meta["versions"][block]
        assert [v["fecha_vigencia"] for v in versions] == [d for d, _ in expected]
        for version, (_, passage) in zip(versions, expected, strict=True):
            assert passage in version["text"]
    if case.get("same_length_as_file"):
        raw = resolve(case["file"]).read_bytes().decode(doc.meta["encoding"])
        assert len(text) == len(raw.removeprefix("\ufeff"))
    assert doc.meta["sha256"] and len(doc.meta["sha256"]) == 64
    for mark in doc.marks:
        assert 0 <= mark.start <= mark.end <= len(text)

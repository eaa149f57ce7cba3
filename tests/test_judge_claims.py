"""Support judgment on hand-written claims (issue 25), through the real pipeline.

``tests/cases/judge-claims/dev.json`` is the tuning set: no meaning change in it may be called
``supported`` but the two of its last batch (dev5) the rules do not read, named below.
``heldout2.json`` (written before the fourth round of rules, measured once before it and once after)
and ``heldout.json`` (the first held-out set, seen three times before the fourth round, reported apart):
their AUC and their count of meaning changes called supported are floors pinned at the measured
figures (raise them, never lower them). ``heldout3.json`` (written without reading the rules, over
sections no other set uses) is checked for integrity only here: its floors are set once the rules
are frozen. ``python benchmarks/judge_claims.py`` prints the full report.
"""

from __future__ import annotations

import pytest

from benchmarks.judge_claims import auc, judge_set, load
from ipsis.ingest import load_document
from ipsis.sections import resolve_reference, segment
from ipsis.verify import Policy, verify_records
from tests.shared import available, resolve

pytestmark = pytest.mark.skipif(not available(), reason="needs ../shared/corpora")

HELDOUT2_AUC_FLOOR = 0.74
HELDOUT2_SUPPORTED_CEILING = 36
"""Measured on heldout2 (325 claims, 199 meaning changes): before the fourth round of rules AUC 0.702
and 51 supported; after it 0.748 [0.689, 0.801] and 36. The issue's targets (AUC >= 0.9, none
supported) are not reached."""
HELDOUT_AUC_FLOOR = 0.85
HELDOUT_SUPPORTED_CEILING = 19
"""The first held-out set (158 claims, 96 meaning changes), seen: 0.769 and 32 before any rule, 0.839
and 21 after the third round, 0.858 and 19 after the fourth."""
KNOWN_TUNING_MISSES = frozenset({
    # the actor after an inverted verb ("Responde ... o titular que"), not an opening subject
    "Responde pelos danos decorrentes da violação da segurança dos dados o titular que der causa ao dano.",
    # two names traded around "takes precedence over"; an order check on predicates flagged
    # hundreds of faithful reorderings in the controls, so none is made
    "If-Modified-Since takes precedence over If-None-Match.",
})


@pytest.fixture(scope="module")
def dev() -> list[dict[str, object]]:
    return judge_set(load("dev"))[0]


@pytest.fixture(scope="module")
def heldout() -> list[dict[str, object]]:
    return judge_set(load("heldout"))[0]


@pytest.fixture(scope="module")
def heldout2() -> list[dict[str, object]]:
    return judge_set(load("heldout2"))[0]


def test_every_quote_is_located_in_its_cited_section(
    dev: list[dict[str, object]], heldout: list[dict[str, object]], heldout2: list[dict[str, object]]
) -> None:
    assert {r["status"] for r in dev + heldout + heldout2} == {"located"}


def test_no_meaning_change_of_the_tuning_set_is_supported(dev: list[dict[str, object]]) -> None:
    wrong = {r["claim"] for r in dev if r["gold"] != "supported" and r["verdict"] == "supported"}
    assert wrong <= KNOWN_TUNING_MISSES, wrong - KNOWN_TUNING_MISSES
    pos = [float(r["score"]) for r in dev if r["gold"] == "supported"]  # type: ignore[arg-type]
    neg = [float(r["score"]) for r in dev if r["gold"] != "supported"]  # type: ignore[arg-type]
    assert auc(pos, neg) >= 0.94  # measured 0.951 over the five batches


def _floors(rows: list[dict[str, object]], auc_floor: float, ceiling: int) -> None:
    pos = [float(r["score"]) for r in rows if r["gold"] == "supported"]  # type: ignore[arg-type]
    neg = [float(r["score"]) for r in rows if r["gold"] != "supported"]  # type: ignore[arg-type]
    assert auc(pos, neg) >= auc_floor
    wrong = sum(r["gold"] != "supported" and r["verdict"] == "supported" for r in rows)
    assert wrong <= ceiling


def test_heldout2_floors(heldout2: list[dict[str, object]]) -> None:
    _floors(heldout2, HELDOUT2_AUC_FLOOR, HELDOUT2_SUPPORTED_CEILING)


def test_heldout_floors(heldout: list[dict[str, object]]) -> None:
    _floors(heldout, HELDOUT_AUC_FLOOR, HELDOUT_SUPPORTED_CEILING)


def test_every_structure_verdict_names_its_evidence(dev: list[dict[str, object]]) -> None:
    for r in dev:
        if r["verdict"] == "contradicted":
            assert any(": claim: " in e or "section:" in e for e in r["evidence"]), r  # type: ignore[attr-defined]


# --- heldout3: the set's integrity (not the judge's score) ---------------------------------------

# heldout3 measured once, on the rules of main at 17fce1f (no round of rules has seen it): AUC 0.691
# [0.633, 0.752], 27 of 189 meaning changes called supported, 39 of 127 faithful supported (pt 0.628,
# es 0.760, en 0.688). Not a floor: floors are set once the rules are frozen.

KINDS = frozenset({
    "faithful", "actor_swapped", "roles_swapped", "object_swapped", "exception_dropped", "exception_added",
    "exception_changed", "condition_dropped", "condition_added", "condition_changed", "condition_reversed",
    "scope_widened", "scope_narrowed", "limiter_changed", "limiter_dropped", "quantifier_changed",
    "negation_moved", "polarity_reversed", "modality_changed", "number_changed", "quantity_changed",
    "time_changed", "antonym",
})
"""The kinds of the four sets: ``faithful`` (gold ``supported``) and the meaning changes."""


@pytest.fixture(scope="module")
def heldout3() -> dict[str, object]:
    return load("heldout3")


def _spans(data: dict, docs: dict) -> dict[tuple[str, str], tuple[str, int, int]]:  # type: ignore[type-arg]
    """(source id, cited section) -> (document path, start, end) of the section the citation names."""
    out = {}
    for c in data["cases"]:
        key = (c["source"], c["section"])
        if key not in out:
            path = data["sources"][c["source"]]["path"]
            doc = docs[path]
            sec = resolve_reference(doc.sections or segment(doc), c["section"]).sections[0]
            out[key] = (path, sec.start, sec.end)
    return out


def test_heldout3_labels_and_composition(heldout3: dict) -> None:  # type: ignore[type-arg]
    cases, sources = heldout3["cases"], heldout3["sources"]
    for c in cases:
        assert c["source"] in sources and c["kind"] in KINDS and c["note"].strip(), c
        assert c["gold"] == ("supported" if c["kind"] == "faithful" else "not_supported"), c
        assert c["claim"].strip() and c["claim"] != c["quote"], c
    assert len({c["claim"] for c in cases}) == len(cases)  # no claim written twice
    faithful = sum(c["gold"] == "supported" for c in cases)
    assert len(cases) >= 200 and 0.35 <= faithful / len(cases) <= 0.45
    assert {sources[c["source"]]["lang"] for c in cases} == {"pt", "es", "en"}
    countries = {sources[c["source"]]["country"] for c in cases}
    assert "RFC" in countries and len(countries - {"RFC"}) >= 3
    assert len({c["kind"] for c in cases}) >= 15  # many kinds of change, not one mutation


def test_heldout3_quotes_are_located_in_their_cited_sections(heldout3: dict) -> None:  # type: ignore[type-arg]
    docs = {src["path"]: load_document(resolve(src["path"]), sid) for sid, src in heldout3["sources"].items()}
    by_id = {sid: docs[src["path"]] for sid, src in heldout3["sources"].items()}
    spans = _spans(heldout3, docs)
    quotes = sorted({(c["source"], c["section"], c["quote"]) for c in heldout3["cases"]})
    records = [
        {"citation_id": str(i), "source_id": s, "quote": q, "section": sec} for i, (s, sec, q) in enumerate(quotes)
    ]
    for (sid, sec, quote), res in zip(quotes, verify_records(records, by_id.get, Policy()), strict=True):
        assert res.status == "located", (sid, sec, quote)
        m = res.matches[0]
        _, start, end = spans[(sid, sec)]
        assert start <= m.start < m.end <= end, (sid, sec, quote)
        assert by_id[sid].text[m.start : m.end] == m.text
        # the span reads as the quote once line breaks, soft hyphens and spacing are set aside
        flat = " ".join(m.text.replace("\u00ad\n", "").replace("\u00ad", "").split())
        assert flat == " ".join(quote.split()), (flat, quote)


def test_heldout3_shares_no_section_with_the_other_sets(heldout3: dict) -> None:  # type: ignore[type-arg]
    others = [load(name) for name in ("dev", "heldout", "heldout2")]
    paths = {src["path"] for src in heldout3["sources"].values()}
    common = paths & {src["path"] for o in others for src in o["sources"].values()}
    assert len(paths - common) >= 5  # mostly documents no other set cites
    docs = {p: load_document(resolve(p), p) for p in common}

    def in_common(data: dict) -> dict:  # type: ignore[type-arg]
        return {**data, "cases": [c for c in data["cases"] if data["sources"][c["source"]]["path"] in common]}

    mine = _spans(in_common(heldout3), docs).values()
    for other in others:
        for path, start, end in _spans(in_common(other), docs).values():
            for p, s, e in mine:  # no section of heldout3 overlaps (is, holds or lies in) one of theirs
                assert p != path or e <= start or end <= s, (path, start, end)

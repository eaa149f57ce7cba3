"""Support judgment on hand-written claims (issue 25), through the real pipeline.

The three first sets in ``tests/cases/judge-claims/`` were all read while writing the fifth round
of rules (the alignment of the claim with the quote's own sentence, :mod:`ipsis.judge.align`):
``dev.json`` (five batches), ``heldout.json`` and ``heldout2.json``, each written before a round
of rules and measured first as a held-out set. ``fresh5.json`` was written after that round's
rules, measured once (0.629, 7 of 25 meaning changes supported) and then read for the general
fixes it showed. Their AUC and their count of meaning changes called ``supported`` are floors
pinned at the figures measured at the end of the fifth round (raise them, never lower them); the
honest figure for new wordings is a set none of the rules saw (``heldout3.json``, written by
someone who had not read the rules, is checked for integrity here and its floors are the figures
measured once on the frozen rules). The sixth round (:mod:`ipsis.judge.restrict`, concessives,
the negation of the predicate, the modal that governs the claim's act, fractions and multiples)
read the four sets above and heldout3's first half only (split by document with a fixed seed,
:func:`benchmarks.judge_claims.halves`); the second half was measured once on its frozen rules.
``heldout4.json``, written the same way over sections none of the five others uses, was measured
once on the fifth round's rules and once on the sixth's frozen rules; its floors are that figure.
``python benchmarks/judge_claims.py`` prints the report.
"""

from __future__ import annotations

import re

import pytest

from benchmarks.judge_claims import auc, halves, judge_set, load
from ipsis.ingest import load_document
from ipsis.sections import resolve_reference, segment
from ipsis.verify import Policy, verify_records
from tests.shared import available, resolve

pytestmark = pytest.mark.skipif(not available(), reason="needs ../shared/corpora")

# Since issue 25's seventh stop the score is the fitted combination of the cues (ipsis/judge/fitted.py,
# weights fitted on all six sets by benchmarks/fit_judge.py). The floors below are its OUT-OF-FOLD
# figures (leave-one-document-out: each document's claims scored by a model fitted on the other
# documents; "supported" at the out-of-fold threshold 0.85), never the in-sample ones: the shipped
# model, fitted on every claim, must do at least as well on each set. The hand rules' figures on
# the same claims are in each docstring (the six rounds of rules read the first four sets).
DEV_AUC_FLOOR, DEV_SUPPORTED_CEILING = 0.968, 2
"""dev.json (261 claims, 159 meaning changes): rules 0.970 (2 supported, 59 faithful supported at 0.8);
fitted out of fold 0.968 [0.942, 0.988], 2 supported, 60 faithful."""
HELDOUT2_AUC_FLOOR, HELDOUT2_SUPPORTED_CEILING = 0.928, 4
"""heldout2.json (325 claims, 199 meaning changes): rules 0.931 and 7; fitted out of fold 0.928 [0.897,
0.956] and 4 (56 of 126 faithful supported)."""
HELDOUT_AUC_FLOOR, HELDOUT_SUPPORTED_CEILING = 0.922, 2
"""heldout.json (158 claims, 96 meaning changes): rules 0.927 and 5; fitted out of fold 0.922 [0.868,
0.966] and 2."""
FRESH5_AUC_FLOOR, FRESH5_SUPPORTED_CEILING = 0.906, 0
"""fresh5.json (42 claims, 25 meaning changes): rules 0.935 and 1; fitted out of fold 0.906 [0.807,
0.979] and 0."""
HELDOUT3_AUC_FLOOR, HELDOUT3_SUPPORTED_CEILING = 0.801, 8
"""heldout3.json (316 claims, 189 meaning changes; written by someone who had not read the rules):
rules 0.769 [0.713, 0.823] and 12 (half of it read by the sixth round); fitted out of fold 0.801
[0.750, 0.850] and 8; fitted without heldout3 at all (leave-one-set-out) 0.793 and 8."""
HELDOUT4_AUC_FLOOR, HELDOUT4_SUPPORTED_CEILING = 0.735, 9
"""heldout4.json (365 claims, 216 meaning changes; no rule writer read it): rules 0.687 [0.629,
0.742] and 21 (41 of 149 faithful supported); fitted out of fold 0.735 [0.681, 0.785] and 9 (29
faithful); fitted without heldout4 at all (leave-one-set-out) 0.717 [0.661, 0.768], 17 at 0.85."""
KNOWN_TUNING_MISSES = frozenset({
    # the actor after an inverted verb ("Responde ... o titular que"), not an opening subject
    "Responde pelos danos decorrentes da violação da segurança dos dados o titular que der causa ao dano.",
    # two hyphenated names traded around "takes precedence over": the alignment reads names in
    # parts, so the mirror check sees no two one-word slots
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


@pytest.fixture(scope="module")
def fresh5() -> list[dict[str, object]]:
    return judge_set(load("fresh5"))[0]


def test_every_quote_is_located_in_its_cited_section(
    dev: list[dict[str, object]], heldout: list[dict[str, object]], heldout2: list[dict[str, object]]
) -> None:
    assert {r["status"] for r in dev + heldout + heldout2} == {"located"}


def test_no_meaning_change_of_the_tuning_set_is_supported(dev: list[dict[str, object]]) -> None:
    wrong = {r["claim"] for r in dev if r["gold"] != "supported" and r["verdict"] == "supported"}
    assert wrong <= KNOWN_TUNING_MISSES, wrong - KNOWN_TUNING_MISSES
    _floors(dev, DEV_AUC_FLOOR, DEV_SUPPORTED_CEILING)


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


def test_fresh5_floors(fresh5: list[dict[str, object]]) -> None:
    assert {r["status"] for r in fresh5} == {"located"}
    _floors(fresh5, FRESH5_AUC_FLOOR, FRESH5_SUPPORTED_CEILING)


def test_heldout3_floors(heldout3: dict) -> None:  # type: ignore[type-arg]
    rows = judge_set(heldout3)[0]
    _floors(rows, HELDOUT3_AUC_FLOOR, HELDOUT3_SUPPORTED_CEILING)
    tuning, _ = halves(heldout3)
    assert tuning == ["cppt", "cpeum", "cdc", "rfc7232", "lopdgdd"]  # the split the sixth round read


def test_heldout4_floors() -> None:
    rows = judge_set(load("heldout4"))[0]
    assert {r["status"] for r in rows} == {"located"}
    _floors(rows, HELDOUT4_AUC_FLOOR, HELDOUT4_SUPPORTED_CEILING)


def test_every_structure_verdict_names_its_evidence(dev: list[dict[str, object]]) -> None:
    for r in dev:
        if r["verdict"] == "contradicted":
            assert any(": claim: " in e or "section:" in e for e in r["evidence"]), r  # type: ignore[attr-defined]


def test_faithful_paraphrases_are_mostly_supported(heldout2: list[dict[str, object]]) -> None:
    # the fifth round fixed false contradictions rather than trading them for fewer supported
    # meaning changes: 62 of 126 faithful paraphrases were supported before it, 81 after, 82 after the
    # sixth; the fitted combination's stricter threshold supports 56 out of fold (the floor), 3 changes
    assert sum(r["gold"] == "supported" and r["verdict"] == "supported" for r in heldout2) >= 56


# --- heldout3 to heldout7: the sets' integrity (not the judge's score) ---------------------------

# heldout3 measured once, on the rules of main at 17fce1f (no round of rules has seen it): AUC 0.691
# [0.633, 0.752], 27 of 189 meaning changes called supported, 39 of 127 faithful supported (pt 0.628,
# es 0.760, en 0.688). Not a floor: floors are set once the rules are frozen.
# heldout4 (365 claims, 216 meaning changes; written by someone who had not read the rules, over
# sections none of the five other sets uses) measured once on main's rules at 9f325c8: AUC 0.684
# [0.628, 0.739], 22 of 216 meaning changes called supported, 43 of 149 faithful supported (pt 0.721,
# es 0.620, en 0.751); 0.687 [0.629, 0.742] and 21 on the sixth round's frozen rules (the floors above).
# heldout5 (408 claims, 235 meaning changes; written by someone who had not read the rules and never
# ran the judge on it, over 79 sections none of the six other sets uses, five of its eleven documents
# cited by no other set) measured once on main's rules at 48c8c63 (no round of rules has seen it): AUC
# 0.708 [0.659, 0.757], 30 of 235 meaning changes called supported, 56 of 173 faithful supported (pt
# 0.790, es 0.661, en 0.683); measured once more on the frozen fitted combination (main at 0f9c874,
# which never fitted on it): AUC 0.712 [0.662, 0.760], 18 of 235 meaning changes called supported, 34 of
# 173 faithful supported (pt 0.780, es 0.680, en 0.679): the floors below.
HELDOUT5_AUC_FLOOR, HELDOUT5_SUPPORTED_CEILING = 0.718, 18
# heldout6 (310 claims, 189 meaning changes; written by someone who had not read the judge's code and
# never ran the judge on it, over 49 sections none of the seven other sets uses, five of its eleven
# documents cited by no other set) measured once on main's fitted combination at 3899673 (never fitted
# on it): AUC 0.763 [0.708, 0.815], 19 of 189 meaning changes called supported, 33 of 121 faithful
# supported (pt 0.760, es 0.814, en 0.664). The judge was frozen when it was measured (the seventh
# round's predicate alignment was not adopted: it did not beat the shipped judge out of fold), so
# those figures are its floors.
# The ninth round read heldout6 for error analysis and changed the modality cues (the weights stay
# those fitted on the six sets before heldout5, never on heldout5 or heldout6): heldout6 0.781, 17 of
# 189 changes supported (0.7806); heldout5 0.719, 18. Those are the floors now (heldout6 is seen since).
HELDOUT6_AUC_FLOOR, HELDOUT6_SUPPORTED_CEILING = 0.780, 17
# heldout7 (296 claims, 182 meaning changes; written by someone who had not read the judge's code, over
# 50 sections none of the eight other sets uses in any edition of the same norm) was committed before
# any measurement and measured once on the judge frozen after the ninth round (and on the judge before
# it, in the same minutes: the same 0.667, 11): AUC 0.667 [0.606, 0.729], 11 of 182 changes supported.
HELDOUT7_AUC_FLOOR, HELDOUT7_SUPPORTED_CEILING = 0.667, 11


def test_heldout5_floors() -> None:
    rows = judge_set(load("heldout5"))[0]
    assert {r["status"] for r in rows} == {"located"}
    _floors(rows, HELDOUT5_AUC_FLOOR, HELDOUT5_SUPPORTED_CEILING)


def test_heldout6_floors() -> None:
    rows = judge_set(load("heldout6"))[0]
    assert {r["status"] for r in rows} == {"located"}
    _floors(rows, HELDOUT6_AUC_FLOOR, HELDOUT6_SUPPORTED_CEILING)


def test_heldout7_floors() -> None:
    rows = judge_set(load("heldout7"))[0]
    assert {r["status"] for r in rows} == {"located"}
    _floors(rows, HELDOUT7_AUC_FLOOR, HELDOUT7_SUPPORTED_CEILING)


KINDS = frozenset({
    "faithful", "actor_swapped", "roles_swapped", "object_swapped", "exception_dropped", "exception_added",
    "exception_changed", "condition_dropped", "condition_added", "condition_changed", "condition_reversed",
    "scope_widened", "scope_narrowed", "limiter_changed", "limiter_dropped", "quantifier_changed",
    "negation_moved", "polarity_reversed", "modality_changed", "number_changed", "quantity_changed",
    "time_changed", "antonym", "purpose_changed", "causal_reversed",
})
"""The kinds of the held-out sets: ``faithful`` (gold ``supported``) and the meaning changes."""

HELD_OUT = {
    "heldout3": ("dev", "heldout", "heldout2"),
    "heldout4": ("dev", "heldout", "heldout2", "fresh5", "heldout3"),
    "heldout5": ("dev", "heldout", "heldout2", "fresh5", "heldout3", "heldout4"),
    "heldout6": ("dev", "heldout", "heldout2", "fresh5", "heldout3", "heldout4", "heldout5"),
    "heldout7": ("dev", "heldout", "heldout2", "fresh5", "heldout3", "heldout4", "heldout5", "heldout6"),
}
"""Each set none of the rules saw, with the sets written before it whose sections it must not share."""


NEW_DOCUMENTS = {"heldout7": 3}
"""Documents no earlier set cites, at least (five unless named): by heldout7 the corpus had no other
pt/es/en document that no set cites and whose sections resolve (RFC 9111's HTML rendering segments
into its references only, the LGPD guide is no norm, the scanned Constitución Española pages hold
only articles other sets use), so heldout7 has three (RFC 9111's XML, RFC 7519's PDF, the LGPD's OCR
layer) and its other eight documents are cited on other sections."""

EDITIONS = {
    "rfc9111": ("corpora/rfc/rfc9111.txt", "corpora/rfc/rfc9111-auth48-to-be.v3.xml"),
    "rfc7519": ("corpora/rfc/rfc7519.txt", "corpora/rfc/rfc7519-rfceditor-pdfrfc.pdf"),
    "lgpd": ("corpora/br/lei-13709-2018-lgpd-planalto.html", "corpora/br/lgpd-camara-cedi-2024.pdf",
             "corpora/br/lgpd-senado-edicao-2024.pdf", "corpora/scans/ocr-layer/lgpd-camara-pp2-4-scanned.pdf"),
}
"""Editions of one norm in the corpus that heldout7 cites in a document the other sets do not."""


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


def _flat(text: str) -> str:
    """A span as its quote reads once soft hyphens, a compound's hyphen broken at a line end
    (``Content-\n   Length``) and spacing are set aside."""
    text = re.sub(r"-\n[ \t]*", "-", text.replace("\u00ad\n", "").replace("\u00ad", ""))
    return " ".join(text.split())


@pytest.mark.parametrize("name", sorted(HELD_OUT))
def test_held_out_labels_and_composition(name: str) -> None:
    data = load(name)
    cases, sources = data["cases"], data["sources"]
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
    if name in ("heldout4", "heldout5", "heldout6", "heldout7"):  # the briefs of issue 25's fourth to seventh
        # sets: four countries, two RFCs, 40 sections (45 from the fifth on)
        assert {"BR", "PT", "ES"} < countries and len(countries - {"RFC"}) >= 4
        assert len({src["path"] for src in sources.values() if src["country"] == "RFC"}) >= 2
        assert len({(c["source"], c["section"]) for c in cases}) >= (40 if name == "heldout4" else 45)


@pytest.mark.parametrize("name", sorted(HELD_OUT))
def test_held_out_quotes_are_located_in_their_cited_sections(name: str) -> None:
    data = load(name)
    docs = {src["path"]: load_document(resolve(src["path"]), sid) for sid, src in data["sources"].items()}
    by_id = {sid: docs[src["path"]] for sid, src in data["sources"].items()}
    spans = _spans(data, docs)
    quotes = sorted({(c["source"], c["section"], c["quote"]) for c in data["cases"]})
    records = [
        {"citation_id": str(i), "source_id": s, "quote": q, "section": sec} for i, (s, sec, q) in enumerate(quotes)
    ]
    for (sid, sec, quote), res in zip(quotes, verify_records(records, by_id.get, Policy()), strict=True):
        assert res.status == "located", (sid, sec, quote)
        m = res.matches[0]
        _, start, end = spans[(sid, sec)]
        assert start <= m.start < m.end <= end, (sid, sec, quote)
        assert by_id[sid].text[m.start : m.end] == m.text
        assert _flat(m.text) == " ".join(quote.split()), (m.text, quote)


@pytest.mark.parametrize("name", sorted(HELD_OUT))
def test_held_out_shares_no_section_with_the_other_sets(name: str) -> None:
    data, others = load(name), [load(o) for o in HELD_OUT[name]]
    paths = {src["path"] for src in data["sources"].values()}
    common = paths & {src["path"] for o in others for src in o["sources"].values()}
    assert len(paths - common) >= NEW_DOCUMENTS.get(name, 5)  # mostly documents no other set cites
    docs = {p: load_document(resolve(p), p) for p in common}

    def in_common(d: dict) -> dict:  # type: ignore[type-arg]
        return {**d, "cases": [c for c in d["cases"] if d["sources"][c["source"]]["path"] in common]}

    mine = _spans(in_common(data), docs).values()
    for other in others:
        for path, start, end in _spans(in_common(other), docs).values():
            for p, s, e in mine:  # no section of the held-out set overlaps (is, holds or lies in) one of theirs
                assert p != path or e <= start or end <= s, (name, path, start, end)


def _section_ids(data: dict, paths: tuple[str, ...]) -> set[str]:  # type: ignore[type-arg]
    """The ids (``sec-4.3.1``, ``art-5/inc-XI``) of the sections ``data`` cites in the documents ``paths``."""
    docs = {p: load_document(resolve(p), p) for p in {s["path"] for s in data["sources"].values()} & set(paths)}
    out = set()
    for c in data["cases"]:
        path = data["sources"][c["source"]]["path"]
        if path in docs:
            out.add(resolve_reference(docs[path].sections or segment(docs[path]), c["section"]).sections[0].id)
    return out


def _nested(a: str, b: str) -> bool:
    """Whether two section ids name the same section or one holds the other (``sec-4.3`` and ``sec-4.3.1``)."""
    return a == b or any(x.startswith(y) and x[len(y)] in "./" for x, y in ((a, b), (b, a)) if len(x) > len(y))


@pytest.mark.parametrize("norm", sorted(EDITIONS))
def test_heldout7_shares_no_section_with_the_other_sets_in_another_edition(norm: str) -> None:
    paths = EDITIONS[norm]
    mine = _section_ids(load("heldout7"), paths)
    assert mine  # the set cites this norm
    theirs = set().union(*(_section_ids(load(o), paths) for o in HELD_OUT["heldout7"]))
    assert theirs  # and the other sets cite it in another edition
    assert not {(a, b) for a in mine for b in theirs if _nested(a, b)}

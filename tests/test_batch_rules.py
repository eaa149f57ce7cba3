"""The batch path (blocks of one source, one automaton pass, the store's found-elsewhere look-up
of a block) gives the per-record path's results on the quotes the newer rules decide: compounds
quoted with the hyphen the source prints at a line end (``application-\\nlevel``), quotes that
stop inside a token (``4.2`` of ``4.2.1``, ``Art. 55`` of ``Art. 55-A``) and records citing a
subdivision (``art. 7º``, ``art. 7º, II``) that the quote is inside of or outside of. A cache or
shortcut that ignored one of them would give one path another verdict than the other."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from ipsis import Document
from ipsis.ingest import load_document
from ipsis.verify import Policy
from ipsis.verify.batch import reference_path
from ipsis.verify.records import verify_records
from tests.shared import corpus
from tests.test_verify_fastpath import records_for

RFC = "rfc/rfc9111.txt"
LGPD = "br/lei-13709-2018-lgpd-planalto.html"


def _words_around(text: str, start: int, end: int, n: int = 3) -> str:
    """``text[start:end]`` with ``n`` words either side, its whitespace runs as single spaces."""
    before = text[:start].split()[-n:]
    after = text[end:].split()[:n]
    return " ".join([*before, " ".join(text[start:end].split()), *after])


def rule_records(doc: Document) -> list[dict[str, Any]]:
    text, out = doc.text, []

    def add(quote: str, **extra: Any) -> None:
        out.append({"citation_id": f"{doc.id[:4]}-x{len(out)}", "source_id": doc.id, "quote": quote, **extra})

    for m in list(re.finditer(r"(\w+)-\n\s*(\w+)", text))[:20]:  # a hyphen at a line end
        add(_words_around(text, m.start(), m.end()).replace("- ", "-"))  # quoted as a compound
        add(_words_around(text, m.start(), m.end()).replace("- ", ""))  # quoted as one word
    for m in list(re.finditer(r"\b\d+\.\d+\.\d+\b|\b\d+-[A-Z]\b", text))[:25]:  # a token cut short
        cut = text.rfind(".", m.start(), m.end()) if "." in m.group() else text.find("-", m.start(), m.end())
        add(" ".join([*text[: m.start()].split()[-4:], text[m.start() : cut]]))  # stops inside it
        add(_words_around(text, m.start(), m.end(), n=4))
    return out


def section_records(doc: Document) -> list[dict[str, Any]]:
    out = []
    for art, other in (("7", "8"), ("11", "12"), ("18", "5")):
        m = re.search(rf"Art\. {art}(º|\.) ", doc.text)
        assert m is not None, art
        at = m.start()
        q = " ".join(doc.text[at + 12 : at + 200].split()[1:-1])
        for i, cited in enumerate((f"art. {art}º", f"art. {other}º", f"art. {art}º, II", f"art. {art}, inciso I")):
            out.append({"citation_id": f"s{art}-{i}", "source_id": doc.id, "quote": q, "section": cited})
    return out


def _run(records: list[dict[str, Any]], docs: dict[str, Document]) -> list[str]:
    return [json.dumps(r.to_json(), sort_keys=True) for r in verify_records(records, docs.get, Policy())]


def _check_spans(lines: list[str], docs: dict[str, Document]) -> None:
    for line in lines:
        r = json.loads(line)
        for m in r["matches"]:
            assert docs[r["source_id"]].text[m["start"] : m["end"]] == m["text"]


def test_batch_equals_per_record_on_compounds_cut_tokens_and_cited_subdivisions() -> None:
    docs = {d.id: d for d in (load_document(corpus(RFC)), load_document(corpus(LGPD)))}
    rfc, lgpd = docs.values()
    records = [*rule_records(rfc), *rule_records(lgpd), *section_records(lgpd)]
    records += records_for(rfc, 60, seed=5) + records_for(lgpd, 60, seed=5)  # blocks of 48+ quotes
    fast = _run(records, docs)
    with reference_path():
        slow = _run(records, docs)
    assert fast == slow
    _check_spans(fast, docs)
    by_id = {json.loads(line)["citation_id"]: json.loads(line) for line in fast}
    compounds = [by_id[r["citation_id"]] for r in rule_records(rfc) if "-" in r["quote"]]
    # the sample holds what it is for: compounds found across a line end, cut tokens not
    # found, a cited subdivision the quote is in and one it is outside of
    assert any(m["text"].count("-\n") for r in compounds for m in r["matches"])
    assert sum(by_id[r["citation_id"]]["status"] == "not_found" for r in rule_records(lgpd)) >= 5
    statuses = [by_id[f"s7-{i}"]["status"] for i in range(4)]
    assert statuses[0] == "located" and statuses[1] == "not_found", statuses
    assert by_id["s7-1"]["found_elsewhere"]


def test_store_batch_equals_per_record_with_the_index_compacted(tmp_path: Path) -> None:
    """The store's run (found-elsewhere look-ups of a block's not-found quotes) on the same
    records, before and after the index is compacted: the same results on both paths."""
    from ipsis.store import Store
    from ipsis.store.runs import Verifier

    rels = [RFC, LGPD, "rfc/rfc7232.txt"]
    with Store.open(tmp_path / "st", create=True, durable=False) as store:
        for i, rel in enumerate(rels):
            store.ingest(corpus(rel).read_bytes(), f"s{i}", "v1")
        docs = {f"s{i}-v1": store.document(f"s{i}-v1") for i in range(len(rels))}
        rfc, lgpd, other = (d for d in docs.values() if d is not None)
        records = [*rule_records(rfc), *rule_records(lgpd), *section_records(lgpd)]
        records += records_for(rfc, 50, seed=8) + records_for(lgpd, 50, seed=8)
        rng = random.Random(4)
        for r in records_for(other, 30, seed=9):  # quotes of another source: found elsewhere
            records.append({**r, "source_id": rng.choice([rfc.id, lgpd.id])})

        def run() -> list[str]:
            v = Verifier(store, "run", policy=Policy())
            return [json.dumps(r.to_json(), sort_keys=True) for r in v.iter_verify(records)]

        fast = run()
        with reference_path():
            slow = run()
        store.compact_index()
        compacted = run()
    assert fast == slow == compacted
    assert sum('"found_elsewhere": [{' in r for r in fast) >= 10


def test_a_bulk_ingest_and_derive_compact_the_index(tmp_path: Path) -> None:
    """``ipsis ingest`` of many files merges the index once at its end (``store derive`` too),
    one file leaves it to the engine's own merging; runs find the same either way (above)."""
    from unittest import mock

    from ipsis.store import Store
    from tests.store_util import _no_store_env, run  # noqa: F401

    real = Store.compact_index
    with mock.patch.object(Store, "compact_index", autospec=True, side_effect=real) as compact:
        st = tmp_path / "st"
        files = [corpus(rel) for rel in (RFC, "rfc/rfc7232.txt", "rfc/rfc7519.txt")]
        assert run("ingest", *files, "--store", st).exit_code == 0
        assert compact.call_count == 1
        assert run("ingest", corpus("pt/crp-constituicao-republica-portuguesa.txt"), "--store", st).exit_code == 0
        assert run("ingest", *files, "--store", st).exit_code == 0  # unchanged: nothing to merge
        assert compact.call_count == 1
        assert run("store", "derive", "--store", st).exit_code == 0
        assert compact.call_count == 2
    with Store.open(st) as store:
        assert [sv.id for sv in store.search('"validator"', None, None, 10)] == ["rfc9111", "rfc7232"]

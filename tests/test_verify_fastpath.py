"""The fast paths give exactly the results of the per-quote path.

``verify_records`` locates the records of one source in blocks (one Aho-Corasick pass) and
finds the minimal contexts of all places by sorting; ``ipsis.verify.batch.reference_path``
switches both back to the per-quote path (a ``str.find`` loop per quote, contexts compared pair
by pair). Every result, serialized, must be the same on both: on real documents of each kind
(RFC text, a constitution in plain text, PDFs, HTML, BOE XML) with passages sampled from them,
lines that repeat (page headers, "(Revogado)"), typographic variants, altered quotes and
prefix/suffix records, and on the speed benchmark's workload.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from ipsis import Document
from ipsis.ingest import load_document
from ipsis.verify import Policy, describe
from ipsis.verify.batch import MIN_QUOTES, find_many, prefound, reference_path
from ipsis.verify.contexts import minimal_contexts
from ipsis.verify.match import document_view, find_all, minimal_context
from ipsis.verify.records import verify_records
from tests.shared import ROOT, corpus

DOCUMENTS = [
    "rfc/rfc7519.txt",
    "rfc/rfc9111.txt",
    "pt/crp-constituicao-republica-portuguesa.txt",
    "rfc/rfc7519-rfceditor-pdfrfc.pdf",
    "br/lgpd-senado-edicao-2024.pdf",
    "br/lei-13709-2018-lgpd-planalto.html",
    "es/constitucion-espanola-boe-api-texto-excerpt.xml",
]


def _passage(text: str, rng: random.Random) -> str:
    for _ in range(50):
        start = text.find(" ", rng.randrange(0, max(1, len(text) - 400))) + 1
        end = text.rfind(" ", start, start + rng.randint(20, 300))
        q = text[start:end].strip()
        if len(q) >= 20:
            return q
    return text[:40]


def _repeated_lines(text: str) -> list[str]:
    seen: dict[str, int] = {}
    for line in text.splitlines():
        line = line.strip()
        if len(line) >= 12:
            seen[line] = seen.get(line, 0) + 1
    return sorted(line for line, n in seen.items() if n > 1)


def _alter(q: str, rng: random.Random) -> str:
    digits = [i for i, c in enumerate(q) if c.isdigit()]
    if digits:
        i = rng.choice(digits)
        return q[:i] + str((int(q[i]) + 1) % 10) + q[i + 1 :]
    words = q.split(" ")
    words.pop(rng.randrange(len(words)))
    return " ".join(words)


def records_for(doc: Document, n: int, seed: int = 3) -> list[dict[str, Any]]:
    """``n`` records citing ``doc``: passages, repeated lines, typographic variants, altered
    quotes, decorated quotes (Markdown, citation markers) and prefix/suffix taken from the text
    around a repeated line."""
    rng = random.Random(seed)
    text = doc.text
    repeats = _repeated_lines(text)
    out: list[dict[str, Any]] = []
    for i in range(n):
        kind = i % 6
        q = rng.choice(repeats) if repeats and kind in (1, 4) else _passage(text, rng)
        rec: dict[str, Any] = {"citation_id": f"c{i}", "source_id": doc.id, "quote": q}
        if kind == 2:
            rec["quote"] = "“" + q.replace(" ", "\u00a0", 1).replace("\n", " ") + "”"
        elif kind == 3:
            rec["quote"] = _alter(q, rng)
        elif kind == 4:
            at = text.find(q)
            rec["prefix"] = text[max(0, at - 12) : at]
        elif kind == 5 and i % 12 == 5:
            rec["suffix"] = "no such suffix"
        elif kind == 5:  # decorations searched stage by stage: as written, then each taken off
            rec["quote"] = f"> **{q}** [2]" if i % 4 else f"`{q}`"
        out.append(rec)
    return out


def both_paths(records: list[dict[str, Any]], docs: dict[str, Document], policy: Policy) -> tuple[list[str], list[str]]:
    def run() -> list[str]:
        results = verify_records(records, docs.get, policy)
        return [json.dumps(r.to_json(), sort_keys=True, ensure_ascii=False) for r in results]

    fast = run()
    with reference_path():
        slow = run()
    return fast, slow


@pytest.mark.parametrize("rel", DOCUMENTS)
def test_block_path_equals_per_quote_path_on_the_corpus(rel: str) -> None:
    """Also with the automaton pass forced on every source (it is skipped where a ``str.find``
    loop is expected to be cheaper, :func:`ipsis.verify.batch.worth_a_pass`)."""
    from unittest import mock

    from ipsis.verify import batch

    doc = load_document(corpus(rel))
    records = records_for(doc, 4 * MIN_QUOTES)
    for policy in (Policy(), Policy(boundaries=False, max_tier="whitespace", max_error_rate=0)):
        fast, slow = both_paths(records, {doc.id: doc}, policy)
        assert len(fast) == len(records)
        assert fast == slow
        with mock.patch.object(batch, "worth_a_pass", lambda *_a: True):
            forced, _ = both_paths(records, {doc.id: doc}, policy)
        assert forced == slow
    statuses = {json.loads(r)["status"] for r in fast}
    assert {"located", "not_found"} <= statuses, statuses  # the sample exercises more than one branch
    for line in fast:  # every span returned is the text it claims
        for m in json.loads(line)["matches"]:
            assert doc.text[m["start"] : m["end"]] == m["text"]


def test_block_path_equals_per_quote_path_on_the_benchmark_workload() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from workload import build_text, records

    text = build_text(600_000)
    doc = Document("bench", text)
    recs = records(text, 400)
    fast, slow = both_paths(recs, {"bench": doc}, Policy())
    assert fast == slow
    statuses = [json.loads(r)["status"] for r in fast]
    assert statuses.count("ambiguous") > 40  # a quarter of the quotes repeat, as in the benchmark
    assert statuses.count("located") > 200


def test_describe_equals_per_pair_contexts() -> None:
    doc = load_document(corpus("rfc/rfc7519.txt"))
    rng = random.Random(5)
    ranges = []
    for line in _repeated_lines(doc.text)[:15]:
        at = doc.text.find(line)
        ranges.append((at, at + len(line)))
    for _ in range(15):
        s = rng.randrange(0, len(doc.text) - 100)
        ranges.append((s, s + rng.randint(5, 90)))
    for s, e in ranges:
        fast = describe(doc, s, e)
        with reference_path():
            assert describe(doc, s, e) == fast


def test_one_pass_finds_every_occurrence_like_find_all() -> None:
    doc = load_document(corpus("rfc/rfc9111.txt"))
    view = document_view(doc, "typography").text
    rng = random.Random(9)
    quotes = [_passage(view, rng) for _ in range(60)] + _repeated_lines(doc.text)[:40]
    quotes += ["---------------------------------", "cache cache cache cache cache", "the response"]
    for boundaries in (True, False):
        for limit in (3, 10_000):
            got = find_many(view, quotes, boundaries=boundaries, limit=limit, min_quotes=1)
            assert got == {q: find_all(view, q, boundaries=boundaries, limit=limit) for q in quotes}
    assert any(len(v) > 1 for v in got.values())  # repeated ones counted at each place


def test_prefound_is_left_on_the_document_only_for_the_block() -> None:
    doc = load_document(corpus("rfc/rfc7519.txt"))
    quotes = [_passage(doc.text, random.Random(k)) for k in range(MIN_QUOTES + 5)]
    with prefound(doc, quotes, Policy(), min_quotes=MIN_QUOTES):
        assert doc.cache["prefound"]
    assert not doc.cache["prefound"]


@pytest.mark.parametrize("seed", range(4))
def test_sorted_contexts_equal_per_pair_contexts(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(400):
        alphabet = rng.choice(["ab", "ab ", "abc  ", "the cat sat "])
        view = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 90)))
        start = rng.randrange(0, len(view))
        quote = view[start : start + rng.randint(1, 4)]
        hits = [(h, h + len(quote)) for h in find_all(view, quote, boundaries=False)]
        cap = rng.choice([0, 1, 2, 5, 200])
        got = minimal_contexts(view, hits, hits, cap)
        for h in hits:
            assert got[h] == minimal_context(view, h[0], h[1], [o for o in hits if o != h], cap)


def test_lazy_cli_lists_each_command_with_its_own_help() -> None:
    import click

    from ipsis.cli import main
    from ipsis.cli._base import LAZY_COMMANDS

    commands = main.load_all()
    assert set(commands) == set(LAZY_COMMANDS)
    for name, (module, summary) in LAZY_COMMANDS.items():
        cmd = commands[name]
        assert cmd.callback is not None and cmd.callback.__module__ == module, name
        for limit in (40, 60, 200):
            assert click.Command(name, help=summary).get_short_help_str(limit) == cmd.get_short_help_str(limit), name


def test_default_store_folder_agrees() -> None:
    from ipsis.cli.resolve import DEFAULT_STORE_DIR
    from ipsis.store import DEFAULT_DIR

    assert DEFAULT_STORE_DIR == DEFAULT_DIR


def test_help_and_text_do_not_import_the_verifier(tmp_path: Path) -> None:
    import os
    import subprocess

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    src = tmp_path / "a.txt"
    src.write_text("Art. 1º Texto.\n", encoding="utf-8")
    probe = (
        "import sys; from ipsis.cli import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('ipsis.verify', 'ipsis.judge', 'ipsis.store',"
        " 'ipsis.report', 'ipsis.answers', 'ipsis.sections', 'ipsis.serve'))), file=sys.stderr)"
    )
    for args in (["--help"], ["text", str(src)]):
        out = subprocess.run(
            [sys.executable, "-c", probe, *args], cwd=tmp_path, capture_output=True, text=True, check=True, env=env
        )
        assert out.stderr.strip().splitlines()[-1] == "[]", (args, out.stderr)
    # --help reads no document records and no paths: the package's re-exports load on first use
    # (what the interpreter loaded before ipsis, e.g. pathlib by an editable install's .pth finder, is not ipsis's)
    probe = (
        "import sys; before = set(sys.modules); from ipsis.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('ipsis.document', 'ipsis.spans', 'pathlib', 'dataclasses')"
        " if m in sys.modules and m not in before), file=sys.stderr)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True, env=env
    )
    assert out.stderr.strip().splitlines()[-1] == "[]", out.stderr
    import ipsis

    assert ipsis.Document is Document and ipsis.Span.__module__ == "ipsis.spans"
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = ipsis.nope  # type: ignore[attr-defined]


def test_a_store_backed_verify_imports_only_what_it_uses(tmp_path: Path) -> None:
    """A run over a stored text source, every quote found: no section grammars (its sections are
    stored), no history modules (no --carry-to), no HTTP client (no --judge llm), no PDF or OCR
    reader and no PDFium (not a PDF), no file decoders (it reads no file); the results are the same
    as in-process."""
    from ipsis.store import Store
    from tests.store_util import verify_as_a_process

    text = corpus("rfc/rfc7519.txt").read_text(encoding="utf-8")
    with Store.open(tmp_path / "st", create=True) as st:
        st.ingest(text.encode(), "rfc")
    quotes = [_passage(text, random.Random(k)) for k in range(5)]
    records = [{"citation_id": str(k), "source_id": "rfc", "quote": q} for k, q in enumerate(quotes)]
    avoided = ("ipsis.sections.grammar", "ipsis.sections.families", "ipsis.sections.refs", "ipsis.history",
               "ipsis.cli.history", "urllib.request", "http.client", "ipsis.ingest.pdf", "ipsis.ingest.pdfium",
               "pypdfium2", "ipsis.ingest.text", "ipsis.ingest.mojibake")  # fmt: skip
    got, expected, doc = verify_as_a_process(tmp_path, "rfc", records, avoided)
    for r, e in zip(got, expected, strict=True):
        assert (r["status"], r["matches"]) == (e["status"], e["matches"])
        assert all(doc.text[m["start"] : m["end"]] == m["text"] for m in r["matches"])
    assert sum(r["status"] == "located" for r in got) >= 3


def _mutate(q: str, rng: random.Random, changes: int) -> str:
    chars = list(q)
    for _ in range(changes):
        chars[rng.randrange(len(chars))] = rng.choice("xyzqwk")
    return "".join(chars)


def test_chunked_nearest_search_equals_a_pass_per_distance() -> None:
    from ipsis.verify.grams import grams_of
    from ipsis.verify.nearest import _encoded, search, search_passes

    docs = [load_document(corpus(rel)) for rel in ("pt/crp-constituicao-republica-portuguesa.txt", "rfc/rfc9111.txt")]
    text = "\n".join(d.text for d in docs) * 2  # copies: several local minima at equal and other distances
    doc = Document("near", text)
    view = document_view(doc, "typography")
    assert len(view.text) > 2 * 16 * 1024  # long enough to be cut into chunks
    enc = _encoded(doc, view, ("typography", ()))
    grams = grams_of(doc, enc.data, ("typography", ()), now=True)
    assert grams is not None
    rng = random.Random(11)
    multiple = filtered = 0
    for _ in range(40):
        s = rng.randrange(0, len(view.text) - 400)
        length = rng.choice([30, 80, 200, 300])
        q = enc.encode(_mutate(view.text[s : s + length], rng, rng.randint(0, length // 12)))
        k = max(1, length // 5)
        for limit in (8, 2):
            got = search(enc.data, q, k, enc.mask, limit)
            assert got == search_passes(enc.data, q, k, enc.mask, limit)
            assert search(enc.data, q, k, enc.mask, limit, grams) == got  # the q-gram filter's first look
            multiple += len(got) > 1
            filtered += grams.live(q, k, len(enc.data)) is not None
    assert multiple > 10
    assert filtered > 20  # the lemma applies to most (not to the short quotes with a large budget)


def test_nearest_passages_equal_on_both_paths() -> None:
    from ipsis.verify.nearest import nearest_passage

    doc = load_document(corpus("pt/crp-constituicao-republica-portuguesa.txt"))
    doc = Document("crp2", doc.text + "\n" + doc.text)
    rng = random.Random(4)
    quotes = [_mutate(_passage(doc.text, rng), rng, 3) for _ in range(15)]
    fast = [nearest_passage(doc, q, Policy()) for q in quotes]
    with reference_path():
        assert [nearest_passage(doc, q, Policy()) for q in quotes] == fast
    assert sum(n is not None for n in fast) > 10


def test_omission_and_phrases_equal_their_plain_loops() -> None:
    from ipsis.verify import elision
    from ipsis.verify.reasons import _phrases

    def plain_omission(view: str, q: str, max_gap: int, minimum: int) -> list[tuple[int, int, int, int]]:
        if q[:minimum] not in view:
            return []
        lo, hi = minimum, len(q)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if q[:mid] in view else (lo, mid - 1)
        head = lo
        if len(q) - head < minimum:
            return []
        while head > minimum and head < len(q) and q[head - 1].isalnum() and q[head].isalnum():
            head -= 1
        tail, found = q[head:], []
        h = view.find(q[:head])
        while h != -1 and len(found) < elision.MAX_HITS:
            if h == 0 or not view[h - 1].isalnum():
                t = view.find(tail, h + head + 1, h + head + max_gap + len(tail))
                if t != -1:
                    found.append((h, h + head, t, t + len(tail)))
            h = view.find(q[:head], h + 1)
        best = min((g - s for _, s, g, _ in found), default=0)
        return [f for f in found if f[2] - f[1] == best]

    view = " ".join(load_document(corpus("rfc/rfc9111.txt")).text.split())
    rng = random.Random(8)
    for _ in range(300):
        v = view if rng.random() < 0.5 else "".join(rng.choice("ab ") for _ in range(rng.randint(5, 300)))
        s = rng.randrange(0, max(1, len(v) - 100))
        q = v[s : s + rng.randint(2, 80)]
        a = rng.randrange(1, len(q))
        q = q[:a] + q[a + rng.randint(1, 20) :]
        for minimum in (3, 12):
            assert elision.omission(v, q, 1500, minimum) == plain_omission(v, q, 1500, minimum)

    words = ["não", "é", "não", "ou", "sim", "salvo", "se", "não", "for", "o", "caso", "salvo"]
    phrases = ["não", "salvo se", "o caso", "sim", "nada", "não"]
    plain = {p: sum(words[i : i + len(p.split())] == p.split() for i in range(len(words))) for p in set(phrases)}
    got = _phrases(words, phrases)
    assert got == {p: n * phrases.count(p) for p, n in plain.items() if n}


def test_patterns_moved_to_stdlib_re_match_what_regex_matched() -> None:
    import re

    import regex

    from ipsis.ingest import fixes, hyphens

    everything = [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    assert {c for c in everything if regex.match(r"\s", c)} == {
        c for c in everything if re.match("[" + hyphens.WHITE_SPACE + "]", c)
    }
    before = {
        "hyphen": regex.compile(r"[-\u2010\u2011\u2212\u00ad\ufffe][ \t]*(?:\r\n|[\n\r\x0b\x0c\x85\u2028\u2029])\s*"),
        "spaces": regex.compile(r" {2,}"),
    }
    now = {"hyphen": hyphens._HYPHEN_BREAK, "spaces": fixes._SPACE_RUN}
    for rel in ("rfc/rfc7519.txt", "br/lgpd-senado-edicao-2024.pdf", "pdf/gr-fek-2008-syntagma-revision-2col.pdf"):
        text = load_document(corpus(rel)).text + " x-\u2028\u3000 y  z-\r\n\u00a0w"
        for name, pattern in now.items():
            assert [m.span() for m in pattern.finditer(text)] == [m.span() for m in before[name].finditer(text)]


def test_store_run_with_found_elsewhere_equal_on_both_paths(tmp_path: Path, store_target: Any) -> None:
    """A block's not-found quotes looked up together (one document-frequency query, the index
    searches of all of them in one statement) give the places of one look-up per quote."""
    from ipsis.store import Store
    from ipsis.store.runs import Verifier

    rels = ["rfc/rfc7519.txt", "rfc/rfc9111.txt", "rfc/rfc7232.txt", "pt/crp-constituicao-republica-portuguesa.txt"]
    target = store_target(tmp_path / "st")
    with Store.open(target, create=True, durable=False) as store:
        for i, rel in enumerate(rels):
            store.ingest(corpus(rel).read_bytes(), f"s{i}", "v1")
        docs = {f"s{i}-v1": store.document(f"s{i}-v1") for i in range(len(rels))}
        rng = random.Random(6)
        records: list[dict[str, Any]] = []
        for n in range(120):
            cited = f"s{n % 2}-v1"
            other = f"s{2 + n % 2}-v1" if n % 3 == 0 else cited
            doc = docs[other]
            assert doc is not None
            q = _passage(doc.text, rng) if n % 5 else _alter(_passage(doc.text, rng), rng)
            records.append({"citation_id": f"r{n}", "source_id": cited, "quote": q})

        def run() -> list[str]:
            v = Verifier(store, "run", policy=Policy())
            return [json.dumps(r.to_json(), sort_keys=True, ensure_ascii=False) for r in v.iter_verify(records)]

        fast = run()
        with reference_path():
            slow = run()
    assert fast == slow
    assert sum('"found_elsewhere": [{' in r for r in fast) > 20
    from unittest import mock

    from ipsis.store import derived as dv

    with mock.patch.object(dv, "loader", lambda *_a: lambda: None), Store.open(target) as store:
        assert run() == fast  # the views computed, as for versions stored without them


def test_search_many_equals_one_search_per_query(tmp_path: Path, store_target: Any) -> None:
    """``Store.search_many`` gives each query's versions as ``Store.search`` does: the same
    permissions, the excluded id left out, the limit, in the same order."""
    from ipsis.store import Store
    from ipsis.store.docs import phrase_query

    rels = ["rfc/rfc7519.txt", "rfc/rfc9111.txt", "rfc/rfc7232.txt", "pt/crp-constituicao-republica-portuguesa.txt"]
    with Store.open(store_target(tmp_path / "st"), create=True, durable=False) as store:
        for i, rel in enumerate(rels):
            data = corpus(rel).read_bytes()
            store.ingest(data, f"s{i}", "v1")
            store.ingest(data + b"\nAnnex.\n", f"s{i}", "v2", readers=["ana"] if i % 2 else [])
        rng = random.Random(3)
        texts = [_passage(store.document(f"s{i % 4}-v1").text, rng) for i in range(40)]  # type: ignore[union-attr]
        queries = [q for q in (phrase_query(t) for t in texts) if q] + ['"cache"', '"request" AND "header"', '"zzzq"']
        known: dict[int, Any] = {}  # versions read by earlier calls, kept as a run keeps them
        for user in (None, "", "ana", "bob"):
            for limit in (3, 25):
                asked = [(q, rng.choice([None, "s0-v1", "s1-v2"])) for q in queries]
                got = store.search_many(asked, user, limit)
                assert got == [store.search(q, exclude, user, limit) for q, exclude in asked]
                assert store.search_many(asked, user, limit, known) == got
        assert known
        assert any(len(hits) > 1 for hits in got) and any(not hits for hits in got)


def test_results_before_a_bad_line_still_come_out(tmp_path: Path) -> None:
    """Records are read ahead in blocks; a malformed line still stops the run with exit 2 only
    after the results of the records before it (as when they were read one at a time)."""
    from click.testing import CliRunner

    from ipsis.cli import main

    src = corpus("rfc/rfc7519.txt")
    text = src.read_text(encoding="utf-8")
    quotes = [text[i : i + 60].strip() for i in (5000, 9000, 20000)]
    lines = [json.dumps({"citation_id": f"c{i}", "source_id": "jwt", "quote": q}) for i, q in enumerate(quotes)]
    rec = tmp_path / "records.jsonl"
    rec.write_text("\n".join([*lines, "{not json"]) + "\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["verify", str(rec), "--source", f"jwt={src}", "--format", "jsonl"])
    assert res.exit_code == 2
    rows = [json.loads(x) for x in res.stdout.splitlines() if x.startswith("{")]
    assert [r["citation_id"] for r in rows] == ["c0", "c1", "c2"]
    assert "line 4" in res.output


def test_encoded_quotes_equal_the_plain_loop() -> None:
    from ipsis.verify.nearest import _Encoded

    def plain(enc: _Encoded, quote: str) -> bytes:
        out = bytearray()
        for c in quote:
            o = ord(c)
            out.append(o if o < 256 and o not in enc.table else enc.table.get(o, enc.unknown))
        return bytes(out)

    greek = load_document(corpus("pdf/gr-fek-2008-syntagma-revision-2col.pdf")).text
    rng = random.Random(2)
    for text in (greek, greek[:3000] + "".join(chr(c) for c in range(256, 900)), "plain latin-1 text: é ü"):
        enc = _Encoded(text)
        for _ in range(50):
            s = rng.randrange(0, len(text))
            q = text[s : s + rng.randint(0, 80)] + rng.choice(["", "\u4e2d", "\u2014", "\x00"])
            assert enc.encode(q) == plain(enc, q)


def test_rfc_page_lines_equal_the_split_into_all_lines() -> None:
    import re

    from ipsis.ingest.rfc import _line_at, find_rfc_furniture

    def plain(text: str, start: int, end: int, backwards: bool) -> tuple[int, int] | None:
        lines = [m.span() for m in re.finditer(r"[^\n\f]*\S[^\n\f]*", text[start:end])]
        if not lines:
            return None
        s, e = lines[-1] if backwards else lines[0]
        line = text[start + s : start + e]
        return start + s + len(line) - len(line.lstrip()), start + e - (len(line) - len(line.rstrip()))

    rng = random.Random(3)
    pieces = ["a", " ", "\n", "\f", "\r", "\t", "\u00a0", "b", "\x1c", "\u2028", "\v"]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 40)))
        a = rng.randint(0, len(text))
        b = rng.randint(a, len(text))
        for backwards in (True, False):
            assert _line_at(text, a, b, backwards) == plain(text, a, b, backwards), (text, a, b, backwards)
    text = corpus("rfc/rfc7519.txt").read_text(encoding="utf-8")
    marks, _ = find_rfc_furniture(text)
    assert len(marks) > 40 and all(text[m.start : m.end].strip() == text[m.start : m.end] for m in marks)


@pytest.fixture(scope="module")
def derived_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus documents and a 600 KB workload text in a store: their views (and the PDFs'
    boxes) computed at ingest and kept with the versions."""
    from ipsis.store import Store

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from workload import build_text

    folder = tmp_path_factory.mktemp("derived") / "st"
    with Store.open(folder, create=True, durable=False) as store:
        for i, rel in enumerate(DOCUMENTS):
            store.ingest(corpus(rel).read_bytes(), f"d{i}", filename=Path(rel).name)
        store.ingest(build_text(600_000).encode("utf-8"), "bench", filename="bench.txt")
    return folder


def _stored_run(folder: Path, ids: list[str], records: list[dict[str, Any]], *, derived: bool) -> list[str]:
    """Results (with boxes) of ``records`` against stored versions: their derived data loaded, or
    (``derived=False``) computed as for a version stored without it; the typography view is
    checked to come from the store (the whole document never normalized at that tier with its
    marks skipped) or not. The views some not-found quotes need (lossy tiers for the diagnosis,
    footnote calls kept) are not kept: both paths compute them."""
    from unittest import mock

    from ipsis.pdfboxes import attach_boxes
    from ipsis.store import Store
    from ipsis.store import derived as dv
    from ipsis.verify import match

    real = match.normalize
    built: list[tuple[int, str, int, tuple[str, ...]]] = []

    def spy(text: str, tier: str = "typography", **k: Any) -> Any:
        built.append((len(text), tier, len(k.get("marks", ())), tuple(k.get("disabled", ()))))
        return real(text, tier, **k)

    none = mock.patch.object(dv, "loader", lambda *_a: lambda: None)
    with Store.open(folder) as store, mock.patch.object(match, "normalize", spy):
        if not derived:
            none.start()
        try:
            docs = {sid: store.document(sid) for sid in ids}
            kept = {(len(d.text), "typography", len(d.marks), ()) for d in docs.values() if d is not None}
            results = attach_boxes(verify_records(records, docs.get, Policy()), docs, store)
            out = [json.dumps(r.to_json(), sort_keys=True, ensure_ascii=False) for r in results]
        finally:
            if not derived:
                none.stop()
    assert bool(kept & set(built)) is not derived, "the views were not taken from where they should be"
    return out


@pytest.mark.parametrize("i", [*range(len(DOCUMENTS)), "bench"])
def test_stored_views_and_boxes_give_the_results_of_the_computed_path(derived_store: Path, i: int | str) -> None:
    from ipsis.store import Store

    sid = "bench" if i == "bench" else f"d{i}"
    with Store.open(derived_store) as store:
        doc = store.document(sid)
        assert doc is not None
        records = records_for(doc, 4 * MIN_QUOTES)
    stored = _stored_run(derived_store, [sid], records, derived=True)
    computed = _stored_run(derived_store, [sid], records, derived=False)
    assert stored == computed
    assert len({json.loads(r)["status"] for r in stored}) > 1
    if i != "bench" and DOCUMENTS[int(i)].endswith(".pdf"):
        assert sum('"boxes": [{' in r for r in stored) > len(records) // 3


def test_limiter_at_the_start_equals_the_plain_comparison() -> None:
    """``starts_with_limiter`` looks at the first word before comparing every limiter: the same
    limiter (or none) as comparing the first words with each, at every place of real text."""
    from itertools import islice

    from ipsis.lexicon import LIMITERS
    from ipsis.verify.reasons import _TOKEN, starts_with_limiter

    def plain(text: str, lang: str | None) -> str | None:
        most = max(len(p.split()) for ps in LIMITERS.values() for p in ps)
        tops = (m.group() for m in _TOKEN.finditer(text[:80]))
        words = [w.casefold() for w in islice((w for w in tops if w not in ",;:-–—("), most)]
        for lg in [lang] if lang else list(LIMITERS):
            for p in sorted(LIMITERS[lg], key=len, reverse=True):
                if words[: len(p.split())] == p.split():
                    return p
        return None

    texts = [load_document(corpus(rel)).text for rel in ("br/lei-13709-2018-lgpd-planalto.html", "rfc/rfc9111.txt")]
    texts.append(", Salvo se; , a menos que — sin perjuicio de\n" * 3)
    firsts = {p.split()[0] for ps in LIMITERS.values() for p in ps}
    found = 0
    for text in texts:
        near = [m.start() - 2 for m in _TOKEN.finditer(text) if m.group().casefold() in firsts]
        for at in [*range(0, len(text), 97), *near]:
            for lang in (None, "pt", "en"):
                got = starts_with_limiter(text[max(0, at) :], lang)
                assert got == plain(text[max(0, at) :], lang)
                found += got is not None
    assert found > 20


MAPPED = ["br/lgpd-senado-edicao-2024.pdf", "rfc/rfc7519-rfceditor-pdfrfc.pdf", "rfc/rfc9111.txt"]


@pytest.mark.parametrize("rel", MAPPED)
def test_offset_map_lookups_equal_the_layer_by_layer_reference(rel: str) -> None:
    """``OffsetMap.to_source``/``to_source_end`` inline each layer's look-up; the reference applies
    ``_Layer.start``/``_Layer.end`` one layer after another. Same at every position of every tier's
    view (PDF views have the most layers: hyphens, ellipses, spacing)."""
    doc = load_document(corpus(rel))
    for tier in ("whitespace", "typography", "case", "accents", "ordinals"):
        om = document_view(doc, tier).offsets
        assert om.layers, tier
        starts, ends = [], []
        for i in range(len(om) + 1):
            s = e = i
            for layer in om.layers:
                s, e = layer.start(s), layer.end(e)
            starts.append(s)
            ends.append(e)
        assert [om.to_source(i) for i in range(len(om) + 1)] == starts, tier
        assert [om.to_source_end(i) for i in range(len(om) + 1)] == ends, tier


def _lossy_variants(q: str, rng: random.Random) -> list[str]:
    """Quotes that a lossy tier may find: a word upper-cased, accents taken off, an ordinal
    written ``o``/``°``, hyphens and spaces changed, and the quote itself altered."""
    import unicodedata

    words = q.split(" ")
    i = rng.randrange(len(words))
    upper = " ".join(w.upper() if j == i else w for j, w in enumerate(words))
    plain = "".join(c for c in unicodedata.normalize("NFD", q) if not unicodedata.combining(c))
    ordinal = q.replace("º", "o" if rng.random() < 0.5 else "°").replace("ª", "a")
    spaced = q.replace("-", " - ", 1).replace(" ", "  ", 1)
    return [upper, plain, ordinal, plain.upper(), spaced, _alter(upper, rng)]


LOSSY_DOCUMENTS = [
    "pt/crp-constituicao-republica-portuguesa.txt",
    "rfc/rfc7519.txt",
    "br/lgpd-senado-edicao-2024.pdf",
    "es/constitucion-espanola-boe-api-texto-excerpt.xml",
]


@pytest.mark.parametrize("rel", LOSSY_DOCUMENTS)
def test_lossy_view_shortcut_never_hides_a_place(rel: str) -> None:
    """``not_in_lossy_view`` (the diagnosis skips building a not-found quote's lossy views) says
    "surely not there" only where the quote's lossy view is in no place of the document's, even
    counting places inside longer words; and the diagnoses (``case_only``, ``accents_only``,
    ``ordinals_only``, nearest passage) are those of the per-quote path, which builds every view."""
    from ipsis.verify.lossy import LOSSY_STEPS, not_in_lossy_view
    from ipsis.verify.match import quote_view

    doc = load_document(corpus(rel))
    rng = random.Random(11)
    quotes = [v for _ in range(40) for v in _lossy_variants(_passage(doc.text, rng), rng)]
    skipped = kept = 0
    for q in quotes:
        for tier in LOSSY_STEPS:
            absent = not_in_lossy_view(doc, q, tier)
            found = find_all(document_view(doc, tier).text, quote_view(q, tier).text, boundaries=False, limit=1)
            assert not (absent and found), (rel, tier, q)
            skipped += absent
            kept += bool(found)
    assert skipped and kept  # both answers occur in the sample
    records = [{"citation_id": f"l{i}", "source_id": doc.id, "quote": q} for i, q in enumerate(quotes)]
    fast, slow = both_paths(records, {doc.id: doc}, Policy(max_tier="typography"))
    assert fast == slow
    reasons = {json.loads(r)["nearest"]["reason"] for r in fast if json.loads(r).get("nearest")}
    assert {"case_only", "accents_only" if rel.startswith(("pt/", "es/", "br/")) else "case_only"} <= reasons, reasons


def test_match_records_of_many_places_equal_the_documents_own_lookups() -> None:
    """``locate`` builds the Match of every place with the document's look-ups taken once
    (``_match_records``, ``section_finder``): each record must be what the document says of that
    place on its own (text, line, page, innermost section, revoked/note flags), on a norm with
    revoked text and notes, and every section record is a fresh dict."""
    from ipsis.document import FLAGGED_IN_RESULTS
    from ipsis.sections import segment
    from ipsis.spans import Span

    locate_module = sys.modules["ipsis.verify.locate"]
    doc = load_document(corpus("br/lei-13709-2018-lgpd-planalto.html"))
    segment(doc)
    assert doc.sections is not None
    flagged = [Span(m.start, min(m.end, m.start + 40)) for m in doc.marks if m.kind in FLAGGED_IN_RESULTS]
    rng = random.Random(5)
    plain = [Span(s, s + rng.randint(1, 200)) for s in sorted(rng.sample(range(len(doc.text) - 200), 300))]
    record = locate_module._match_records(doc)
    seen_sections = []
    kinds = set()
    for span in [*flagged[:: max(1, len(flagged) // 100)], *plain]:
        m = record(span, None, True)
        assert (m.start, m.end, m.text) == (span.start, span.end, doc.text[span.start : span.end])
        assert (m.line, m.page) == (doc.line_of(span.start), doc.page_of(span.start))
        assert m.flags == sorted({k.kind for k in doc.marks_overlapping(span, FLAGGED_IN_RESULTS)})
        kinds.update(m.flags)
        sec = doc.sections.innermost_at(span.start)
        assert (m.section or {}).get("id") == (sec.id if sec is not None else None)
        assert m == locate_module._match_record(doc, span, None)
        if m.section is not None:
            assert all(m.section is not other for other in seen_sections)
            seen_sections.append(m.section)
    assert {"revoked", "note"} <= kinds, kinds  # the sample holds flagged places


def test_jsonl_lines_equal_json_dumps_on_the_benchmark_workload() -> None:
    """``ipsis verify --format jsonl`` encodes with one encoder and no check for circular
    references: each line must be ``json.dumps(result, ensure_ascii=False)``."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from workload import build_text, records

    from ipsis.report import _encode_line

    text = build_text(600_000)
    doc = Document("bench", text)
    results = [r.to_json() for r in verify_records(records(text, 400), {"bench": doc}.get)]
    assert sum(r["status"] == "ambiguous" for r in results) > 40
    for r in results:
        assert _encode_line(r) == json.dumps(r, ensure_ascii=False)

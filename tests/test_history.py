"""Citations across versions (issue 24): diff, carry and the runs a new version affects.

Gold, read from the documents and never from ipsis:

- CF/88: the Câmara edition (updated to EC 105/2019) prints an amendment note after every
  wording an amendment changed, added or revoked: "(Inciso acrescido pela Emenda
  Constitucional nº 45, de 2004)", "(“Caput” do artigo com redação dada pela Emenda
  Constitucional nº 16, de 1997" (its closing parenthesis forgotten), "(Revogado pela ...)". An
  article of the 1988 text with such a note in that edition was changed by 2020; one without
  was not, except the two listed in ``CF88_EXCEPTIONS`` (each checked by reading both texts).
- Constitución Española, BOE consolidated XML: each ``<bloque>`` lists its dated ``<version>``s;
  the blocks with a version after a date are the ones changed since that date.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

from ipsis.document import Document
from ipsis.history import diff_documents
from ipsis.history.carry import carry
from ipsis.ingest import load_document
from ipsis.sections import segment
from ipsis.sections.versions import document_at
from ipsis.verify import Policy, locate
from tests.shared import CORPORA, SHARED

ROOT = Path(__file__).resolve().parent.parent
CF88_1988 = CORPORA / "br/cf88-senado-texto-original-1988.html"
CF88_2020 = CORPORA / "br/cf88-senado-compilado-ec108-2020.html"
CF88_CAMARA = CORPORA / "br/cf88-camara-cedi-texto-atualizado-ec105.pdf"
BOE_XML = CORPORA / "es/constitucion-espanola-boe-api-texto-excerpt.xml"
ENV = {"PYTHONPATH": str(ROOT), "NO_COLOR": "1", "PATH": "/usr/bin:/bin"}

AMENDMENT_NOTE = re.compile(
    r"\([^()]{0,200}?(?:pela|por)\s+Emenda\s+Constitucional\s+(?:de\s+Revisão\s+)?n|\(Revogad"
)
CF88_EXCEPTIONS = {
    "art-193": "EC 108/2020 added its parágrafo único (planejamento das políticas sociais); the Câmara "
    "edition stops at EC 105/2019, so it has no note there",
    "art-245": "in the 1988 Senado page the last article runs on into the signatures and the page's "
    "navigation links (no heading closes it), which the 2020 page does not print",
}


@pytest.fixture(scope="module")
def cf88() -> tuple[Document, Document]:
    a = load_document(CF88_1988, "cf88@1988-10-05")
    b = load_document(CF88_2020, "cf88@2020-08-26")
    segment(a)
    segment(b)
    return a, b


@pytest.fixture(scope="module")
def cf88_diff(cf88: tuple[Document, Document]) -> object:
    return diff_documents(*cf88)


@pytest.fixture(scope="module")
def camara_notes() -> dict[str, bool]:
    c = load_document(CF88_CAMARA, "cf88-camara")
    tree = segment(c)
    return {s.id: bool(AMENDMENT_NOTE.search(c.text, s.start, s.end)) for s in tree.of_kind("artigo")}


def test_cf88_articles_changed_exactly_where_the_notes_say(cf88_diff: object, camara_notes: dict[str, bool]) -> None:
    changed, unchanged, unexplained = [], [], []
    for c in cf88_diff.changes:  # type: ignore[attr-defined]
        if c.kind != "artigo" or c.change in ("added", "removed") or c.id not in camara_notes:
            continue
        is_changed = c.change in ("amended", "revoked", "moved")
        (changed if camara_notes[c.id] else unchanged).append(c.id)
        if camara_notes[c.id] != is_changed and c.id not in CF88_EXCEPTIONS:
            unexplained.append((c.id, c.change, camara_notes[c.id]))
    assert unexplained == []
    assert len(changed) >= 120 and len(unchanged) >= 110  # the main body of both editions is compared
    for sid in CF88_EXCEPTIONS:
        assert cf88_diff.get(sid).change == "amended"  # type: ignore[attr-defined]


def test_cf88_diff_counts_match_the_notes(cf88_diff: object, camara_notes: dict[str, bool]) -> None:
    arts = [c for c in cf88_diff.changes if c.kind == "artigo" and c.id in camara_notes]  # type: ignore[attr-defined]
    noted = sum(camara_notes[c.id] for c in arts if c.change not in ("added", "removed"))
    counted = sum(c.change in ("amended", "revoked", "moved") for c in arts)
    assert counted == noted + len(CF88_EXCEPTIONS)


def test_lxxviii_is_added_in_2004_and_absent_in_1988(cf88: tuple[Document, Document], cf88_diff: object) -> None:
    a, b = cf88
    assert a.sections.get("art-5/inc-LXXVIII") is None  # type: ignore[union-attr]
    change = cf88_diff.get("art-5/inc-LXXVIII")  # type: ignore[attr-defined]
    assert change.change == "added" and change.a is None
    s, e = change.b
    assert b.text[s:e].lstrip().startswith("LXXVIII")
    assert "razoável duração do processo" in b.text[s:e]


def test_carry_unchanged_amended_and_gone(cf88: tuple[Document, Document]) -> None:
    a, b = cf88
    policy = Policy()
    quote = "a casa é asilo inviolável do indivíduo"
    m = locate(a, quote).matches[0]
    c = carry(a, m.start, m.end, b, policy)
    assert c["status"] == "unchanged" and c["to"]["section"] == "art-5/inc-XI"
    assert b.text[c["to"]["start"] : c["to"]["end"]] == quote == a.text[c["from"]["start"] : c["from"]["end"]]
    assert c["from"]["sha256"] != c["to"]["sha256"]
    # Art. 6º: "a alimentação" and "a moradia" were added (EC 26/2000, EC 64/2010, EC 90/2015)
    m = locate(a, "São direitos sociais a educação, a saúde, o trabalho, o lazer").matches[0]
    c = carry(a, m.start, m.end, b, policy)
    assert c["status"] == "amended" and c["to"]["section"] == "art-6"
    assert any("alimentação" in w["new"] for w in c["words"])
    # carried backwards, the 2004 inciso is gone from the 1988 text
    m = locate(b, "são assegurados a razoável duração do processo").matches[0]
    assert carry(b, m.start, m.end, a, policy)["status"] == "gone"


def test_carry_revoked_section(cf88: tuple[Document, Document], cf88_diff: object) -> None:
    a, b = cf88
    revoked = [c for c in cf88_diff.changes if c.change == "revoked" and c.a is not None]  # type: ignore[attr-defined]
    assert revoked
    sec = a.sections.get(revoked[0].id)  # type: ignore[union-attr]
    words = a.text[sec.start : sec.end].split("\n")[0].strip()
    m = locate(a, words).matches[0]
    c = carry(a, m.start, m.end, b, Policy())
    assert c["status"] == "revoked", c
    assert "Revogad" in b.text[b.sections.get(c["to"]["section"]).start : b.sections.get(c["to"]["section"]).end]  # type: ignore[union-attr]


def test_carry_moved_to_a_renumbered_article() -> None:
    a = Document("r@1", "Art. 1º Esta Lei trata de prazos.\nArt. 2º O prazo é de dez dias úteis.\n")
    b = Document("r@2", "Art. 1º Esta Lei trata de prazos.\nArt. 1º-A Conta-se em dias úteis.\n"
                 "Art. 3º O prazo é de dez dias úteis.\n")  # fmt: skip
    quote = "O prazo é de dez dias úteis."
    m = locate(a, quote).matches[0]
    c = carry(a, m.start, m.end, b, Policy())
    assert c["status"] == "moved" and c["to"]["section"] == "art-3"
    assert b.text[c["to"]["start"] : c["to"]["end"]] == quote
    assert diff_documents(a, b).get("art-3").change == "moved"  # type: ignore[union-attr]


def _boe_changed_after(day: str) -> set[str]:
    tree = etree.parse(str(BOE_XML))
    out = set()
    for block in tree.iter("bloque"):
        dates = [v.get("fecha_vigencia", "") for v in block.findall("version")]
        if any(d > day for d in dates) and block.get("titulo", "").startswith("Artículo"):
            out.add("art-" + block.get("titulo", "").split()[1])
    return out


@pytest.mark.parametrize("day", ["1978-12-29", "2000-01-01", "2015-01-01"])
def test_boe_dated_versions(day: str) -> None:
    whole = load_document(BOE_XML, "ce")
    old = document_at(whole, day)
    d = diff_documents(old, whole)
    arts = {c.id: c.change for c in d.changes if c.kind == "articulo"}
    gold = _boe_changed_after(day.replace("-", ""))
    assert gold and {k for k, v in arts.items() if v != "unchanged"} == gold
    assert all(v == "unchanged" for k, v in arts.items() if k not in gold)


def _cli(*args: object, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "ipsis", *map(str, args)]
    return subprocess.run(cmd, capture_output=True, text=True, env=ENV, cwd=cwd, timeout=300, check=False)


def test_cli_diff_formats(tmp_path: Path) -> None:
    r = _cli("diff", f"{BOE_XML}@1978-12-29", BOE_XML, "--format", "json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["counts_by_kind"]["articulo"]["amended"] == 3
    r = _cli("diff", f"{BOE_XML}@1978-12-29", BOE_XML)
    assert r.returncode == 0 and "amended   art-135" in r.stdout
    out = tmp_path / "diff.html"
    r = _cli("diff", f"{BOE_XML}@1978-12-29", BOE_XML, "--format", "html", "-o", out)
    page = out.read_text(encoding="utf-8")
    assert r.returncode == 0 and "<del>" in page and "<ins>" in page and "<script" not in page
    assert "Content-Security-Policy" in page
    r = _cli("diff", tmp_path / "nope.txt", BOE_XML)
    assert r.returncode == 2 and "nope.txt" in r.stderr and "Traceback" not in r.stderr


def test_verify_carry_to_and_store_affected(tmp_path: Path) -> None:
    st = tmp_path / "st"
    for path, version in ((CF88_1988, "1988-10-05"), (CF88_2020, "2020-08-26")):
        r = _cli("ingest", path, "--id", "cf88", "--version", version, "--store", st)
        assert r.returncode == 0, r.stderr
    records = tmp_path / "r.jsonl"
    rows = [
        {"citation_id": "xi", "source_id": "cf88@1988-10-05", "quote": "a casa é asilo inviolável do indivíduo"},
        {"citation_id": "art6", "source_id": "cf88@1988-10-05", "quote": "São direitos sociais a educação, a saúde, o trabalho"},  # noqa: E501
    ]
    records.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in rows), encoding="utf-8")
    r = _cli("verify", records, "--store", st, "--carry-to", "latest", "--format", "json")
    assert r.returncode == 1, r.stderr  # one citation's section was amended: review it
    carried = {x["citation_id"]: x["carried"] for x in json.loads(r.stdout)["results"]}
    assert carried["xi"]["status"] == "unchanged" and carried["art6"]["status"] == "amended"
    assert carried["xi"]["to"]["source_id"] == "cf88@2020-08-26"
    r = _cli("store", "affected", "cf88@2020-08-26", "--store", st, "--format", "json")
    affected = json.loads(r.stdout)
    assert r.returncode == 1 and {(x["section"], x["change"]) for x in affected} == {("art-6", "amended")}
    assert affected[0]["citations"] == ["art6"]
    r = _cli("store", "affected", "cf88@1988-10-05", "--store", st)
    assert r.returncode == 0  # nothing older than the first version
    r = _cli("verify", records, "--store", st, "--carry-to", "other@1")
    assert "not_carried" in r.stdout or "another source" in r.stdout
    assert SHARED.is_dir()


LGPD_EDITIONS = {
    "planalto": CORPORA / "br/lei-13709-2018-lgpd-planalto.html",
    "camara": CORPORA / "br/lgpd-camara-cedi-2024.pdf",
    "senado": CORPORA / "br/lgpd-senado-edicao-2024.pdf",
}
LGPD_SAME_WORDING = {
    "art-1": "Câmara 'Art. 1º', Senado 'Art. 1o' (its superscript o read flat); Planalto adds '(Incluído pela "
    "Lei nº 13.853, de 2019) Vigência' (the note and its link) after the parágrafo único",
    "art-1/par-unico": "the same sentence; only the editions' notes differ",
    "art-2": "Senado: the page's running header 'Lei no 13.709/2018' and page number 9 fall between V and VI",
    "art-13/par-4": "§ 4º / § 4o, the same sentence",
    "art-5/inc-XIX": "the current wording (Lei 13.853/2019); Planalto keeps the 2018 and MP 869 wordings struck",
    "art-23/inc-II": "'II - (VETADO); e' in Planalto (a note there) and the Câmara (plain text)",
    "art-28": "'Art. 28. (VETADO).' (Planalto, Câmara), 'Art. 28. (Vetado)' (Senado)",
    "art-20/par-3": "vetoed: '§ 3º (VETADO). (Incluído pela Lei nº 13.853, de 2019) Vigência' (Planalto), "
    "'§ 3º (VETADO na Lei nº 13.853, de 8/7/2019)' (Câmara), '§ 3o (Vetado)' and the page footer (Senado)",
}


@pytest.fixture(scope="module")
def lgpd() -> dict[str, Document]:
    return {name: load_document(path, f"lgpd-{name}") for name, path in LGPD_EDITIONS.items()}


@pytest.mark.parametrize(("older", "newer"), [("camara", "senado"), ("planalto", "camara"), ("planalto", "senado")])
def test_lgpd_editions_of_one_wording_are_not_amendments(lgpd: dict[str, Document], older: str, newer: str) -> None:
    """Three editions of the LGPD in force in 2024, each read by hand for the sections above: the
    same words, typeset differently (ordinal signs, running headers, notes and Planalto's
    'Vigência' links, '(VETADO)'); none of that is an amendment."""
    d = diff_documents(lgpd[older], lgpd[newer])
    same = {sid: d.get(sid) for sid in LGPD_SAME_WORDING}
    if newer == "senado":
        del same["art-23/inc-II"]  # the Senado edition prints 'II – (Vetado);' without the 'e'
    assert {sid: c.change if c else None for sid, c in same.items()} == dict.fromkeys(same, "unchanged")


def test_lgpd_edition_that_leaves_out_words_is_amended(lgpd: dict[str, Document]) -> None:
    """The Senado edition leaves out the Marco Civil wording art. 60 enacts ("suprimiram-se as
    alterações", its editor's note) and the 'e' closing art. 23, II: the words differ, and the
    diff says which."""
    d = diff_documents(lgpd["camara"], lgpd["senado"])
    art60, inc = d.get("art-60"), d.get("art-23/inc-II")
    assert art60 is not None and art60.change == "amended"
    assert any("exclusão definitiva dos dados pessoais" in w["old"] and not w["new"] for w in art60.words)
    assert inc is not None and inc.change == "amended"
    assert [(w["op"], w["old"], w["new"]) for w in inc.words] == [("delete", "e", "")]


def test_carry_into_a_struck_wording_is_not_unchanged(lgpd: dict[str, Document]) -> None:
    """Planalto prints art. 5º, XIX three times: the 2018 wording ('órgão da administração pública
    indireta responsável ... desta Lei.') and MP 869's, both struck, then Lei 13.853's ('... desta
    Lei em todo o território nacional.'). A citation of the 2018 wording carried to this edition
    finds its words only in struck text: they are no longer in force, so the section is amended,
    and where they are still printed is said (``struck``)."""
    planalto = lgpd["planalto"]
    tree = segment(planalto)
    inc = tree.get("art-5/inc-XIX")
    assert inc is not None
    first = next(m for m in planalto.marks if m.kind == "revoked" and inc.start <= m.start < inc.end)
    wording_2018 = " ".join(planalto.text[first.start : first.end].split())
    assert "pública indireta responsável" in wording_2018 and wording_2018.endswith("desta Lei.")
    older = Document("lgpd@2018", f"Art. 5º Para os fins desta Lei, considera-se:\n{wording_2018}\nArt. 6º Fim.\n")
    quote = "órgão da administração pública indireta responsável por zelar, implementar e fiscalizar"
    m = locate(older, quote).matches[0]
    c = carry(older, m.start, m.end, planalto, Policy())
    assert c["status"] == "amended", c
    assert c["to"]["section"] == "art-5/inc-XIX"
    assert ("delete", "indireta") in {(w["op"], w["old"]) for w in c["words"]}
    assert [planalto.text[s["start"] : s["end"]] for s in c["struck"]] == [quote]
    current = "fiscalizar o cumprimento desta Lei em todo o território nacional"
    m = locate(lgpd["camara"], current).matches[0]
    c = carry(lgpd["camara"], m.start, m.end, planalto, Policy())
    assert c["status"] == "unchanged"
    assert planalto.text[c["to"]["start"] : c["to"]["end"]] == current
    assert not any(k.kind == "revoked" and k.start <= c["to"]["start"] < k.end for k in planalto.marks)

"""``ipsis sections`` on real files."""

from __future__ import annotations

import json

from click.testing import CliRunner

from ipsis.cli import main
from tests.sections_gold import CORPORA


def test_sections_json_rfc9111() -> None:
    path = CORPORA / "rfc/rfc9111.txt"
    res = CliRunner().invoke(main, ["sections", str(path), "--format", "json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["family"] == "rfc"
    sec = next(s for s in data["sections"] if s["id"] == "sec-4.2.1")
    text = path.read_text("utf-8-sig")
    assert sec["title"] == "Calculating Freshness Lifetime"
    assert text[sec["start"] : sec["end"]].startswith("4.2.1.  Calculating Freshness Lifetime")


def test_sections_tree_crp_and_bad_input(tmp_path: object) -> None:
    res = CliRunner().invoke(main, ["sections", str(CORPORA / "pt/crp-constituicao-republica-portuguesa.txt")])
    assert res.exit_code == 0
    assert "art-8  Artigo 8.º  Direito internacional" in res.output
    bad = CliRunner().invoke(main, ["sections", "no-such-file.txt"])
    assert bad.exit_code == 2 and "no such file" in bad.output


def test_sections_at_a_date_boe() -> None:
    path = str(CORPORA / "es/constitucion-espanola-boe-api-texto-excerpt.xml")
    latest = CliRunner().invoke(main, ["sections", path, "--format", "json"])
    old = CliRunner().invoke(main, ["sections", path, "--format", "json", "--at", "1980-01-01"])
    assert latest.exit_code == 0 and old.exit_code == 0, old.output
    a13 = [next(s for s in json.loads(r.output)["sections"] if s["id"] == "art-13") for r in (latest, old)]
    assert [v["in_text"] for v in a13[0]["versions"]] == [False, True]
    assert [v["in_text"] for v in a13[1]["versions"]] == [True, False]
    tree = CliRunner().invoke(main, ["sections", path])
    assert "art-13  Artículo 13" in tree.output and "[2 versions]" in tree.output
    bad = CliRunner().invoke(main, ["sections", path, "--at", "1970-01-01"])
    assert bad.exit_code == 2 and "in force on 1970-01-01" in bad.output


def test_text_of_a_section_says_what_it_could_not_check() -> None:
    """The Swiss constitution is split into Absätze, not sentences: ``Satz 1`` is named on stderr
    and the Absatz is printed."""
    path = str(CORPORA / "pdf/ch-bundesverfassung-sr101-2020.pdf")
    res = CliRunner().invoke(main, ["text", path, "--section", "Art. 8 Abs. 2 Satz 1"])
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("2 Niemand darf diskriminiert werden")
    assert "note: 'Satz 1' in the reference was not read" in res.stderr


def test_text_of_a_fraccion_and_of_an_ordinal_paragraph() -> None:
    """``ipsis text --section`` prints a CPEUM fracción and the Nth paragraph of an article
    (pdftotext -layout: art. 4o.'s third paragraph is the right to food)."""
    path = str(CORPORA / "latam/mx-cpeum-camara-diputados-2024-11-15.pdf")
    res = CliRunner().invoke(main, ["text", path, "--section", "artículo 4o., párrafo tercero"])
    assert res.exit_code == 0, res.output
    assert " ".join(res.stdout.split()) == (
        "Toda persona tiene derecho a la alimentación nutritiva, suficiente y de calidad. El Estado lo garantizará."
    )
    assert not res.stderr
    res = CliRunner().invoke(main, ["text", path, "--section", "artículo 123, apartado B, fracción XIII bis"])
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("XIII bis. El banco central")
    res = CliRunner().invoke(main, ["text", path, "--section", "artículo 123, fracción XIII"])
    assert res.exit_code == 2 and "is ambiguous" in res.output

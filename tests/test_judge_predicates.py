"""The predicate alignment (ipsis/judge/predicates.py, issue 25): who does what to whom, bound
negation, another actor, on the issue's examples and heldout5's wordings (sentences of the cited
sections, read from the documents by hand)."""

from __future__ import annotations

import pytest

from ipsis.judge.analysis import Analysis
from ipsis.judge.cues import CueJudge
from ipsis.judge.predicates import ALIGNMENT_FEATURES, ALIGNMENT_SIGNS, align, alignment_vector

LGPD_48 = ("O controlador deverá comunicar à autoridade nacional e ao titular a ocorrência de incidente de "
           "segurança que possa acarretar risco ou dano relevante aos titulares.")
G3_SAMPLES = ("Cada Parte autorizará la importación libre de impuesto de importación de las muestras sin valor "
              "comercial originarias de otra Parte.")
CT_STRIKE = ("Compete aos trabalhadores definir o âmbito de interesses a defender através da greve, não podendo a "
             "lei limitar esse âmbito.")


@pytest.mark.parametrize(("claim", "section", "lang", "roles"), [
    ("O trabalhador deve proporcionar ao empregador condições que favoreçam a conciliação da actividade "
     "profissional com a vida familiar e pessoal.",
     "3 - O empregador deve proporcionar ao trabalhador condições de trabalho que favoreçam a conciliação da "
     "actividade profissional com a vida familiar e pessoal.", "pt", [("trabal", "propor", "empreg")]),
    ("El responsable podrá tramitar, por cuenta del encargado, las solicitudes de los afectados si así lo "
     "establece el contrato.",
     "3. El encargado podrá tramitar, por cuenta del responsable, las solicitudes de ejercicio formuladas por "
     "los afectados de sus derechos si así se estableciere en el contrato.", "es", [("respon", "tramit", "encarg")]),
])
def test_roles_swapped_around_the_same_predicate(claim: str, section: str, lang: str, roles: list) -> None:
    assert align(Analysis(claim, lang), Analysis(section, lang)).roles == roles


def test_a_swap_farther_than_the_span_is_missed() -> None:
    # heldout4's strike claim: "os trabalhadores" stands 11 words after "definir", past SPAN (a known miss)
    a = align(Analysis("Compete à lei definir o âmbito de interesses a defender através da greve, não podendo os "
                       "trabalhadores alargá-lo.", "pt"), Analysis(CT_STRIKE, "pt"))
    assert a.roles == []


def test_the_actor_another_than_the_sections() -> None:
    a = align(Analysis("O operador deverá comunicar o incidente de segurança à autoridade nacional.", "pt"),
              Analysis(LGPD_48, "pt"))
    assert ("comuni", "operad", "contro") in a.actor


def test_a_passive_mapped_to_the_active_is_no_conflict() -> None:
    a = align(Analysis("A autoridade nacional e o titular devem ser informados pelo controlador sobre incidente "
                       "de segurança que possa acarretar risco relevante.", "pt"), Analysis(LGPD_48, "pt"))
    assert a.conflicts == 0


@pytest.mark.parametrize(("claim", "flipped"), [
    ("Cada Parte podrá cobrar un impuesto de importación reducido a las muestras sin valor comercial "
     "originarias de otra Parte.", ["impues"]),  # "libre de impuesto" denies the tax; the claim levies it
    ("Las muestras sin valor comercial originarias de otra Parte se importan libres de impuesto de importación.",
     []),  # the same denial, in the plural
])
def test_negation_bound_to_its_word(claim: str, flipped: list[str]) -> None:
    assert align(Analysis(claim, "es"), Analysis(G3_SAMPLES, "es")).polarity == flipped


def test_a_negation_elsewhere_in_the_sentence_is_not_the_predicates() -> None:
    # "não podendo a lei limitar" negates limitar, not definir: restating the first clause keeps polarity
    a = align(Analysis("Cabe aos trabalhadores definir o âmbito de interesses a defender através da greve.", "pt"),
              Analysis(CT_STRIKE, "pt"))
    assert a.polarity == [] and a.roles == []


def test_alignment_vector_reads_a_clean_faithful_claim() -> None:
    section = "XXXV - a lei não excluirá da apreciação do Poder Judiciário lesão ou ameaça a direito;"
    claim = "A lei não excluirá da apreciação do Poder Judiciário lesão ou ameaça a direito."
    r = CueJudge(model=None).read(claim, section)
    v = dict(zip(ALIGNMENT_FEATURES, alignment_vector(r), strict=True))
    assert v == {"align_roles": 0.0, "align_polarity": 0.0, "align_actor": 0.0, "align_clean": 1.0}
    assert len(ALIGNMENT_SIGNS) == len(ALIGNMENT_FEATURES)

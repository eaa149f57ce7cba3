"""Number words in pt/es/en against an independent oracle: num2words (a dev dependency) spells a
number, and the judge's reader must give that number back (issue 19: feminine hundreds,
``bilhão``/``billón``/``billion`` and ``mil milhões`` were missing, so "dois bilhões" equalled "2")."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ipsis.judge.cues import CueJudge
from ipsis.judge.numbers import quantities, same_quantity

num2words = pytest.importorskip("num2words").num2words

UNIT = {"pt": "dias", "pt_BR": "dias", "es": "días", "en": "days"}


@settings(max_examples=400, deadline=None)
@given(n=st.integers(min_value=0, max_value=10**12), lang=st.sampled_from(sorted(UNIT)))
@example(n=2 * 10**9, lang="pt_BR")
@example(n=2 * 10**9, lang="pt")
@example(n=2 * 10**9, lang="es")
@example(n=10**12 + 5 * 10**11, lang="es")
@example(n=420, lang="pt")
@example(n=1_234_567, lang="en")
def test_spelled_numbers_read_back(n: int, lang: str) -> None:
    text = f"{num2words(n, lang=lang)} {UNIT[lang]}"
    found = quantities(text)
    assert [(q.value, q.unit) for q in found] == [(float(n), "day")], text
    assert found[0].surface == text  # the whole spelled number and its unit, nothing more


@pytest.mark.parametrize(
    ("words", "digits"),
    [
        ("quatrocentas pessoas", "400 pessoas"),
        ("trescientas personas", "300 personas"),
        ("dois bilhões de reais", "2.000.000.000 de reais"),
        ("dois mil milhões de euros", "2 000 000 000 de euros"),
        ("dos mil millones de euros", "2.000.000.000 de euros"),
        ("un billón de pesetas", "1.000.000.000.000 de pesetas"),
        ("three billion dollars", "3,000,000,000 dollars"),
    ],
)
def test_number_words_equal_their_digits(words: str, digits: str) -> None:
    (a,), (b,) = quantities(words), quantities(digits)
    assert same_quantity(a, b), (a, b)


def test_billions_are_not_units() -> None:
    # "dois bilhões" read as 2 made a claim of 2 euros look supported by a section of two billion
    section = "O fundo terá dotação de dois bilhões de reais."
    assert CueJudge().answer("O fundo terá dotação de 2 reais.", section).answer == "contradicts"
    assert CueJudge().answer("O fundo terá dotação de 2.000.000.000 de reais.", section).answer == "supports"

"""Invariants of normalization and location (hypothesis)."""

from __future__ import annotations

import itertools
import unicodedata
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from ipsis import Document
from ipsis.ingest.fixes import FIXES
from ipsis.ingest.normalize import LOSSLESS_TIERS, TIERS, apply_plan, normalize
from ipsis.spans import Span
from ipsis.verify import Policy, locate
from tests.shared import SHARED

ALPHABET = st.sampled_from(
    list("ab AZ09.,;-\n\t\r")
    + list("çãéº°ª§“”‘’«»–—−\u00a0\u2009\u200b\u00adﬁﬂ…\u0301\u0327")
    + ["&amp;", "&nbsp;", "ＬＧ", "ß", "İ"]
)
texts = st.lists(ALPHABET, max_size=40).map("".join)
words = st.lists(
    st.sampled_from(
        [
            "Art.",
            "5º",
            "dados",
            "pessoais",
            "não",
            "§",
            "1º",
            "I",
            "–",
            "“lei”",
            "tratamento",
            "regu-\nlamento",
            "30",
            "dias",
            "Café",
            "Cafe\u0301",
        ]
    ),
    min_size=1,
    max_size=30,
).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(texts, st.sampled_from(sorted(FIXES)))
@example("  .", "symbol_spacing")  # a run of spaces before a sign went one space per pass
@example("$  x", "symbol_spacing")
def test_each_step_is_idempotent(text: str, step: str) -> None:
    once = FIXES[step](text)
    if step in ("ocr",):  # rn -> m folds: still idempotent on its own output
        pass
    assert FIXES[step](once) == once


@settings(max_examples=150, deadline=None)
@given(texts, st.sampled_from(TIERS[1:]))
@example("a\n\u0301", "typography")  # symbol_spacing put a lone mark on the letter, composed only next pass
@example("\u2026\u0301\u2026", "accents")  # the stripped mark left six dots, a leader only next pass
@example("\u2026\n\u2026", "typography")  # the line break went after leaders: six dots, a leader only next pass
@example("Consumo ......\n58", "typography")  # the collapsed line break stayed after the leader one pass
def test_pipeline_is_idempotent_and_replayable(text: str, tier: str) -> None:
    n = normalize(text, tier)
    assert normalize(n.text, tier).text == n.text
    assert apply_plan(text, n.steps) == n.text


@settings(max_examples=150, deadline=None)
@given(texts, st.sampled_from(TIERS[1:]))
def test_offset_maps_are_monotonic_and_complete(text: str, tier: str) -> None:
    n = normalize(text, tier)
    pos = [n.offsets.to_source(i) for i in range(len(n.text) + 1)]
    assert pos == sorted(pos)
    assert pos[-1] == len(text) and (not pos or pos[0] >= 0)


@settings(max_examples=150, deadline=None)
@given(texts, st.sampled_from(LOSSLESS_TIERS[1:]), st.data())
def test_mapped_spans_normalize_to_the_view_slice(text: str, tier: str, data: st.DataObject) -> None:
    n = normalize(text, tier)
    if not n.text:
        return
    i = data.draw(st.integers(0, len(n.text) - 1))
    j = data.draw(st.integers(i + 1, len(n.text)))
    _slice_normalizes_to_the_view_slice(text, tier, n, i, j)


def _slice_normalizes_to_the_view_slice(text: str, tier: str, n: Any, i: int, j: int) -> None:
    span = n.offsets.span_to_source(Span(i, j))
    back = normalize(text[span.start : span.end], tier).text
    # the source slice normalizes to the view slice, up to context at its edges: a dash the
    # slice ends on has the text's end after it, read as the space of a separator
    # (`dash_spacing`: `fim -` is `fim-`), where the whole text glues it to a word (`LG -a`)
    view = n.text[i:j].strip()
    at_end = view[:-2] + "-" if view.endswith(" -") else view
    assert view in back or at_end in back or back.strip() in n.text[max(0, i - 1) : j + 1]


def test_a_slice_ending_on_a_dash_normalizes_to_its_view_slice() -> None:
    """Hypothesis's example: `aaaＬＧ\xa0–a` (typography: `aaaLG -a`), sliced to end on the dash."""
    text = "aaa\uff2c\uff27\u00a0\u2013a"
    for tier in LOSSLESS_TIERS[1:]:
        n = normalize(text, tier)
        for i, j in itertools.combinations(range(len(n.text) + 1), 2):
            _slice_normalizes_to_the_view_slice(text, tier, n, i, j)


@settings(max_examples=100, deadline=None)
@given(words, st.data())
def test_any_span_of_the_text_is_located_there_or_ambiguous_with_it(text: str, data: st.DataObject) -> None:
    doc = Document("d", text)
    i = data.draw(st.integers(0, len(text) - 1))
    j = data.draw(st.integers(i + 1, len(text)))
    quote = text[i:j]
    if unicodedata.combining(text[i]) or (j < len(text) and unicodedata.combining(text[j])):
        return  # a span that splits a letter from its accent is not a quote of the text
    if not (quote[0].isalnum() and quote[-1].isalnum()):
        return  # quotes begin and end with words: a lone hyphen that dehyphenation removes is not one
    r = locate(doc, quote, policy=Policy(min_length=0, boundaries=False))
    for m in r.matches:
        assert text[m.start : m.end] == m.text
    if r.status == "located":
        m = r.matches[0]
        assert m.start <= i + len(quote) and i <= m.end


@settings(max_examples=100, deadline=None)
@given(words)
def test_nfd_and_nfc_sources_give_the_same_matches(text: str) -> None:
    nfc = Document("a", unicodedata.normalize("NFC", text))
    nfd = Document("b", unicodedata.normalize("NFD", text))
    quote = unicodedata.normalize("NFC", text)[:40].strip()
    if not quote:
        return
    a = locate(nfc, quote, policy=Policy(min_length=0))
    b = locate(nfd, quote, policy=Policy(min_length=0))
    assert a.status == b.status
    assert len(a.matches) == len(b.matches)


def _word_end(ch: str) -> bool:
    return ch.isalnum() and not unicodedata.combining(ch)


@settings(max_examples=150, deadline=None)
@given(words, st.sampled_from(LOSSLESS_TIERS), st.data())
def test_a_span_with_word_ends_is_found_at_that_span_under_every_accepted_tier(
    text: str, tier: str, data: st.DataObject
) -> None:
    # the candidates always include the span itself: located there, or ambiguous with it listed
    i = data.draw(st.integers(0, len(text) - 1))
    j = data.draw(st.integers(i + 1, len(text)))
    if not (_word_end(text[i]) and _word_end(text[j - 1])):
        return
    if (j < len(text) and unicodedata.combining(text[j])) or (i and text[i - 1] in "-\u00ad"):
        return  # a span that splits a letter from its accent, or a hyphenated word, is not a quote of the text
    r = locate(Document("d", text), text[i:j], policy=Policy(max_tier=tier, min_length=0, boundaries=False))
    assert r.status in ("located", "ambiguous"), (r.status, r.message)
    spans = [(m.start, m.end) for m in r.matches]
    assert (i, j) in spans, (spans, (i, j))


CORPUS_TEXT = (SHARED / "corpora" / "rfc" / "rfc7519.txt").read_text(encoding="utf-8")


@settings(max_examples=60, deadline=None)
@given(st.integers(0, len(CORPUS_TEXT) - 2000), st.sampled_from(TIERS[1:]))
def test_normalizing_real_text_never_moves_an_offset_backwards(start: int, tier: str) -> None:
    window = CORPUS_TEXT[start : start + 2000]
    n = normalize(window, tier)
    pos = [n.offsets.to_source(i) for i in range(len(n.text) + 1)]
    assert all(a <= b for a, b in itertools.pairwise(pos))
    assert pos[-1] == len(window)

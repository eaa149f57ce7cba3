"""Property: answers built from source sentences with correct markers are clean; one marker
flipped to a number that names no source gives exactly one unknown_source finding."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ipsis.answers.check import check_answer
from ipsis.answers.sentences import split_sentences
from ipsis.answers.sources import Source, Sources
from ipsis.document import Document

SOURCE_TEXTS = [
    "Employees travelling on company business may claim meals up to €50 per day. Hotel stays must be "
    "booked through the approved travel portal. Receipts are required for any single expense above €25.",
    "Staff may work remotely up to three days per week with their manager’s approval. Remote workers "
    "must be reachable on the team chat between 10:00 and 16:00 local time.",
    "Nos termos do Art. 5º, § 1º, o titular tem direito de acesso aos dados. O controlador deverá "
    "responder em até 15 dias.",
    "Company laptops must use full-disk encryption. Lost or stolen devices must be reported to IT within 24 hours.",
]
SOURCES = Sources([Source(i, Document(f"s{i}", t)) for i, t in enumerate(SOURCE_TEXTS, start=1)])
SENTENCES = [(n, s.slice(t)) for n, t in enumerate(SOURCE_TEXTS, start=1) for s in split_sentences(t)]


def _answer(picks: list[tuple[int, str]], quoted: list[bool]) -> str:
    parts = []
    for (n, sentence), q in zip(picks, quoted, strict=True):
        body = sentence.rstrip(".")
        parts.append(f'As stated, "{body}" [{n}].' if q else f"{body} [{n}].")
    return " ".join(parts)


answers = st.integers(1, 6).flatmap(
    lambda k: st.tuples(
        st.lists(st.sampled_from(SENTENCES), min_size=len(SOURCE_TEXTS), max_size=len(SOURCE_TEXTS) + k),
        st.lists(st.booleans(), min_size=len(SOURCE_TEXTS) + k, max_size=len(SOURCE_TEXTS) + k),
    )
)


def _covering(picks: list[tuple[int, str]]) -> list[tuple[int, str]]:
    # make sure every source is cited once, so that unused_source never fires
    first = [next(s for s in SENTENCES if s[0] == n) for n in range(1, len(SOURCE_TEXTS) + 1)]
    return first + picks[len(first) :]


@settings(max_examples=60, deadline=None)
@given(answers)
def test_correct_markers_are_clean(data: tuple[list[tuple[int, str]], list[bool]]) -> None:
    picks, quoted = data
    picks = _covering(picks)
    text = _answer(picks, quoted[: len(picks)])
    report = check_answer(text, SOURCES)
    assert report.findings == (), [f.message for f in report.findings]


@settings(max_examples=60, deadline=None)
@given(answers, st.data())
def test_one_flipped_marker_is_one_unknown_source(
    data: tuple[list[tuple[int, str]], list[bool]], draw: st.DataObject
) -> None:
    picks, quoted = data
    picks = _covering(picks)
    # flip a marker of a duplicated source (so the real source stays cited elsewhere)
    counts = {n: sum(1 for p in picks if p[0] == n) for n in range(1, len(SOURCE_TEXTS) + 1)}
    candidates = [i for i, p in enumerate(picks) if counts[p[0]] > 1]
    if not candidates:
        picks = [*picks, picks[0]]
        quoted = [*quoted, False]
        candidates = [len(picks) - 1]
    i = draw.draw(st.sampled_from(candidates))
    bad = draw.draw(st.integers(len(SOURCE_TEXTS) + 1, 99))
    picks[i] = (bad, picks[i][1])
    text = _answer(picks, quoted[: len(picks)])
    report = check_answer(text, SOURCES)
    assert [f.kind for f in report.findings] == ["unknown_source"], [f.message for f in report.findings]
    assert report.findings[0].answer_span is not None
    assert report.findings[0].answer_span.slice(text) == f"[{bad}]"

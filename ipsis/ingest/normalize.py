"""Normalization tiers: named, offset-preserving steps that build the views ipsis searches.

Tiers, cheapest first (DESIGN.md): ``exact`` (nothing changed), ``whitespace``, ``typography``,
then the lossy ``case``, ``accents``, ``ordinals``, ``ocr``. The view of a tier applies the
steps of every tier up to it, in :data:`PIPELINE` order. Each view keeps an
:class:`~ipsis.spans.OffsetMap` back to the text it was built from.

>>> n = normalize("Returns are accepted\\nwithin 30 days.", "whitespace")
>>> n.text, n.steps
('Returns are accepted within 30 days.', ('collapse_whitespace',))
>>> apply_plan("Returns are accepted\\nwithin 30 days.", n.steps) == n.text
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ipsis.document import SKIPPED_IN_MATCHING, Mark
from ipsis.errors import InputError
from ipsis.ingest.fixes import FIXES
from ipsis.ingest.fixkit import _chars, held_chars
from ipsis.spans import Edit, OffsetMap, apply_edits

TIERS: tuple[str, ...] = ("exact", "whitespace", "typography", "case", "accents", "ordinals", "ocr")
LOSSLESS_TIERS: tuple[str, ...] = ("exact", "whitespace", "typography")
LOSSY_TIERS: tuple[str, ...] = ("case", "accents", "ordinals", "ocr")

SKIP_MARKS = "skip_marks"
"""The document-aware step of the typography tier: page furniture and footnote calls
(:data:`~ipsis.document.SKIPPED_IN_MATCHING` marks) are left out of the view, so a quote that
runs across a page break or a running header is still found."""

SPACED = "spaced"
"""A mark kind of views only (never on a document): its text stays in the view, set apart by a
space on each side (a superscript read as extractors that end a word at a raised script do)."""

PIPELINE: tuple[str, ...] = (
    SKIP_MARKS,
    "html_entities",
    "control_hyphens",
    "dehyphenate",
    "invisible",
    "ligatures",
    "compat_forms",
    "nfc",
    "spacing_accents",
    "c1_controls",
    "quotes",
    "dashes",
    "bullets",
    "unicode_spaces",
    "ellipsis",
    "leaders",
    "collapse_whitespace",
    "space_before_punct",
    "symbol_spacing",
    "dash_spacing",
    "case",
    "accents",
    "ordinals",
    "ocr",
    "tidy",
)
"""Every step in the order it runs."""


def tier_of(step: str) -> str:
    return "typography" if step == SKIP_MARKS else FIXES[step].tier


_RANKS = {t: i for i, t in enumerate(TIERS)}


def tier_rank(tier: str) -> int:
    try:
        return _RANKS[tier]
    except (KeyError, TypeError):
        msg = f"unknown tier {tier!r}; choose one of {', '.join(TIERS)}"
        raise InputError(msg) from None


def steps_for(tier: str, disabled: Iterable[str] = ()) -> tuple[str, ...]:
    """The steps of a tier's view (every tier up to it), minus ``disabled``.

    >>> steps_for("whitespace")
    ('nfc', 'collapse_whitespace')
    """
    return _steps_for(tier, tuple(sorted(set(disabled))))


@lru_cache(maxsize=256)
def _steps_for(tier: str, disabled: tuple[str, ...]) -> tuple[str, ...]:
    rank = tier_rank(tier)
    return tuple(s for s in PIPELINE if tier_rank(tier_of(s)) <= rank and s not in disabled)


@dataclass(frozen=True, slots=True)
class Normalized:
    """A normalized view: its text, the steps that changed something, and the offset map."""

    text: str
    steps: tuple[str, ...]
    offsets: OffsetMap


def _skip_marks(text: str, marks: Sequence[Mark]) -> tuple[str, Sequence[Edit]]:
    edits: list[Edit] = []
    last = 0
    for m in sorted(marks, key=lambda m: (m.start, m.end)):
        if m.kind == SPACED and m.start >= last and m.end <= len(text):
            edits += [Edit(m.start, m.start, " "), Edit(m.end, m.end, " ")]
            last = m.end
            continue
        if m.kind not in SKIPPED_IN_MATCHING or m.start < last or m.end > len(text):
            continue
        # furniture leaves a line break, a superscript a space (a note number opening a line,
        # ``1The``, must not glue its neighbours), a footnote call nothing (``Lei:1``)
        edits.append(Edit(m.start, m.end, {"furniture": "\n", "superscript": " "}.get(m.kind, "")))
        last = m.end
    return apply_edits(text, edits), edits


def run_steps(
    text: str, steps: Sequence[str], marks: Sequence[Mark] = (), *, after: Normalized | None = None
) -> Normalized:
    """Apply ``steps`` in order, keeping the offset map and the names of the steps that acted.

    ``after`` continues a view of ``text`` built by earlier steps (its text, map and steps):
    ``run_steps(t, a + b)`` equals ``run_steps(t, b, after=run_steps(t, a))``.

    >>> t, a, b = "O  ARTIGO 5º, ﬁm", steps_for("typography"), steps_for("ocr")
    >>> run_steps(t, b[len(a):], after=run_steps(t, a)) == run_steps(t, b)
    True
    """
    omap = OffsetMap.identity(len(text))
    acted: list[str] = []
    if after is not None:
        text, omap, acted = after.text, after.offsets, list(after.steps)
    # the fixes whose characters the text does not hold are skipped: a short text (a quote) is
    # one set of its characters, a long one the needed characters it holds (held_chars: one
    # pass), instead of each fix scanning it for its own; after a fix that changed the text,
    # what it holds is the set again (short), or with what the fix writes (long), or read anew
    # when the fix may write anything
    plan, wanted = _plan(tuple(steps))
    short = len(text) <= SHORT_TEXT
    chars: set[str] | None = set(text) if short else held_chars(text, wanted) if wanted else None
    for name, apply, needs, writes in plan:
        if apply is None:
            if not marks:
                continue
            new, edits = _skip_marks(text, marks)
        elif chars is None:
            new, edits = apply(text)
        elif needs and chars.isdisjoint(needs):
            continue
        elif isinstance(apply, _chars):  # a table of characters: only those the text may hold
            new, edits = apply.held(text, chars)
        else:
            new, edits = apply(text)
        if new != text:
            acted.append(name)
            omap = omap.then(edits)
            text = new
            if chars is None:
                continue
            if short:
                chars = set(text)  # what the text holds now
            elif writes is None:
                chars = held_chars(text, wanted)
            else:
                chars |= writes
    return Normalized(text, tuple(acted), omap)


_Step = tuple[str, Any, frozenset[str], frozenset[str] | None]


@lru_cache(maxsize=256)
def _plan(steps: tuple[str, ...]) -> tuple[tuple[_Step, ...], frozenset[str]]:
    """Each step's name, applier (None for ``skip_marks``), :attr:`~ipsis.ingest.fixes.Fix.needs`
    and :attr:`~ipsis.ingest.fixes.Fix.writes`; and every character a step needs."""
    plan = tuple(
        (name, None, frozenset(), frozenset(" \n"))
        if name == SKIP_MARKS
        else (name, FIXES[name].apply, FIXES[name].needs, FIXES[name].writes)
        for name in steps
    )
    return plan, frozenset().union(*(needs for _, _, needs, _ in plan))


SHORT_TEXT = 1000
"""Texts up to this length test the :attr:`~ipsis.ingest.fixes.Fix.needs` of each fix against the
set of their characters; longer ones against :func:`~ipsis.ingest.fixkit.held_chars`."""


def normalize(
    text: str, tier: str = "typography", *, disabled: Iterable[str] = (), marks: Sequence[Mark] = ()
) -> Normalized:
    """The view of ``text`` at ``tier`` (the steps of every tier up to it)."""
    return run_steps(text, steps_for(tier, disabled), marks)


def apply_plan(text: str, steps: Sequence[str]) -> str:
    """Replay a list of step names (``Normalized.steps``) over ``text``."""
    for name in steps:
        if name != SKIP_MARKS:
            text = FIXES[name](text)
    return text

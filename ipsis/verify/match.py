"""Find every occurrence; choosing one is the caller's job (``locate``).

Views of a document are built once per tier and cached on the document, so locating many
quotes costs one ``str.find`` pass per quote, not one normalization per quote.

>>> find_all("17 days unpaid", "7 days"), find_all("17 days unpaid", "paid")
([], [])
>>> find_all("!!!", "!!")
[0, 1]
>>> find_all("lorem ipsum dolor amet", "dolor am", boundaries=False)
[12]
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ipsis.document import Document, Mark
from ipsis.ingest.normalize import SPACED, Normalized, normalize, run_steps, steps_for, tier_rank
from ipsis.spans import OffsetMap

MAX_OCCURRENCES = 10_000
"""Stop counting after this many occurrences (a one-letter quote in a long text)."""

# How a place is scored against a citation, as the Hypothesis client's match-quote.ts does
# (quote similarity weighs most, then the context on each side; the position only breaks ties).
QUOTE_WEIGHT = 50
"""Similarity of the place's text to the quote (1 - edits / quote length)."""
PREFIX_WEIGHT = 20
"""Similarity of the text before the place to the given prefix."""
SUFFIX_WEIGHT = 20
"""Similarity of the text after the place to the given suffix."""
POSITION_WEIGHT = 2
"""Closeness to the position hint (1 - distance / text length): a tie-breaker."""


def is_word_char(c: str) -> bool:
    """Letters, digits (any script), ordinal signs and combining marks glue into words.

    >>> is_word_char("º"), is_word_char("é"), is_word_char("\\u0301"), is_word_char("§")
    (True, True, True, False)
    """
    return c.isalnum() or unicodedata.category(c)[0] == "M"


def _cuts_token(text: str, start: int, end: int, quote: str) -> bool:
    """True when ``text[start:end]`` begins or ends inside a word, number or dotted number."""
    if start > 0 and is_word_char(quote[0]) and is_word_char(text[start - 1]):
        return True
    n = len(text)
    if end < n and is_word_char(quote[-1]) and is_word_char(text[end]):
        return True
    # legal tokens: "7.2" is not in "7.2.1", "2.1" is not in "7.2.1", "5" is not in "5.º",
    # "7." is not in "7.2" nor "1." in "1.000"; a hyphen glues a token on: "55" is not in
    # "55-A", "5º" not in "5º-A", "A" not in "55-A", "dar" not in "dar-se-á"
    if end < n and quote[-1] in ".," and len(quote) > 1 and quote[-2].isdigit() and text[end].isdigit():
        return True
    if end + 1 < n and text[end] in _GLUE and is_word_char(text[end + 1]):
        if quote[-1].isdigit() and text[end] in ".,":
            return text[end + 1].isdigit() or text[end + 1] in "ºª"
        if is_word_char(quote[-1]) and text[end] in _HYPHENS:
            return True
    if start >= 2 and text[start - 1] in _GLUE and is_word_char(text[start - 2]):
        if quote[0].isdigit() and text[start - 1] in ".,":
            return text[start - 2].isdigit()
        if is_word_char(quote[0]) and text[start - 1] in _HYPHENS:
            return True
    return False


_HYPHENS = "-\u2010\u2011"
"""Hyphens that glue two tokens into one (``55-A``, ``bem-estar``): never a dash with spaces."""
_GLUE = ".," + _HYPHENS


def find_all(text: str, quote: str, *, boundaries: bool = True, limit: int = MAX_OCCURRENCES) -> list[int]:
    """Start offsets of every occurrence of ``quote`` in ``text``, overlapping ones too."""
    if not quote:
        return []
    out: list[int] = []
    find = text.find
    n = len(quote)
    i = find(quote)
    while i != -1 and len(out) < limit:
        if not boundaries or not _cuts_token(text, i, i + n, quote):
            out.append(i)
        i = find(quote, i + 1)
    return out


def view_key(
    tier: str, disabled: Sequence[str] = (), *, skip_marks: bool = True, furniture: bool = True, spaced: bool = False
) -> tuple[Any, ...]:
    """The ``doc.cache`` key of :func:`document_view`'s view (the store keeps the default one)."""
    return ("view", tier, tuple(sorted(disabled)), skip_marks, furniture, spaced)


def utf8_key(tier: str) -> tuple[Any, ...]:
    """The ``doc.cache`` key of ``(text, text in UTF-8)`` of the view of :func:`view_key` ``(tier)``,
    where a stored view was loaded: the block's pass runs over those bytes instead of encoding
    the view again (:func:`ipsis.verify.batch.find_many`)."""
    return ("utf8", *view_key(tier))


def document_view(
    doc: Document,
    tier: str,
    disabled: Sequence[str] = (),
    *,
    skip_marks: bool = True,
    furniture: bool = True,
    spaced: bool = False,
) -> Normalized:
    """The cached view of ``doc`` at ``tier`` (``exact`` is the text itself); ``skip_marks=False``
    keeps footnote calls and superscripts in the view (page furniture is still skipped unless
    ``furniture=False`` too: the view of every printed character); ``spaced`` (with
    ``skip_marks=False``) sets each superscript apart by spaces, as extractors that end a word
    at a raised script read it (``S 2``)."""
    key = view_key(tier, disabled, skip_marks=skip_marks, furniture=furniture, spaced=spaced)
    view = doc.cache.get(key)
    if view is None:
        if tier == "exact":
            view = Normalized(doc.text, (), OffsetMap.identity(len(doc.text)))
        elif tier_rank(tier) > _TYPOGRAPHY and _goes_on(tier, disabled):
            # a lossy view (the diagnosis of a not_found) goes on from the typography view, which
            # a stored version keeps: only the lossy steps run over the whole text
            base = document_view(doc, "typography", disabled, skip_marks=skip_marks, furniture=furniture, spaced=spaced)
            done = len(steps_for("typography", disabled))
            view = run_steps(doc.text, steps_for(tier, disabled)[done:], after=base)
        else:
            kept = ("furniture",) if furniture else ()
            marks = doc.marks if skip_marks else tuple(m for m in doc.marks if m.kind in kept)
            if spaced and not skip_marks:
                scripts = (Mark(SPACED, m.start, m.end) for m in doc.marks if m.kind in SCRIPTS)
                marks = tuple(sorted((*marks, *scripts), key=lambda m: (m.start, m.end)))
            view = normalize(doc.text, tier, disabled=disabled, marks=marks)
        doc.cache[key] = view
    return view


SCRIPTS = frozenset({"superscript", "script"})
"""Mark kinds of raised or lowered text that a quote may set apart by spaces (the spaced view)."""


def other_views(
    doc: Document, tier: str, disabled: Sequence[str] = (), quote: str | None = None
) -> Iterator[tuple[str, Normalized]]:
    """The views ``locate`` searches when the quote is not in the tier's own view, in order:
    ``marks`` (footnote calls and superscripts kept, for a quote copied with them),
    ``spaced`` (superscripts and scripts set apart by spaces: ``S 2``, ``R n``), ``furniture`` (running headers
    and footers kept too, for a quote of one by itself). Only at ``typography`` and above, and
    only those the document's marks make different from the view; with ``quote``, the
    ``furniture`` view only when a match of the quote could overlap the furniture, so most
    quotes never build it."""
    if tier_rank(tier) < tier_rank("typography") or not doc.marks:
        return
    kinds = _mark_kinds(doc)
    if kinds & {"footnote_call", "superscript"}:
        yield "marks", document_view(doc, tier, disabled, skip_marks=False)
    if kinds & SCRIPTS:
        yield "spaced", document_view(doc, tier, disabled, skip_marks=False, spaced=True)
    furniture = furniture_view(doc, tier, disabled, quote)
    if furniture is not None:
        yield "furniture", furniture


def furniture_view(
    doc: Document, tier: str, disabled: Sequence[str] = (), quote: str | None = None
) -> Normalized | None:
    """The ``furniture`` view of :func:`other_views` (running headers and footers kept), or None
    when the document has none or (with ``quote``) no match of the quote could overlap them."""
    if tier_rank(tier) < tier_rank("typography") or "furniture" not in _mark_kinds(doc):
        return None
    if quote is not None and not _may_hold_furniture(doc, tier, quote):
        return None
    return document_view(doc, tier, disabled, skip_marks=False, furniture=False)


def is_furniture_line(doc: Document, tier: str, quote: str) -> bool:
    """``quote`` is the whole text of a running header or footer of the document (normalized
    like a quote): quoted by itself, it is on every page it is printed on."""
    return " ".join(quote_view(quote, tier).text.split()) in _furniture_texts(doc, tier)


def _may_hold_furniture(doc: Document, tier: str, quote: str) -> bool:
    """A match of ``quote`` could overlap page furniture: the quote holds a whole furniture text,
    lies inside one, or begins with the end of one or ends with the beginning of one (a match
    never starts or ends inside a word, so the shared part is whole words)."""
    q = " ".join(quote_view(quote, tier).text.split())
    for f in _furniture_texts(doc, tier):
        if f in q or q in f:
            return True
        words = f.split(" ")
        for k in range(1, len(words)):
            if q.startswith(" ".join(words[k:])) or q.endswith(" ".join(words[:k])):
                return True
    return False


def _mark_kinds(doc: Document) -> frozenset[str]:
    key = ("mark_kinds",)
    if key not in doc.cache:
        doc.cache[key] = frozenset(m.kind for m in doc.marks)
    kinds: frozenset[str] = doc.cache[key]
    return kinds


def _furniture_texts(doc: Document, tier: str) -> frozenset[str]:
    """The distinct texts of the document's page furniture, normalized like a quote (cached)."""
    key = ("furniture_texts", tier)
    if key not in doc.cache:
        texts = (
            " ".join(quote_view(doc.text[m.start : m.end], tier).text.split())
            for m in doc.marks
            if m.kind == "furniture"
        )
        doc.cache[key] = frozenset(t for t in texts if t)
    found: frozenset[str] = doc.cache[key]
    return found


def quote_view(quote: str, tier: str, disabled: Sequence[str] = ()) -> Normalized:
    """A quote normalized like the document at ``tier``, with outer spaces trimmed (the views
    of recent quotes are kept: a record's quote is normalized by the block, by ``locate``, by
    the found-elsewhere look-up and for each tier of the steps it needed)."""
    if len(quote) <= _CACHED_QUOTE:
        return _cached_quote_view(quote, tier, tuple(disabled))
    return _quote_view(quote, tier, disabled)


_CACHED_QUOTE = 2000
"""Longest quote whose views are kept (4,096 of them at most)."""


@lru_cache(maxsize=4096)
def _cached_quote_view(quote: str, tier: str, disabled: tuple[str, ...]) -> Normalized:
    return _quote_view(quote, tier, disabled)


def _quote_view(quote: str, tier: str, disabled: Sequence[str]) -> Normalized:
    if tier == "exact":
        return Normalized(quote, (), OffsetMap.identity(len(quote)))
    if tier_rank(tier) > _TYPOGRAPHY and len(quote) <= _CACHED_QUOTE and _goes_on(tier, disabled):
        # a lossy view (diagnosis of a not_found) goes on from the quote's typography view, and
        # each tier from the steps it shares with the tiers before it (case, then accents, ...)
        n = _steps_after(quote, tuple(disabled), steps_for(tier, disabled))
    elif tier == "typography" and len(quote) <= _CACHED_QUOTE:
        n = _typography_of(quote, tuple(disabled))  # kept: a lossy view of a not_found goes on from it
    else:
        n = normalize(quote, tier, disabled=disabled)
    stripped = n.text.strip(" ")
    return Normalized(stripped, n.steps, n.offsets) if stripped != n.text else n


_TYPOGRAPHY = tier_rank("typography")


def _goes_on(tier: str, disabled: Sequence[str]) -> bool:
    """The steps of ``tier`` start with those of ``typography`` (and not on the reference path)."""
    from ipsis.verify import batch

    done = steps_for("typography", disabled)
    return steps_for(tier, disabled)[: len(done)] == done and not batch.reference.on


@lru_cache(maxsize=4096)
def _steps_after(quote: str, disabled: tuple[str, ...], steps: tuple[str, ...]) -> Normalized:
    """``run_steps(quote, steps)`` (untrimmed), each step applied to the kept view of the steps
    before it: ``run_steps(t, a + b) == run_steps(t, b, after=run_steps(t, a))``."""
    if len(steps) <= len(steps_for("typography", disabled)):
        return _typography_of(quote, disabled)
    return run_steps(quote, steps[-1:], after=_steps_after(quote, disabled, steps[:-1]))


@lru_cache(maxsize=1024)
def _typography_of(quote: str, disabled: tuple[str, ...]) -> Normalized:
    """The quote's typography view before outer spaces are trimmed (what lossy steps go on from)."""
    return normalize(quote, "typography", disabled=disabled)


def _tier_steps(tier: str, disabled: Sequence[str]) -> tuple[str, ...]:
    return steps_for(tier, disabled)


def _back(view: str, i: int) -> int:
    """``len(view[:i].rstrip(" "))`` without copying the text."""
    while i > 0 and view[i - 1] == " ":
        i -= 1
    return i


def _fwd(view: str, i: int) -> int:
    """Start of ``view[i:].lstrip(" ")`` without copying the text."""
    n = len(view)
    while i < n and view[i] == " ":
        i += 1
    return i


def prefix_score(view: str, start: int, prefix: str, literal: bool = False) -> int | None:
    """W3C prefix test: how many characters of ``prefix`` agree with the text right before
    ``start`` (outer spaces ignored), or None when they disagree. A prefix cut short by the
    start of the document agrees, with only the characters that are there as evidence (none
    there is no evidence: a place at the very start has no prefix to agree with).
    ``literal`` is the W3C reading itself: ``prefix + exact`` must be in the text as written.

    >>> v = "Contact support. Read the guide. Contact support."
    >>> prefix_score(v, 33, "guide."), prefix_score(v, 0, "guide."), prefix_score(v, 17, "guide.")
    (6, None, None)
    >>> prefix_score(v, 33, "guide.", literal=True), prefix_score(v, 33, "guide. ", literal=True)
    (None, 7)
    """
    if literal:
        return len(prefix) if view.endswith(prefix, 0, start) else None
    p = prefix.rstrip(" ")
    end = _back(view, start)
    if view.endswith(p, 0, end):
        return len(p)
    if 0 < end < len(p) and p.endswith(view[:end]):
        return end
    return None


def suffix_score(view: str, end: int, suffix: str, literal: bool = False) -> int | None:
    """W3C suffix test, the mirror of :func:`prefix_score`."""
    if literal:
        return len(suffix) if view.startswith(suffix, end) else None
    s = suffix.lstrip(" ")
    begin = _fwd(view, end)
    if view.startswith(s, begin):
        return len(s)
    rest = len(view) - begin
    if 0 < rest < len(s) and s.startswith(view[begin:]):
        return rest
    return None


@dataclass(frozen=True, slots=True)
class Context:
    """What a citation says around its quote: ``prefix`` and ``suffix`` (normalized like the
    view they are compared with) and ``position`` (an offset into the document text)."""

    prefix: str = ""
    suffix: str = ""
    position: int | None = None

    @property
    def empty(self) -> bool:
        return not self.prefix and not self.suffix and self.position is None


def similarity(window: str, pattern: str) -> float:
    """1 - edits / ``len(pattern)`` of the best approximate occurrence of ``pattern`` in
    ``window`` (0 when either is empty), as match-quote.ts's ``textMatchScore``.

    >>> similarity("we had everything ", "we had every-thing"), similarity("abc", "")
    (0.9444444444444444, 0.0)
    """
    if not pattern or not window:
        return 0.0
    import edlib  # (only a citation's prefix/suffix is scored: a run without them never loads it)

    d = edlib.align(pattern, window, mode="HW", task="distance")["editDistance"]
    return max(0.0, 1.0 - d / len(pattern))


def context_similarity(view: str, start: int, end: int, context: Context) -> tuple[float, float]:
    """How alike the text around ``view[start:end]`` is to the context's prefix and suffix
    (1.0 for a side that was not given): each side is compared with a window of its own
    length right next to the place, outer spaces trimmed."""
    ps = ss = 1.0
    if context.prefix:
        p = context.prefix.rstrip(" ") or context.prefix
        b = _back(view, start)
        ps = similarity(view[max(0, b - len(p)) : b], p)
    if context.suffix:
        q = context.suffix.lstrip(" ") or context.suffix
        f = _fwd(view, end)
        ss = similarity(view[f : f + len(q)], q)
    return ps, ss


def candidate_score(view: str, start: int, end: int, error_rate: float, context: Context, hint: float | None) -> float:
    """The weighted score of one place (1.0 = the quote and its context exactly): quote
    similarity ``1 - error_rate``, context similarity, and closeness to the position hint
    (``hint`` is the distance to it as a fraction of the text; None when there is none).

    >>> v = "we had everything before us, we had nothing before us"
    >>> c = Context(prefix="we had every-thing")
    >>> candidate_score(v, 18, 27, 0.0, c, None) > candidate_score(v, 44, 53, 0.0, c, None)
    True
    """
    ps, ss = context_similarity(view, start, end, context)
    pos = 1.0 if hint is None else max(0.0, 1.0 - hint)
    raw = QUOTE_WEIGHT * (1.0 - error_rate) + PREFIX_WEIGHT * ps + SUFFIX_WEIGHT * ss + POSITION_WEIGHT * pos
    return raw / (QUOTE_WEIGHT + PREFIX_WEIGHT + SUFFIX_WEIGHT + POSITION_WEIGHT)


def _common_before(view: str, a: int, b: int, cap: int) -> int:
    """How many characters before ``a`` and ``b`` agree (spaces before them trimmed)."""
    ea, eb = _back(view, a), _back(view, b)
    k = 0
    while k <= cap and k < ea and k < eb and view[ea - 1 - k] == view[eb - 1 - k]:
        k += 1
    return k


def _common_after(view: str, a: int, b: int, cap: int) -> int:
    sa, sb = _fwd(view, a), _fwd(view, b)
    n = len(view)
    k = 0
    while k <= cap and sa + k < n and sb + k < n and view[sa + k] == view[sb + k]:
        k += 1
    return k


def minimal_context(
    view: str, start: int, end: int, others: Sequence[tuple[int, int]], cap: int
) -> tuple[int, int, bool]:
    """Fewest prefix/suffix characters (trimmed of outer spaces) that single out
    ``view[start:end]`` among ``others``; ``unique`` is False when ``cap`` is not enough.

    >>> v = "Contact support. Read the guide. Contact support."
    >>> minimal_context(v, 33, 49, [(0, 16)], 200)
    (1, 0, True)
    """
    if not others:
        return 0, 0, True
    before_len = _back(view, start)
    after_len = len(view) - _fwd(view, end)
    pairs = [
        (_common_before(view, start, o_start, cap), _common_after(view, end, o_end, cap)) for o_start, o_end in others
    ]
    best: tuple[int, int] | None = None
    # another place drops out when its context disagrees within ours, or runs out first
    # (a context cut short by the document's edge agrees, but with less evidence)
    for p in sorted({0, *(c + 1 for c, _ in pairs)}):
        if p > min(before_len, cap):
            continue
        need = [s for c, s in pairs if c >= p]
        s = 0 if not need else max(need) + 1
        if s > min(after_len, cap):
            continue
        if best is None or p + s < sum(best):
            best = (p, s)
    if best is None:
        return min(before_len, cap), min(after_len, cap), False
    return best[0], best[1], True


def extend_to_word(view: str, pos: int, direction: int) -> int:
    """Move a context edge outward to the nearest space (or the text's edge), so that a
    proposed prefix/suffix holds whole words.

    >>> v = "Read the guide. Contact"
    >>> v[extend_to_word(v, 14, -1):16], v[15:extend_to_word(v, 18, +1)]
    ('guide. ', ' Contact')
    """
    if direction < 0:
        while pos > 0 and not view[pos - 1].isspace():
            pos -= 1
    else:
        while pos < len(view) and not view[pos].isspace():
            pos += 1
    return pos

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
from collections.abc import Sequence

from ipsis.document import Document
from ipsis.ingest.normalize import Normalized, normalize, steps_for
from ipsis.spans import OffsetMap

MAX_OCCURRENCES = 10_000
"""Stop counting after this many occurrences (a one-letter quote in a long text)."""


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
    # legal tokens: "7.2" is not in "7.2.1", "2.1" is not in "7.2.1", "5" is not in "5.º"
    if quote[-1].isdigit() and end + 1 < n and text[end] in ".,-" and text[end + 1].isdigit():
        return True
    if quote[-1].isdigit() and end + 1 < n and text[end] == "." and text[end + 1] in "ºª":
        return True
    return quote[0].isdigit() and start >= 2 and text[start - 1] in ".,-" and text[start - 2].isdigit()


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


def document_view(doc: Document, tier: str, disabled: Sequence[str] = (), *, skip_marks: bool = True) -> Normalized:
    """The cached view of ``doc`` at ``tier`` (``exact`` is the text itself); ``skip_marks=False``
    keeps the marked spans (furniture, footnote calls, superscripts) in the view."""
    key = ("view", tier, tuple(sorted(disabled)), skip_marks)
    view = doc.cache.get(key)
    if view is None:
        if tier == "exact":
            view = Normalized(doc.text, (), OffsetMap.identity(len(doc.text)))
        else:
            view = normalize(doc.text, tier, disabled=disabled, marks=doc.marks if skip_marks else ())
        doc.cache[key] = view
    return view


def quote_view(quote: str, tier: str, disabled: Sequence[str] = ()) -> Normalized:
    """A quote normalized like the document at ``tier``, with outer spaces trimmed."""
    if tier == "exact":
        return Normalized(quote, (), OffsetMap.identity(len(quote)))
    n = normalize(quote, tier, disabled=disabled)
    stripped = n.text.strip(" ")
    return Normalized(stripped, n.steps, n.offsets) if stripped != n.text else n


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


def prefix_score(view: str, start: int, prefix: str) -> int | None:
    """W3C prefix test: how many characters of ``prefix`` agree with the text right before
    ``start`` (outer spaces ignored), or None when they disagree. A prefix cut short by the
    start of the document agrees, with only the characters that are there as evidence.

    >>> v = "Contact support. Read the guide. Contact support."
    >>> prefix_score(v, 33, "guide."), prefix_score(v, 0, "guide."), prefix_score(v, 17, "guide.")
    (6, 0, None)
    """
    p = prefix.rstrip(" ")
    end = _back(view, start)
    if view.endswith(p, 0, end):
        return len(p)
    if end < len(p) and p.endswith(view[:end]):
        return end
    return None


def suffix_score(view: str, end: int, suffix: str) -> int | None:
    """W3C suffix test, the mirror of :func:`prefix_score`."""
    s = suffix.lstrip(" ")
    begin = _fwd(view, end)
    if view.startswith(s, begin):
        return len(s)
    rest = len(view) - begin
    if rest < len(s) and s.startswith(view[begin:]):
        return rest
    return None


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

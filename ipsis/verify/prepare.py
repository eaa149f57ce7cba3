"""Quote preparation: take off what surrounds a quote, and say what was taken.

Wrapping quote marks, Markdown emphasis, blockquote markers, ``[sic]``, outer ellipses and
trailing citation markers are usually not part of the source's words. ``locate`` tries the
quote as written first and removes a decoration only when the quote is not in the source as
written; what was removed is listed in the result, never silently.

>>> prepare_quote('> **“Returns are accepted within 30 days.”** [2]')
('Returns are accepted within 30 days.', ['blockquote', 'citation_marker', 'markdown_emphasis', 'wrapping_quotes'])
>>> prepare_quote("...os dados pessoais [sic] …")
('os dados pessoais', ['outer_ellipsis', 'sic'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ipsis.lazy import LazyPattern

_PAIRS = {
    '"': '"',
    "“": "”",
    "”": "”",
    "„": "“",
    "«": "»",
    "»": "«",
    "'": "'",
    "‘": "’",
    "‹": "›",
    "「": "」",
    "『": "』",
}
_BLOCKQUOTE = LazyPattern("regex", r"(?m)^[ \t]*>[ \t]?")
_SIC = LazyPattern("regex", r"\s*[\[(]sic[\])]", ("IGNORECASE",))
_MARKER = LazyPattern(
    "regex",
    r"(?:\s*(?:\[\^?\d+(?:\s*[,–-]\s*\d+)*\]|【\d+(?:[†:][^】]*)?】|\((?:source|fonte|fuente)s?\s+\d+\)|<sup>\d+</sup>))+\s*[.;,]?\s*$",
    ("IGNORECASE",),
)
_STRONG = LazyPattern("regex", r"(?<![^\s(\[\"“«])(\*\*|__|`+)(?=\S)(.+?)(?<=\S)\1(?=$|[\s.,;:!?)\]\"”»])", ("DOTALL",))
_EMPHASIS_WRAP = LazyPattern("regex", r"^(\*\*|__|`+|[*_])(?=\S)(.*\S)\1$", ("DOTALL",))
"""A pair of emphasis marks around the whole quote: one decoration, taken off as a pair before
inner pairs (``__Define __init__ to set__`` keeps its ``__init__``)."""
_OUTER_ELLIPSIS = LazyPattern(
    "regex",
    r"^(?:\.{3}|…|\[(?:\.{3}|…)\]|\((?:\.{3}|…)\))\s*|\s*(?:\.{3}|…|\[(?:\.{3}|…)\]|\((?:\.{3}|…)\))$",
)


def prepare_quote(quote: str) -> tuple[str, list[str]]:
    """Return the quote with every decoration taken off, and the sorted names of what was
    taken (``locate`` tries the quote as written first: :func:`prepare_stages`)."""
    *_, last = (stage for stage in prepare_stages(quote) if "cut_word" not in stage[1])
    return last


def prepare_stages(quote: str, literal: bool = False) -> Iterator[tuple[str, list[str]]]:
    """The quote as written, then the quote after each removal in turn, each with the sorted
    names of what was taken off so far. A decoration may be the source's own text
    (`` `foo.txt` ``, ``__init__``, a ``[22514]`` in a PDF), so ``locate`` searches each stage
    in order and keeps the first that is in the source. ``literal`` (the exact tier) keeps the
    outer whitespace of the first stage; trimming it is then a removal of its own.

    >>> [q for q, _ in prepare_stages("`__init__` [2]")]
    ['`__init__` [2]', '`__init__`', '__init__', 'init']
    >>> list(prepare_stages("foo\\n", literal=True))
    [('foo\\n', []), ('foo', ['outer_whitespace'])]
    """
    removed: set[str] = set()
    q = quote if literal else quote.strip()
    cut: str | None = None
    yield q, []
    if q != q.strip():
        q = q.strip()
        removed.add("outer_whitespace")
        yield q, sorted(removed)
    while True:
        before = q
        for name, step in _STEPS:
            cut = cut or (q if name == "outer_ellipsis" and any(cut_words(q)) else None)
            after = step(q)
            if after is not None and after != q:
                q = after
                removed.add(name)
                yield q, sorted(removed)
        if q == before:
            break
    core = without_cut_words(cut) if cut is not None else None
    if core is not None and core != q and not literal:
        yield core, sorted({*removed, "cut_word"})


_CUT_WORD = LazyPattern("regex", r"^(?:\.{3}|…)(\p{L}+)(?=\s)|(?<=\s)(\p{L}+)(?:\.{3}|…)$")
"""An ellipsis glued to a word at an end of the quote: the word may be cut (``European l...``,
``...ment of the city``), as search tools cut their snippets (Anthropic's ``cited_text``)."""
_ELLIPSES = ("...", "…")
_CUT_HEAD = LazyPattern("regex", r"^(?:\.{3}|…)\p{L}+\s+")
_CUT_TAIL = LazyPattern("regex", r"\s+\p{L}+(?:\.{3}|…)$")


def cut_words(quote: str) -> tuple[str, str]:
    """The letters glued to an ellipsis at the quote's start and at its end (``""`` for none):
    maybe a word cut short.

    >>> cut_words("...ment of the city will join European l...")
    ('ment', 'l')
    >>> cut_words("within 3... days"), cut_words("has been sentenced to ...")
    (('', ''), ('', ''))
    """
    head = tail = ""
    q = quote.strip()
    if not (q.startswith(_ELLIPSES) or q.endswith(_ELLIPSES)):  # the pattern needs one at an end
        return head, tail
    for m in _CUT_WORD.finditer(q):
        head, tail = head or m.group(1) or "", tail or m.group(2) or ""
    return head, tail


def without_cut_words(quote: str) -> str | None:
    """``quote`` without the words :func:`cut_words` finds and their ellipses, or None when it
    has none (or nothing would be left): the last stage of :func:`prepare_stages`, searched
    only where the source's next (previous) word goes on from the cut letters."""
    q = quote.strip()
    head, tail = cut_words(q)
    if not head and not tail:
        return None
    m = _CUT_HEAD.match(q) if head else None
    start = m.end() if m else 0
    m = _CUT_TAIL.search(q) if tail else None
    end = m.start() if m else len(q)
    core = q[start:end].strip()
    return core or None


def goes_on(text: str, hits: list[tuple[int, int]], head: str, tail: str) -> list[tuple[int, int]]:
    """The hits of a quote's core in ``text`` (a view) whose previous word ends with ``head``
    and whose next word starts with ``tail`` (the letters :func:`cut_words` found, in the view's
    form): ``European l...`` is ``European`` before ``leaders``, never before ``Union``.

    >>> goes_on("will join European leaders. European Union", [(5, 18), (28, 36)], "", "l")
    [(5, 18)]
    """
    out = []
    for a, b in hits:
        before, after = text[:a].rstrip(" "), text[b:]
        if head and not (a > len(before) and before.endswith(head)):
            continue
        if tail and not (after[:1] == " " and after[1:].startswith(tail)):
            continue
        out.append((a, b))
    return out


def _blockquote(q: str) -> str | None:
    return _BLOCKQUOTE.sub("", q).strip() if _BLOCKQUOTE.search(q) else None


def _marker(q: str) -> str | None:
    # a marker closes the quote (then only spaces and one of .;,): the tail is tested before the
    # pattern, which is anchored at the end and so tried from every position
    tail = q.rstrip()
    if tail[-1:] in (".", ";", ","):
        tail = tail[:-1].rstrip()
    if tail[-1:] not in ("]", "】", ")", ">"):
        return None
    m = _MARKER.search(q)
    return q[: m.start()].strip() if m and m.start() > 0 else None


def _strong(q: str) -> str | None:
    return _STRONG.sub(lambda m: m.group(2), q).strip() if _STRONG.search(q) else None


def _emphasis(q: str) -> str | None:
    m = _EMPHASIS_WRAP.match(q)
    if not m:
        return None
    mark, n = m.group(1), len(m.group(1))
    i, j = n, len(q) - n  # the same pair nested many times comes off at once (one pass, not one per level)
    while j - i > 2 * n and q.startswith(mark, i) and q.endswith(mark, 0, j) and not q[i + n].isspace():
        i, j = i + n, j - n
    return q[i:j].strip()


def _wrapping(q: str) -> str | None:
    if len(q) >= 2 and _PAIRS.get(q[0]) == q[-1]:
        inner = q[1:-1]
        if q[0] not in inner and q[-1] not in inner:
            return inner.strip()
    return None


def _sic(q: str) -> str | None:
    return _SIC.sub("", q).strip() if _SIC.search(q) else None


def _ellipsis(q: str) -> str | None:
    if q[:1] not in (".", "…", "[", "(") and q.rstrip()[-1:] not in (".", "…", "]", ")"):
        return None  # neither end can hold one (the pattern is tried from every position)
    return _OUTER_ELLIPSIS.sub("", q).strip() if _OUTER_ELLIPSIS.search(q) else None


_STEPS: tuple[tuple[str, Callable[[str], str | None]], ...] = (
    ("blockquote", _blockquote),
    ("citation_marker", _marker),
    ("markdown_emphasis", _emphasis),
    ("markdown_emphasis", _strong),
    ("wrapping_quotes", _wrapping),
    ("sic", _sic),
    ("outer_ellipsis", _ellipsis),
)
"""Each removal, in the order they are tried; the round repeats until nothing changes."""

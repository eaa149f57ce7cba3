"""Many quotes of one source found together: one multi-pattern pass over the view.

``locate`` finds a quote's places with a ``str.find`` loop, one scan of the whole view per
quote. When many records cite one source, :func:`prefound` runs one Aho-Corasick automaton
over the view instead (``ahocorasick_rs``, every occurrence, overlapping ones too), applies the
same token-boundary test and occurrence limit to each quote's hits as
:func:`~ipsis.verify.match.find_all`, and leaves them on the document until the block of
records is done; ``locate`` takes a quote's places from there (:func:`find_in_view`). The
places are exactly those of ``find_all``; only the time differs (one pass over 5 MB takes about
as long as 70-100 ``str.find`` scans, so below :data:`MIN_QUOTES` distinct quotes the loop is kept,
and on a short source too: building the automaton costs more than the scans, :func:`worth_a_pass`).

A suffix array per source version was measured as the alternative (``benchmarks/locate.py``):
building it costs more than the whole automaton pass; kept in the store it would win only for
runs with a few thousand quotes of a source or fewer, at 4 bytes per character stored.

>>> from ipsis.document import Document
>>> from ipsis.verify.match import document_view
>>> doc = Document("d", "the rapist. the therapist. the rapist.")
>>> with prefound(doc, ["the rapist"], min_quotes=1):
...     find_in_view(doc, document_view(doc, "typography"), "the rapist", DEFAULT_POLICY)
[0, 27]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ipsis.document import Document
from ipsis.ingest.normalize import Normalized
from ipsis.verify.match import (
    MAX_OCCURRENCES,
    _cuts_token,
    document_view,
    find_all,
    other_views,
    quote_view,
    utf8_key,
)
from ipsis.verify.policy import DEFAULT_POLICY, Policy


def _automata() -> tuple[Any, Any]:
    """Two builders of ``ahocorasick_rs.BytesAhoCorasick`` (compiled wheels for every supported
    Python, a base dependency): a contiguous NFA, quick to build, and a DFA, slower to build but
    about twice as fast a pass (:func:`_builder` chooses); ``(None, None)`` where the crate is
    missing: then the ``str.find`` loop, same results. They run over the view's UTF-8 bytes:
    given a ``str``, the crate encodes it and maps every match back to code points itself, which
    took half of a 5 MB pass (:func:`find_many` maps only the starts it keeps)."""
    try:
        from ahocorasick_rs import BytesAhoCorasick
    except ImportError:  # pragma: no cover - depends on the installation
        return None, None
    try:
        from ahocorasick_rs import Implementation
    except ImportError:  # pragma: no cover - ahocorasick-rs before the choice of automaton
        return BytesAhoCorasick, None

    def nfa(patterns: list[bytes]) -> Any:
        return BytesAhoCorasick(patterns, implementation=Implementation.ContiguousNFA)

    def dfa(patterns: list[bytes]) -> Any:
        return BytesAhoCorasick(patterns, implementation=Implementation.DFA)

    return nfa, dfa


AhoCorasick, AhoCorasickDFA = _automata()

DFA_BUILD_NS = 600.0
"""Nanoseconds per byte of the automaton's heads to build it as a DFA (a contiguous NFA: ~60)."""
DFA_SAVES_NS = 3.5
"""Nanoseconds per byte of text that a pass of the DFA saves against the contiguous NFA's
(~8 against ~4.5 ns per byte on 5 MB; ``benchmarks/locate.py``)."""
DFA_HEAD_BYTES = 16
"""Bytes of each quote a DFA holds: its size, and its build, grow with them; the pass is as fast."""


def _builder(heads_bytes: int, text_bytes: int) -> tuple[Any, int]:
    """The automaton to build (a DFA when its longer build is expected to cost less than its
    faster pass saves over ``text_bytes``) and the head length it takes. Either finds every
    match of its heads, overlapping ones too: the places are the same.

    >>> _builder(1000 * DFA_HEAD_BYTES, 5_000_000)[1], _builder(1000 * DFA_HEAD_BYTES, 500_000)[1]
    (16, 32)
    """
    if AhoCorasickDFA is not None and DFA_BUILD_NS * heads_bytes < DFA_SAVES_NS * text_bytes:
        return AhoCorasickDFA, DFA_HEAD_BYTES
    return AhoCorasick, HEAD_BYTES


MIN_QUOTES = 48
"""Fewest distinct quotes of one source for which one automaton pass may beat a ``str.find`` loop
(on a long text; :func:`worth_a_pass` weighs the text's length too)."""

# What the two ways cost, measured on an RFC's text of 5 K to 5 M characters with 48 to 1,000
# quotes of 20-300 characters (medians on the shared 2-core machine; only their ratios matter):
FIND_NS = 0.21
"""Nanoseconds per character of text of one ``str.find`` scan."""
LOOP_NS = 1200.0
"""Nanoseconds per quote of the ``str.find`` loop besides the scan (the call, the token test)."""
BUILD_NS = 35.0
"""Nanoseconds per quote character to build the automaton."""
PASS_NS = 11.0
"""Nanoseconds per character of text of one automaton pass."""


def worth_a_pass(quotes: Sequence[str], text_length: int) -> bool:
    """One automaton pass over a text of ``text_length`` characters is expected to cost less
    than a ``str.find`` loop over it for each of ``quotes`` (the places are the same either
    way). A short source never is: on 5,000 characters the loop of 1,000 quotes takes a third
    of the time of building the automaton.

    >>> worth_a_pass(["q" * 150] * 1000, 5_000), worth_a_pass(["q" * 150] * 300, 500_000)
    (False, True)
    """
    loop = len(quotes) * (LOOP_NS + FIND_NS * text_length)
    one_pass = BUILD_NS * sum(map(len, quotes)) + PASS_NS * text_length
    return one_pass < loop

HEAD_BYTES = 32
"""Bytes of each quote the automaton holds: building it for whole quotes of 20-300 characters
took a fifth of a 5 MB pass, and checking the extra hits of 32-byte heads costs a tenth of that."""

MIN_LENGTH = 16
"""Shorter quotes (and quotes that overlap themselves within half their length, like a row of
dashes) keep the loop: they can occur at nearly every position, and the pass lists every match."""

_KEY = "prefound"


class _Switch:
    on = False


reference = _Switch()
"""When ``reference.on``, ``locate`` takes the per-quote path it had before blocks and sorted
contexts (a ``str.find`` loop per quote, contexts compared pair by pair): the test that proves
both paths give the same results turns it on with :func:`reference_path`."""


def clear_caches() -> None:
    """Forget the kept views and preparation stages of recent quotes (benchmarks run each
    path from nothing)."""
    from ipsis.verify import match
    from ipsis.verify.locate import _cached_stages

    match._cached_quote_view.cache_clear()
    match._typography_of.cache_clear()
    match._steps_after.cache_clear()
    _cached_stages.cache_clear()


@contextmanager
def reference_path() -> Iterator[None]:
    """Run the block on the per-quote reference path (for comparisons; not thread-safe)."""
    reference.on = True
    try:
        yield
    finally:
        reference.on = False


def _batchable(q: str) -> bool:
    return len(q) >= MIN_LENGTH and q.find(q[: len(q) // 2], 1) == -1


def find_many(
    text: str,
    quotes: Iterable[str],
    *,
    boundaries: bool = True,
    limit: int = MAX_OCCURRENCES,
    min_quotes: int = MIN_QUOTES,
    utf8: bytes | None = None,
) -> dict[str, list[int]]:
    """``{quote: find_all(text, quote, boundaries=..., limit=...)}`` for every quote: one pass
    over ``text`` for the quotes :func:`_batchable` admits when there are ``min_quotes`` of them.
    ``utf8``: ``text`` in UTF-8 (surrogates passed), when the caller has it.

    >>> find_many("7 days; 17 days; 7 days.", ["7 days", "days; 17 days; 7"], min_quotes=1)
    {'7 days': [0, 17], 'days; 17 days; 7': [2]}
    """
    wanted = list(dict.fromkeys(q for q in quotes if q))
    many = [q for q in wanted if _batchable(q)] if AhoCorasick is not None else []
    if len(many) < min_quotes:
        many = []
    chosen = set(many)
    out = {q: find_all(text, q, boundaries=boundaries, limit=limit) for q in wanted if q not in chosen}
    if not many:
        return out
    # a UTF-8 pattern matches only at a character's first byte
    data = text.encode("utf-8", "surrogatepass") if utf8 is None else utf8
    starts: list[list[int]] = [[] for _ in many]
    patterns = [q.encode("utf-8", "surrogatepass") for q in many]
    build, head = _builder(len(patterns) * DFA_HEAD_BYTES, len(data))
    heads: dict[bytes, list[int]] = {}  # the automaton holds each quote's first bytes; a hit is checked whole
    for i, p in enumerate(patterns):
        heads.setdefault(p[:head], []).append(i)
    keys = list(heads)
    starts_with = data.startswith
    for k, s, _ in build(keys).find_matches_as_indexes(data, overlapping=True):
        for i in heads[keys[k]]:
            if starts_with(patterns[i], s):
                starts[i].append(s)
    if len(data) != len(text):  # not ASCII: byte offsets to code points
        at = _code_points(data, sorted({s for found in starts for s in found}))
        starts = [[at[s] for s in found] for found in starts]
    for q, found in zip(many, starts, strict=True):
        found.sort()
        n = len(q)
        kept: list[int] = []
        for s in found:
            if len(kept) >= limit:
                break
            if not boundaries or not _cuts_token(text, s, s + n, q):
                kept.append(s)
        out[q] = kept
    return out


def _code_points(data: bytes, offsets: list[int]) -> dict[int, int]:
    """``{byte offset: code point offset}`` of sorted ``offsets`` (each at a character's first
    byte) into the UTF-8 ``data``, decoding each stretch between two of them once.

    >>> _code_points("aº b".encode(), [0, 3, 4])
    {0: 0, 3: 2, 4: 3}
    """
    out: dict[int, int] = {}
    view = memoryview(data)
    byte = chars = 0
    for b in offsets:
        chars += len(str(view[byte:b], "utf-8", "surrogatepass"))
        byte = b
        out[b] = chars
    return out


def quote_keys(quote: str, policy: Policy) -> list[str]:
    """The texts ``locate`` may search for ``quote``: each stage of its preparation (the quote
    as written first), normalized to the policy's last tier; blank ones left out."""
    from ipsis.verify.locate import searched_stages

    tier, dis = policy.max_tier, policy.disabled_steps
    keys = (quote_view(stage, tier, dis).text for stage, _ in searched_stages(quote, policy))
    return [k for k in keys if k.strip()]


def _tag(policy: Policy) -> tuple[str, tuple[str, ...], bool]:
    return policy.max_tier, tuple(sorted(policy.disabled_steps)), policy.boundaries


@contextmanager
def prefound(
    doc: Document, quotes: Sequence[str], policy: Policy = DEFAULT_POLICY, *, min_quotes: int | None = None
) -> Iterator[None]:
    """Find the places of all ``quotes`` (as given to ``locate``) in one pass, kept for the block:
    when there are :data:`MIN_QUOTES` of them and the pass is :func:`worth_a_pass`, or
    whenever there are ``min_quotes`` (a caller that wants the pass)."""
    if len(quotes) < (MIN_QUOTES if min_quotes is None else min_quotes) or reference.on:
        yield
        return
    view = document_view(doc, policy.max_tier, policy.disabled_steps)
    if min_quotes is None and not worth_a_pass(quotes, len(view.text)):  # the str.find loop is cheaper
        yield
        return
    min_quotes = MIN_QUOTES if min_quotes is None else min_quotes
    keys = [k for q in quotes for k in quote_keys(q, policy)]
    batchable = [k for k in dict.fromkeys(keys) if _batchable(k)] if AhoCorasick is not None else []
    if len(batchable) < min_quotes or reference.on:  # the str.find loop, quote by quote, as without a block
        yield
        return
    kept = doc.cache.get(utf8_key(policy.max_tier)) if not policy.disabled_steps else None
    utf8 = kept[1] if kept is not None and kept[0] is view.text else None  # the stored view's own bytes
    found = find_many(view.text, batchable, boundaries=policy.boundaries, min_quotes=min_quotes, utf8=utf8)
    store = doc.cache.setdefault(_KEY, {})
    tag = _tag(policy)
    added = [(tag, q) for q in found if (tag, q) not in store]
    for q, hits in found.items():
        store[(tag, q)] = hits
    try:
        yield
    finally:
        for key in added:
            store.pop(key, None)


def surely_absent(doc: Document, quote: str, policy: Policy = DEFAULT_POLICY) -> bool:
    """True when ``locate(doc, quote, policy=policy)`` can only be ``not_found`` (or
    ``empty_quote``): no stage of the quote's preparation, normalized, is in the view, and the
    last stage has no inner ellipsis (whose fragments are searched one by one). A look-up that wants only the
    places (found elsewhere) skips such a source instead of diagnosing why it is not there.

    >>> surely_absent(Document("d", "Returns within 30 days."), "within 30 days")
    False
    >>> surely_absent(Document("d", "Returns within 30 days."), "within 60 days")
    True
    """
    return absence_test(quote, policy)(doc)


def absence_test(quote: str, policy: Policy = DEFAULT_POLICY) -> Callable[[Document], bool]:
    """:func:`surely_absent` for one quote and many documents: the quote's searched texts
    (each stage of its preparation, normalized) and whether its last stage has inner
    ellipses are found once, so each document costs only the ``in`` tests on its views."""
    from ipsis.verify.compounds import compound_view, fold_compounds, has_compound
    from ipsis.verify.elision import split_fragments
    from ipsis.verify.locate import searched_stages
    from ipsis.verify.spacing import spaceless_text

    if reference.on:
        return lambda _doc: False
    stages = searched_stages(quote, policy)
    tier, dis = policy.max_tier, policy.disabled_steps
    keys = [k for k in (quote_view(stage, tier, dis).text for stage, _ in stages) if k.strip()]
    folded = [fold_compounds(k) for k in keys if has_compound(k)]  # a compound at a line end
    squeezed = [k.replace(" ", "") for k in keys]  # for the script_spacing search
    last = stages[-1][0] if stages else ""
    elided = split_fragments(last) is not None  # the fragments of the last stage are searched

    def absent(doc: Document) -> bool:
        if elided:
            return False
        view = document_view(doc, tier, dis).text
        for k in keys:
            if k in view:
                return False  # a stage is there: locate may find it
        if folded and any(k in compound_view(doc, document_view(doc, tier, dis)).text for k in folded):
            return False
        if not doc.marks:
            return True  # no other view, no scripts to search without spaces
        others = other_views(doc, tier, dis, quote)
        if any(k in other.text for _, other in others for k in keys):
            return False
        # the script_spacing search's text (empty: none): there but for spaces at a script's edge, maybe
        spaceless = spaceless_text(doc, tier, dis)
        return not (spaceless and any(k in spaceless for k in squeezed))

    return absent


def find_in_view(doc: Document, view: Normalized, q: str, policy: Policy) -> list[int]:
    """The places of ``q`` in ``view`` (the policy's view of ``doc``): from the block's one pass
    when there is one, else :func:`~ipsis.verify.match.find_all`."""
    store = doc.cache.get(_KEY)
    if store and not reference.on:
        hits = store.get((_tag(policy), q))
        if hits is not None:
            return list(hits)
    return find_all(view.text, q, boundaries=policy.boundaries)

"""Spaces a PDF extraction puts or leaves by punctuation and symbols, ellipses and dot leaders:
the typography tier's spacing steps."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from ipsis.ingest.fixkit import _cut_spans, _literal_spans, _places, _start, class_table, latin1_classes, pair_starts
from ipsis.lazy import LazyPattern
from ipsis.spans import Cuts, Edit, apply_edits

_SPACE_PUNCT = LazyPattern("re", r" [.,;:!?)\]}]")
"""A space before punctuation; the rest of a run of spaces before it is found going back in
Python (``" +[.,;:...]"`` starts a match at every space of the text: 3x slower; stdlib ``re``
here is 2x faster than ``regex``)."""


def _space_before_punct(text: str) -> tuple[str, Sequence[Edit]]:
    """Spaces that PDF extraction puts before punctuation go (``único .`` -> ``único.``).

    >>> _space_before_punct("Parágrafo único . Lei ; fim")[0]
    'Parágrafo único. Lei; fim'
    """
    spans = []
    for i in _space_punct_places(text):  # the last space of a run: go back
        s = i
        while s and text[s - 1] == " ":
            s -= 1
        spans.append((s, i + 1))
    return _cut_spans(text, spans, "")


_PUNCT = ".,;:!?)]}"


@lru_cache(maxsize=1)
def _punct_classes() -> bytes:
    """``p`` for the punctuation of :data:`_SPACE_PUNCT` (and every character outside Latin-1),
    `` `` for the space, ``w`` for the rest."""
    return class_table(lambda c: b"p" if c in _PUNCT else b" " if c == " " else b"w", b"p")


def _space_punct_places(text: str) -> list[int]:
    """The matches' starts of :data:`_SPACE_PUNCT`: in a long text, the candidates of its class
    bytes that are followed by the punctuation itself."""
    classes = latin1_classes(text, _punct_classes()) if len(text) >= SCAN_TEXT else None
    if classes is None:
        return list(map(_start, _SPACE_PUNCT.finditer(text)))
    return [i for i in pair_starts(classes, b" p") if text[i + 1] in _PUNCT]


@lru_cache(maxsize=1)
def _space_by_symbol() -> re.Pattern[str]:
    """A space before a sign that is not a letter, a digit or a straight quote mark (open or
    close: ``the "exact" word`` keeps its spaces), or after a symbol, an opening bracket or a
    dash (Unicode S*, Ps, Pd in the BMP). Stdlib ``re`` with the class spelled out: seven times
    faster than ``regex`` with ``\\p{S}`` in a look-behind; built on first use (1 ms: the signs'
    ranges are kept, :mod:`ipsis.ingest.signs`)."""
    from ipsis.ingest.signs import sign_ranges

    ranges = sign_ranges()
    signs = "".join(re.escape(chr(a)) + ("-" + re.escape(chr(b)) if b > a else "") for a, b in ranges)
    return re.compile(" (?:(?=[^\\w\\s\"'])|(?<=[" + signs + "] ))")


def _symbol_spacing(text: str) -> tuple[str, Sequence[Edit]]:
    """A space next to a symbol or bracket goes: before any sign that is not a letter or digit,
    and after a symbol (``+ = ∈ → $``), an opening bracket or a dash. PDF extractors space
    formulas differently (``a1 (Γ)``, ``a1(Γ)``); a space between two letters or two
    digits, and the space after ``, . ; :`` (``1, 5`` is not ``1,5``), always stays.

    >>> _symbol_spacing("a1 (Γ) = { y ∈ Rn | d(x, y) < r } e 1, 5")[0]
    'a1(Γ)={y∈Rn|d(x, y)<r} e 1, 5'
    >>> _symbol_spacing("I - o ( - 1) f -1 (U )")[0]
    'I - o( - 1) f -1(U)'
    """
    if " " not in text:
        return text, []
    return _cut_spans(text, _symbol_spaces(text), "")


SCAN_TEXT = 4096
"""Texts from this length find the candidate places of the spacing steps in their
:func:`~ipsis.ingest.fixkit.latin1_classes` (a pattern tried at every space costs more there)."""


@lru_cache(maxsize=1)
def _symbol_classes() -> bytes:
    """The class of each Latin-1 character for :func:`_symbol_spaces`: ``s`` a sign (a space
    after it may go), ``x`` another character a space before it may go (``[^\\w\\s"']``, the
    pattern's), `` `` the space, ``w`` the rest; a hyphen is ``w``, as the spaces by it always
    stay; ``u`` the ``?`` every character outside Latin-1 reads as (the pattern decides there)."""
    pattern = _space_by_symbol()
    sign = re.compile(pattern.pattern.split("(?<=", 1)[1].split(" ))", 1)[0])
    other = re.compile("[^\\w\\s\"']")

    def classify(c: str) -> bytes:
        if c in " -":
            return c.replace("-", "w").encode()
        return b"s" if sign.match(c) else b"x" if other.match(c) else b"w"

    return class_table(classify, b"u")


_ANY_SIGN = bytes.maketrans(b"su", b"xx")
"""Class bytes with every character a space before it may go read as ``x``."""
_SIGN_SPACE = (LazyPattern("re", b"s "), LazyPattern("re", b"u "))
"""A sign (or maybe one), then a space: ``re`` goes by a literal's rare first byte (``split`` by
the last, a class by testing every byte)."""
_X, _S, _U = b"xsu"


def _symbol_spaces(text: str) -> list[tuple[int, int]]:
    """Where :func:`_symbol_spacing` takes spaces out: the whole run of spaces a matched space
    belongs to (``a  .`` loses both at once, so the step is idempotent on text whose spaces
    were not collapsed first). A long text's runs come from its class bytes instead
    (:func:`_symbol_runs`)."""
    classes = latin1_classes(text, _symbol_classes()) if len(text) >= SCAN_TEXT else None
    spans: list[tuple[int, int]] = [] if classes is None else _symbol_runs(text, classes)
    for s in map(_start, _space_by_symbol().finditer(text)) if classes is None else ():
        if spans and spans[-1][1] > s:  # in the run already taken
            continue
        e = s + 1
        while s > 0 and text[s - 1] == " ":
            s -= 1
        while e < len(text) and text[e] == " ":
            e += 1
        if e < len(text) and unicodedata.category(text[e])[0] == "M":
            continue  # a mark after a space sits on the space (`a ́`): taking the space out would put it on the letter
        spans.append((s, e))
    if spans and ("-" in text or "°" in text):  # the few by a hyphen or before ° may stay
        spans = [
            (s, e)
            for s, e in spans
            if not (text[s - 1 : s] == "-" or text[e : e + 1] in _STAY_BEFORE) or not _space_stays(text, s, e)
        ]
    return spans


_STAY_BEFORE = ("-", "°")


def _symbol_runs(text: str, classes: bytes) -> list[tuple[int, int]]:
    """The runs of spaces the pattern of :func:`_symbol_spaces` matches in (at its first space,
    by a sign before the run; at its last, by the character after it), from the candidates of
    the class bytes: a space before an ``x`` (any sign too) or after a sign. A run's neighbours
    in Latin-1 decide it by their classes; one outside Latin-1 (``u``) by the pattern, and a
    mark after the run keeps it."""
    places = pair_starts(classes.translate(_ANY_SIGN), b" x")
    places += [m.start() + 1 for pattern in _SIGN_SPACE for m in pattern.finditer(classes)]
    places.sort()
    match = _space_by_symbol().match
    n = len(text)
    runs: list[tuple[int, int]] = []
    last = -1
    for s in places:
        if s < last:  # in the run already looked at
            continue
        e = s + 1
        while s > 0 and classes[s - 1] == 32:
            s -= 1
        while e < n and classes[e] == 32:
            e += 1
        last = e
        left = classes[s - 1] if s > 0 else 0
        right = classes[e] if e < n else 0
        if left != _U and right != _U:
            if left == _S or right in (_X, _S):
                runs.append((s, e))
        elif (match(text, s) or match(text, e - 1)) and not (e < n and unicodedata.category(text[e])[0] == "M"):
            runs.append((s, e))
    return runs


def _space_stays(text: str, s: int, e: int) -> bool:
    """The spaces ``text[s:e]`` stay next to a hyphen (``I - o``, ``Post- und``: a hyphen
    between words keeps them apart; a minus, ``f -1``, is not told from it by its two
    neighbours alone, and a quote's edge must read as the text does) and between a digit and
    ``°`` (``1°`` is the ordinal ``1º`` to the ``ordinals`` step)."""
    left = text[s - 1] if s > 0 else ""
    right = text[e] if e < len(text) else ""
    return left == "-" or right == "-" or (left.isdigit() and right == "°")


def _ellipsis(text: str) -> tuple[str, Sequence[Edit]]:
    """``…`` and ``. . .`` are ``...``.

    >>> _ellipsis("salvo … e . . . fim")[0]
    'salvo ... e ... fim'
    """
    spans = sorted(_literal_spans(text, "…") + _literal_spans(text, ". . ."))
    return _cut_spans(text, spans, "...")  # each 1 or 5 characters -> 3


_LEADER = LazyPattern("re", r"\.(?:\s*\.){3,}\s*")
r"""A dot leader from its first dot; the spaces before it are found going back in Python (with
``\s*`` in front, every space of the text starts a match attempt: 10x slower on a page). Any
whitespace between and after the dots: this tier collapses it and takes the spaces before a dot
out anyway (``...\n...`` is ``......`` after ``space_before_punct``), so a narrower leader left
the view to change again on a second pass (not idempotent: ``Consumo ......\n58`` was
``Consumo.... 58``, and the quote ``Consumo ...... 58`` was ``Consumo....58``)."""


def _leaders(text: str) -> tuple[str, Sequence[Edit]]:
    """A dot leader (four dots or more, whitespace between them allowed, with the whitespace
    around it) is ``....``: a table of contents draws it to the page number with as many dots
    as fit, and extractors count them differently (``Consumo ........ 58`` = ``Consumo...58``
    is not a leader: three dots are an ellipsis).

    >>> _leaders("Consumo ......... 58 e Oferta. . . . 19 e fim... 3")[0]
    'Consumo....58 e Oferta....19 e fim... 3'
    >>> _leaders("Registration  ... ... ... .  20")[0]  # after ``ellipsis`` read ". . ." as "..."
    'Registration....20'
    >>> _leaders("Consumo ......\\n58 e fim...\\n...")[0]  # a line break inside or after it
    'Consumo....58 e fim....'
    """
    edits = []
    last = 0  # the end of the previous leader: its trailing spaces are not the next one's
    for m in _LEADER.finditer(text):
        s, e = m.span()
        while s > last and text[s - 1].isspace():
            s -= 1
        if text[s:e] != "....":
            edits.append(Edit(s, e, "...."))
        last = e
    return (apply_edits(text, edits), edits) if edits else (text, [])


def _dash_spacing(text: str) -> tuple[str, Sequence[Edit]]:
    """A dash with a space after it is a separator (an enumeration's ``II - apoio``, ``1. -
    Texto``), and PDFs draw the space before it or not (``II- apoio``, ``1.- Texto``): the two
    read as one, ``II- apoio`` (the space before the dash goes, an edit of the offset map, so
    a span still starts and ends on the source's own characters).

    Only that space: a dash glued to what follows (``5 -04``, ``C ∞ -Funktion``, ``2
    -propilpentan``) is where extractors split a token glued on both sides (``5-04``,
    ``C∞-Funktion``), so ``II -apoio`` stays other text than ``II - apoio``, and a hyphen glued
    on both sides is a compound or a token (``ausentar-se``, ``55-A``, ``II-apoio``).

    >>> [_dash_spacing(t)[0] for t in ("II - apoio", "II- apoio", "II -apoio", "II-apoio", "1. - Texto")]
    ['II- apoio', 'II- apoio', 'II -apoio', 'II-apoio', '1.- Texto']
    >>> _dash_spacing("ausentar-se, a -- b, fim -")[0]
    'ausentar-se, a -- b, fim-'
    >>> _dash_spacing("II - apoio")[1]
    Cuts(1 edits -> '')
    """
    spaces = []
    last = -3  # the places of " - " left to right, never overlapping, as str.find gives them;
    for s in _places(text, " -"):  # found by " -", whose dash is rare (a needle ending in a space is not)
        if text[s + 2 : s + 3] == " " and s >= last + 3:
            last = s
            if text[s - 1 : s] != "-":
                spaces.append(s)
    if text.endswith(" -") and text[-3:-2] != "-":
        spaces.append(len(text) - 2)
    if not spaces:
        return text, []
    cuts = Cuts(spaces, [s + 1 for s in spaces], "")  # the space before a single dash with a space after it
    return apply_edits(text, cuts), cuts

"""Pure text repairs, each registered by name in :data:`FIXES`.

Every fix is a :class:`Fix`: calling it is a plain ``str -> str`` function, and
``fix.apply(text)`` also returns the :class:`~ipsis.spans.Edit` list of the places where it
changed the *length* of the text, so that a normalized view keeps an offset map back to the
document text. Length-preserving replacements (a curly quote to a straight one) need no edit.

>>> FIXES["quotes"]("“Dados pessoais”")
'"Dados pessoais"'
>>> FIXES["dehyphenate"]("regu-\\nlamento e Brief-, Post- und")
'regulamento e Brief-, Post- und'
"""

from __future__ import annotations

import operator
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from ipsis.lazy import LazyPattern
from ipsis.spans import Cuts, Edit, apply_edits

if TYPE_CHECKING:
    import regex

Applier = Callable[[str], tuple[str, Sequence[Edit]]]


@dataclass(frozen=True, slots=True)
class Fix:
    """A named repair. ``tier`` is the normalization tier it belongs to."""

    name: str
    tier: str
    apply: Applier
    doc: str
    needs: frozenset[str] = frozenset()
    """Characters of which a text must hold one for this fix to change it (empty: any text may
    change). ``run_steps`` skips the fix on a short text that holds none."""

    def __call__(self, text: str) -> str:
        return self.apply(text)[0]


def _sub(pattern: Any, repl: Callable[[Any], str]) -> Applier:
    """An applier that replaces every match of ``pattern`` by ``repl(match)``."""

    def apply(text: str) -> tuple[str, Sequence[Edit]]:
        edits = []
        for m in pattern.finditer(text):
            new = repl(m)
            if new != m.group():
                edits.append(Edit(m.start(), m.end(), new))
        if not edits:
            return text, []
        # only length changes need to be in the map; equal-length edits are still applied
        out = apply_edits(text, edits)
        return out, [e for e in edits if len(e.replacement) != e.end - e.start]

    return apply


def _cut(pattern: Any, replacement: str) -> Applier:
    """An applier that replaces every match of ``pattern`` (never empty, never equal to
    ``replacement``; one capturing group around the whole pattern) by ``replacement``.

    One ``split`` pass: the text is the kept pieces joined, and the cut points come from the
    pieces' lengths summed up in C (:class:`~ipsis.spans.Cuts`), with no Python object per match.

    >>> _cut(re.compile("(  +)"), " ")("a  b   c")
    ('a b c', Cuts(2 edits -> ' '))
    """

    def apply(text: str) -> tuple[str, Sequence[Edit]]:
        parts = pattern.split(text)
        if len(parts) == 1:
            return text, []
        bounds = list(accumulate(map(len, parts)))
        cuts = Cuts(bounds[0:-1:2], bounds[1::2], replacement)
        return replacement.join(parts[0::2]), cuts

    return apply


_span = operator.methodcaller("span")
_start = operator.methodcaller("start")


def _cut_spans(text: str, spans: list[tuple[int, int]], replacement: str) -> tuple[str, Sequence[Edit]]:
    """``text`` with every ``(start, end)`` of ``spans`` (sorted, disjoint) replaced."""
    if not spans:
        return text, []
    starts, ends = zip(*spans, strict=True)
    cuts = Cuts(starts, ends, replacement)
    return apply_edits(text, cuts), cuts


def _when_present(chars: str, applier: Applier) -> Applier:
    """Skip ``applier`` (a regex pass) when none of ``chars`` is in the text: ``in`` scans at
    memory speed, a regex pass does not."""

    def apply(text: str) -> tuple[str, Sequence[Edit]]:
        if not any(c in text for c in chars):
            return text, []
        return applier(text)

    return apply


def _chars(mapping: dict[str, str]) -> Applier:
    """A length-preserving applier: one character for another, with chained ``str.replace``."""

    def apply(text: str) -> tuple[str, Sequence[Edit]]:
        for old, new in mapping.items():
            if old in text:
                text = text.replace(old, new)
        return text, []

    return apply


# --- whitespace tier -------------------------------------------------------------------------

_NON_STARTER_RUN = LazyPattern(
    "regex",
    r"\P{M}\p{M}+|[\u1100-\u11ff\uac00-\ud7af]+|[\u2126\u212a\u212b\u2000-\u2001\u0340-\u0344\u0374\u037e\u0387\u1f71-\u1ffd\uf900-\ufaff]",
)


def _nfc(text: str) -> tuple[str, Sequence[Edit]]:
    """Canonical composition (NFD and NFC sources give the same matches).

    >>> _nfc("Cafe\\u0301")
    ('Café', [Edit(start=3, end=5, replacement='é')])
    """
    if unicodedata.is_normalized("NFC", text):
        return text, []
    edits: list[Edit] = []
    for m in _NON_STARTER_RUN.finditer(text):
        s = m.group()
        n = unicodedata.normalize("NFC", s)
        if n != s:
            edits.append(Edit(m.start(), m.end(), n))
    out = apply_edits(text, edits)
    if not unicodedata.is_normalized("NFC", out):  # rare sequences: fall back to one edit
        whole = unicodedata.normalize("NFC", text)
        return whole, [Edit(0, len(text), whole)] if len(whole) != len(text) else []
    # NFC may reorder marks inside a cluster: keep every edit, so a span never splits one
    return out, edits


LINE_BREAKS = "\n\r\x0b\x0c\x85\u2028\u2029"
_SINGLE_WS = {c: " " for c in "\t" + LINE_BREAKS}
_SPACE_RUN = LazyPattern("re", "(  +)")  # stdlib re: 2x faster here than regex, same matches


def _collapse_whitespace(text: str) -> tuple[str, Sequence[Edit]]:
    """Tabs and line breaks become spaces; runs of spaces become one.

    >>> _collapse_whitespace("accepted\\r\\nwithin  30")[0]
    'accepted within 30'
    """
    text, _ = _chars(_SINGLE_WS)(text)
    return _cut(_SPACE_RUN, " ")(text)


# --- typography tier -------------------------------------------------------------------------

_ENTITY = LazyPattern("regex", r"&(?:amp;)*(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def _unescape(m: regex.Match[str]) -> str:
    import html  # html.entities: a large table, read by the first text with an entity

    s = m.group()
    while True:
        u = html.unescape(s)
        if u == s:
            return s
        s = u
        if "&" not in s:
            return s


LIGATURES = {
    "\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl",
    "\ufb05": "st", "\ufb06": "st", "\u0132": "IJ", "\u0133": "ij", "\u0152": "OE", "\u0153": "oe",
}  # fmt: skip
_LIGATURE = LazyPattern("regex", "[" + "".join(LIGATURES) + "]")

QUOTES = {
    **dict.fromkeys("‘’‚‛′‵`´‹›＇", "'"),
    **dict.fromkeys("“”„‟″‶«»〝〞＂", '"'),
}
DASHES = dict.fromkeys("‐‑‒–—―−﹘﹣－⁃", "-")
BULLETS = dict.fromkeys("●⚫⦁", "•")
"""Round list bullets that extractors read as one another from the same glyph (PDFium ``•``,
pdftotext ``●``); hollow and square bullets look different and stay."""
UNICODE_SPACES = dict.fromkeys(
    "\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000", " "
)
INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad\ufffe\u180e"
_INVISIBLE = LazyPattern("regex", "([" + INVISIBLE + "]+)")
CONTROL_HYPHENS = "".join(map(chr, [*range(0x01, 0x09), *range(0x0E, 0x1C), 0x7F]))
"""C0 control characters that PDF text carries where the page shows a line-end hyphen: PDFium
(Chrome, Claude's ``cited_text``) gives U+0002 (``self\u0002improvement``), other extractors keep a
font's raw code. Whitespace controls (tab, line breaks, U+001C–U+001F) are not among them."""
_CONTROL_HYPHEN = LazyPattern("re", "[" + CONTROL_HYPHENS + "]")

# never folded by compat_forms: ordinals (own lossy tier), super/subscripts and fractions that
# would glue onto digits (10² is not 102), spaces/quotes/dashes (own steps).
_COMPAT_KEEP = set("ºª…") | set(QUOTES) | set(DASHES) | set(UNICODE_SPACES) | set(LIGATURES)


_NON_LATIN1 = LazyPattern("regex", r"[^\x00-\xff]")


@lru_cache(maxsize=8192)
def _compat_char(c: str) -> str:
    """NFKC of one character, unless it is kept (see ``_COMPAT_KEEP``)."""
    if c in _COMPAT_KEEP or not unicodedata.decomposition(c).startswith("<"):
        return c
    n = unicodedata.normalize("NFKC", c)
    if n == c or not n or unicodedata.category(c) == "No" or "\u2044" in n:
        return c
    if any(unicodedata.combining(x) for x in n) or n[0].isspace() or not n.isprintable():
        return c
    return unicodedata.normalize("NFC", n)


def _compat_forms(text: str) -> tuple[str, Sequence[Edit]]:
    """Guarded NFKC: full-width forms, letterlike symbols; never superscripts or fractions.

    >>> _compat_forms("ＬＧＰＤ x² ½")[0]
    'LGPD x² ½'
    """
    if text.isascii():
        return text, []
    # the distinct characters outside Latin-1 (a fast scan), then only those that fold
    foldable = {c for c in set(_NON_LATIN1.findall(text)) if _compat_char(c) != c}
    if "µ" in text:
        foldable.add("µ")
    if not foldable:
        return text, []
    import regex

    pattern = regex.compile("[" + regex.escape("".join(sorted(foldable))) + "]")
    return _sub(pattern, lambda m: _compat_char(m.group()))(text)


def _control_hyphens(text: str) -> tuple[str, Sequence[Edit]]:
    """A control character used as a hyphen becomes a soft hyphen (same length: no offset
    edit), which :func:`_dehyphenate` and the ``invisible`` step then treat as any soft hyphen.

    >>> _control_hyphens("self\\u0002improvement")[0] == "self\\u00adimprovement"
    True
    """
    if not any(c in text for c in CONTROL_HYPHENS):
        return text, []
    return _CONTROL_HYPHEN.sub("\u00ad", text), []


WHITE_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
"""The Unicode White_Space characters as a class body: what ``regex`` means by ``\\s`` (stdlib
``re`` adds U+001C..U+001F), so a pattern moved to ``re`` for speed matches the same text."""

LINE_END_HYPHENS = "-\u2010\u2011\u2212\u00ad\ufffe"
_BREAK_AFTER = "[ \t]*(?:\r\n|[\n\r\x0b\x0c\x85\u2028\u2029])[" + WHITE_SPACE + "]*"
_HYPHEN_BREAK = LazyPattern("re", "[" + LINE_END_HYPHENS + "]" + _BREAK_AFTER)
# letters on both sides are checked in Python: a lookbehind here is slow; stdlib re: 2x faster
# here than regex. One pattern per hyphen (each opening with its literal, which re finds at
# memory speed instead of testing a class at every character), run only when it is in the text;
# their matches are those of _HYPHEN_BREAK (a match holds one hyphen, then whitespace only).
_HARD_HYPHENS = "-\u2010\u2011\u2212"
_CLOSING = ")]'\u2019"  # a hyphen after these is no word break (``(2-piridil)-``, ``5,5'-``)
_HYPHEN_BREAKS = tuple((h, LazyPattern("re", re.escape(h) + _BREAK_AFTER)) for h in LINE_END_HYPHENS)


def _dehyphenate(text: str) -> tuple[str, Sequence[Edit]]:
    """Join words split at a line end by a hyphen (``-``, U+2212, soft hyphen, pypdfium2's
    U+FFFE); real hyphens elsewhere stay (``Brief-, Post- und``).

    A hard line-end hyphen in a PDF or an RFC cannot be told from a real one ("case-\\nsensitive"
    is ``case-sensitive``; "regu-\\nlamento" is ``regulamento``): the view joins it, and a quote
    that writes the hyphen is found there only where the source has it at a line end
    (:mod:`ipsis.verify.compounds`). A hyphen written nowhere in the source (``re-cover`` for
    ``recover``, ``ausentarse`` for ``ausentar-se``) is never typography.

    A break at a real hyphen that repeats it at the start of the next line (the Portuguese
    and Spanish rule: ``levando-\\n-se``) is that one hyphen: ``levando-se``.

    A hard hyphen with a digit on one side, or after a closing bracket, breaks no word: it is
    part of the token (``artículo 3-\\n08``, ``ASTM-\\n335``, ``(2-piridil)-\\n2H``), so only the
    line break goes: ``3-08`` (a space before the hyphen keeps the break: ``Petroleros -``).

    >>> _dehyphenate("Ελ\\u2212\\nλήνων")[0], _dehyphenate("levando-\\n-se em dar-\\n\\u2212se-á")[0]
    ('Ελλήνων', 'levando-se em dar-se-á')
    >>> _dehyphenate("art. 3-\\n08, ASTM-\\n335, 4-\\ntrifluoro, (b,f)-\\noxacepina, Petroleros -\\nexcluye")[0]
    'art. 3-08, ASTM-335, 4-trifluoro, (b,f)-oxacepina, Petroleros -\\nexcluye'
    >>> _dehyphenate("The docu-\\n1The note")[0]  # a footnote's number, then its note
    'The docu-\\n1The note'
    """
    n = len(text)
    spans = []
    for h, pattern in _HYPHEN_BREAKS:
        if h not in text:
            continue
        for s, e in map(_span, pattern.finditer(text)):
            if s == 0 or e >= n:
                continue
            before, after = text[s - 1], text[e]
            if not before.isalpha():
                if h in _HARD_HYPHENS and (before.isdigit() or before in _CLOSING) and after.isalnum():
                    spans.append((s + 1, e))  # a hyphen of the token: the break goes, the hyphen stays
                continue
            if after.isalpha():
                spans.append((s, e))
            elif h in _HARD_HYPHENS and after.isdigit() and not _glued_word(text, e):
                spans.append((s + 1, e))
            elif h in _HARD_HYPHENS and after in _HARD_HYPHENS and e + 1 < n and text[e + 1].isalpha():
                spans.append((s + 1, e + 1))  # the hyphen repeated on the next line
    spans.sort()
    return _cut_spans(text, spans, "")


def _glued_word(text: str, at: int) -> bool:
    """The digits at ``at`` run into a word (``docu-\\n1The``: a footnote number printed at the
    start of the next line, then its note): no token goes on after the hyphen."""
    j = at
    while j < len(text) and text[j].isdigit():
        j += 1
    return j < len(text) and text[j].isalpha()


SPACING_ACCENTS = {
    **{"˜": "\u0303", "¨": "\u0308", "ˆ": "\u0302", "ˇ": "\u030c"},
    **{"˚": "\u030a", "¯": "\u0304", "˙": "\u0307", "˘": "\u0306"},
}
"""Spacing accents a PDF draws apart from their letter (the acute and grave are quote marks)."""
_ACCENT_RUN = LazyPattern("re", "[" + "".join(SPACING_ACCENTS) + "]+")


def _spacing_accents(text: str) -> tuple[str, Sequence[Edit]]:
    """A run of spacing accents next to one letter only (a formula's ``X˜``, ``[˜γ]``, ``γ˜0``:
    PDF extractors put the tilde over a variable before or after it) is that letter's accents:
    ``X̃``, ``γ̃``. Between two letters it stays (which of them it belongs to is the reader's
    call: ``compose_accents`` puts a TeX accent on the letter after it).

    >>> _spacing_accents("X˜ → X, [˜γ] = e, γ˜0 und ˜a")[0]
    'X̃ → X, [γ̃] = e, γ̃0 und ã'
    >>> print(ascii(_spacing_accents("a˜b, x ¨ y, ˜a˜")[0]))  # both accents of ˜a˜ on the a
    'a\\u02dcb, x \\xa8 y, \\xe3\\u0303'
    """
    if not any(a in text for a in SPACING_ACCENTS):
        return text, []
    before: dict[int, tuple[int, str]] = {}  # letter index -> (start of the run before it, run)
    after: dict[int, tuple[int, str]] = {}  # letter index -> (end of the run after it, run)
    n = len(text)
    for m in _ACCENT_RUN.finditer(text):
        s, e = m.span()
        left = s > 0 and text[s - 1].isalpha()
        right = e < n and text[e].isalpha()
        if left and not right:
            after[s - 1] = (e, m.group())
        elif right and not left:
            before[e] = (s, m.group())
    edits = []
    for i in sorted({*before, *after}):
        s, pre = before.get(i, (i, ""))
        e, post = after.get(i, (i + 1, ""))
        marks = "".join(SPACING_ACCENTS[a] for a in pre + post)
        edits.append(Edit(s, e, unicodedata.normalize("NFC", text[i] + marks)))
    return apply_edits(text, edits), edits


_COMPOUND_HYPHEN = LazyPattern("regex", r"(-)(?<=\p{L}-)(?=\p{L})")


def _hyphenated_words(text: str) -> tuple[str, Sequence[Edit]]:
    """``case-sensitive`` -> ``casesensitive``: the step of the compound view only
    (:mod:`ipsis.verify.compounds`), never of a tier (a hyphen is text: ``re-cover`` is not
    ``recover``). Only a hyphen between two letters: ``Art. 55-A``, ``I - o`` stay.

    >>> _hyphenated_words("case-sensitive e Art. 55-A e Brief-, Post- und")[0]
    'casesensitive e Art. 55-A e Brief-, Post- und'
    """
    return _cut(_COMPOUND_HYPHEN, "")(text)


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
    for i in map(_start, _SPACE_PUNCT.finditer(text)):  # the last space of a run: go back
        s = i
        while s and text[s - 1] == " ":
            s -= 1
        spans.append((s, i + 1))
    return _cut_spans(text, spans, "")


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


def _symbol_spaces(text: str) -> list[tuple[int, int]]:
    """Where :func:`_symbol_spacing` takes spaces out: the whole run of spaces a matched space
    belongs to (``a  .`` loses both at once, so the step is idempotent on text whose spaces
    were not collapsed first)."""
    spans: list[tuple[int, int]] = []
    for m in _space_by_symbol().finditer(text):
        s = m.start()
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


_LEADER = LazyPattern("re", r"[ \t]*\.(?:[ \t]?\.){3,}[ \t]*")


def _leaders(text: str) -> tuple[str, Sequence[Edit]]:
    """A dot leader (four dots or more, single spaces between them allowed, with the spaces
    around it) is ``....``: a table of contents draws it to the page number with as many dots
    as fit, and extractors count them differently (``Consumo ........ 58`` = ``Consumo...58``
    is not a leader: three dots are an ellipsis).

    >>> _leaders("Consumo ......... 58 e Oferta. . . . 19 e fim... 3")[0]
    'Consumo....58 e Oferta....19 e fim... 3'
    >>> _leaders("Registration  ... ... ... .  20")[0]  # after ``ellipsis`` read ". . ." as "..."
    'Registration....20'
    """
    return _sub(_LEADER, lambda m: "....")(text) if ".." in text or ". ." in text else (text, [])


def _literal_spans(text: str, literal: str) -> list[tuple[int, int]]:
    """Every non-overlapping place of ``literal``, left to right, with ``str.find`` (a regex
    without a literal to open it tests every character: 50x slower on a page of text)."""
    spans = []
    n = len(literal)
    i = text.find(literal)
    while i >= 0:
        spans.append((i, i + n))
        i = text.find(literal, i + n)
    return spans


# --- lossy tiers -------------------------------------------------------------------------------


_MARKS_AFTER = LazyPattern("regex", r"\p{M}*")


def _casefold(text: str) -> tuple[str, Sequence[Edit]]:
    """Case-insensitive view (``ß`` -> ``ss`` keeps its offsets; the result stays NFC).

    >>> _casefold("Straße")
    ('strasse', [Edit(start=4, end=5, replacement='ss')])
    >>> _casefold("SS\u0301") == _casefold(_casefold("SS\u0301")[0])
    True
    """
    out = text.casefold()
    if len(out) == len(text) and unicodedata.is_normalized("NFC", out):
        return out, []
    edits: list[Edit] = []
    parts: list[str] = []
    pos = 0
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        f = c.casefold()
        end = i + 1
        if len(f) != 1 or not unicodedata.is_normalized("NFC", f):
            end = _MARKS_AFTER.match(text, end).end()
            rep = unicodedata.normalize("NFC", text[i:end].casefold())
            parts.append(text[pos:i].casefold())
            parts.append(rep)
            edits.append(Edit(i, end, rep))
            pos = end
        i = end
    parts.append(text[pos:].casefold())
    return "".join(parts), edits


@lru_cache(maxsize=4096)
def _strip_char(c: str) -> str:
    return "".join(x for x in unicodedata.normalize("NFD", c) if not unicodedata.combining(x))


_NON_ASCII = LazyPattern("regex", r"[^\x00-\x7f]")


def _strip_accents(text: str) -> tuple[str, Sequence[Edit]]:
    """Accent-insensitive view (lossy: ``e`` for ``é``): each character outside ASCII becomes
    its NFD form without combining marks. One ``split`` pass gives the ASCII runs and those
    characters, each replaced through a table of the text's distinct ones (in C: ``map``,
    ``join``); only a replacement that is not one character (a lone mark, a Hangul syllable) is
    an edit of the map.

    >>> text, edits = _strip_accents("União a\u0301 \ud55c")  # a lone mark, a Hangul syllable (3 jamo)
    >>> text[:7], [(e.start, e.end, len(e.replacement)) for e in edits]
    ('Uniao a', [(7, 8, 0), (9, 10, 3)])
    """
    parts = _NON_ASCII_SPLIT.split(text)
    chars = parts[1::2]
    table = {c: _strip_char(c) for c in set(chars)}
    if all(c == r for c, r in table.items()):
        return text, []
    parts[1::2] = map(table.__getitem__, chars)
    resized = "".join(sorted(c for c, r in table.items() if len(r) != 1))
    edits = []
    if resized:
        import regex

        edits = [Edit(m.start(), m.end(), table[m.group()]) for m in regex.finditer(f"[{regex.escape(resized)}]", text)]
    return "".join(parts), edits


_NON_ASCII_SPLIT = LazyPattern("regex", r"([^\x00-\x7f])")


_ORDINAL = LazyPattern("regex", r"(?<=\d)(?:(\.?[º°ᵒ]|o(?!\w))|\.?[ªᵃ]|a(?!\w))")


def _ordinals(text: str) -> tuple[str, Sequence[Edit]]:
    """``1º``, ``1o``, ``1°``, ``1.º`` are one ordinal (lossy: ``1o`` may be a typo).

    >>> _ordinals("Art. 1o e art. 8.º e 2ª")[0]
    'Art. 1º e art. 8º e 2ª'
    """
    return _sub(_ORDINAL, lambda m: "º" if m.group(1) else "ª")(text)


OCR_SPECKS = ".,:;·'\"`´‘’‚“”„«»-–—_~^*+=|¦!¡¿?/\\()[]{}•¬©®"
"""Punctuation that OCR reads from specks of dirt (or drops): never a difference between digits."""


def _ocr_pairs() -> str:
    import regex

    return (
        r"(?P<pair>rn|vv|cl)|(?<=\p{L})[1|!0](?=\p{L})|\$"
        r"|(?P<speck>(?<!\d)[" + regex.escape(OCR_SPECKS) + r"]+|[" + regex.escape(OCR_SPECKS) + r"]+(?!\d))"
    )


_OCR_PAIRS = LazyPattern("regex", _ocr_pairs)
# Only inside words do digits fold (sa1vo = salvo): a digit alone is a number and stays itself,
# so the view never makes "art. 10" equal to "art. lo" or "30 dias" equal to "3o dias".
_OCR_MAP = {"rn": "m", "vv": "w", "cl": "d", "1": "l", "|": "l", "!": "l", "0": "o", "$": "§"}


def _ocr(text: str) -> tuple[str, Sequence[Edit]]:
    """Known OCR confusions folded together (lossy): rn/m, vv/w, cl/d, 1/l/|/0/o inside words,
    ``$``/``§``, and speck punctuation (``.`` ``:`` ``'`` ``-`` ...) read as a space unless it
    sits between digits (``13.853`` keeps its point). The matcher decides from the exact
    differences whether a match in this view is OCR noise (:mod:`ipsis.verify.ocr`).

    >>> _ocr("inforrnação")[0], _ocr("coletados: no. território")[0], _ocr("sa1vo o art. 10")[0]
    ('informação', 'coletados  no  território', 'salvo o art  10')
    >>> _ocr("$ 1º Lei nº 13.853, de 8/7/2019")[0]
    '§ 1º Lei nº 13.853  de 8/7/2019'
    """
    return _sub(_OCR_PAIRS, lambda m: " " if m.group("speck") else _OCR_MAP[m.group()])(text)


_TIDY = LazyPattern("regex", r"(?<=[\p{S}\p{Ps}\p{Pd}]) +| +(?=[^\w\s\"'])|(?P<run> {2,})")


def _tidy(text: str) -> tuple[str, Sequence[Edit]]:
    """After a lossy step: spaces, punctuation and symbols settled again, so that every view
    stays idempotent (a speck read as a space next to a symbol goes, as ``symbol_spacing`` would
    take it). A compound's hyphen stays: ``re-cover`` is not ``recover`` in any tier.

    >>> _tidy("a-o  b . ( x")[0]
    'a-o b.(x'
    """

    def settle(m: Any) -> str:
        if m.group("run"):
            return " "
        s, e = m.span()
        return " " if m.group() != "-" and _space_stays(text, s, e) else ""

    return _sub(_TIDY, settle)(text)


def _fix(name: str, tier: str, apply: Applier, doc: str, needs: str = "") -> tuple[str, Fix]:
    return name, Fix(name, tier, apply, doc, frozenset(needs))


FIXES: dict[str, Fix] = dict(
    [
        _fix("html_entities", "typography", _sub(_ENTITY, _unescape), "&amp;, &nbsp;, &#186; decoded", "&"),
        _fix(
            "control_hyphens",
            "typography",
            _control_hyphens,
            "PDF control-char hyphens (U+0002) -> soft hyphen",
            CONTROL_HYPHENS,
        ),
        _fix("dehyphenate", "typography", _dehyphenate, "regu-\\nlamento -> regulamento", LINE_END_HYPHENS),
        _fix(
            "invisible",
            "typography",
            _when_present(INVISIBLE, _cut(_INVISIBLE, "")),
            "zero-width, soft hyphens",
            INVISIBLE,
        ),
        _fix(
            "ligatures",
            "typography",
            _when_present("".join(LIGATURES), _sub(_LIGATURE, lambda m: LIGATURES[m.group()])),
            "ﬁ -> fi",
            "".join(LIGATURES),
        ),
        _fix("compat_forms", "typography", _compat_forms, "guarded NFKC (full-width, letterlike)"),
        _fix("nfc", "whitespace", _nfc, "canonical composition: e + U+0301 = é"),
        _fix(
            "spacing_accents",
            "typography",
            _spacing_accents,
            "'X˜', '˜γ' = 'X̃', 'γ̃': an accent by one letter",
            "".join(SPACING_ACCENTS),
        ),
        _fix("quotes", "typography", _chars(QUOTES), "curly quotes, guillemets, primes", "".join(QUOTES)),
        _fix("dashes", "typography", _chars(DASHES), "en/em dashes, minus -> -", "".join(DASHES)),
        _fix("bullets", "typography", _chars(BULLETS), "● ⦁ -> •: a round list bullet", "".join(BULLETS)),
        _fix("hyphenated_words", "typography", _hyphenated_words, "case-sensitive = casesensitive (no tier)", "-"),
        _fix(
            "unicode_spaces",
            "typography",
            _chars(UNICODE_SPACES),
            "NBSP, thin spaces -> space",
            "".join(UNICODE_SPACES),
        ),
        _fix("ellipsis", "typography", _ellipsis, "… -> ...", "…."),
        _fix("leaders", "typography", _leaders, "dot leaders 'Consumo ...... 58' -> 'Consumo....58'", ".\u2024\u2025…"),
        _fix("collapse_whitespace", "whitespace", _collapse_whitespace, "whitespace runs -> 1 space"),
        _fix("space_before_punct", "typography", _space_before_punct, "'único .' -> 'único.'"),
        _fix("symbol_spacing", "typography", _symbol_spacing, "'a1 (Γ)' = 'a1(Γ)': spaces by symbols", " "),
        _fix("case", "case", _casefold, "case folded (lossy)"),
        _fix("accents", "accents", _strip_accents, "accents removed (lossy)"),
        _fix("ordinals", "ordinals", _ordinals, "1º = 1o = 1° (lossy)"),
        _fix("ocr", "ocr", _ocr, "rn/m, l/1, O/0 in words, $/§, specks (lossy)"),
        _fix("tidy", "case", _tidy, "spaces settled after a lossy step"),
    ]
)
"""Every repair by name, in pipeline order."""

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

import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from ipsis.ingest.fixkit import Applier, Fix, _chars, _cut, _sub, _when_present
from ipsis.ingest.folds import _casefold, _ocr, _ordinals, _strip_accents, _tidy
from ipsis.ingest.hyphens import CONTROL_HYPHENS, LINE_END_HYPHENS, _control_hyphens, _dehyphenate, _hyphenated_words
from ipsis.ingest.spacing import _dash_spacing, _ellipsis, _leaders, _space_before_punct, _symbol_spacing
from ipsis.lazy import LazyPattern
from ipsis.spans import Edit, apply_edits

if TYPE_CHECKING:
    import regex

__all__ = ["FIXES", "Fix"]

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
C1_CONTROLS = {
    chr(b): bytes([b]).decode("cp1252") for b in range(0x80, 0xA0) if b not in (0x81, 0x85, 0x8D, 0x8F, 0x90, 0x9D)
}
"""C1 control characters for the Windows-1252 character of their byte (``\x95`` -> ``•``,
``\x93`` -> ``“``, ``\x96`` -> ``–``), as HTML5 reads ``&#149;`` and ftfy's ``fix_c1_controls``
does: text decoded as Latin-1 where it was Windows-1252 (a provider's ``cited_text`` has
``2025 \x95 President``). They are never text of their own. U+0085 (NEL) stays a line break;
the five bytes Windows-1252 leaves undefined stay."""
_C1_TABLE = str.maketrans(C1_CONTROLS)


def _c1_controls(text: str) -> tuple[str, Sequence[Edit]]:
    """:data:`C1_CONTROLS` replaced, length-preserving: a ``str`` test per character (memchr on
    most texts: ten times faster than one ``re`` scan for the class), then one ``translate``
    where there is any (rare).

    >>> _c1_controls("2025 \x95 President \x93Trump\x94")[0]
    '2025 • President “Trump”'
    """
    if not any(c in text for c in C1_CONTROLS):
        return text, []
    return text.translate(_C1_TABLE), []


BULLETS = dict.fromkeys("●⚫⦁", "•")
"""Round list bullets that extractors read as one another from the same glyph (PDFium ``•``,
pdftotext ``●``); hollow and square bullets look different and stay."""
UNICODE_SPACES = dict.fromkeys(
    "\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000", " "
)
INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad\ufffe\u180e"
_INVISIBLE = LazyPattern("regex", "([" + INVISIBLE + "]+)")

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


def _fix(name: str, tier: str, apply: Applier, doc: str, needs: str = "", writes: str | None = None) -> tuple[str, Fix]:
    return name, Fix(name, tier, apply, doc, frozenset(needs), None if writes is None else frozenset(writes))


FIXES: dict[str, Fix] = dict(
    [
        _fix("html_entities", "typography", _sub(_ENTITY, _unescape), "&amp;, &nbsp;, &#186; decoded", "&"),
        _fix(
            "control_hyphens",
            "typography",
            _control_hyphens,
            "PDF control-char hyphens (U+0002) -> soft hyphen",
            CONTROL_HYPHENS,
            "\u00ad",
        ),
        _fix("dehyphenate", "typography", _dehyphenate, "regu-\\nlamento -> regulamento", LINE_END_HYPHENS, ""),
        _fix(
            "invisible",
            "typography",
            _when_present(INVISIBLE, _cut(_INVISIBLE, "")),
            "zero-width, soft hyphens",
            INVISIBLE,
            "",
        ),
        _fix(
            "ligatures",
            "typography",
            _when_present("".join(LIGATURES), _sub(_LIGATURE, lambda m: LIGATURES[m.group()])),
            "ﬁ -> fi",
            "".join(LIGATURES),
            "".join(LIGATURES.values()),
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
        _fix(
            "c1_controls",
            "typography",
            _c1_controls,
            "'\\x95' = '•', '\\x93' = '“': C1 controls read as Windows-1252",
            "".join(C1_CONTROLS),
            "".join(C1_CONTROLS.values()),
        ),
        _fix("quotes", "typography", _chars(QUOTES), "curly quotes, guillemets, primes", "".join(QUOTES), "'\""),
        _fix("dashes", "typography", _chars(DASHES), "en/em dashes, minus -> -", "".join(DASHES), "-"),
        _fix("bullets", "typography", _chars(BULLETS), "● ⦁ -> •: a round list bullet", "".join(BULLETS), "•"),
        _fix("hyphenated_words", "typography", _hyphenated_words, "case-sensitive = casesensitive (no tier)", "-", ""),
        _fix(
            "unicode_spaces",
            "typography",
            _chars(UNICODE_SPACES),
            "NBSP, thin spaces -> space",
            "".join(UNICODE_SPACES),
            " ",
        ),
        _fix("ellipsis", "typography", _ellipsis, "… -> ...", "….", "."),
        _fix(
            "leaders",
            "typography",
            _leaders,
            "dot leaders 'Consumo ...... 58' -> 'Consumo....58'",
            ".\u2024\u2025…",
            ".",
        ),
        _fix("collapse_whitespace", "whitespace", _collapse_whitespace, "whitespace runs -> 1 space", "", " "),
        _fix("space_before_punct", "typography", _space_before_punct, "'único .' -> 'único.'", "", ""),
        _fix("symbol_spacing", "typography", _symbol_spacing, "'a1 (Γ)' = 'a1(Γ)': spaces by symbols", " ", ""),
        _fix("dash_spacing", "typography", _dash_spacing, "'II - a' = 'II- a': a dash spaced after it", "-", ""),
        _fix("case", "case", _casefold, "case folded (lossy)"),
        _fix("accents", "accents", _strip_accents, "accents removed (lossy)"),
        _fix("ordinals", "ordinals", _ordinals, "1º = 1o = 1° (lossy)"),
        _fix("ocr", "ocr", _ocr, "rn/m, l/1, O/0 in words, $/§, specks (lossy)"),
        _fix("tidy", "case", _tidy, "spaces settled after a lossy step"),
    ]
)
"""Every repair by name, in pipeline order."""

"""The lossy tiers' views: case, accents, ordinals, OCR confusions, and the spaces settled after
them. Never accepted silently (DESIGN.md, normalization tiers)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ipsis.ingest.fixkit import _sub
from ipsis.ingest.spacing import _space_stays
from ipsis.lazy import LazyPattern
from ipsis.spans import Edit

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


_ORDINAL = LazyPattern("regex", r"(?<=\d)(?:(?P<m>\.?[º°ᵒ]|\.?o(?!\w))|\.?[ªᵃ]|\.?a(?!\w))(?P<sp> *)")


def _ordinals(text: str) -> tuple[str, Sequence[Edit]]:
    """An ordinal's sign written any way is one sign, and a masculine one may be left out (lossy:
    ``1o`` may be a typo, ``Artigo 221`` drops the sign of ``Artigo 221.º``): ``º``, ``°``,
    ``o``, ``.º``, ``.o`` after a digit become a space, ``ª``, ``a``, ``.ª``, ``.a`` become
    ``ª`` (``1ª`` is not ``1º``). The space is the one after the sign before a word:
    ``symbol_spacing`` has already taken it after ``°`` (a symbol) but not after ``º`` (a
    letter), so ``Art. 6° As`` and ``Art. 6º As`` meet only this way; before punctuation or a
    hyphen the sign just goes (``artigo 38.º-A`` is ``artigo 38-A``).

    >>> _ordinals("Art. 1o e art. 8.º e 2ª Turma")[0]
    'Art. 1 e art. 8 e 2ª Turma'
    >>> {_ordinals(t)[0] for t in ("Art. 6°As", "Art. 6º As", "Art. 6.o As", "Art. 6 As")}
    {'Art. 6 As'}
    >>> _ordinals("artigo 38.º-A, 9º.- e 2.ª")[0]
    'artigo 38-A, 9.- e 2ª'

    """

    def fold(m: Any) -> str:
        word_after = bool(m.group("sp")) or (m.end() < len(text) and text[m.end()].isalnum())
        return (" " if word_after else "") if m.group("m") else "ª" + (" " if m.group("sp") else "")

    return _sub(_ORDINAL, fold)(text)


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


_TIDY = LazyPattern(
    "regex", r"(?P<leader>[ \t]*\.(?:[ \t]?\.){3,}[ \t]*)|(?<=[\p{S}\p{Ps}\p{Pd}]) +| +(?=[^\w\s\"'])|(?P<run> {2,})"
)


def _tidy(text: str) -> tuple[str, Sequence[Edit]]:
    """After a lossy step: spaces, punctuation and symbols settled again, so that every view
    stays idempotent (a speck read as a space next to a symbol goes, as ``symbol_spacing`` would
    take it; dots a stripped mark kept apart are a leader, as ``leaders`` would read them). A
    compound's hyphen stays: ``re-cover`` is not ``recover`` in any tier.

    >>> _tidy("a-o  b . ( x")[0]
    'a-o b.(x'
    >>> _tidy("a ...... b")[0]  # '…\u0301…' once its accent is stripped
    'a....b'
    """

    def settle(m: Any) -> str:
        if m.group("leader"):
            return "...."
        if m.group("run"):
            return " "
        s, e = m.span()
        return " " if m.group() != "-" and _space_stays(text, s, e) else ""

    return _sub(_TIDY, settle)(text)

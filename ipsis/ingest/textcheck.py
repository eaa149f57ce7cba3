"""Is an extracted text layer believable? A warning when it is not.

A PDF's text is only as good as its fonts' Unicode maps. Where a font has none (or a wrong
one), extractors give characters that are not what the page shows, and a quote from the page
will not match. The signs, judged on the whole text and on each page:

- **unmapped, private-use or control characters**: most of the text is U+FFFD, private-use
  code points (U+E000–U+F8FF, planes 15–16) or control characters;
- **a small alphabet shifted into a large script**: a font's codes read through a wrong CMap
  land in a narrow window of Hangul syllables, CJK ideographs or Yi syllables
  (``issue20232.pdf``: Cyrillic read as ``킜킰톁톁킰``). Real text in those scripts uses hundreds
  of distinct characters spread over the block; a shifted alphabet a few dozen neighbours;
- **a font's raw codes** (PDFium says which characters it read without a Unicode map,
  ``FPDFText_HasUnicodeMapError``): when they are a tenth of a page's letters or more and read
  as another script (raw CIDs are not code points) or as letters that do not spell words (too
  few vowels: ``QHSDVUHPSOLUOHV`` for ``ne pas remplir``, ``issue6127.pdf``). Raw codes that
  happen to be ASCII and spell words are real text (``issue918.pdf``) and get no warning;
- **a single-byte code page read as another**: words made mostly of accented Latin letters
  (Cyrillic windows-1251 read as windows-1252: ``Ìàññà``), which no language writes;
- **a script the declared language is not written in**: the document's ``/Lang`` names a
  language written in a non-Latin script (``ru``, ``el``, ``ko``…) and a page's letters are
  mostly from another non-Latin script (Latin letters never count against it, and a Latin
  ``/Lang`` says nothing: Word writes ``en-US`` into documents in any language).

The warning goes on the document (``meta["warnings"]``) and on every result located in it; it
names the pages when only some are affected.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

MIN_CHARS = 40  # below this many letters there is not enough text to judge
GARBAGE_SHARE = 0.3  # share of unmapped/private-use/control characters that makes a layer garbage
NARROW_WINDOW = 256  # code points: a shifted alphabet fits in such a window of a syllabary
RAW_SHARE = 0.1  # a page's letters read from raw font codes: from this share on they are judged
MIN_VOWELS = 0.28  # Latin-script words: vowels (a e i o u y) are about 35-45% of the letters
MOJIBAKE_SHARE = 0.2  # share of a page's Latin words made mostly of accented letters
MIN_WORDS = 5
_SYLLABARIES = (
    (re.compile("[\uac00-\ud7a3]"), "Hangul"),
    (re.compile("[\u3400-\u4dbf\u4e00-\u9fff]"), "CJK"),
    (re.compile("[\ua000-\ua48c]"), "Yi"),
)
# U+FFFD, private use (BMP and planes 15-16), C0/C1 controls other than tab, newline, form feed, CR
_BAD = re.compile("[\ufffd\ue000-\uf8ff\U000f0000-\U0010ffff\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")
_SPACE = re.compile(r"\s")
_NOT_LETTER = re.compile(r"[\W\d_]")
_LATIN_WORD = re.compile("[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f]{3,}")
_ACCENTED = re.compile("[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f]")


def _letters(text: str) -> int:
    return len(text) - len(_SPACE.findall(text))


def _shifted(text: str, letters: int) -> str | None:
    """A narrow window of a large script (see the module docstring), or None."""
    for pattern, script in _SYLLABARIES:
        found = pattern.findall(text)
        count = len(found)
        if count < MIN_CHARS or count < 0.3 * letters:
            continue
        codes = sorted({ord(ch) for ch in found})
        if codes[-1] - codes[0] < NARROW_WINDOW:
            return (
                f"its {count} {script} characters use only {len(codes)} neighbouring code points "
                f"(U+{codes[0]:04X}–U+{codes[-1]:04X}), the mark of a font's codes read through a wrong map"
            )
    return None


def _reason(text: str) -> str | None:
    """Why ``text`` as a whole does not look like real text: unmapped or shifted characters."""
    letters = _letters(text)
    if letters < MIN_CHARS:
        return None
    bad = len(_BAD.findall(text))
    if bad >= GARBAGE_SHARE * letters:
        return f"{bad} of its {letters} characters are unmapped, private-use or control characters"
    return _shifted(text, letters)


def raw_code_reason(raw: str, letters: int) -> str | None:
    """Why the letters ``raw`` that a page's fonts gave as raw codes (out of its ``letters``
    letters) are not real text, or None.

    >>> raw_code_reason("QHSDVUHPSOLUOHVFRQGLWLRQVSHUPHWWDQWGHQEpQpILFLHU", 400)[:44]
    'its 48 letters read from fonts without a Uni'
    >>> raw_code_reason("IdeologyasritualAvramLyonMondaysintheaudience", 45) is None  # ASCII codes: words
    True
    """
    if len(raw) < MIN_CHARS or len(raw) < RAW_SHARE * letters:
        return None
    what = f"its {len(raw)} letters read from fonts without a Unicode map"
    high = sum(1 for ch in raw if ord(ch) > 0xFF)
    if high * 2 >= len(raw):
        return f"{what} are raw glyph codes taken for other characters ({raw[:8]}…)"
    ascii_letters = [ch for ch in raw.lower() if "a" <= ch <= "z"]
    if len(ascii_letters) * 2 >= len(raw):
        vowels = sum(1 for ch in ascii_letters if ch in "aeiouy") / len(ascii_letters)
        if vowels < MIN_VOWELS:
            return f"{what} do not spell words (only {vowels:.0%} vowels: {raw[:12]}…)"
    return None


def mojibake_reason(text: str) -> str | None:
    """Words made mostly of accented Latin letters: a single-byte code page read as another.

    >>> mojibake_reason("Ìàññà òåëà ñîñòàâëÿåò ïÿòü êèëîãðàììîâ, ñêàçàë îí")[:19]
    '6 of its 6 words ar'
    >>> mojibake_reason("Ação é necessária: não há exceção à regra geral, disse ele") is None
    True
    """
    if not _ACCENTED.search(text):
        return None  # no word has an accented letter (most pages): none is mostly made of them
    words = _LATIN_WORD.findall(text)
    odd = [w for w in words if 2 * len(_ACCENTED.findall(w)) >= len(w)]
    if len(odd) < MIN_WORDS or len(odd) < MOJIBAKE_SHARE * len(words):
        return None
    return (
        f"{len(odd)} of its {len(words)} words are mostly accented Latin letters ({odd[0]}…), "
        "the mark of one code page read as another"
    )


_LANG_SCRIPTS = {
    **dict.fromkeys(("ru", "uk", "bg", "sr", "mk", "be", "kk", "ky", "tg", "mn"), ("CYRILLIC",)),
    "el": ("GREEK",),
    "ko": ("HANGUL", "CJK"),
    "ja": ("CJK", "HIRAGANA", "KATAKANA"),
    "zh": ("CJK",),
    **dict.fromkeys(("ar", "fa", "ur", "ps"), ("ARABIC",)),
    **dict.fromkeys(("he", "yi"), ("HEBREW",)),
    **dict.fromkeys(("hi", "mr", "ne", "sa"), ("DEVANAGARI",)),
    "th": ("THAI",),
    "hy": ("ARMENIAN",),
    "ka": ("GEORGIAN",),
}
"""Declared languages written in a script other than Latin, and that script (as Unicode names
its letters). A language written in Latin letters says nothing: a document declared ``en-US``
is often in another language (Word's default), and Latin text is at home in any document."""
_SCRIPTS = frozenset(name for names in _LANG_SCRIPTS.values() for name in names)
LANG_SHARE = 0.6  # a page's letters from one other script: from this share on it does not fit
_SAMPLE = 4000  # letters looked at per page


def lang_reason(text: str, lang: str | None) -> str | None:
    """Why the letters of a page do not fit the document's declared language ``lang`` (its
    ``/Lang``): mostly from another non-Latin script (a Cyrillic document read as Greek or
    Hangul through a wrong font map), or None.

    >>> lang_reason("Ζητήματα συντάγματος και νόμων της χώρας, άρθρο πρώτο και δεύτερο", "ru-RU")[:35]
    'its letters are mostly GREEK (55 of'
    >>> lang_reason("Статья первая: все люди рождаются свободными и равными", "ru"), lang_reason("Ζήτημα", "en")
    (None, None)
    """
    if not lang:
        return None
    expected = _LANG_SCRIPTS.get(lang.strip().lower().replace("_", "-").split("-")[0])
    if expected is None:
        return None
    import unicodedata

    counts: dict[str, int] = {}
    total = 0
    for ch in text:
        if ch.isalpha():
            total += 1
            name = unicodedata.name(ch, "").split(" ", 1)[0]
            counts[name] = counts.get(name, 0) + 1
            if total >= _SAMPLE:
                break
    if total < MIN_CHARS:
        return None
    script, count = max(counts.items(), key=lambda kv: kv[1])
    if script in expected or script not in _SCRIPTS or count < LANG_SHARE * total:
        return None
    return f"its letters are mostly {script} ({count} of {total}) while the document declares /Lang {lang}"


def page_reason(text: str, raw: str = "", lang: str | None = None) -> str | None:
    """Why the text of one page does not look like real text (``raw``: the letters its fonts
    gave as raw codes, when the engine tells; ``lang``: the document's declared language), or
    None."""
    why = _reason(text)
    if why is None and len(raw) >= MIN_CHARS:
        why = raw_code_reason(raw, len(text) - len(_NOT_LETTER.findall(text)))
    return why or mojibake_reason(text) or lang_reason(text, lang)


def garbage_warning(
    text: str, name: str, pages: Sequence[tuple[str, str]] = (), lang: str | None = None
) -> dict[str, Any] | None:
    """A ``garbage_text`` warning when ``text`` (or some of its ``pages``, each ``(text, raw
    letters)``, judged with the document's declared language ``lang``) does not look like real
    text, else None.

    >>> garbage_warning("Art. 5º Todos são iguais perante a lei, sem distinção de qualquer natureza", "x") is None
    True
    >>> w = garbage_warning("킜킰톁톁킰 킜킰톁톈톂킰킱 킘킷킼. 킛킸톁톂 킴킾킺톃킼. 킟킾킴킿. 킔킰톂킰 " * 3, "f.pdf")
    >>> w["kind"], w["message"][:45]
    ('garbage_text', 'f.pdf: the text layer does not look like real')
    """
    reason = _reason(text)
    if reason is not None:
        return {
            "kind": "garbage_text",
            "message": f"{name}: the text layer does not look like real text ({reason}); quotes from the page "
            "will not match it: OCR the file or get a copy with a proper text layer",
        }
    found = [(k, why) for k, (t, raw) in enumerate(pages, start=1) if (why := page_reason(t, raw, lang)) is not None]
    if not found:
        return None
    from ipsis.ingest.pdf import _page_ranges

    numbers = [k for k, _ in found]
    where = f"page {numbers[0]}" if len(numbers) == 1 else f"pages {_page_ranges(numbers)}"
    return {
        "kind": "garbage_text",
        "message": f"{name}: the text layer of {where} does not look like real text, in part or in "
        f"whole (page {found[0][0]}: {found[0][1]}); quotes from there may not match it: OCR "
        f"{'that page' if len(numbers) == 1 else 'those pages'} or get a copy with a proper text layer",
        "pages": numbers,
    }

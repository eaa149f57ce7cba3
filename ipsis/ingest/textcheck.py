"""Is an extracted text layer believable? A warning when it is not.

Two families of garbage come out of PDFs whose fonts have no (or a wrong) Unicode map:

- **unmapped or private-use characters**: most of the text is U+FFFD, private-use code points
  (U+E000–U+F8FF, planes 15–16) or control characters;
- **a small alphabet shifted into a large syllabary**: a font's codes read through a wrong CMap
  land in a narrow window of Hangul syllables or CJK ideographs (``issue20232.pdf``: Cyrillic
  read as ``킜킰톁톁킰``). Real Korean or Chinese text uses hundreds of distinct characters spread
  over its whole block; a shifted alphabet uses a few dozen neighbouring code points.

The warning goes on the document (``meta["warnings"]``) and on every result located in it.
"""

from __future__ import annotations

import re
from typing import Any

MIN_CHARS = 40  # below this many letters there is not enough text to judge
GARBAGE_SHARE = 0.3  # share of unmapped/private-use/control characters that makes a layer garbage
NARROW_WINDOW = 256  # code points: a shifted alphabet fits in such a window of a syllabary
_SYLLABARIES = ((re.compile("[\uac00-\ud7a3]"), "Hangul"), (re.compile("[\u3400-\u4dbf\u4e00-\u9fff]"), "CJK"))
# U+FFFD, private use (BMP and planes 15-16), C0/C1 controls other than tab, newline, form feed, CR
_BAD = re.compile("[\ufffd\ue000-\uf8ff\U000f0000-\U0010ffff\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")
_SPACE = re.compile(r"\s")


def garbage_warning(text: str, name: str) -> dict[str, Any] | None:
    """A ``garbage_text`` warning when ``text`` does not look like real text, else None.

    >>> garbage_warning("Art. 5º Todos são iguais perante a lei, sem distinção de qualquer natureza", "x") is None
    True
    >>> w = garbage_warning("킜킰톁톁킰 킜킰톁톈톂킰킱 킘킷킼. 킛킸톁톂 킴킾킺톃킼. 킟킾킴킿. 킔킰톂킰 " * 3, "f.pdf")
    >>> w["kind"], w["message"][:45]
    ('garbage_text', 'f.pdf: the text layer does not look like real')
    """
    letters = len(text) - len(_SPACE.findall(text))
    if letters < MIN_CHARS:
        return None
    bad = len(_BAD.findall(text))
    reason = None
    if bad >= GARBAGE_SHARE * letters:
        reason = f"{bad} of its {letters} characters are unmapped, private-use or control characters"
    else:
        for pattern, script in _SYLLABARIES:
            found = pattern.findall(text)
            count = len(found)
            if count < MIN_CHARS or count < 0.3 * letters:
                continue
            codes = sorted({ord(ch) for ch in found})
            if codes[-1] - codes[0] < NARROW_WINDOW:
                reason = (
                    f"its {count} {script} characters use only {len(codes)} neighbouring code points "
                    f"(U+{codes[0]:04X}–U+{codes[-1]:04X}), the mark of a font's codes read through a wrong map"
                )
                break
    if reason is None:
        return None
    return {
        "kind": "garbage_text",
        "message": f"{name}: the text layer does not look like real text ({reason}); quotes from the page "
        "will not match it: OCR the file or get a copy with a proper text layer",
    }

"""Repair text that was decoded with the wrong single-byte code page.

The trap in the corpus (``br/trap-cf88-planalto-derived-mojibake-cp1250.md``) is Planalto
windows-1252 text decoded as windows-1250: ``Art. 1ş``, ``Uniăo``, ``competęncia``. Both code
pages map one byte to one character, so the repair is a character-for-character translation:
the repaired text has the same length and every offset stays valid. UTF-8 read as windows-1252
(``AÃ§Ã£o``) changes length; :func:`fix_utf8_mojibake` (ftfy) handles it where the text is
extracted anyway (HTML).

>>> repair_single_byte("Art. 6ş (Redaçăo dada pela Emenda nş 26) da Uniăo")
('Art. 6º (Redação dada pela Emenda nº 26) da União', 'cp1252 text decoded as cp1250')
"""

from __future__ import annotations

import re

# (encoding the bytes really were in, encoding they were wrongly decoded with)
_PAIRS = (("cp1252", "cp1250"), ("latin-1", "iso8859-2"))
# Signs of Portuguese/Spanish text: the repair must make them more frequent.
_IBERIAN = re.compile(r"ção|ções|ão\b|ões|\dº|nº|ñ|ó|ú")


def _table(right: str, wrong: str) -> dict[int, str]:
    table: dict[int, str] = {}
    for b in range(0x80, 0x100):
        try:
            good = bytes([b]).decode(right)
            bad = bytes([b]).decode(wrong)
        except UnicodeDecodeError:
            continue
        if good != bad:
            table[ord(bad)] = good
    return table


_TABLES = {pair: _table(*pair) for pair in _PAIRS}


def repair_single_byte(text: str) -> tuple[str, str | None]:
    """Undo a wrong single-byte decoding when the evidence is strong; else return ``text``.

    The repair is applied only when the suspicious characters are frequent and the repaired text
    reads as Portuguese/Spanish much more than the input (Polish or Czech text stays as it is).

    >>> repair_single_byte("Zażółć gęślą jaźń")
    ('Zażółć gęślą jaźń', None)
    """
    for (right, wrong), table in _TABLES.items():
        suspicious = sum(text.count(chr(c)) for c in table if chr(c) in "şăęőŕĂŐţ")
        if suspicious < 3:
            continue
        fixed = text.translate(table)
        before = len(_IBERIAN.findall(text))
        after = len(_IBERIAN.findall(fixed))
        if after >= 4 and after > 2 * before:
            return fixed, f"{right} text decoded as {wrong}"
    return text, None


def fix_utf8_mojibake(text: str) -> tuple[str, bool]:
    """ftfy's repair of UTF-8 read as a single-byte code page, paragraph by paragraph, only on
    paragraphs that look broken (ftfy is slow on clean text).

    >>> fix_utf8_mojibake("Redação dada pela Lei nÂº 13.853")
    ('Redação dada pela Lei nº 13.853', True)
    """
    import ftfy
    from ftfy.badness import is_bad

    if not is_bad(text):
        return text, False
    parts = text.split("\n")
    changed = False
    for i, part in enumerate(parts):
        if is_bad(part):
            new = ftfy.fix_encoding(part)
            if new != part:
                parts[i] = new
                changed = True
    return "\n".join(parts), changed

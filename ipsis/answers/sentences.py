"""Sentence splitting for answers in Portuguese, Spanish and English.

Legal and policy answers are full of dots that do not end a sentence: ``Art. 5º``, ``arts.
12 e 13``, ``n.º 2``, ``§ 1º``, ``inc. II``, ``Sr.``, ``e.g.``, ``i.e.``, ``1.5``, ``7.2.1``. A
break needs a terminator followed by whitespace (after any closing quotes and citation markers,
which belong to the sentence they close), a token before it that is not a known abbreviation,
and a next word that does not start in lower case. ``。！？`` end a sentence without a space.
Line breaks always end a sentence (list items, headings, paragraphs).
"""

from __future__ import annotations

import re

from ipsis.spans import Span

# Lower-cased tokens (without their final dot) after which "." does not end a sentence.
ABBREVIATIONS = frozenset(
    {
        # pt / es legal
        "art",
        "arts",
        "artº",
        "inc",
        "incs",
        "al",
        "als",
        "n",
        "nº",
        "nos",
        "núm",
        "num",
        "par",
        "parág",
        "cap",
        "caps",
        "tít",
        "tit",
        "sec",
        "seç",
        "disp",
        "dec",
        "res",
        "proc",
        "fl",
        "fls",
        "pág",
        "págs",
        "p",
        "pp",
        "v",
        "vol",
        "ed",
        "ob",
        "cit",
        "op",
        "cf",
        "vs",
        "ex",
        "av",
        "apdo",
        "ap",
        "sr",
        "sra",
        "srs",
        "sras",
        "dr",
        "dra",
        "drs",
        "prof",
        "profa",
        "exmo",
        "exma",
        "ilmo",
        "ilma",
        "min",
        "des",
        "rel",
        "dj",
        "stf",
        "lda",
        "ltda",
        "cia",
        "s.a",
        "d",
        "dª",
        "dña",
        "ud",
        "uds",
        "etc.,",
        # en
        "e.g",
        "i.e",
        "mr",
        "mrs",
        "ms",
        "no",
        "sect",
        "fig",
        "figs",
        "approx",
        "inc.",
        "ltd",
        "co",
        "corp",
        "jr",
        "st",
        "u.s",
        "et al",
    }
)

TERMINATOR = re.compile(r"[.!?…]+|[。！？]+")
# What may follow a terminator and still belong to the sentence: closing quotes and brackets,
# and citation markers ([1], [1, 3], [^2], superscripts, 【2】).
TRAILER = re.compile(r"""(?:["'”’»)\]]|[ \t]?\[\^?[\w ,;–-]{1,20}\]|[¹²³⁴⁵⁶⁷⁸⁹⁰]+|【[^】]{1,20}】)*""")
TOKEN_BEFORE = re.compile(r"[\w.ºª]+$")
CJK = frozenset("。！？")
PAIR_NEXT = re.compile(r"\s+([A-ZÁÉÍÓÚÑ])\1\.")


def _abbreviation_before(text: str, dot: int) -> bool:
    m = TOKEN_BEFORE.search(text, max(0, dot - 20), dot)
    if not m:
        return False
    token = m.group(0).lower()
    if token in ABBREVIATIONS:
        return True
    word = m.group(0)
    if len(word) == 2 and word[0] == word[1] and word.isupper():
        # es plural initials: "RR. HH.", "EE. UU." (only the first of the pair)
        return PAIR_NEXT.match(text, dot + 1) is not None
    # initials ("J. Smith"): one upper-case letter
    return len(word) == 1 and word.isupper() and word.isalpha()


def _inside_quotes(text: str, pos: int) -> bool:
    head = text[:pos]
    return head.count('"') % 2 == 1 or head.count("“") > head.count("”") or head.count("«") > head.count("»")


def _breaks(text: str) -> list[int]:
    """End offsets (exclusive) of sentences inside one line."""
    ends: list[int] = []
    for m in TERMINATOR.finditer(text):
        end = TRAILER.match(text, m.end()).end()  # type: ignore[union-attr]
        if m.group(0)[0] in CJK:
            ends.append(end)
            continue
        if end < len(text) and not text[end].isspace():
            continue  # 1.5, 7.2.1, n.º, e.g.x
        if _inside_quotes(text, end):
            continue  # a quoted passage is part of the sentence that quotes it (unless it closes here)
        if m.group(0) == "." and _abbreviation_before(text, m.start()):
            continue
        nxt = end
        while nxt < len(text) and text[nxt].isspace():
            nxt += 1
        if nxt < len(text) and text[nxt].islower():
            continue
        ends.append(end)
    return ends


def split_sentences(text: str) -> list[Span]:
    """Spans of the sentences of ``text`` (whitespace trimmed, markers kept with their sentence).

    >>> t = "Nos termos do Art. 5º, § 1º, inc. II, o prazo é de 1.5 dias. Veja o item 7.2.1 agora."
    >>> [s.slice(t) for s in split_sentences(t)]
    ['Nos termos do Art. 5º, § 1º, inc. II, o prazo é de 1.5 dias.', 'Veja o item 7.2.1 agora.']
    >>> u = "Meals up to €50.[^1] Receipts above €25 [1, 3]. 是的。好！"
    >>> [s.slice(u) for s in split_sentences(u)]
    ['Meals up to €50.[^1]', 'Receipts above €25 [1, 3].', '是的。', '好！']
    """
    spans: list[Span] = []
    pos = 0
    for line in text.split("\n"):
        start = 0
        for end in [*_breaks(line), len(line)]:
            _add(spans, line, start, end, pos)
            start = end
        pos += len(line) + 1
    return spans


def _add(spans: list[Span], line: str, start: int, end: int, pos: int) -> None:
    while start < end and line[start].isspace():
        start += 1
    while end > start and line[end - 1].isspace():
        end -= 1
    if end > start:
        spans.append(Span(pos + start, pos + end))

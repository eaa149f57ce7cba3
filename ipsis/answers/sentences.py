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
from bisect import bisect_right

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
        # en: company and institution names ("Warner Bros. Discovery", "Dept. of Labor")
        "bros",
        "dept",
        "depts",
        "univ",
        "assn",
        "intl",
        "govt",
    }
)

TERMINATOR = re.compile(r"[.!?…]+|[。！？]+")
# What may follow a terminator and still belong to the sentence: closing quotes and brackets,
# and citation markers ([1], [1, 3], [^2], superscripts, 【2】).
TRAILER = re.compile(r"""(?:["'”’»)\]]|[ \t]?\[\^?[\w ,;–-]{1,20}\]|[¹²³⁴⁵⁶⁷⁸⁹⁰]+|【[^】]{1,20}】)*""")
TOKEN_BEFORE = re.compile(r"[\w.ºª]+$")
CJK = frozenset("。！？")
BRACKETS = re.compile(r"[()\[\]]")
DOTTED_INITIALS = re.compile(r"(?:[A-Z]\.){1,5}[A-Z]")
PAIR_NEXT = re.compile(r"\s+([A-ZÁÉÍÓÚÑ])\1\.")
# A list or heading number at the start of a line, after any Markdown markup: "1.", "**1.",
# "## 2.3.", "- a.", "iv.": its dot numbers the line and ends no sentence.
ENUMERATOR = re.compile(r"[ \t>#*_+-]{0,12}(?:\d{1,4}(?:\.\d{1,4}){0,5}|[a-zA-Z]|[ivxlcIVXLC]{1,6})")
CONTINUERS = "/,;:)]}—–-"
"""A next "word" that starts with one of these continues the sentence (``Valuation…” / Vercel``)."""
OPENERS = "{\"'“‘«¿¡*_"
"""What may open the next sentence before its first word (a lower-case word after them continues
the sentence)."""


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
    # initials ("J. Smith"): one upper-case letter; dotted initials ("D.C.", "U.K.")
    return (len(word) == 1 and word.isupper() and word.isalpha()) or DOTTED_INITIALS.fullmatch(word) is not None


class _Quotes:
    """Whether a position is inside a quoted passage, counting marks incrementally: one pass
    over the line however many terminators it has (never a recount from the line start)."""

    __slots__ = ("counts", "pos", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.counts = {'"': 0, "“": 0, "”": 0, "«": 0, "»": 0}

    def inside(self, pos: int) -> bool:
        """Positions must not decrease between calls."""
        for c in self.counts:
            self.counts[c] += self.text.count(c, self.pos, pos)
        self.pos = pos
        n = self.counts
        return n['"'] % 2 == 1 or n["“"] > n["”"] or n["«"] > n["»"]


def _closing_brackets(text: str) -> dict[int, int]:
    """For each ``(`` and ``[`` of a line that is closed, the offset just past its closing mark
    (one pass with a stack, so a line full of brackets costs no more than its length)."""
    out: dict[int, int] = {}
    stack: list[tuple[str, int]] = []
    pairs = {")": "(", "]": "["}
    for m in BRACKETS.finditer(text):
        i, c = m.start(), m.group()
        if c in "([":
            stack.append((c, i))
        elif c in pairs:
            if stack and stack[-1][0] == pairs[c]:
                out[stack.pop()[1]] = i + 1
            else:
                stack.clear()  # unbalanced: nothing before it closes across it
    return out


def _asides(text: str) -> list[tuple[int, int]]:
    """The outermost parentheses of a line that close on it, as ``(open, past_close)``."""
    out: list[tuple[int, int]] = []
    for o, c in sorted((o, c) for o, c in _closing_brackets(text).items() if text[o] == "("):
        if not out or o >= out[-1][1]:
            out.append((o, c))
    return out


def _within(asides: list[tuple[int, int]], pos: int) -> bool:
    i = bisect_right(asides, (pos, pos)) - 1
    return i >= 0 and asides[i][0] < pos < asides[i][1] - 1


def _starts_sentence(text: str, pos: int) -> bool:
    """True at the end of the line or before whitespace and a word not in lower case."""
    if pos >= len(text):
        return True
    if not text[pos].isspace():
        return False
    nxt = pos
    while nxt < len(text) and text[nxt].isspace():
        nxt += 1
    while nxt < len(text) and text[nxt] in OPENERS:
        nxt += 1
    return nxt >= len(text) or not text[nxt].islower()


def _breaks(text: str) -> list[int]:
    """End offsets (exclusive) of sentences inside one line."""
    ends: list[int] = []
    quotes = _Quotes(text)
    closing: dict[int, int] | None = None
    asides = _asides(text) if "(" in text else []
    for m in TERMINATOR.finditer(text):
        end = TRAILER.match(text, m.end()).end()  # type: ignore[union-attr]
        if m.group(0)[0] in CJK:
            ends.append(end)
            continue
        if end < len(text) and not text[end].isspace():
            continue  # 1.5, 7.2.1, n.º, e.g.x
        if quotes.inside(end):
            continue  # a quoted passage is part of the sentence that quotes it (unless it closes here)
        if asides and _within(asides, end):
            continue  # "(article: “Valuation…” / coverage)": a parenthesis closed later on the line
        if m.group(0) == "." and _abbreviation_before(text, m.start()):
            continue
        if m.group(0) == "." and ENUMERATOR.fullmatch(text, ends[-1] if ends else 0, m.start()):
            continue  # "1. Title", "**2. Title**": a number at the line start
        if ends and end <= ends[-1]:
            continue  # inside an aside already closed
        nxt = end
        while nxt < len(text) and text[nxt].isspace():
            nxt += 1
        if nxt < len(text) and text[nxt] in "([":
            # an aside or a link after the full stop belongs to the sentence: "… Gaza. ([reuters.com](…))";
            # the sentence ends after it when the next word starts one
            if closing is None:
                closing = _closing_brackets(text)
            close = closing.get(nxt)
            if close is not None and _starts_sentence(text, close):
                ends.append(close)
            continue
        while nxt < len(text) and text[nxt] in OPENERS:
            nxt += 1
        if nxt < len(text) and (text[nxt].islower() or text[nxt] in CONTINUERS):
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


SETEXT_UNDERLINE = re.compile(r"[ \t]{0,3}(?:=+|-+)[ \t]*")
LIST_MARK = re.compile(r"[ \t]{0,3}(?:[-*+]|\d{1,4}[.)])[ \t]+")
HTML_HEADING = re.compile(r"[ \t]*<h[1-6]\b", re.IGNORECASE)
EMPHASIS = ("**", "__", "*", "_")


def _emphasised_line(line: str) -> bool:
    """A line that is all emphasis and no sentence: ``**FTX Case Update:**``,
    ``**1. Trump-Putin Summit**``, ``- __Tourism__``; not ``**Refunds take 30 days.**``."""
    m = LIST_MARK.match(line)
    body = line[m.end() :] if m else line
    body = body.strip()
    for mark in EMPHASIS:
        if not body.startswith(mark):
            continue
        inner = body[len(mark) :]
        inner = inner[:-1] if inner.endswith(":") else inner
        if not inner.endswith(mark):
            return False
        inner = inner[: -len(mark)]
        if not inner.strip() or mark in inner:
            return False
        inner = inner.rstrip().rstrip(":").rstrip()
        if inner.endswith(".") and _abbreviation_before(inner, len(inner) - 1):
            return True  # "**2. Takeover of Washington D.C.**"
        return not inner.endswith((".", "!", "?", "。", "！", "？"))
    return False


FINAL = (".", "!", "?", "…", "。", "！", "？", '."', ".”", ".)")


def heading_spans(text: str) -> list[Span]:
    """Spans of the lines that are headings, in every Markdown form: ATX (``## Title``), setext
    (a line over ``===`` or ``---``), HTML ``<h2>``, a line that is all bold or italic
    (``**FTX Case Update:**``, ``**1. Trump-Putin Summit**``) and a title line without final
    punctuation right above a list (``Today’s top stories — quick highlights``). Headings are
    not claims.

    >>> t = "## News\\n**FTX Case Update:**\\nEllison was sentenced [1].\\nSummary\\n---\\n**Refunds take 30 days.**"
    >>> [s.slice(t) for s in heading_spans(t)]
    ['## News', '**FTX Case Update:**', 'Summary']
    >>> heading_spans("Refunds take 30 days.\\n---\\nTop stories\\n- one")
    [Span(start=26, end=37)]
    """
    out: list[Span] = []
    lines = text.split("\n")
    pos = 0
    for i, line in enumerate(lines):
        stripped = line.strip()
        heading = bool(stripped) and (
            stripped.startswith("#")
            or HTML_HEADING.match(line) is not None
            or _emphasised_line(line)
            or (
                i + 1 < len(lines)
                and LIST_MARK.match(line) is None
                and SETEXT_UNDERLINE.fullmatch(line) is None
                and not stripped.endswith(FINAL)  # "A claim.\n---" is a claim over a rule
                and (SETEXT_UNDERLINE.fullmatch(lines[i + 1]) is not None or LIST_MARK.match(lines[i + 1]) is not None)
            )
        )
        if heading:
            out.append(Span(pos, pos + len(line)))
        pos += len(line) + 1
    return out

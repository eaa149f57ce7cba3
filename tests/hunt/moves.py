"""The second hunt's families: words moved, swapped or hidden, numbers written the other way,
fragments of two sections joined, quotes that stop before a limiter, a lossy tier's match,
a space beside a dash, a repeated passage with a wrong context.

Edit families (a passage -> variants, as in :mod:`tests.hunt.families`) are in
:data:`MOVES`; the ones that need more than one passage (two sections, repeated passages, a
policy) are built by :func:`structural`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import regex

from ipsis.document import Document
from ipsis.sections import segment
from ipsis.verify.policy import Policy
from tests.hunt.core import LOSSY, MISS, NOT_PLAIN, SAME, WARN, Case, _flat, _flat_text
from tests.hunt.families import Family, _at, accents, case

_LINK = {"pt": r"de|do|da|dos|das|e|ou", "es": r"de|del|y|o|e", "en": r"of|and|or"}


def transposed(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """Two words around a link swapped (``direito de defesa`` -> ``defesa de direito``), and two
    adjacent content words swapped (a subject and its verb, an adjective and its noun)."""
    for m in regex.finditer(rf"\b(\p{{L}}{{3,}}) ({_LINK[lang]}) (\p{{L}}{{3,}})\b", p):
        if m.group(1) != m.group(3):
            yield _at(p, m, f"{m.group(3)} {m.group(2)} {m.group(1)}")
    for m in regex.finditer(r"\b(\p{L}{4,}) (\p{L}{4,})\b", p):
        if m.group(1).casefold() != m.group(2).casefold():
            yield _at(p, m, f"{m.group(2)} {m.group(1)}")


def _section_words(doc: Document, offset: int) -> list[str]:
    tree = doc.sections if doc.sections is not None else segment(doc)
    sec = tree.innermost_at(offset)
    s, e = (sec.start, sec.end) if sec is not None else (max(0, offset - 2000), offset + 2000)
    return sorted(set(regex.findall(r"\b\p{L}{4,}\b", doc.text[s:e])))


def _far(a: str, b: str) -> bool:
    """More than one letter apart (the first hunt's ``letter_word`` did one letter)."""
    if abs(len(a) - len(b)) > 1:
        return True
    return sum(x != y for x, y in zip(a, b, strict=False)) + abs(len(a) - len(b)) > 1


def section_word(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """A word replaced by another word of the same section (``tratamento`` -> ``titular``)."""
    at = doc.text.find(p)
    pool = _section_words(doc, at if at >= 0 else 0)
    for m in regex.finditer(r"\b\p{L}{4,}\b", p):
        others = [
            w for w in pool if _far(w.casefold(), m.group().casefold()) and w[0].isupper() == m.group()[0].isupper()
        ]
        if others:
            yield _at(p, m, rng.choice(others))


NUMBER_WORDS: dict[str, dict[int, str]] = {
    "pt": {1: "um", 2: "dois", 3: "três", 4: "quatro", 5: "cinco", 6: "seis", 7: "sete", 8: "oito", 9: "nove",
           10: "dez", 12: "doze", 15: "quinze", 20: "vinte", 30: "trinta", 45: "quarenta e cinco", 60: "sessenta",
           90: "noventa", 100: "cem", 180: "cento e oitenta"},
    "es": {1: "uno", 2: "dos", 3: "tres", 4: "cuatro", 5: "cinco", 6: "seis", 7: "siete", 8: "ocho", 9: "nueve",
           10: "diez", 12: "doce", 15: "quince", 20: "veinte", 30: "treinta", 45: "cuarenta y cinco",
           60: "sesenta", 90: "noventa", 100: "cien", 180: "ciento ochenta"},
    "en": {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
           10: "ten", 12: "twelve", 15: "fifteen", 20: "twenty", 30: "thirty", 45: "forty-five", 60: "sixty",
           90: "ninety", 100: "one hundred", 180: "one hundred eighty"},
}  # fmt: skip


def number_words(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """A number written in words where the source has digits (``30 dias`` -> ``trinta dias``) and
    in digits where it has words: not typography (DESIGN.md's tiers), so never ``located``."""
    table = NUMBER_WORDS[lang]
    for m in regex.finditer(r"(?<![\d.,º§-])\b\d{1,3}\b(?![\d.,ºª°-])", p):
        if int(m.group()) in table:
            yield _at(p, m, table[int(m.group())])
    for n, w in table.items():
        for m in regex.finditer(rf"\b{regex.escape(w)}\b", p, regex.I):
            yield _at(p, m, str(n))


_LIMITER = {
    "pt": r"salvo|exceto|excepto|desde que|sem prejuízo|ressalvad[oa]s?",
    "es": r"salvo|excepto|siempre que|sin perjuicio|a menos que",
    "en": r"unless|except|provided that|notwithstanding|other than|subject to",
}
_CONDITION = {"pt": r"quando|se|caso", "es": r"cuando|si|en caso de", "en": r"if|when|where"}
_MARKS = (" [...] ", " … ", " (...) ")


def _elide_clause(p: str, pat: str, rng: random.Random) -> Iterator[str]:
    """The clause from a word of ``pat`` to the next comma or semicolon (2-12 words) elided."""
    for m in regex.finditer(rf"(?<=.{{15}})(?<![-\p{{L}}])(?:{pat})\b[^,;.]{{3,90}}?(?=[,;])", p, regex.I):
        rest = p[m.end() :].lstrip(",; ")
        if len(rest) >= 15 and 1 <= len(m.group().split()) <= 12:
            yield p[: m.start()].rstrip(" ,;") + rng.choice(_MARKS) + rest


def elision_hides_limiter(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """``…, salvo nas hipóteses legais, …`` elided: the rule quoted without its exception."""
    yield from _elide_clause(p, _LIMITER[lang], rng)


def elision_hides_condition(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """``…, quando …, …`` / ``if …,`` elided: a conditional rule quoted as an absolute one."""
    yield from _elide_clause(p, _CONDITION[lang], rng)


def elision_hides_number(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """A number elided (``no prazo de [...] dias``): the quote no longer says how many."""
    for m in regex.finditer(r"(?<=.{15}) (?:\d+(?:[.,]\d+)*|\p{L}+ (?=dias|días|days|anos|años|years))(?= .{15})", p):
        if regex.fullmatch(r" \d.*", m.group()):
            yield _at(p, m, rng.choice(_MARKS).rstrip())


def dash_spacing(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """The space before a separator dash (``II - identificar``) dropped: typography (``II-
    identificar``, the PDF reading of a dash drawn over its space). The space after it dropped
    (``II -identificar``) is no such variant: a space before a dash glued to the next token is
    mostly an extractor splitting one token (``5 -04``), so the rule leaves it apart."""
    for m in regex.finditer(r"(?<=\S) ([-–—]) (?=\S)", p):
        yield _at(p, m, f"{m.group(1)} ")


def compound_dash_spaced(p: str, lang: str, rng: random.Random, doc: Document) -> Iterator[str]:
    """A compound's hyphen (``não-residente``) written with a space beside it: not typography."""
    for m in regex.finditer(r"(?<=\p{L}{2})-(?=\p{L}{2})", p):
        for new in (" - ", "- ", " -"):
            yield _at(p, m, new)


MOVES: dict[str, tuple[str, Family]] = {
    "transposed": (MISS, transposed),
    "section_word": (MISS, section_word),
    "number_words": (MISS, number_words),
    "elision_hides_limiter": (MISS, elision_hides_limiter),
    "elision_hides_condition": (MISS, elision_hides_condition),
    "elision_hides_number": (MISS, elision_hides_number),
    "dash_spacing": (SAME, dash_spacing),
    "compound_dash_spaced": (MISS, compound_dash_spaced),
}


def _top(doc: Document, offset: int) -> str | None:
    tree = doc.sections if doc.sections is not None else segment(doc)
    sec = tree.innermost_at(offset)
    while sec is not None and sec.parent is not None:
        sec = tree.get(sec.parent)
    return None if sec is None else str(sec.id)


def _two_sections(doc: Document, lang: str, spans: list[tuple[int, int]]) -> Iterator[Case]:
    """The head of one passage and the tail of another, of a different top-level section, joined
    by an ellipsis (nearest pairs first: within the elision gap)."""
    spans = sorted(spans)
    for (a, b), (c, d) in itertools.pairwise(spans):
        if _top(doc, a) is None or _top(doc, a) == _top(doc, c) or c - b > 1400:
            continue
        head = doc.text[a:b].rsplit(" ", max(2, len(doc.text[a:b].split()) // 2))[0]
        tail = doc.text[c:d].split(" ", max(2, len(doc.text[c:d].split()) // 2))[-1]
        if len(head) >= 20 and len(tail) >= 20:
            yield Case("two_sections", MISS, lang, doc, (a, d), f"{head} [...] {tail}")


def _before_limiter(doc: Document, lang: str, spans: list[tuple[int, int]]) -> Iterator[Case]:
    """Real text of a sentence that stops just before its ``salvo``/``except``/``no`` clause."""
    text = doc.text
    for m in regex.finditer(rf",?\s+(?:{_LIMITER[lang]})\b", text):
        s = text.rfind(" ", 0, max(0, m.start() - 70)) + 1
        head = text[s : m.start()].strip()
        s = text.find(head, s)
        if (
            len(head) >= 40
            and head[-1] not in ".;:!?"
            and not regex.search(r"[.;:!?]\s|\n\n|\f", head)
            and _flat_text(doc).count(_flat(head)) == 1
        ):
            yield Case("stops_before_limiter", WARN, lang, doc, (s, m.start()), head)


def _lossy(doc: Document, lang: str, spans: list[tuple[int, int]], rng: random.Random) -> Iterator[Case]:
    """A case or accent variant under a policy that accepts the lossy tiers: named, or refused."""
    policy = Policy(max_tier="accents")
    for s, e in spans:
        p = doc.text[s:e]
        for family in (case, accents):
            vs = [v for v in family(p, lang, rng, doc) if v != p]
            if vs:
                yield Case("lossy_named", LOSSY, lang, doc, (s, e), rng.choice(vs), policy=policy)


def _repeated(doc: Document, lang: str, spans: list[tuple[int, int]], rng: random.Random) -> Iterator[Case]:
    """A passage printed in several places, quoted with the context of none of them (wrong) and
    with the real prefix of one of them (that one)."""
    text, flat = doc.text, _flat_text(doc)
    seen: dict[str, list[int]] = {}
    for m in regex.finditer(r"(?<=[.;:]\s+)(?=\S)[^\n.;:]{25,120}[.;:](?=\s)", text):
        seen.setdefault(m.group(), []).append(m.start())
    for q, starts in seen.items():
        if len(starts) < 2 or flat.count(_flat(q)) != len(starts) or "\f" in q:
            continue
        i = rng.randrange(len(starts))
        s = starts[i]
        before = text[max(0, s - 40) : s].split(None, 1)[-1]
        if len(before.strip()) < 12 or any(
            _flat(text[max(0, t - 60) : t]).endswith(_flat(before)) for t in starts if t != s
        ):
            continue
        yield Case("context_right", SAME, lang, doc, (s, s + len(q)), q, prefix=before)
        a = rng.choice(spans)[0] if spans else 0
        wrong = text[max(0, a - 30) : a]
        if len(wrong.strip()) >= 12 and not any(
            _flat(text[max(0, t - 60) : t]).endswith(_flat(wrong)[-12:]) for t in starts
        ):
            yield Case("context_wrong", NOT_PLAIN, lang, doc, (s, s + len(q)), q, prefix=wrong)


def _page_breaks(doc: Document) -> list[tuple[int, int]]:
    """Page breaks with page furniture (running headers/footers, page numbers) around them: the
    end of the text before and the start of the text after (furniture, blanks and ``\f`` between)."""
    text = doc.text
    furn = sorted((m.start, m.end) for m in doc.marks if m.kind == "furniture")
    ends = dict(furn)
    out, pos, k = [], 0, 0
    while k < len(furn):
        a = furn[k][0]
        if a < pos:
            k += 1
            continue
        at = a
        while True:  # over furniture, blanks and form feeds
            if at in ends:
                at = ends[at]
            elif at < len(text) and (text[at].isspace() or text[at] == "\f"):
                at += 1
            else:
                break
        if "\f" in text[a:at] and a > 200:
            out.append((len(text[:a].rstrip()), at))
        pos, k = at, k + 1
    return out


def _across_pages(doc: Document, lang: str) -> Iterator[Case]:
    """A sentence running across a page break, quoted without the running header/footer and
    page number between (``same``: located over the break); and the text before one break
    glued to the text after the next (``miss``: a page left out)."""
    text, pieces = doc.text, []
    for end, after in _page_breaks(doc):
        s = text.rfind(" ", 0, end - 60) + 1
        e = text.find(" ", after + 60)
        head, tail = text[s:end].strip(), text[after:e].strip()
        words = head + tail
        if (
            e > 0
            and len(head) >= 40
            and len(tail) >= 40
            and sum(c.isalpha() for c in words) >= 0.75 * len(words.replace(" ", ""))
        ) and not regex.search(r"\n\s*\n|\f", head + tail):
            pieces.append((text.find(head, s), after + len(tail), head, tail))
    for s, e, head, tail in pieces:
        yield Case("across_pages", SAME, lang, doc, (s, e), f"{head} {tail}")
    for (s, _, head, _), (_, e, _, tail) in itertools.pairwise(pieces):
        yield Case("across_pages_skipped", MISS, lang, doc, (s, e), f"{head} {tail}")


def structural(doc: Document, lang: str, spans: list[tuple[int, int]], rng: random.Random, n: int) -> list[Case]:
    """Up to ``n`` cases of each family that needs more than one edit of one passage."""
    out: list[Case] = []
    out += list(_two_sections(doc, lang, spans))[:n]
    before = list(_before_limiter(doc, lang, spans))
    rng.shuffle(before)
    out += before[:n]
    out += list(_lossy(doc, lang, spans, rng))[:n]
    pages = list(_across_pages(doc, lang))
    out += [c for c in pages if c.expect == SAME][:n] + [c for c in pages if c.expect == MISS][:n]
    rep = list(_repeated(doc, lang, spans, rng))
    out += [c for c in rep if c.family == "context_right"][:n] + [c for c in rep if c.family == "context_wrong"][:n]
    return out

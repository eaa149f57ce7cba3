"""OCR-aware matching: on OCR text, a quote that differs from the source only by OCR noise.

One mechanism for every OCR text, whoever made it: pages ipsis OCR'd and OCR text layers from
other tools are ``ocr`` marks (:mod:`ipsis.ingest.ocr`). On those pages, when the quote is not
in the policy's view, it is looked for in the ``ocr`` tier's view (specks, ``$``/``§`` and
glyph confusions folded; :func:`ipsis.ingest.folds._ocr`), first exactly, then with the
nearest-passage search (:func:`ipsis.verify.nearest.search`, which also finds words joined or
split by OCR). Each candidate is then compared character by character with the quote
(:func:`differences`), and it is accepted only when every difference falls in an OCR noise
class:

- ``spacing``: words joined or split (``derisco`` / ``de risco``);
- ``speck``: punctuation read from specks or dropped (``coletados: no.`` / ``coletados no``),
  never between digits;
- ``accent``: an accent added, lost or changed (``de`` / ``dé``, ``não`` / ``nāo``);
- ``glyph``: ``§``/``$``, ``rn``/``in``/``m``, ``cl``/``d``, ``1o``/``1°``/``1º``, ``vv``/``w``, ``1``/``l``/``I``/``|``
  and ``0``/``o`` inside words, ``º``/``°``, the case of look-alike letters (``c o s u v w x z``).

A difference in a digit or a number (``30``/``60``, ``1º``/``lº``, ``13.853``/``13853``, a
roman numeral ``III``/``II``), in any other letter (a negation, a limiter, a modal or any key
word: ``não`` dropped, ``deverá``/``poderá``) is never noise: the quote stays ``not_found`` with
its nearest passage. The character classes are the whole rule: a negation, limiter or modal
word can only survive them unchanged or with its accents changed (``não``/``náo``). The result
lists every difference with the source's own characters and offsets, and the words Tesseract
read with low confidence.

>>> q, s = "§ 1º Consideram-se coletados no território", "$ 1º Consideram-se coletados .no territorio"
>>> [d["class"] for d in differences(q, s)]
['glyph', 'speck', 'accent']
>>> [d["class"] for d in differences("prazo de 30 dias", "prazo de 60 dias")]
['digits']
"""

from __future__ import annotations

import difflib
import unicodedata
from typing import Any

import regex

from ipsis.document import Document
from ipsis.ingest.folds import OCR_SPECKS
from ipsis.ingest.normalize import normalize
from ipsis.ingest.ocr import LOW_CONFIDENCE, low_characters, word_confidences
from ipsis.spans import Span
from ipsis.verify.match import document_view, find_all, is_word_char, quote_view
from ipsis.verify.policy import Policy

NOISE_CLASSES = ("spacing", "speck", "accent", "glyph")
MAX_CANDIDATES = 8

_NUMBER = regex.compile(r"(?<![^\W\d_ºª])\d+(?:[.,/:-]\d+)*(?:[ºª°]|o(?![^\W\d_]))?")
_SPECK_OR_SPACE = regex.compile("[\\s" + regex.escape(OCR_SPECKS) + "]+")
_GLYPHS = regex.compile(r"rn|in|vv|cl|(?<=\d)[o°]|(?<=\p{L})[|!1I0]|[|!1I0](?=\p{L})|[$°]")
_GLYPH_MAP = {"rn": "m", "in": "m", "vv": "w", "cl": "d", "|": "l", "!": "l", "1": "l", "I": "l", "0": "o"}
_GLYPH_MAP.update({"$": "§", "°": "º", "o": "º"})
_LOOK_ALIKE = frozenset("COSUVWXZ")


def ocr_marks(doc: Document) -> list[tuple[int, int]]:
    """``(start, end)`` of the document's OCR pages (cached)."""
    key = ("ocr_marks",)
    spans = doc.cache.get(key)
    if spans is None:
        spans = [(m.start, m.end) for m in doc.marks if m.kind == "ocr"]
        doc.cache[key] = spans
    return list(spans)


def applies(doc: Document, policy: Policy) -> bool:
    """OCR-aware matching runs on documents with OCR pages (unless the policy says no) and on
    any document when the policy's last tier is ``ocr``."""
    return policy.max_tier == "ocr" or (policy.ocr_noise and bool(ocr_marks(doc)))


def _strip_accents(s: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", s) if not unicodedata.combining(c))


def _glyphs(s: str) -> str:
    s = "".join(c.lower() if c in _LOOK_ALIKE else c for c in s)
    return _GLYPHS.sub(lambda m: _GLYPH_MAP[m.group()], s)


_THOUSANDS = regex.compile(r"(?<=\d[.,]) (?=\d{3}(?!\d))|(?<=\d) (?=[.,]\d{3}(?!\d))")


def _numbers(s: str) -> list[str]:
    """The numbers of ``s`` as written (a space OCR put inside a thousands group is not one:
    ``100. 000`` is ``100.000``), ordinal signs as ``º``."""
    s = _THOUSANDS.sub("", s)
    return [m.group().replace("°", "º").replace("o", "º") for m in _NUMBER.finditer(s)]


def classify_difference(quote: str, source: str) -> str:
    """The noise class of one difference (whole words on both sides), or ``digits`` /
    ``letters`` when it is not noise.

    >>> classify_difference("de risco", "derisco"), classify_difference("§ 2º", "$ 2º")
    ('spacing', 'glyph')
    >>> classify_difference("não se aplica", "se aplica"), classify_difference("art. 10", "art. 1O")
    ('letters', 'digits')
    """
    if _numbers(quote) != _numbers(source):
        return "digits"
    steps = (
        ("spacing", lambda x: regex.sub(r"\s+", "", x)),
        ("speck", lambda x: _SPECK_OR_SPACE.sub("", x)),
        ("accent", lambda x: _strip_accents(_SPECK_OR_SPACE.sub("", x))),
        ("glyph", lambda x: _SPECK_OR_SPACE.sub("", _glyphs(_strip_accents(x)))),
    )
    for name, fold in steps:
        if fold(quote) == fold(source):
            return name
    return "letters"


def _regions(q: str, s: str) -> list[tuple[int, int, int, int]]:
    """Differing stretches of ``q`` and ``s``, widened to whole words (the text around each
    stretch is the same on both sides, so both widen alike)."""
    ops = difflib.SequenceMatcher(None, q, s, autojunk=False).get_opcodes()
    out: list[list[int]] = []
    for op, i1, i2, j1, j2 in ops:
        if op == "equal":
            continue
        while i1 > 0 and j1 > 0 and q[i1 - 1] == s[j1 - 1] and not q[i1 - 1].isspace():
            i1, j1 = i1 - 1, j1 - 1
        while i2 < len(q) and j2 < len(s) and q[i2] == s[j2] and not q[i2].isspace():
            i2, j2 = i2 + 1, j2 + 1
        if out and (i1 <= out[-1][1] or j1 <= out[-1][3]):
            out[-1][1], out[-1][3] = max(out[-1][1], i2), max(out[-1][3], j2)
        else:
            out.append([i1, i2, j1, j2])
    return [(a, b, c, d) for a, b, c, d in out]


def differences(quote: str, source: str) -> list[dict[str, Any]]:
    """Every difference between ``quote`` and ``source`` with its class (:data:`NOISE_CLASSES`,
    or ``digits``/``letters``) and where it is in ``source`` (``at``, ``end``)."""
    out = []
    for i1, i2, j1, j2 in _regions(quote, source):
        out.append(
            {
                "class": classify_difference(quote[i1:i2], source[j1:j2]),
                "quote": quote[i1:i2],
                "source": source[j1:j2],
                "at": j1,
                "end": j2,
            }
        )
    return out


def _candidates(doc: Document, quote: str, policy: Policy) -> list[tuple[int, int]]:
    """Places in the ``ocr`` view (document offsets) that may be the quote with OCR noise."""
    from ipsis.verify.nearest import _encoded, _snap, budget, search

    view = document_view(doc, "ocr", policy.disabled_steps)
    q = quote_view(quote, "ocr", policy.disabled_steps).text
    if not q.strip():
        return []
    hits = [(h, h + len(q)) for h in find_all(view.text, q, boundaries=policy.boundaries)]
    k = budget(len(q), policy.error_rate, explicit=policy.max_error_rate is not None)
    if not hits and k >= 1:
        enc = _encoded(doc, view, ("ocr", tuple(sorted(policy.disabled_steps))))
        qb = enc.encode(q)
        for s, e, _ in search(enc.data, qb, k, enc.mask, MAX_CANDIDATES):
            s2, e2 = _snap(view.text, s, e, qb, enc, k)
            if e2 > s2 and all(e2 <= a or b <= s2 for a, b in hits):
                hits.append((s2, e2))
    spans = [view.offsets.span_to_source(Span(s, e)) for s, e in hits]
    return sorted({(sp.start, sp.end) for sp in spans})


def _on_ocr_pages(doc: Document, start: int, end: int, policy: Policy) -> bool:
    if policy.max_tier == "ocr":
        return True
    marks = ocr_marks(doc)  # a quote may run on from one OCR page to the next
    return any(a <= start <= b for a, b in marks) and any(a <= end <= b + 1 for a, b in marks)


def _inside_word(text: str, start: int, end: int) -> bool:
    return (start > 0 and is_word_char(text[start - 1]) and is_word_char(text[start])) or (
        0 < end < len(text) and is_word_char(text[end - 1]) and is_word_char(text[end])
    )


def _widen(text: str, start: int, end: int, quote: str) -> tuple[int, int]:
    """Take in the punctuation right at the edges of a place when the quote has it there (the
    ``ocr`` view drops edge punctuation: ``coleta.`` would otherwise end at ``coleta``)."""
    lead = len(quote) - len(quote.lstrip(OCR_SPECKS))
    trail = len(quote) - len(quote.rstrip(OCR_SPECKS))
    while lead and start > 0 and text[start - 1] in OCR_SPECKS:
        start, lead = start - 1, lead - 1
    while trail and end < len(text) and text[end] in OCR_SPECKS:
        end, trail = end + 1, trail - 1
    return start, end


def match_ocr(doc: Document, quote: str, policy: Policy) -> list[dict[str, Any]]:
    """The places where ``quote`` is in ``doc`` up to OCR noise: ``{start, end, differences,
    classes, low_confidence}``, document order (one place: located; several: ambiguous)."""
    typo = quote_view(quote, "typography", policy.disabled_steps).text
    accepted = []
    for start, end in _candidates(doc, quote, policy):
        if not _on_ocr_pages(doc, start, end, policy) or (policy.boundaries and _inside_word(doc.text, start, end)):
            continue
        start, end = _widen(doc.text, start, end, typo)
        view = normalize(doc.text[start:end], "typography", disabled=policy.disabled_steps)
        lead = len(view.text) - len(view.text.lstrip(" "))
        diffs = differences(typo, view.text.strip(" "))
        if not diffs or any(d["class"] not in NOISE_CLASSES for d in diffs):
            continue
        for d in diffs:  # the source's own characters and their document offsets
            sp = view.offsets.span_to_source(Span(d["at"] + lead, d["end"] + lead))
            d["start"], d["end"] = start + sp.start, start + sp.end
            d["source"] = doc.text[d["start"] : d["end"]]
            del d["at"]
        words = word_confidences(doc.meta, start, end)
        low = [
            {
                "text": doc.text[w["start"] : w["end"]],
                "start": w["start"],
                "end": w["end"],
                "confidence": w["confidence"],
            }
            for w in words
            if 0 <= w["confidence"] < LOW_CONFIDENCE
        ]
        chars = [{"offset": o, "char": doc.text[o], "confidence": c} for o, c in low_characters(doc.meta, start, end)]
        for d in diffs:  # how sure Tesseract was of the word(s), and the characters, of each difference
            confs = [w["confidence"] for w in words if w["start"] <= d["end"] and d["start"] <= w["end"]]
            if confs and min(confs) >= 0:
                d["confidence"] = min(confs)
            inside = [c for c in chars if d["start"] <= c["offset"] < d["end"]]
            if inside:
                d["low_confidence_chars"] = inside
        accepted.append(
            {
                "start": start,
                "end": end,
                "differences": diffs,
                "classes": sorted({d["class"] for d in diffs}, key=NOISE_CLASSES.index),
                "low_confidence": low,
                "low_confidence_chars": chars,
            }
        )
    return _distinct(accepted)


def _distinct(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One record per place: of overlapping candidates (one place snapped two ways), the one
    with the fewest differences."""
    out: list[dict[str, Any]] = []
    for f in sorted(found, key=lambda f: (len(f["differences"]), f["start"])):
        if all(f["end"] <= g["start"] or g["end"] <= f["start"] for g in out):
            out.append(f)
    return sorted(out, key=lambda f: f["start"])


def describe(found: dict[str, Any]) -> str:
    """``differs by OCR noise (speck x3, accent)`` for a result message.

    >>> describe({"differences": [{"class": "speck"}, {"class": "speck"}, {"class": "accent"}], "low_confidence": []})
    'differs by OCR noise (speck x2, accent)'
    """
    counts: dict[str, int] = {}
    for d in found["differences"]:
        counts[d["class"]] = counts.get(d["class"], 0) + 1
    parts = [f"{c} x{n}" if n > 1 else c for c, n in counts.items()]
    out = f"differs by OCR noise ({', '.join(parts)})"
    low = found["low_confidence"]
    if low:
        out += f"; {len(low)} word{'s' if len(low) > 1 else ''} read with low OCR confidence"
    chars = found.get("low_confidence_chars") or []
    if chars:
        out += f"; {len(chars)} character{'s' if len(chars) > 1 else ''} read with low OCR confidence"
    return out

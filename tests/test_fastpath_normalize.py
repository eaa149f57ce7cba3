"""The whole-text normalization steps give exactly what the per-edit steps gave.

The steps that change the length of the text in many places (whitespace runs, space before
punctuation, line-end hyphens, invisible characters) find their places in one
``split``/regex pass and hand the offset map bulk cut points (:class:`ipsis.spans.Cuts`) instead
of one :class:`~ipsis.spans.Edit` per place. The per-edit versions they replaced are kept here as
the reference: on real documents of each kind, the text, the edits and the offset map of every
position must be the same, the map monotone, and a view span must map to source text that
normalizes back to the view's text.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
import regex

from ipsis.ingest import fixes, folds, load_document, spacing
from ipsis.ingest.normalize import normalize
from ipsis.spans import Cuts, Edit, OffsetMap, Span, apply_edits
from tests.shared import corpus

DOCUMENTS = [
    "rfc/rfc7519.txt",
    "pt/crp-constituicao-republica-portuguesa.txt",
    "br/lgpd-senado-edicao-2024.pdf",
    "pdf/gr-fek-2008-syntagma-revision-2col.pdf",
    "br/lei-13709-2018-lgpd-planalto.html",
    "es/constitucion-espanola-boe-api-texto-excerpt.xml",
]
EDGES = ". . . . . x…… . . y  lead. \n\n x-"
EDGES += "\u2028\u3000 y  z-\r\n\u00a0w ab\u00ad\ncd e\u2212\n f  ,  ; (a ) [b ] {c } \u200b\u200bq  "
EDGES += " art. 3-\n08, ASTM-\n335, 4-\ntrifluoro, (b,f)-\noxa, 5,5'-\nbis, 2\u2212\n3, x \u00ad\n4"
EDGES += ", Petroleros -\nexcluye"
EDGES += " Consumo ......... 58 e Oferta. . . . 19, x.... ....y \t. .. .  \tz ...."


def _old_sub(pattern: regex.Pattern[str] | re.Pattern[str], rep: str, text: str) -> tuple[str, list[Edit]]:
    edits = [Edit(m.start(), m.end(), rep) for m in pattern.finditer(text) if m.group() != rep]
    return apply_edits(text, edits), [e for e in edits if len(e.replacement) != e.end - e.start]


def _old_collapse(text: str) -> tuple[str, list[Edit]]:
    for c in "\t" + fixes.LINE_BREAKS:
        text = text.replace(c, " ")
    edits = [Edit(m.start(), m.end(), " ") for m in re.finditer("  +", text)]
    return apply_edits(text, edits), edits


def _old_space_before_punct(text: str) -> tuple[str, list[Edit]]:
    edits = [Edit(m.start(), m.end() - 1, "") for m in re.finditer(r" +[.,;:!?)\]}]", text)]
    return apply_edits(text, edits), edits


def _old_dehyphenate(text: str) -> tuple[str, list[Edit]]:
    edits = []
    for m in regex.finditer(r"[-\u2010\u2011\u2212\u00ad\ufffe][ \t]*(?:\r\n|[\n\r\x0b\x0c\x85\u2028\u2029])\s*", text):
        s, e = m.span()
        if s > 0 and e < len(text) and text[s - 1].isalpha() and text[e].isalpha():
            edits.append(Edit(s, e, ""))
        elif (  # a hard hyphen of the token (a digit on one side, a closing bracket before): the break goes
            s > 0
            and e < len(text)
            and text[s] not in "\u00ad\ufffe"
            and (text[s - 1].isalpha() or text[s - 1].isdigit() or text[s - 1] in ")]'\u2019")
            and text[e].isalnum()
            and (text[s - 1].isdigit() or text[e].isdigit() or not text[s - 1].isalpha())
            and not (text[s - 1].isalpha() and regex.compile(r"\d+\p{L}").match(text, e))  # `docu-\n1The`
        ):
            edits.append(Edit(s + 1, e, ""))
        elif (  # a real hyphen repeated on the next line
            s > 0
            and text[s - 1].isalpha()
            and text[s] not in "\u00ad\ufffe"
            and regex.match(r"[-\u2010\u2011\u2212]\p{L}", text[e : e + 2] or " ")
        ):
            edits.append(Edit(s + 1, e + 1, ""))
    return apply_edits(text, edits), edits


def _old_per_match(pattern: regex.Pattern[str], repl: Any, text: str) -> tuple[str, list[Edit]]:
    """A step as it was: one Edit per match that changes, the length-changing ones in the map."""
    edits = [Edit(m.start(), m.end(), repl(m.group())) for m in pattern.finditer(text)]
    edits = [e for e in edits if e.replacement != text[e.start : e.end]]
    return apply_edits(text, edits), [e for e in edits if len(e.replacement) != e.end - e.start]


def _old_ellipsis(text: str) -> tuple[str, list[Edit]]:
    edits = [Edit(m.start(), m.end(), "...") for m in regex.finditer(r"\.(?: \.){2}", text)]
    edits += [Edit(m.start(), m.end(), "...") for m in regex.finditer("…", text)]
    edits.sort()
    return apply_edits(text, edits), [e for e in edits if e.end - e.start != 3]


def _old_symbol_spacing(text: str) -> tuple[str, list[Edit]]:
    """The step as it was: the pattern tried at every space of the text."""
    import unicodedata

    spans: list[tuple[int, int]] = []
    for m in spacing._space_by_symbol().finditer(text):
        s = m.start()
        if spans and spans[-1][1] > s:
            continue
        e = s + 1
        while s > 0 and text[s - 1] == " ":
            s -= 1
        while e < len(text) and text[e] == " ":
            e += 1
        if e < len(text) and unicodedata.category(text[e])[0] == "M":
            continue
        spans.append((s, e))
    if spans and ("-" in text or "°" in text):
        spans = [
            (s, e)
            for s, e in spans
            if not (text[s - 1 : s] == "-" or text[e : e + 1] in ("-", "°")) or not spacing._space_stays(text, s, e)
        ]
    edits = [Edit(s, e, "") for s, e in spans]
    return apply_edits(text, edits), edits


def _old_dash_spacing(text: str) -> tuple[str, list[Edit]]:
    edits = []
    i = text.find(" - ")
    while i >= 0:
        if text[i - 1 : i] != "-":
            edits.append(Edit(i, i + 1, ""))
        i = text.find(" - ", i + 3)
    if text.endswith(" -") and text[-3:-2] != "-":
        edits.append(Edit(len(text) - 2, len(text) - 1, ""))
    return apply_edits(text, edits), edits


OLD = {
    "symbol_spacing": _old_symbol_spacing,
    "dash_spacing": _old_dash_spacing,
    "ellipsis": _old_ellipsis,
    "collapse_whitespace": _old_collapse,
    "space_before_punct": _old_space_before_punct,
    "dehyphenate": _old_dehyphenate,
    "hyphenated_words": lambda t: _old_sub(regex.compile(r"-(?<=\p{L}-)(?=\p{L})"), "", t),
    "invisible": lambda t: _old_sub(regex.compile("[" + fixes.INVISIBLE + "]+"), "", t),
    "accents": lambda t: _old_per_match(regex.compile(r"[^\x00-\x7f]"), folds._strip_char, t),
    "leaders": lambda t: _old_sub(re.compile(r"\s*\.(?:\s*\.){3,}\s*"), "....", t),
}


@pytest.fixture(scope="module")
def texts() -> list[str]:
    return [load_document(corpus(rel)).text + EDGES for rel in DOCUMENTS] + [EDGES, EDGES.strip(), ""]


def test_bulk_steps_equal_the_per_edit_steps(texts: list[str]) -> None:
    for text in texts:
        for name, old in OLD.items():
            new_text, new_edits = fixes.FIXES[name].apply(text)
            old_text, old_edits = old(text)
            assert new_text == old_text, name
            assert list(new_edits) == old_edits, name
            # the same map whether built from the bulk cut points or from the Edit records
            bulk = OffsetMap.identity(len(text)).then(new_edits)
            assert bulk == OffsetMap.identity(len(text)).then(old_edits), name


def test_view_maps_equal_per_edit_maps_at_every_position(texts: list[str]) -> None:
    for text in texts[:3] + texts[-3:]:
        view = normalize(text, "typography")
        per_edit = OffsetMap.identity(len(text))
        t = text
        for name in view.steps:  # the same steps, their edits as plain Edit lists
            t, edits = fixes.FIXES[name].apply(t)
            per_edit = per_edit.then(list(edits))
        assert t == view.text
        starts = [view.offsets.to_source(i) for i in range(len(view.text) + 1)]
        assert starts == [per_edit.to_source(i) for i in range(len(view.text) + 1)]
        ends = [view.offsets.to_source_end(i) for i in range(len(view.text) + 1)]
        assert ends == [per_edit.to_source_end(i) for i in range(len(view.text) + 1)]
        assert starts == sorted(starts) and ends == sorted(ends)  # monotone
        assert starts[-1] == len(text) and ends[-1] == len(text)


def test_view_spans_map_to_source_text_of_the_same_words(texts: list[str]) -> None:
    rng = random.Random(7)
    for text in texts[:-3]:
        view = normalize(text, "typography")
        for _ in range(300):
            s = view.text.find(" ", rng.randrange(len(view.text) - 200)) + 1
            e = view.text.rfind(" ", s, s + rng.randint(20, 200))
            if e <= s:
                continue
            src = view.offsets.span_to_source(Span(s, e))
            assert normalize(text[src.start : src.end], "typography").text == view.text[s:e]


def test_cuts_read_as_their_edits() -> None:
    c = Cuts((1, 5, 9), (3, 6, 12), "")
    assert list(c) == [Edit(1, 3, ""), Edit(5, 6, ""), Edit(9, 12, "")]
    assert c[1:] == [Edit(5, 6, ""), Edit(9, 12, "")] and c[-1] == Edit(9, 12, "")
    assert apply_edits("abcdefghijklm", c) == "adeghim" == apply_edits("abcdefghijklm", list(c))


def test_fixes_change_no_text_without_the_characters_they_need(texts: list[str]) -> None:
    rng = random.Random(11)
    for text in texts[:-3]:
        for name, fix in fixes.FIXES.items():
            if not fix.needs:
                continue
            clean = "".join(c for c in text if c not in fix.needs)
            for _ in range(20):
                s = rng.randrange(len(clean))
                piece = clean[s : s + rng.randint(1, 3000)]
                assert fix(piece) == piece, name


def test_short_texts_normalize_as_without_the_needs_test(texts: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from ipsis.ingest import normalize as module

    rng = random.Random(5)
    pieces = [t[s : s + rng.randint(1, 4000)] for t in texts[:-3] for s in rng.sample(range(len(t)), 40)]
    pieces += [EDGES, "ﬁm … “x” — a\u00ad\nb &amp; c\u200b \u2212 d"]
    for tier in ("whitespace", "typography", "case", "ocr"):
        fast = [normalize(p, tier) for p in pieces]
        monkeypatch.setattr(module, "SHORT_TEXT", -1)
        slow = [normalize(p, tier) for p in pieces]
        monkeypatch.undo()
        assert fast == slow, tier


def test_lossy_quote_views_go_on_from_the_typography_view(texts: list[str]) -> None:
    from ipsis.verify.match import _quote_view

    rng = random.Random(9)
    quotes = [t[s : s + rng.randint(5, 400)] for t in texts[:-3] for s in rng.sample(range(len(t)), 30)]
    quotes += [EDGES, " O  ARTIGO 5º, ﬁm \u2212 rn 1o "]
    for tier in ("case", "accents", "ordinals", "ocr"):
        for disabled in ((), ("collapse_whitespace",), ("case",)):
            for q in quotes:
                plain = normalize(q, tier, disabled=disabled)
                view = _quote_view(q, tier, disabled)
                assert view.steps == plain.steps and view.offsets == plain.offsets
                assert view.text == plain.text.strip(" ")


@pytest.mark.parametrize("rel", ["br/lgpd-senado-edicao-2024.pdf", "pt/crp-constituicao-republica-portuguesa.txt"])
def test_lossy_document_views_go_on_from_the_typography_view(rel: str) -> None:
    """A document's lossy view built on its (stored) typography view is the view built from its
    text on the reference path: the same text, steps and offset map, for each kind of view
    (marks skipped or kept, superscripts spaced, furniture kept) and with a step disabled."""
    from ipsis import Document
    from ipsis.verify.batch import reference_path
    from ipsis.verify.match import document_view, view_key

    doc = load_document(corpus(rel))
    kinds: list[dict[str, bool]] = [{}, {"skip_marks": False}, {"skip_marks": False, "spaced": True}]
    kinds.append({"skip_marks": False, "furniture": False})
    for tier in ("case", "accents", "ordinals", "ocr"):
        for disabled in ((), ("collapse_whitespace",)):
            for kw in kinds:
                on = Document(doc.id, doc.text, doc.page_starts, doc.marks, doc.hints)
                view = document_view(on, tier, disabled, **kw)
                assert view_key("typography", disabled, **kw) in on.cache  # built first, kept
                with reference_path():
                    fresh = document_view(Document(doc.id, doc.text, doc.page_starts, doc.marks), tier, disabled, **kw)
                assert view == fresh, (tier, disabled, kw)
                assert view.text != doc.text


def test_symbol_class_is_every_bmp_sign_of_its_categories() -> None:
    """The class of signs a space may not follow, built in bulk, is the per-code-point reading of
    Python's Unicode database: every BMP character of Sm, Sc, Sk, So, Ps or Pd, and no other."""
    import unicodedata

    cats = ("Sm", "Sc", "Sk", "So", "Ps", "Pd")
    signs = spacing._space_by_symbol().pattern.split("(?<=[", 1)[1].rsplit("] ))", 1)[0]
    member = re.compile(f"[{signs}]")
    for c in range(0x10000):
        if 0xD800 <= c <= 0xDFFF:
            continue
        assert bool(member.fullmatch(chr(c))) == (unicodedata.category(chr(c)) in cats), hex(c)


def test_cut_words_are_the_patterns_matches(texts: list[str]) -> None:
    """:func:`~ipsis.verify.prepare.cut_words` skips its pattern when neither end of the quote
    is an ellipsis: the same words as the pattern finds on every quote."""
    from ipsis.verify.prepare import _CUT_WORD, cut_words

    def by_pattern(q: str) -> tuple[str, str]:
        head = tail = ""
        for m in _CUT_WORD.finditer(q.strip()):
            head, tail = head or m.group(1) or "", tail or m.group(2) or ""
        return head, tail

    rng = random.Random(3)
    quotes = [t[s : s + rng.randint(5, 300)] for t in texts[:-3] for s in rng.sample(range(len(t)), 40)]
    quotes += [f"{a}{q}{b}" for q in quotes[:60] for a, b in (("...", ""), ("", "…"), ("… ", " ..."), ("", "...\n"))]
    assert sum(by_pattern(q) != ("", "") for q in quotes) > 20  # quotes with a cut word are among them
    assert all(cut_words(q) == by_pattern(q) for q in quotes)


# characters outside Latin-1 by the spaces the spacing steps look at: signs (∈ → ≤ •), a
# bracket, a dash, marks on a space, Greek letters and punctuation, a '?' of the text's own
OUTSIDE = " x ∈ A, a → b ≤ c • d ‹ e 【 f 】 g ́h a ̃ λ ; μ · ν ? ξ ?( ο —  π ‐ ρ ∑ (σ) 1 ° 2 ° "


@pytest.mark.parametrize("name", ["symbol_spacing", "space_before_punct", "dash_spacing"])
def test_spacing_steps_find_the_pattern_places_in_class_bytes(
    texts: list[str], name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The spacing steps find their candidate places in the text's Latin-1 class bytes
    (:func:`~ipsis.ingest.fixkit.latin1_classes`) from :data:`~ipsis.ingest.spacing.SCAN_TEXT`
    characters on, and with a pattern tried at every space below it or when the text is mostly
    outside Latin-1: on corpus documents (PDF, HTML, BOE XML, RFC, a Portuguese norm, a Greek
    PDF) and on pieces of them with characters outside Latin-1 by their spaces, the two ways
    give the same text and the same edits as the step before it had either."""
    from ipsis.ingest import fixkit

    rng = random.Random(13)
    pieces = [t[s : s + rng.randint(1, 6000)] for t in texts[:-3] for s in rng.sample(range(len(t)), 25)]
    pieces = [*texts, *pieces, *(p[: len(p) // 2] + OUTSIDE + p[len(p) // 2 :] for p in pieces[::3])]
    pieces += [OUTSIDE, OUTSIDE * 200, (OUTSIDE + EDGES) * 40, "ab" * 3000 + OUTSIDE]
    old = OLD[name]
    step = fixes.FIXES[name].apply
    scanned = 0
    for share, scan in ((fixkit.LATIN1_SHARE, spacing.SCAN_TEXT), (10**9, 0), (1, 0)):
        monkeypatch.setattr(fixkit, "LATIN1_SHARE", share)
        monkeypatch.setattr(spacing, "SCAN_TEXT", scan)
        for p in pieces:
            new_text, new_edits = step(p)
            assert (new_text, list(new_edits)) == old(p), (name, share, scan, p[:80])
        scanned += sum(fixkit.latin1_classes(p, spacing._punct_classes()) is not None for p in pieces)
    assert scanned > len(pieces)  # the class bytes were read, and not only on long texts


# a character of every fix's needs, and some that make a fix write what another one needs
# (``&nbsp;`` a NBSP for unicode_spaces, ``\x93`` a curly quote for quotes, ``&#8230;`` an
# ellipsis, a soft hyphen from a control character)
NEEDED = " &amp;nbsp;&nbsp;x &#8230; self\x02improvement ﬁm ＬＧＰＤ X˜ \x93q\x94 “r” a — b ● c\u00a0d … e.... f "
NEEDED += "regu-\nlamento a\u00ad\nb \u200bz Cafe\u0301 ' ` « » \u2212 1 ° \ufffe "


def _long_texts(texts: list[str]) -> list[str]:
    """The corpus texts, and long pieces of them with :data:`NEEDED` put in at a random place
    (once, and then at every tenth of the piece)."""
    rng = random.Random(17)
    out = list(texts[:-3])
    for t in texts[:-3]:
        for _ in range(4):
            s = rng.randrange(len(t) - 3000)
            piece = t[s : s + rng.randint(1001, 60_000)]
            k = rng.randrange(len(piece))
            out.append(piece[:k] + NEEDED + piece[k:])
            out.append(NEEDED.join(piece[i : i + len(piece) // 10] for i in range(0, len(piece), len(piece) // 10)))
    return out


def test_long_texts_normalize_as_without_the_held_characters_test(
    texts: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long text skips the fixes whose needed characters :func:`~ipsis.ingest.fixkit.held_chars`
    says it does not hold, and after a fix keeps what it holds up to date from the fix's
    :attr:`~ipsis.ingest.fixkit.Fix.writes`: the views of corpus documents (PDF, HTML, BOE XML,
    RFC, a Portuguese norm, a Greek PDF) and of pieces with a character of every fix's needs
    are the views built with every fix run, at every tier, and with the marks of a PDF skipped."""
    from ipsis.ingest import normalize as module

    longs = _long_texts(texts)
    pdf = load_document(corpus("br/lgpd-senado-edicao-2024.pdf"))
    for tier in ("whitespace", "typography", "ocr"):
        fast = [normalize(t, tier) for t in longs] + [normalize(pdf.text, tier, marks=pdf.marks)]
        monkeypatch.setattr(module, "held_chars", lambda text, wanted: None)
        slow = [normalize(t, tier) for t in longs] + [normalize(pdf.text, tier, marks=pdf.marks)]
        monkeypatch.undo()
        assert fast == slow, tier
    skipped = normalize(NEEDED + longs[0], "typography")
    assert {"html_entities", "control_hyphens", "ligatures", "c1_controls", "quotes"} <= set(skipped.steps)


def test_held_characters_are_a_superset_and_fixes_write_what_they_say(texts: list[str]) -> None:
    """:func:`~ipsis.ingest.fixkit.held_chars` never leaves out a wanted character the text
    holds, and a fix with :attr:`~ipsis.ingest.fixkit.Fix.writes` adds no other character."""
    from ipsis.ingest.fixkit import held_chars

    wanted = frozenset().union(*(f.needs for f in fixes.FIXES.values()))
    rng = random.Random(19)
    longs = _long_texts(texts)
    pieces = longs + [p[s : s + rng.randint(1, 5000)] for p in longs for s in rng.sample(range(len(p)), 5)]
    pieces += [NEEDED, NEEDED * 50, "?" * 40 + "α", "α" * 40 + "\x95", ""]
    for p in pieces:
        assert held_chars(p, wanted) >= wanted.intersection(p)
        for name, fix in fixes.FIXES.items():
            if fix.writes is not None:
                assert set(fix(p)) - set(p) <= fix.writes, name

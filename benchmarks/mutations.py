"""Mutation benchmark: faithful and meaning-changing variants of real passages of the corpus norms.

Passages (whole sentences, unique in their document) are taken from the Portuguese
Constitution and the LGPD (pt), the Spanish Constitution (BOE XML excerpt and consolidated PDF,
es) and RFC 7519 / RFC 9111 (en). Each transformation makes one case per passage:

- faithful (must be ``located`` at the passage's own span): reflow, smart punctuation, NBSP,
  hyphenation at line ends, ligatures, page furniture inserted into the document, heading case
  (with a policy that accepts case, the only lossy tier here), NFD.
- meaning-changing (must never be ``located``; the right reason flag is counted): number bump,
  negation dropped, negation added, limiter dropped, modality swapped, word substituted, an
  elision hiding a negation, a quote cited to another article (``found_elsewhere``), a decoy
  (the same sentence repeated elsewhere: ``ambiguous``). A mutated quote that happens to be
  real text elsewhere in the document is not used (it would not change the meaning).

Prints per transformation: cases, located, not located, WRONG (located at a wrong place, or
accepted despite a meaning change), right reason flag, and µs per case.

    python benchmarks/mutations.py           # full run (>= 300 cases)
    python benchmarks/mutations.py --quick   # reduced run for CI
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import regex

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from ipsis.document import Document, Mark  # noqa: E402
from ipsis.ingest import load_document  # noqa: E402
from ipsis.sections import resolve_reference, segment  # noqa: E402
from ipsis.verify import Policy, Result, locate  # noqa: E402
from ipsis.verify.match import document_view, find_all, quote_view  # noqa: E402
from tests.shared import SHARED  # noqa: E402 - the real documents, never copied

SOURCES = [
    ("pt", "corpora/pt/crp-constituicao-republica-portuguesa.txt"),
    ("pt", "corpora/br/lei-13709-2018-lgpd-planalto.html"),
    ("es", "corpora/es/constitucion-espanola-boe-api-texto-excerpt.xml"),
    ("es", "corpora/es/constitucion-espanola-boe-consolidado-2024-02-17.pdf"),
    ("en", "corpora/rfc/rfc7519.txt"),
    ("en", "corpora/rfc/rfc9111.txt"),
]
FAITHFUL = ("reflow", "smart_punctuation", "nbsp", "hyphenation", "ligatures", "furniture", "heading_case", "nfd")
MEANING = (
    "number_bump",
    "negation_dropped",
    "negation_added",
    "limiter_dropped",
    "modality_swapped",
    "word_substituted",
    "elision_hides_negation",
    "other_article",
    "decoy",
)
EXPECTED_FLAG = {
    "number_bump": "number_changed",
    "negation_dropped": "negation_changed",
    "negation_added": "negation_changed",
    "limiter_dropped": "limiter_dropped",
    "modality_swapped": "modality_changed",
    "word_substituted": "words_changed",
    "elision_hides_negation": "elided_negation",
    "other_article": "found_elsewhere",
    "decoy": "ambiguous",
}
NEG = {"pt": r"não|nunca", "es": r"no|nunca", "en": r"not|never|no"}
NEG_ADD = {
    "pt": (r"é|são|pode|podem|deve|devem|tem|têm|será|serão|há", lambda w: "não " + w),
    "es": (r"es|son|puede|pueden|podrá|podrán|será|serán|tiene|tienen|debe|deben", lambda w: "no " + w),
    "en": (r"is|are|MUST|SHOULD|MAY|will|can", lambda w: w + " not"),
}
LIMITER = {
    "pt": r"salvo|exceto|excepto|desde que|sem prejuízo|ressalvad[oa]s?|a não ser",
    "es": r"salvo|excepto|siempre que|sin perjuicio|a menos que",
    "en": r"unless|except|provided that|notwithstanding|other than",
}
MODAL = {
    "pt": {"deve": "pode", "devem": "podem", "deverá": "poderá", "deverão": "poderão", "pode": "deve",
           "podem": "devem", "poderá": "deverá", "poderão": "deverão", "vedado": "permitido", "vedada": "permitida"},
    "es": {"debe": "puede", "deben": "pueden", "deberá": "podrá", "deberán": "podrán", "puede": "debe",
           "pueden": "deben", "podrá": "deberá", "podrán": "deberán", "prohibido": "permitido"},
    "en": {"MUST": "MAY", "SHOULD": "MAY", "SHALL": "MAY", "MAY": "MUST", "REQUIRED": "OPTIONAL",
           "OPTIONAL": "REQUIRED", "RECOMMENDED": "OPTIONAL"},
}  # fmt: skip
FURNITURE = {
    "pt": "\nCÂMARA DOS DEPUTADOS\nCentro de Documentação e Informação\n",
    "es": "\nBOLETÍN OFICIAL DEL ESTADO\nLEGISLACIÓN CONSOLIDADA\nPágina 12\n\f",
    "en": "\n\nJones, et al.   Standards Track   [Page 9]\n\f\nRFC 7519   JSON Web Token (JWT)   May 2015\n\n",
}
_HEADING = regex.compile(r"(?m)^[ \t]*(?:\d+(?:\.\d+)*\.[ \t]+)?(\p{Lu}[\p{L} ,()\"'-]{14,70}[\p{L})])[ \t]*$")
_SENT_END = regex.compile(r"[.;:](?=\s)")
_SPECIAL = regex.compile(r"\d|" + "|".join(f"(?:{p})" for p in (*NEG.values(), *LIMITER.values())), regex.I)


@dataclass
class Source:
    lang: str
    doc: Document
    passages: list[tuple[int, int]]
    headings: list[tuple[int, int]]
    words: list[str]


@dataclass
class Case:
    kind: str
    lang: str
    doc: Document
    quote: str
    span: tuple[int, int] | None = None
    section: str | None = None
    policy: Policy = field(default_factory=Policy)


def _unique(doc: Document, s: int, e: int, tier: str = "typography") -> bool:
    view = document_view(doc, tier)
    q = quote_view(doc.text[s:e], tier).text
    hits = find_all(view.text, q)
    return len(hits) == 1 and tuple(view.offsets.span_to_source(_span(hits[0], len(q)))) == (s, e)


def _span(h: int, n: int) -> Any:
    from ipsis.spans import Span

    return Span(h, h + n)


def _clean(doc: Document, s: int, e: int) -> bool:
    return not any(m.start < e and s < m.end for m in doc.marks)


def load_sources() -> list[Source]:
    out = []
    for lang, path in SOURCES:
        doc = load_document(SHARED / path)
        text = doc.text
        ends = [0] + [m.end() for m in _SENT_END.finditer(text)]
        passages = []
        for a, b in itertools.pairwise(ends):
            s = a + len(text[a:b]) - len(text[a:b].lstrip())
            chunk = text[s:b]
            lines = chunk.split("\n")
            if not 60 <= len(chunk) <= 280 or len(chunk.split()) < 8 or "\f" in chunk:
                continue
            if any(len(x.strip()) < 35 for x in lines[:-1]) or sum(c.isalpha() for c in chunk) < 0.75 * len(chunk):
                continue
            if _clean(doc, s, b) and _unique(doc, s, b):
                passages.append((s, b))
        headings = []
        for m in regex.finditer(
            r"(?m)^[ \t]*(?:\d+(?:\.\d+)*\.[ \t]+)?(\p{Lu}[\p{L} ,()\"'-]{14,70}[\p{L})])[ \t]*$", text
        ):
            s, e = m.span(1)
            if _clean(doc, s, e) and _unique(doc, s, e, "case"):
                headings.append((s, e))
        words = sorted({w for w in regex.findall(r"\b\p{Ll}{6,}\b", text) if not _SPECIAL.search(w)})
        out.append(Source(lang, doc, passages, headings, words))
    return out


# --- faithful --------------------------------------------------------------------------------


def reflow(p: str, rng: random.Random) -> str | None:
    words = p.split()
    out, line = [], 0
    for w in words:
        out.append(w)
        line += 1
        if line >= rng.randint(5, 9):
            out.append("\n   ")
            line = 0
        else:
            out.append(" ")
    return "".join(out).strip()


def smart_punctuation(p: str, rng: random.Random) -> str | None:
    swaps = [("\u201c", '"'), ("\u201d", '"'), ("\u2019", "'"), (" \u2013 ", " - ")]
    if '"' in p:
        parts = p.split('"')
        return "".join(x + ("\u201c" if i % 2 == 0 else "\u201d") for i, x in enumerate(parts[:-1])) + parts[-1]
    for a, b in swaps:
        if a in p:
            return p.replace(a, b)
        if b in p and b != '"':
            return p.replace(b, a)
    return None


def nbsp(p: str, rng: random.Random) -> str | None:
    out = regex.sub(r"(?<=\d|§|nº|n\.º|art\.|Art\.) ", "\u00a0", p)
    spaces = [m.start() for m in regex.finditer(" ", out)]
    if not spaces:
        return None
    i = rng.choice(spaces)
    return out[:i] + "\u202f" + out[i + 1 :]


def hyphenation(p: str, rng: random.Random) -> str | None:
    cands = [m for m in regex.finditer(r"\b\p{L}{8,}\b", p)]
    if not cands:
        return None
    m = rng.choice(cands)
    cut = m.start() + rng.randint(3, len(m.group()) - 3)
    return p[:cut] + "-\n" + p[cut:]


def ligatures(p: str, rng: random.Random) -> str | None:
    out = p.replace("ffi", "\ufb03").replace("ff", "\ufb00").replace("fi", "\ufb01").replace("fl", "\ufb02")
    return out if out != p else None


def nfd(p: str, rng: random.Random) -> str | None:
    out = unicodedata.normalize("NFD", p)
    return out if out != p else None


# --- meaning-changing ------------------------------------------------------------------------


def number_bump(p: str, rng: random.Random, lang: str) -> str | None:
    nums = list(regex.finditer(r"(?<![\d.,])\d+(?![\d])", p))
    if not nums:
        return None
    m = rng.choice(nums)
    n = int(m.group())
    return p[: m.start()] + str(n * 2 if n > 1 else n + 1) + p[m.end() :]


def negation_dropped(p: str, rng: random.Random, lang: str) -> str | None:
    cands = list(regex.finditer(rf"\b(?:{NEG[lang]})\b ", p, regex.I))
    if not cands:
        return None
    m = rng.choice(cands)
    return p[: m.start()] + p[m.end() :]


def negation_added(p: str, rng: random.Random, lang: str) -> str | None:
    pat, add = NEG_ADD[lang]
    cands = [
        m for m in regex.finditer(rf"\b(?:{pat})\b", p) if not regex.search(rf"\b(?:{NEG[lang]})\s*$", p[: m.start()])
    ]
    if not cands:
        return None
    m = rng.choice(cands)
    return p[: m.start()] + add(m.group()) + p[m.end() :]


def limiter_dropped(p: str, rng: random.Random, lang: str) -> str | None:
    m = regex.search(rf",?\s*\b(?:{LIMITER[lang]})\b[^,;.]*", p, regex.I)
    if m is None or m.start() == 0:
        return None
    return p[: m.start()] + p[m.end() :]


def modality_swapped(p: str, rng: random.Random, lang: str) -> str | None:
    table = MODAL[lang]
    cands = [m for m in regex.finditer(r"\b\w+\b", p) if m.group() in table]
    if not cands:
        return None
    m = rng.choice(cands)
    return p[: m.start()] + table[m.group()] + p[m.end() :]


def word_substituted(p: str, rng: random.Random, lang: str, words: list[str]) -> str | None:
    cands = [m for m in regex.finditer(r"\b\p{Ll}{6,}\b", p) if not _SPECIAL.search(m.group())]
    cands = [m for m in cands if m.group().casefold() not in _MODAL_WORDS]
    if not cands:
        return None
    m = rng.choice(cands)
    new = rng.choice(words)
    return None if new == m.group() else p[: m.start()] + new + p[m.end() :]


_MODAL_WORDS = {w.casefold() for t in MODAL.values() for kv in t.items() for w in kv} | {
    "vedado",
    "vedada",
    "permitido",
    "permitida",
    "proibido",
    "obrigatório",
    "required",
    "optional",
    "recommended",
}


def elision_hides_negation(p: str, rng: random.Random, lang: str) -> str | None:
    cands = [
        m
        for m in regex.finditer(rf"(?<= )(?:{NEG[lang]})(?= )", p, regex.I)
        if m.start() >= 15 and m.end() <= len(p) - 15
    ]
    if not cands:
        return None
    m = rng.choice(cands)
    return p[: m.start()].rstrip() + " [...] " + p[m.end() :].lstrip()


# --- building cases --------------------------------------------------------------------------


def _with_insert(doc: Document, pos: int, ins: str, kind: str | None) -> Document:
    shift = len(ins)
    marks = [
        Mark(m.kind, m.start + (shift if m.start >= pos else 0), m.end + (shift if m.end > pos else 0), m.note)
        for m in doc.marks
    ]
    if kind:
        marks.append(Mark(kind, pos, pos + shift))
    return Document(
        doc.id + "+", doc.text[:pos] + ins + doc.text[pos:], marks=tuple(sorted(marks, key=lambda m: m.start))
    )


def _absent(doc: Document, quote: str) -> bool:
    view = document_view(doc, "typography")
    return quote_view(quote, "typography").text not in view.text


def _top(doc: Document, s: int) -> Any:
    tree = doc.sections if doc.sections is not None else segment(doc)
    sec = tree.innermost_at(s)
    while sec is not None and sec.parent and "/" in sec.id:
        sec = tree.get(sec.parent)
    return sec


def build(per_kind: int, seed: int = 7) -> list[Case]:
    rng = random.Random(seed)
    sources = load_sources()
    cases: list[Case] = []
    faithful: dict[str, Callable[[str, random.Random], str | None]] = {
        "reflow": reflow,
        "smart_punctuation": smart_punctuation,
        "nbsp": nbsp,
        "hyphenation": hyphenation,
        "ligatures": ligatures,
        "nfd": nfd,
    }
    meaning: dict[str, Callable[..., str | None]] = {
        "number_bump": number_bump,
        "negation_dropped": negation_dropped,
        "negation_added": negation_added,
        "limiter_dropped": limiter_dropped,
        "modality_swapped": modality_swapped,
        "elision_hides_negation": elision_hides_negation,
    }
    for kind in (*FAITHFUL, *MEANING):
        made = 0
        order = [(src, s, e) for src in sources for s, e in src.passages]
        rng.shuffle(order)
        # round robin over sources so that every language is represented
        order.sort(key=lambda x: [id(s) for s in sources].index(id(x[0])) + 0 * rng.random())
        buckets: dict[int, list[Any]] = {}
        for item in order:
            buckets.setdefault(id(item[0]), []).append(item)
        mixed = [b[i] for i in range(max(map(len, buckets.values()))) for b in buckets.values() if i < len(b)]
        if kind == "heading_case":
            mixed = [(src, s, e) for src in sources for s, e in src.headings]
            rng.shuffle(mixed)
        for src, s, e in mixed:
            if made >= per_kind:
                break
            doc, p = src.doc, src.doc.text[s:e]
            case: Case | None = None
            if kind in faithful:
                q = faithful[kind](p, rng)
                case = Case(kind, src.lang, doc, q, (s, e)) if q else None
            elif kind == "furniture":
                spaces = [m.start() for m in regex.finditer(" ", p)][2:-2]
                if spaces:
                    pos = s + rng.choice(spaces) + 1
                    d2 = _with_insert(doc, pos, FURNITURE[src.lang], "furniture")
                    case = Case(kind, src.lang, d2, p, (s, e + len(FURNITURE[src.lang])))
            elif kind == "heading_case":
                q = p.upper() if p != p.upper() else p.title()
                case = Case(kind, src.lang, doc, q, (s, e), policy=Policy(max_tier="case"))
            elif kind in meaning:
                q = meaning[kind](p, rng, src.lang)
                if q and q != p and len(q) >= 40 and _absent(doc, q):
                    case = Case(kind, src.lang, doc, q)
            elif kind == "word_substituted":
                q = word_substituted(p, rng, src.lang, src.words)
                if q and len(q) >= 40 and _absent(doc, q):
                    case = Case(kind, src.lang, doc, q)
            elif kind == "other_article":
                case = _other_article(src, s, e, p, rng)
            elif kind == "decoy":
                case = _decoy(src, s, e, p, rng)
            if case is not None:
                cases.append(case)
                made += 1
    return cases


def _other_article(src: Source, s: int, e: int, p: str, rng: random.Random) -> Case | None:
    doc = src.doc
    own = _top(doc, s)
    if own is None:
        return None
    tree = doc.sections
    tops = [x for x in tree if "/" not in x.id and x.id != own.id and x.end - x.start > 200]
    rng.shuffle(tops)
    for other in tops[:10]:
        try:
            res = resolve_reference(tree, other.label)
        except Exception:
            continue
        if [x.id for x in res.sections] == [other.id] and p not in doc.text[other.start : other.end]:
            return Case("other_article", src.lang, doc, p, section=other.label)
    return None


def _decoy(src: Source, s: int, e: int, p: str, rng: random.Random) -> Case | None:
    doc = src.doc
    text = doc.text
    far = [m.start() + 1 for m in regex.finditer(r"\n(?=\S)", text) if abs(m.start() - s) > 2000]
    if not far:
        return None
    pos = rng.choice(far)
    d2 = _with_insert(doc, pos, p + "\n", None)
    case = Case("decoy", src.lang, d2, p)
    shift = len(p) + 1 if pos <= s else 0
    case.span = (s + shift, e + shift)
    return case


# --- running ---------------------------------------------------------------------------------


@dataclass
class Outcome:
    case: Case
    result: Result
    seconds: float

    @property
    def located(self) -> bool:
        return self.result.status == "located"

    @property
    def wrong(self) -> bool:
        r = self.result
        if self.case.kind in FAITHFUL:
            return self.located and (r.matches[0].start, r.matches[0].end) != self.case.span
        if self.case.kind == "decoy":
            return self.located or r.status == "too_short"
        return r.status in ("located", "too_short")

    @property
    def right_flag(self) -> bool:
        want = EXPECTED_FLAG.get(self.case.kind)
        r = self.result
        if want == "found_elsewhere":
            return bool(r.found_elsewhere)
        if want == "ambiguous":
            spans = [(m.start, m.end) for m in r.matches]
            return r.status == "ambiguous" and self.case.span in spans
        flags = {x["flag"] for x in (r.nearest or {}).get("reasons", [])}
        return want in flags


def run(cases: list[Case]) -> list[Outcome]:
    out = []
    warm: set[int] = set()
    for c in cases:
        if id(c.doc) not in warm:  # views are built once per document, as in real use: not timed
            locate(c.doc, "warm up: a quote that is not in any of the documents at all", policy=c.policy)
            warm.add(id(c.doc))
        t = time.perf_counter()
        r = locate(c.doc, c.quote, section=c.section, policy=c.policy)
        dt = time.perf_counter() - t
        for m in r.matches:
            assert c.doc.text[m.start : m.end] == m.text
        if r.nearest is not None:
            assert c.doc.text[r.nearest["start"] : r.nearest["end"]] == r.nearest["text"]
        out.append(Outcome(c, r, dt))
    return out


def summarize(outcomes: list[Outcome]) -> dict[str, dict[str, Any]]:
    table: dict[str, dict[str, Any]] = {}
    for o in outcomes:
        row = table.setdefault(o.case.kind, {"n": 0, "located": 0, "not_located": 0, "wrong": 0, "flag": 0, "s": 0.0})
        row["n"] += 1
        row["located"] += o.located and not o.wrong
        row["not_located"] += not o.located
        row["wrong"] += o.wrong
        row["flag"] += o.case.kind in MEANING and o.right_flag
        row["s"] += o.seconds
    return table


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="6 cases per transformation")
    ap.add_argument("--per-kind", type=int, default=None)
    ap.add_argument("--show", action="store_true", help="print the failing cases")
    args = ap.parse_args(argv)
    per = args.per_kind or (6 if args.quick else 22)
    t0 = time.perf_counter()
    cases = build(per)
    built = time.perf_counter() - t0
    outcomes = run(cases)
    table = summarize(outcomes)
    print(f"{len(cases)} cases from {len(SOURCES)} documents (built in {built:.1f} s)\n")
    head = ("transformation", "group", "n", "located", "not loc.", "WRONG", "flag", "µs/case")
    print("{:24} {:8} {:>4} {:>8} {:>8} {:>6} {:>6} {:>9}".format(*head))
    for kind in (*FAITHFUL, *MEANING):
        if kind not in table:
            continue
        row = table[kind]
        group = "faithful" if kind in FAITHFUL else "meaning"
        flag = f"{row['flag']}" if group == "meaning" else "-"
        us = f"{1e6 * row['s'] / row['n']:.0f}"
        cells = (kind, group, row["n"], row["located"], row["not_located"], row["wrong"], flag, us)
        print("{:24} {:8} {:>4} {:>8} {:>8} {:>6} {:>6} {:>9}".format(*cells))
    fa = [o for o in outcomes if o.case.kind in FAITHFUL]
    me = [o for o in outcomes if o.case.kind in MEANING]
    ok = sum(o.located and not o.wrong for o in fa)
    flagged = sum(o.right_flag for o in me)
    print(f"\nfaithful located: {ok}/{len(fa)} ({100 * ok / max(1, len(fa)):.1f}%), wrong {sum(o.wrong for o in fa)}")
    print(f"meaning-changing wrong: {sum(o.wrong for o in me)}/{len(me)}; right flag: {flagged}/{len(me)}", end="")
    print(f" ({100 * flagged / max(1, len(me)):.1f}%)")
    us_all = sorted(1e6 * o.seconds for o in outcomes)
    med, top = us_all[len(us_all) // 2], us_all[-1]
    print(f"µs per case: median {med:.0f}, max {top:.0f} (views are built once per document and not timed)")
    if args.show:
        for o in outcomes:
            bad = (
                o.wrong or (o.case.kind in FAITHFUL and not o.located) or (o.case.kind in MEANING and not o.right_flag)
            )
            if bad:
                print("\n--", o.case.kind, o.case.lang, o.result.status, o.result.message[:200])
                print("   quote:", repr(o.case.quote[:200]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Negative controls for the support judge on real norms (PT: CRP; ES: Constitución, BOE XML).

Each numbered paragraph of an article gives a faithful paraphrase (synonyms, modern spelling,
no label) and controlled corruptions of that paraphrase, each judged against the article text:

- ``num_bump``: a number changed (digits + 1, or another number word);
- ``negation``: a negation added before the verb (or removed);
- ``modality_swap``: deve <-> pode, deverá <-> poderá, debe <-> puede, é vedado -> é permitido ...;
- ``limiter_drop``: a limiter clause taken out (salvo ..., exceto ..., desde que ..., apenas);
- ``entity_swap``: an organ or body replaced by another (Assembleia da República -> Governo);
- ``other_article``: the faithful paraphrase of another article, judged against this one.

Prints AUC (probability that a faithful pair scores above a corrupted one, ties count half)
overall and per corruption, with a bootstrap 95% confidence interval, and the floors the cue
judge must meet (overall > 0.72; num_bump, negation, modality_swap >= 0.95).

    python benchmarks/judge_eval.py           # every paragraph, 1,000 bootstrap samples
    python benchmarks/judge_eval.py --quick   # reduced run (also what tests/test_judge_eval.py uses)
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from lxml import etree  # noqa: E402

from ipsis.judge.cues import CueJudge  # noqa: E402
from ipsis.judge.support import verdict_for  # noqa: E402
from tests.shared import SHARED  # noqa: E402 - the real documents, never copied

VERDICTS = ("supported", "contradicted", "no_support", "needs_review")

CRP = SHARED / "corpora/pt/crp-constituicao-republica-portuguesa.txt"
BOE = SHARED / "corpora/es/constitucion-espanola-boe-api-texto-excerpt.xml"
CORRUPTIONS = ("num_bump", "negation", "modality_swap", "limiter_drop", "entity_swap", "other_article")
FLOORS = {"overall": 0.72, "num_bump": 0.95, "negation": 0.95, "modality_swap": 0.95}
"""Published reference for an NLI model on code citations: AUC 0.70-0.72; the cue judge must beat it."""


@dataclass(frozen=True, slots=True)
class Article:
    lang: str
    label: str
    text: str
    paragraphs: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Pair:
    lang: str
    article: str
    kind: str  # "faithful" or one of CORRUPTIONS
    claim: str
    section: str


def crp_articles() -> list[Article]:
    """Articles of the CRP: ``Artigo N.º`` line, epigraph line, body up to the next heading."""
    lines = CRP.read_text(encoding="utf-8").splitlines()
    heading = re.compile(r"^(Artigo \d+\.º(?:-[A-Z])?|PARTE |TÍTULO |CAPÍTULO |SECÇÃO |Princípios fundamentais)")
    out: list[Article] = []
    k = 0
    while k < len(lines):
        if re.match(r"^Artigo \d+\.º", lines[k]):
            label = lines[k].strip()
            body: list[str] = []
            j = k + 2
            while j < len(lines) and not heading.match(lines[j]):
                if lines[j].strip():
                    body.append(lines[j].strip())
                j += 1
            if body:
                out.append(Article("pt", label, "\n".join(body), tuple(body)))
            k = j
        else:
            k += 1
    return out


def boe_articles() -> list[Article]:
    """Precepts of the BOE XML excerpt: the current (last) version, law text only (no ``nota_pie``)."""
    root = etree.parse(str(BOE)).getroot()
    out: list[Article] = []
    for bloque in root.iter("bloque"):
        if bloque.get("tipo") != "precepto":
            continue
        versions = bloque.findall("version")
        if not versions:
            continue
        paras = [
            " ".join("".join(p.itertext()).split())
            for p in versions[-1].iter("p")
            if p.get("class") not in ("articulo", "nota_pie")
        ]
        paras = [p for p in paras if p]
        if paras:
            out.append(Article("es", bloque.get("titulo") or "", "\n".join(paras), tuple(paras)))
    return out


SYNONYMS = {
    "pt": [("designadamente", "nomeadamente"), ("assegurar", "garantir"), ("assegura", "garante"),
           ("incumbe", "cabe"), ("compete", "cabe"), ("mediante", "através de"), ("bem como", "e também"),
           ("Todos os cidadãos", "Os cidadãos"), ("quaisquer", "todas as")],
    "es": [("garantiza", "asegura"), ("asegura", "garantiza"), ("mediante", "a través de"),
           ("así como", "y también"), ("corresponde", "compete"), ("Los poderes públicos", "Las autoridades públicas")],
}  # fmt: skip
MODAL_SWAPS = {
    "pt": [("deverão", "poderão"), ("poderão", "deverão"), ("deverá", "poderá"), ("poderá", "deverá"),
           ("devem", "podem"), ("podem", "devem"), ("deve", "pode"), ("pode", "deve"),
           ("é vedado", "é permitido"), ("é proibido", "é permitido"), ("é obrigatório", "é facultativo")],
    "es": [("deberán", "podrán"), ("podrán", "deberán"), ("deberá", "podrá"), ("podrá", "deberá"),
           ("deben", "pueden"), ("pueden", "deben"), ("debe", "puede"), ("puede", "debe"),
           ("queda prohibido", "queda permitido"), ("está prohibido", "está permitido")],
}  # fmt: skip
NUMBER_SWAPS = {
    "pt": [("quarenta e oito", "setenta e duas"), ("dois terços", "três quintos"), ("dezoito", "dezasseis"),
           ("trinta", "sessenta"), ("sessenta", "noventa"), ("noventa", "cento e vinte"), ("cinco", "seis"),
           ("quatro", "cinco"), ("três", "quatro"), ("dois", "três"), ("duas", "três"), ("dez", "doze"),
           ("oito", "nove"), ("seis", "sete"), ("sete", "oito")],
    "es": [("dieciocho", "dieciséis"), ("tres quintos", "dos tercios"), ("dos tercios", "tres quintos"),
           ("treinta", "sesenta"), ("cinco", "seis"), ("cuatro", "cinco"), ("tres", "cuatro"), ("diez", "doce")],
}  # fmt: skip
ENTITIES = {
    "pt": ["Assembleia da República", "Governo", "Presidente da República", "Tribunal Constitucional",
           "Primeiro-Ministro", "Conselho de Ministros", "Provedor de Justiça", "Ministério Público",
           "Conselho de Estado", "Forças Armadas"],
    "es": ["Rey", "Cortes Generales", "Gobierno", "Congreso", "Senado", "Tribunal Constitucional",
           "Comunidades Autónomas", "Ministerio Fiscal", "Consejo General del Poder Judicial", "Defensor del Pueblo"],
}  # fmt: skip
VERBS = {
    "pt": r"é|são|será|serão|pode|podem|poderá|poderão|deve|devem|deverá|deverão|tem|têm|goza|gozam|reside|"
    r"compete|cabe|incumbe|garante|assegura|reconhece|define|regula|estabelece|depende|abrange|exerce|"
    r"constitui|constituem|respeita|rege-se|subordina-se|funda-se|aprova|elege|nomeia",
    "es": r"es|son|será|serán|puede|pueden|podrá|podrán|debe|deben|deberá|deberán|tiene|tienen|tendrá|tendrán|"
    r"corresponde|garantiza|reconoce|regula|establece|ejerce|reside|emanan|fundamenta|se constituye|propugna|"
    r"gozarán|gozan",
}
NEGATOR = {"pt": "não", "es": "no"}
LIMITER_CLAUSE = {
    "pt": r",?\s*(?:salvo|exceto|excepto|desde que|sem prejuízo|ressalvad[oa]s?|a menos que)\b[^,;.]*",
    "es": r",?\s*(?:salvo|excepto|siempre que|sin perjuicio|a menos que)\b[^,;.]*",
}
LIMITER_WORD = {"pt": r"\b(?:apenas|só|somente|unicamente|exclusivamente) ", "es": r"\b(?:solo|sólo|únicamente) "}


def _sub_first(pairs: list[tuple[str, str]], text: str) -> str | None:
    for old, new in pairs:
        m = re.search(rf"(?<!\w){re.escape(old)}(?!\w)", text)
        if m:
            return text[: m.start()] + new + text[m.end() :]
    return None


def paraphrase(lang: str, line: str) -> str:
    """A faithful rewording: label dropped, synonyms, modern Portuguese spelling, no parentheses."""
    text = re.sub(r"^\d+\.\s+", "", line)
    text = re.sub(r"\s*\([^)]*\)", "", text)
    for old, new in SYNONYMS[lang]:
        text = re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", new, text)
    if lang == "pt":
        text = re.sub(r"(?<=[aeiou])[cp](?=[çt])", "", text)
    return text


def corrupt(kind: str, lang: str, claim: str, section: str) -> str | None:
    """The claim with one controlled corruption, or None when it does not apply."""
    if kind == "num_bump":
        m = re.search(r"(?<![\w.])\d+(?![\w])", claim)
        if m:
            return claim[: m.start()] + str(int(m.group()) + 1) + claim[m.end() :]
        return _sub_first(NUMBER_SWAPS[lang], claim)
    if kind == "negation":
        neg = NEGATOR[lang]
        nobody, anyone = ("Ninguém", "Qualquer pessoa") if lang == "pt" else ("Nadie", "Cualquier persona")
        if claim.startswith(nobody + " "):
            return anyone + claim[len(nobody) :]
        m = re.search(rf"(?<!\w){neg} ", claim)
        if m:
            return claim[: m.start()] + claim[m.end() :]
        m = re.search(rf"(?<!\w)(?:{VERBS[lang]})(?!\w)", claim)
        return claim[: m.start()] + f"{neg} " + claim[m.start() :] if m else None
    if kind == "modality_swap":
        return _sub_first(MODAL_SWAPS[lang], claim)
    if kind == "limiter_drop":
        m = re.search(LIMITER_CLAUSE[lang], claim) or re.search(LIMITER_WORD[lang], claim)
        return (claim[: m.start()] + claim[m.end() :]).strip() if m else None
    if kind == "entity_swap":
        names = ENTITIES[lang]
        for k, name in enumerate(names):
            if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", claim):
                for other in names[k + 1 :] + names[:k]:
                    if other not in section:
                        return claim.replace(name, other, 1)
        return None
    msg = f"unknown corruption {kind!r}"  # pragma: no cover
    raise ValueError(msg)  # pragma: no cover


def build_pairs(quick: bool = False, seed: int = 7) -> list[Pair]:
    """Faithful and corrupted claim/section pairs from the CRP and the BOE excerpt."""
    rng = random.Random(seed)
    pairs: list[Pair] = []
    for arts in (crp_articles(), boe_articles()):
        lines = [
            (a, line)
            for a in arts
            for line in a.paragraphs
            if 8 <= len(line.split()) <= 70 and not line.rstrip().endswith(":") and not re.match(r"^[a-z]\)", line)
        ]
        if quick:
            lines = rng.sample(lines, min(len(lines), 90 if arts[0].lang == "pt" else 20))
        for k, (art, line) in enumerate(lines):
            faithful = paraphrase(art.lang, line)
            pairs.append(Pair(art.lang, art.label, "faithful", faithful, art.text))
            for kind in CORRUPTIONS[:-1]:
                bad = corrupt(kind, art.lang, faithful, art.text)
                if bad and bad != faithful:
                    pairs.append(Pair(art.lang, art.label, kind, bad, art.text))
            other_art, other_line = lines[(k + len(lines) // 2) % len(lines)]
            if other_art.label != art.label:
                pairs.append(Pair(art.lang, art.label, "other_article", paraphrase(art.lang, other_line), art.text))
    return pairs


def auc(pos: list[float], neg: list[float]) -> float:
    """P(score of a faithful pair > score of a corrupted one), ties counted half (Mann-Whitney)."""
    if not pos or not neg:
        return float("nan")
    allv = sorted([(v, 1) for v in pos] + [(v, 0) for v in neg])
    rank_sum, i = 0.0, 0
    while i < len(allv):
        j = i
        while j < len(allv) and allv[j][0] == allv[i][0]:
            j += 1
        avg = (i + j + 1) / 2  # ranks are 1-based
        rank_sum += avg * sum(1 for _, lab in allv[i:j] if lab)
        i = j
    n1, n0 = len(pos), len(neg)
    return (rank_sum - n1 * (n1 + 1) / 2) / (n1 * n0)


def bootstrap_ci(pos: list[float], neg: list[float], samples: int, seed: int = 11) -> tuple[float, float]:
    rng = random.Random(seed)
    vals = sorted(
        auc([rng.choice(pos) for _ in pos], [rng.choice(neg) for _ in neg]) for _ in range(samples)
    )  # fmt: skip
    return vals[int(0.025 * samples)], vals[min(samples - 1, int(0.975 * samples))]


def evaluate(
    pairs: list[Pair], score: Callable[[str, str], float], samples: int
) -> dict[str, tuple[float, float, float, int]]:
    """AUC with its bootstrap CI and the number of corrupted pairs, overall and per corruption."""
    scores = [(p.kind, score(p.claim, p.section)) for p in pairs]
    pos = [s for k, s in scores if k == "faithful"]
    out: dict[str, tuple[float, float, float, int]] = {}
    for kind in ("overall", *CORRUPTIONS):
        neg = [s for k, s in scores if k != "faithful" and (kind == "overall" or k == kind)]
        if neg:
            lo, hi = bootstrap_ci(pos, neg, samples)
            out[kind] = (auc(pos, neg), lo, hi, len(neg))
    return out


def verdict(claim: str, section: str) -> str:
    a = CueJudge().answer(claim, section)
    return verdict_for(a.answer, a.confidence, 0.8)


def cue_score(claim: str, section: str) -> float:
    a = CueJudge().answer(claim, section)
    return a.score if a.score is not None else 0.0


def overlap_baseline(claim: str, section: str) -> float:
    """Baseline in the same run: share of the claim's words found in the section (no cues)."""
    words = re.findall(r"\w+", claim.casefold())
    have = set(re.findall(r"\w+", section.casefold()))
    return sum(w in have for w in words) / max(1, len(words))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="reduced run (110 paragraphs, 200 bootstrap samples)")
    args = ap.parse_args(argv)
    pairs = build_pairs(quick=args.quick)
    samples = 200 if args.quick else 1000
    counts = {k: sum(p.kind == k for p in pairs) for k in ("faithful", *CORRUPTIONS)}
    langs = {lang: sum(p.lang == lang for p in pairs) for lang in ("pt", "es")}
    print(f"pairs: {len(pairs)} ({', '.join(f'{k} {v}' for k, v in langs.items())}); {counts}")
    t0 = time.perf_counter()
    cue = evaluate(pairs, cue_score, samples)
    elapsed = time.perf_counter() - t0
    base = evaluate(pairs, overlap_baseline, samples)
    print(f"{'corruption':<15}{'n':>6}  {'cues AUC [95% CI]':<26}{'word-overlap baseline':<24}floor")
    failed = False
    for kind, (a, lo, hi, n) in cue.items():
        floor = FLOORS.get(kind)
        ok = floor is None or (a > floor if kind == "overall" else a >= floor)
        failed |= not ok
        mark = "" if floor is None else f"{'>' if kind == 'overall' else '>='} {floor}  {'ok' if ok else 'FAIL'}"
        print(f"{kind:<15}{n:>6}  {a:.3f} [{lo:.3f}, {hi:.3f}]      {base[kind][0]:.3f}{'':<19}{mark}")
    print(f"cue judge: {len(pairs) / elapsed:.0f} pairs/s (with bootstrap)")
    print("verdicts at the default threshold 0.8 (supported / contradicted / no_support / needs_review):")
    for kind in ("faithful", *CORRUPTIONS):
        got = [verdict(p.claim, p.section) for p in pairs if p.kind == kind]
        row = " / ".join(f"{got.count(v) / max(1, len(got)):.0%}" for v in VERDICTS)
        print(f"  {kind:<15}{row}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())

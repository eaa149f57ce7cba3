"""Fit the cue judge's combination (issue 25) and estimate it honestly, by leave-one-document-out.

The dataset: every hand-written claim of the six seen sets (tests/cases/judge-claims/), through
the real pipeline (the quote located in its cited section, the section around it read by the cue
judge), as the feature vector of :mod:`ipsis.judge.features`; label 1 for a faithful paraphrase,
0 for a meaning change; grouped by DOCUMENT (a document cited by several sets is one group).
Optionally the negative controls of benchmarks/judge_eval.py as training rows (``--controls``).

The model: L2-regularised logistic regression on standardised features (Newton's method, exact,
deterministic). Reported before anything is adopted:

- leave-one-document-out: fit on every other document, score the held-out document's claims,
  pool the scores; AUC with a bootstrap interval, against the hand rules' score on the very same
  claims; per set too (each set's claims scored by folds that never saw their document);
- leave-one-set-out: fit without heldout4 and score heldout4; the same for heldout3;
- the trade-off, out of fold: meaning changes and faithful paraphrases called ``supported``
  (no hard cue, coverage above the floor, probability at or above t) for a few thresholds t;
- the controls' AUC per family, hand rules against the fitted combination (the shipped judge
  scores them with the rules: they have no located quote, and the combination is fitted on, and
  applied to, claims anchored by one; the figures show it would keep them too).

``--write`` stores the model fitted on all rows in ipsis/judge/weights.json, its bias shifted so
that the chosen threshold reads as the policy's 0.8.

    python benchmarks/fit_judge.py             # report (2,000 bootstrap samples)
    python benchmarks/fit_judge.py --quick     # two small sets, 200 samples (CI)
    python benchmarks/fit_judge.py --grid      # the L2 strength chosen by leave-one-document-out
    python benchmarks/fit_judge.py --write     # report, then write the weights file
    python benchmarks/fit_judge.py --alignment --sets all   # the predicate alignment's features on trial
    python benchmarks/fit_judge.py --roots simplemma --sets all   # a roots_found feature on trial (or --roots hand)

``--alignment`` appends the features of :mod:`ipsis.judge.predicates` (roles swapped around a shared
word, a predicate's polarity reversed, another actor, a clean claim) to every row and reports both
combinations on the very same leave-one-document-out folds; it never writes (on all seven sets, the
eighth stop: 0.830 with them against 0.831 without, so they are not part of the shipped judge).

The defaults are what the shipped file was fitted with: the controls at 0.3 of the claims' weight
(without them the monotone combination scores the same out of fold, heldout4 0.737, but puts the
RFC 7519 experiment's "mandatory algorithms" claim below the threshold; the unconstrained
combination lost 0.10 on ``entity_swap`` without them); L2 3 (on the unconstrained combination the
leave-one-document-out AUC was flat, 0.888-0.890, from 0.3 to 30); threshold 0.85 out of fold: the
lowest of the table at which, fitted without the set, heldout3 and heldout4 both get fewer meaning
changes ``supported`` than the hand rules (8 and 17 against 12 and 21), and the highest at which
the RFC 7519 experiment's faithful claims stay ``supported``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402 - the dev/speed extra; the run-time judge needs only the standard library

from benchmarks.judge_claims import load  # noqa: E402
from benchmarks.judge_eval import auc, bootstrap_ci, build_pairs  # noqa: E402
from ipsis.ingest import load_document  # noqa: E402
from ipsis.judge import roots  # noqa: E402
from ipsis.judge.context import DEFAULT_WINDOW, passage_around  # noqa: E402
from ipsis.judge.cues import MIN_COVERAGE, CueJudge, Reading  # noqa: E402
from ipsis.judge.features import FEATURES, SIGNS, vector  # noqa: E402
from ipsis.judge.fitted import WEIGHTS, Model  # noqa: E402
from ipsis.judge.predicates import ALIGNMENT_FEATURES, ALIGNMENT_SIGNS, alignment_vector  # noqa: E402
from ipsis.judge.roots import ROOTERS, roots_found  # noqa: E402
from ipsis.verify import Policy, verify_records  # noqa: E402
from tests.shared import resolve  # noqa: E402 - the real documents, never copied

SETS = ("dev", "heldout", "heldout2", "fresh5", "heldout3", "heldout4")
"""The sets fitted on by default. ``--sets all`` adds heldout5 and heldout6, each written to measure
a frozen judge once and read for error analysis since (heldout5 since the eighth stop, heldout6
since the ninth); the shipped file is still the one fitted on the six (a refit on all eight put
the RFC 7519 experiment's "mandatory algorithms" claim at 0.75). A set written after them
(heldout7) is never listed here: it measures the frozen judge."""
ALL_SETS = (*SETS, "heldout5", "heldout6")
ACCEPT = 0.8
"""The policy's default auto-accept threshold, which the chosen threshold is shifted onto."""
L2 = (0.3, 1.0, 3.0, 10.0, 30.0)
CONTROL_FOLDS = 10
"""Folds of the controls (articles dealt in turn), each scored by a model that never saw its articles."""
THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95)


def rows_of(set_name: str, judge: CueJudge) -> list[dict[str, Any]]:
    """Each located claim of a set: its features, label, group, hand score and hand verdict."""
    data = load(set_name)
    docs = {sid: load_document(resolve(src["path"]), sid) for sid, src in data["sources"].items()}
    records = [
        {"citation_id": str(i), "source_id": c["source"], "quote": c["quote"], "section": c["section"]}
        for i, c in enumerate(data["cases"])
    ]
    out = []
    for case, res in zip(data["cases"], verify_records(records, docs.get, Policy(judge="cues")), strict=True):
        if res.status != "located":
            continue
        m = res.matches[0]
        passage = passage_around(docs[case["source"]], m.start, m.end, DEFAULT_WINDOW)
        r = judge.read(case["claim"], passage.text, passage.focus)
        out.append(row(r, case["gold"] == "supported", set_name, data["sources"][case["source"]]["path"]))
    return out


def row(r: Reading, faithful: bool, group_set: str, group: str) -> dict[str, Any]:
    return {"x": vector(r), "a": alignment_vector(r), "roots": [roots_found(r.claim, r.near)],
            "y": int(faithful), "set": group_set, "doc": group,
            "rules": r.rule_score,
            "open": not r.hard and r.coverage >= MIN_COVERAGE,
            "rules_supported": not r.hard and r.coverage >= MIN_COVERAGE and round(r.rule_score, 3) >= ACCEPT}


def control_rows(quick: bool, judge: CueJudge) -> list[dict[str, Any]]:
    """The judge_eval pairs, grouped in :data:`CONTROL_FOLDS` folds of whole articles."""
    out = []
    articles: dict[tuple[str, str], int] = {}
    for p in build_pairs(quick=quick):
        r = judge.read(p.claim, p.section)
        fold = articles.setdefault((p.lang, p.article), len(articles)) % CONTROL_FOLDS
        out.append({**row(r, p.kind == "faithful", "controls", f"control fold {fold}"), "kind": p.kind})
    return out


Params = tuple[np.ndarray, np.ndarray, np.ndarray, float]


def fit_rows(rows: list[dict[str, Any]], lam: float, signs: tuple[int, ...] = SIGNS) -> Params:
    x = np.array([r["x"] for r in rows])
    y = np.array([r["y"] for r in rows], float)
    return fit(x, y, lam, np.array([r.get("weight", 1.0) for r in rows]), signs)


def fit(x: np.ndarray, y: np.ndarray, lam: float, sw: np.ndarray, signs_: tuple[int, ...] = SIGNS) -> Params:
    """(mean, scale, weights, bias) of an L2 logistic regression on standardised ``x``, each row
    counted ``sw`` times, each weight of the sign :data:`ipsis.judge.features.SIGNS` gives (active
    set: a weight that would take the wrong sign is held at 0 while Newton's method fits the others,
    and freed again when the gradient pulls it the right way)."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    signs = np.array([0, *signs_], float)
    free = np.ones(z.shape[1], bool)
    w = np.zeros(z.shape[1])
    for _ in range(4 * z.shape[1]):
        w = _newton(z, y, lam, sw, free)
        wrong = free & (signs * w < -1e-12)
        if wrong.any():
            free[int(np.argmin(np.where(wrong, signs * w, 0.0)))] = False
            continue
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -50, 50)))
        pull = -(z.T @ (sw * (p - y)))  # the direction the loss wants each weight to move
        back = ~free & (signs * pull > 1e-9)
        if not back.any():
            break
        free[int(np.argmax(np.where(back, signs * pull, 0.0)))] = True
    return mean, scale, w[1:], float(w[0])


def _newton(z: np.ndarray, y: np.ndarray, lam: float, sw: np.ndarray, free: np.ndarray) -> np.ndarray:
    """L2 logistic regression on the ``free`` columns of ``z`` (the others held at 0); column 0 is
    the bias, never shrunk."""
    zf = z[:, free]
    w = np.zeros(zf.shape[1])
    reg = np.full(zf.shape[1], lam)
    reg[0] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(zf @ w, -50, 50)))
        grad = zf.T @ (sw * (p - y)) + reg * w
        hess = (zf.T * (sw * p * (1 - p))) @ zf + np.diag(reg + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    out = np.zeros(z.shape[1])
    out[free] = w
    return out


def predict(params: Params, x: np.ndarray) -> np.ndarray:
    mean, scale, w, b = params
    return 1.0 / (1.0 + np.exp(-np.clip(b + ((x - mean) / scale) @ w, -50, 50)))


def out_of_fold(rows: list[dict[str, Any]], train: list[dict[str, Any]], key: str, lam: float,
                signs: tuple[int, ...] = SIGNS) -> np.ndarray:
    """Each row of ``rows`` scored by a model fitted on ``train`` minus the rows sharing its ``key``."""
    scores = np.zeros(len(rows))
    for g in sorted({r[key] for r in rows}):
        params = fit_rows([r for r in train if r[key] != g], lam, signs)
        idx = [k for k, r in enumerate(rows) if r[key] == g]
        scores[idx] = predict(params, np.array([rows[k]["x"] for k in idx]))
    return scores


def compare(label: str, rows: list[dict[str, Any]], fitted: Any, samples: int) -> tuple[float, float]:
    pos = [float(s) for s, r in zip(fitted, rows, strict=True) if r["y"]]
    neg = [float(s) for s, r in zip(fitted, rows, strict=True) if not r["y"]]
    hpos = [r["rules"] for r in rows if r["y"]]
    hneg = [r["rules"] for r in rows if not r["y"]]
    a, (lo, hi) = auc(pos, neg), bootstrap_ci(pos, neg, samples)
    h, (hlo, hhi) = auc(hpos, hneg), bootstrap_ci(hpos, hneg, samples)
    print(f"  {label:34} n={len(rows):4}  fitted {a:.3f} [{lo:.3f}, {hi:.3f}]   rules {h:.3f} [{hlo:.3f}, {hhi:.3f}]")
    return a, h


def trade_off(rows: list[dict[str, Any]], scores: Any, thresholds: tuple[float, ...]) -> None:
    neg = sum(not r["y"] for r in rows)
    pos = len(rows) - neg
    hw = sum(r["rules_supported"] and not r["y"] for r in rows)
    hf = sum(r["rules_supported"] and r["y"] for r in rows)
    print(f"    hand rules at 0.8: meaning changes supported {hw} of {neg}; faithful supported {hf} of {pos}")
    for t in thresholds:
        wrong = sum(r["open"] and s >= t and not r["y"] for s, r in zip(scores, rows, strict=True))
        right = sum(r["open"] and s >= t and r["y"] for s, r in zip(scores, rows, strict=True))
        print(f"    t={t:.2f}: meaning changes supported {wrong} of {neg}; faithful supported {right} of {pos}")


def trial(rows: list[dict[str, Any]], train: list[dict[str, Any]], lam: float, samples: int,
          key: str = "a", names: tuple[str, ...] = ALIGNMENT_FEATURES, signs: tuple[int, ...] = ALIGNMENT_SIGNS) -> int:
    """The shipped features against them plus a trial's (``key`` of each row: the alignment's, or
    ``roots``), on the same leave-one-document-out folds: pooled, per set, the trade-off, and how
    often each trial feature fires."""
    base = out_of_fold(rows, train, "doc", lam)
    wide = [{**r, "x": [*r["x"], *r[key]]} for r in train]
    more = out_of_fold(wide[: len(rows)], wide, "doc", lam, (*SIGNS, *signs))
    print(f"leave-one-document-out, shipped features (left) against them plus {', '.join(names)} (right):")
    for name in ("pooled", *sorted({r["set"] for r in rows})):
        idx = [k for k, r in enumerate(rows) if name == "pooled" or r["set"] == name]
        pos = [k for k in idx if rows[k]["y"]]
        neg = [k for k in idx if not rows[k]["y"]]
        a0, (lo0, hi0) = auc(list(base[pos]), list(base[neg])), bootstrap_ci(list(base[pos]), list(base[neg]), samples)
        a1, (lo1, hi1) = auc(list(more[pos]), list(more[neg])), bootstrap_ci(list(more[pos]), list(more[neg]), samples)
        print(f"  {name:10} n={len(idx):4}  {a0:.3f} [{lo0:.3f}, {hi0:.3f}]   {a1:.3f} [{lo1:.3f}, {hi1:.3f}]")
    for label, s in (("shipped", base), ("+trial", more)):
        print(f"trade-off out of fold, {label}:")
        trade_off(rows, s, (0.85,))
    print("trial features, mean on faithful / on meaning changes, and AUC alone:")
    for i, name in enumerate(names):
        f = [r[key][i] for r in rows if r["y"]]
        c = [r[key][i] for r in rows if not r["y"]]
        print(f"  {name:16} {sum(f) / max(1, len(f)):.3f} / {sum(c) / max(1, len(c)):.3f}   AUC {auc(f, c):.3f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 bootstrap samples, one L2 value, two sets (CI)")
    parser.add_argument("--controls", type=float, default=0.3, metavar="W",
                        help="train on the judge_eval controls too, their total weight W times the claims' (0: not)")
    parser.add_argument("--l2", type=float, default=3.0, help="the L2 strength")
    parser.add_argument("--grid", action="store_true", help=f"choose the L2 strength among {L2} out of fold")
    parser.add_argument("--threshold", type=float, default=0.85, help="the out-of-fold threshold to adopt")
    parser.add_argument("--dataset", type=Path, help="read the dataset from this file, or write it there first")
    parser.add_argument("--write", action="store_true", help=f"write {WEIGHTS.relative_to(ROOT)}")
    parser.add_argument("--sets", choices=("seen", "all"), default="seen",
                        help="the six sets fitted on (default) or all seven, heldout5 too (report only)")
    parser.add_argument("--roots", choices=ROOTERS,
                        help="compare with the roots_found feature added (hand roots or simplemma's lemmas), on the"
                             " same folds (report only)")
    parser.add_argument("--alignment", action="store_true",
                        help="compare with the predicate alignment's features added, on the same folds (report only)")
    args = parser.parse_args(argv)
    if args.write and args.quick:
        parser.error("--write needs every set: drop --quick")
    if args.write and (args.alignment or args.roots):
        parser.error("--write fits the shipped features: drop --alignment and --roots")
    roots.ROOTER = args.roots or "hand"
    samples = 200 if args.quick else 2000
    judge = CueJudge(model=None)
    t0 = time.perf_counter()
    sets = ("fresh5", "heldout") if args.quick else (ALL_SETS if args.sets == "all" else SETS)
    if args.dataset and args.dataset.exists():
        rows, controls = json.loads(args.dataset.read_text(encoding="utf-8"))
        rows = [r for r in rows if r["set"] in sets]  # a dataset of more sets serves a run on fewer
    else:
        rows = [r for name in sets for r in rows_of(name, judge)]
        controls = control_rows(args.quick, judge)
        if args.dataset:
            args.dataset.write_text(json.dumps([rows, controls]), encoding="utf-8")
    print(f"dataset: {len(rows)} claims ({sum(r['y'] for r in rows)} faithful) of {len(sets)} sets, "
          f"{len({r['doc'] for r in rows})} documents; {len(controls)} control pairs "
          f"({time.perf_counter() - t0:.1f} s); {len(FEATURES)} features")
    for r in controls:
        r["weight"] = args.controls * len(rows) / max(1, len(controls))
    train = rows + (controls if args.controls else [])
    if args.alignment:
        return trial(rows, train, args.l2, samples)
    if args.roots:
        return trial(rows, train, args.l2, samples, "roots", ("roots_found",), (1,))
    grid = L2 if args.grid and not args.quick else (args.l2,)
    best = None
    for lam in grid:
        s = out_of_fold(rows, train, "doc", lam)
        a = auc([float(v) for v, r in zip(s, rows, strict=True) if r["y"]],
                [float(v) for v, r in zip(s, rows, strict=True) if not r["y"]])
        print(f"  L2 {lam:5}: leave-one-document-out AUC {a:.3f}")
        if best is None or a > best[0]:
            best = (a, lam, s)
    assert best is not None
    _, lam, oof = best
    print(f"leave-one-document-out (L2 {lam}), pooled and per set, fitted against hand rules on the same claims:")
    fitted_auc, rules_auc = compare("pooled", rows, oof, samples)
    for name in sets:
        idx = [k for k, r in enumerate(rows) if r["set"] == name]
        compare(name, [rows[k] for k in idx], oof[idx], samples)
    print("trade-off out of fold (pooled):")
    trade_off(rows, oof, THRESHOLDS)
    for name in ("heldout3", "heldout4") if not args.quick else ():
        held = [r for r in rows if r["set"] == name]
        rest = [r for r in train if r["set"] != name]
        params = fit_rows(rest, lam)
        s = predict(params, np.array([r["x"] for r in held]))
        print(f"leave-one-set-out: fitted without {name}, scored on it:")
        compare(name, held, s, samples)
        trade_off(held, s, THRESHOLDS)
    full = fit_rows(train, lam)
    if args.controls:  # each control article scored by a model that never saw its pairs
        cs = out_of_fold(controls, train, "doc", lam)
        print("controls (judge_eval pairs), leave-one-article-out, fitted on all claims and the other controls:")
    else:
        cs = predict(full, np.array([r["x"] for r in controls]))
        print("controls (judge_eval pairs), fitted on all claims:")
    for kind in ("overall", *sorted({r["kind"] for r in controls} - {"faithful"})):
        sub = [k for k, r in enumerate(controls) if r["kind"] == "faithful" or kind == "overall" or r["kind"] == kind]
        f = auc([float(cs[k]) for k in sub if controls[k]["y"]], [float(cs[k]) for k in sub if not controls[k]["y"]])
        h = auc([controls[k]["rules"] for k in sub if controls[k]["y"]],
                [controls[k]["rules"] for k in sub if not controls[k]["y"]])
        print(f"  {kind:14} fitted {f:.3f}  rules {h:.3f}  ({f - h:+.3f})")
    mean, scale, w, b = full
    top = sorted(zip(w, FEATURES, strict=True), key=lambda t: -abs(t[0]))[:8]
    print("largest weights (standardised):", ", ".join(f"{n} {v:+.2f}" for v, n in top))
    if args.write:
        if fitted_auc <= rules_auc:
            print("not written: the fitted combination does not beat the hand rules out of fold")
            return 1
        shift = math.log(ACCEPT / (1 - ACCEPT)) - math.log(args.threshold / (1 - args.threshold))
        about = {"fitted_by": "benchmarks/fit_judge.py", "l2": lam, "rows": len(train), "sets": list(sets),
                 "controls_weight": args.controls, "threshold": args.threshold,
                 "note": f"bias shifted by {shift:+.4f} so that the out-of-fold threshold reads as {ACCEPT}",
                 "leave_one_document_out_auc": round(fitted_auc, 4), "rules_auc_same_folds": round(rules_auc, 4)}
        model = Model(FEATURES, tuple(round(float(v), 6) for v in mean), tuple(round(float(v), 6) for v in scale),
                      tuple(round(float(v), 6) for v in w), round(b + shift, 6), about)
        WEIGHTS.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {WEIGHTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

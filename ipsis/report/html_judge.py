"""The judge in the report: its verdict, confidence, which judge decided, each cue's evidence, and
the passage it read, highlighted in the source.

A verdict comes as ``support`` (or ``judge``) on a result record — ``{verdict, confidence,
evidence: [str], judge, passage: {start, end, text?, retrieved?}}`` — or as one of the check
report's ``claims`` (``{citation_id, claim, claim_span, source, quote, support}``), which also
covers citations without a quote.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ipsis.document import Document
from ipsis.report.html_text import esc
from ipsis.report.html_words import chip
from ipsis.report.labels import label
from ipsis.report.messages import evidence_parts, judge_name, verdict_text

PASSAGE_RADIUS = 80
"""Characters of source text shown each side of the judged passage."""


def support_of(r: Mapping[str, Any]) -> Mapping[str, Any] | None:
    j = r.get("support") or r.get("judge")
    if isinstance(j, Mapping):
        return j
    if isinstance(j, str) and j in ("supported", "contradicted", "no_support", "needs_review"):
        return {"verdict": j}
    return None


def verdict_chip(verdict: str, lang: str) -> str:
    text, tip = verdict_text(verdict, lang)
    return chip(text, tip, f"badge verdict v-{esc(verdict)}", verdict, attr="verdict")


def evidence_html(evidence: Any, lang: str) -> str:
    lines = evidence if isinstance(evidence, list) else [evidence] if evidence else []
    items = []
    for e in lines:
        line = str(e.get("text") or e.get("message") or "") if isinstance(e, Mapping) else str(e)
        cue, tip, sides = evidence_parts(line, lang)
        head = chip(cue, tip, "cue", line.partition(":")[0]) if cue else ""
        body = " · ".join(f"{esc(s)}: <q>{esc(w)}</q>" if s else esc(w) for s, w in sides)
        items.append(f"<li>{head} {body}</li>")
    if not items:
        return ""
    return f'<div class="small">{label(lang, "evidence")}:</div><ul class="evidence">{"".join(items)}</ul>'


def passage_html(doc: Document | None, passage: Any, lang: str) -> str:
    """The judged passage highlighted in its source text (or its own text when no document)."""
    if not isinstance(passage, Mapping):
        return ""
    from ipsis.report.html_cards import context_html  # the one context renderer

    s, e = passage.get("start"), passage.get("end")
    m: dict[str, Any] = {"start": s, "end": e, "text": passage.get("text") or ""}
    if doc is None and not m["text"]:
        return ""
    ctx = context_html(doc, m, lang, radius=PASSAGE_RADIUS, cls="judged")
    how = label(lang, "retrieved_passage" if passage.get("retrieved") else "judged_passage")
    return f'<div class="passage"><div class="small">{how}:</div>{ctx}</div>'


def judge_html(r: Mapping[str, Any], lang: str, doc: Document | None = None) -> str:
    j = support_of(r)
    if j is None:
        return ""
    verdict = str(j.get("verdict") or j.get("label") or "")
    conf = j.get("confidence")
    conf_txt = (
        f' <span class="small conf">{label(lang, "confidence")} {conf:.2f}</span>'
        if isinstance(conf, (int, float))
        else ""
    )
    who = j.get("judge")
    who_txt = f' <span class="small judged-by">{label(lang, "judged_by")}: {esc(judge_name(str(who), lang))}</span>'
    claim = r.get("claim")
    claim_html = f'<p class="claim-text"><b>{label(lang, "claim")}:</b> {esc(claim)}</p>' if claim else ""
    return (
        f'<div class="judge" data-verdict="{esc(verdict)}"><h4>{label(lang, "judge")} {verdict_chip(verdict, lang)}'
        f"{conf_txt}{who_txt if who else ''}</h4>{claim_html}"
        f"{evidence_html(j.get('evidence'), lang)}{passage_html(doc, j.get('passage'), lang)}</div>"
    )


def claim_card(index: int, c: Mapping[str, Any], sid: str | None, doc: Document | None, lang: str) -> str:
    """The card of a judged claim whose citation has no quote (``[2]`` alone)."""
    j = support_of(c) or {}
    verdict = str(j.get("verdict") or "")
    head = (
        f'<h3>{verdict_chip(verdict, lang)}<span class="cid mono">{esc(c.get("citation_id") or "—")}</span>'
        f'<span class="src">{esc(sid or "—")}</span></h3>'
    )
    return (
        f'<article class="cit claim-card v-border-{esc(verdict)}" id="claim-{index}" tabindex="-1" '
        f'data-status="retrieved" data-verdict="{esc(verdict)}" data-source="{esc(sid or "")}" '
        f'data-cid="{esc(c.get("citation_id") or "")}">{head}'
        f'<p class="msg">{label(lang, "bare_citation")}</p>{judge_html(c, lang, doc)}</article>'
    )

"""One HTML card per citation result, rendered from the JSON record (a dict).

Every optional field may be absent: ``section`` (``{"id","label","path","start"?,"end"?}``),
``nearest`` (``{start,end,text,similarity,diff,reasons}``), ``found_elsewhere``, ``warnings``,
``prepared`` and a judge's verdict (``judge`` or ``support``: ``{verdict, confidence, evidence,
rationale}``). With the document at hand the quote is shown inside its section's text (or a
window of the document text when no section is known); without it, inside the selector's
prefix/suffix.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ipsis.document import Document
from ipsis.report.html_judge import judge_html
from ipsis.report.html_text import diff_ops, esc, highlight, render_diff, window, word_diff
from ipsis.report.html_words import carried_html, flags_html, message_html, warnings_html
from ipsis.report.labels import label
from ipsis.report.messages import tier_name

SECTION_MAX = 2500
"""Show a whole section when it is at most this long; otherwise a window inside it."""
RADIUS = 240
"""Characters of context each side of a match when no (short) section is known."""
CAND_RADIUS = 60
"""Context each side of an ambiguous candidate's one line."""
CAND_OPEN = 8
"""Candidates shown before the rest fold into a <details>."""
DIFF_WORDS = 4
"""Unchanged words shown each side of a change in the word diff."""


def _section_span(doc: Document, section: Any) -> tuple[int, int] | None:
    if not isinstance(section, Mapping):
        return None
    s, e = section.get("start"), section.get("end")
    if isinstance(s, int) and isinstance(e, int):
        return s, e
    tree = getattr(doc, "sections", None)
    getter = getattr(tree, "get", None)
    sec = getter(section.get("id")) if callable(getter) and section.get("id") else None
    if sec is not None and isinstance(getattr(sec, "start", None), int):
        return int(sec.start), int(sec.end)
    return None


def section_path(section: Any) -> str:
    """How a section is shown: its path (``Art. 7º › § 1º › II``), else its label or id."""
    if isinstance(section, Mapping):
        return str(section.get("path") or section.get("label") or section.get("id") or "")
    return "" if section is None else str(section)


def _marks(doc: Document) -> list[tuple[str, int, int]]:
    return [(m.kind, m.start, m.end) for m in doc.marks if m.kind in ("revoked", "note")]


def context_html(
    doc: Document | None, m: Mapping[str, Any], lang: str, *, radius: int = RADIUS, cls: str = "hit"
) -> str:
    """The match (or nearest passage) highlighted in its section's text or a window around it."""
    start, end = m.get("start"), m.get("end")
    if doc is None or not isinstance(start, int) or not isinstance(end, int) or not 0 <= start <= end <= len(doc.text):
        sel_any = m.get("selector")
        sel: Mapping[str, Any] = sel_any if isinstance(sel_any, Mapping) else {}
        pre, suf = str(sel.get("prefix") or ""), str(sel.get("suffix") or "")
        body = str(m.get("text") or "")
        inner = f'<mark class="{cls}" data-start="{esc(start)}" data-end="{esc(end)}">{esc(body)}</mark>'
        return f'<div class="ctx" data-from="selector">{esc(pre)}{inner}{esc(suf)}</div>'
    text = doc.text
    span = _section_span(doc, m.get("section"))
    if span and span[0] <= start and end <= span[1] and span[1] - span[0] <= SECTION_MAX:
        ws, we, origin = span[0], span[1], "section"
    else:
        lo, hi = span if span and span[0] <= start and end <= span[1] else (0, len(text))
        ws, we = window(text, start, end, radius, lo, hi)
        origin = "window"
    notes = {"revoked": label(lang, "revoked"), "note": label(lang, "note")}
    body = highlight(text, ws, we, start, end, _marks(doc), cls, notes)
    left = '<span class="ell" aria-hidden="true">… </span>' if ws > 0 and origin == "window" else ""
    right = '<span class="ell" aria-hidden="true"> …</span>' if we < len(text) and origin == "window" else ""
    return f'<div class="ctx" data-from="{origin}" data-ws="{ws}" data-we="{we}">{left}{body}{right}</div>'


def where_html(m: Mapping[str, Any], lang: str) -> str:
    parts = []
    path = section_path(m.get("section"))
    if path:
        parts.append(f'<span class="secpath">{esc(path)}</span>')
    if m.get("page"):
        parts.append(f"{label(lang, 'page')} {esc(m['page'])}")
    if m.get("line"):
        parts.append(f"{label(lang, 'line')} {esc(m['line'])}")
    if isinstance(m.get("start"), int):
        parts.append(f'<span class="mono">[{m["start"]}, {esc(m.get("end"))})</span>')
    return " · ".join(parts)


def _visible(s: str) -> str:
    """Selector context with its line breaks and tabs made visible (``↵``, ``→``)."""
    return s.replace("\r\n", "↵").replace("\n", "↵").replace("\r", "↵").replace("\t", "→").replace("\f", "␌")


def _selector_html(sel: Any, lang: str) -> str:
    if not isinstance(sel, Mapping):
        return ""
    pre, suf = str(sel.get("prefix") or ""), str(sel.get("suffix") or "")
    bits = []
    if pre:
        shown = esc(_visible(pre))
        bits.append(f'{label(lang, "prefix")} <code class="sel-prefix" title="{esc(pre)}">«{shown}»</code>')
    if suf:
        shown = esc(_visible(suf))
        bits.append(f'{label(lang, "suffix")} <code class="sel-suffix" title="{esc(suf)}">«{shown}»</code>')
    return " ".join(bits) or label(lang, "exact_only")


def candidate_line(doc: Document | None, m: Mapping[str, Any], lang: str) -> str:
    """One line: the candidate with ``CAND_RADIUS`` characters each side."""
    start, end = m.get("start"), m.get("end")
    if doc is None or not isinstance(start, int) or not isinstance(end, int) or not 0 <= start <= end <= len(doc.text):
        return context_html(doc, m, lang)
    text = doc.text
    ws, we = window(text, start, end, CAND_RADIUS)
    body = highlight(text, ws, we, start, end, _marks(doc), "hit")
    left = "… " if ws > 0 else ""
    right = " …" if we < len(text) else ""
    return f'<div class="line" data-ws="{ws}" data-we="{we}">{left}{body}{right}</div>'


def candidates_html(doc: Document | None, matches: list[Mapping[str, Any]], lang: str) -> str:
    """Each candidate as its line (where, the distinguishing context, its selector); the
    section around it on demand."""
    items = []
    for i, m in enumerate(matches, 1):
        sel = _selector_html(m.get("selector"), lang)
        more = ""
        if doc is not None:
            ctx = context_html(doc, m, lang, cls="hit-ctx")
            more = f'<details class="sec"><summary>{label(lang, "show_section")}</summary>{ctx}</details>'
        items.append(
            f'<li class="cand" value="{i}"><div class="where">{where_html(m, lang)} · '
            f'<span class="small">{label(lang, "selector")}: {sel}</span></div>'
            f"{candidate_line(doc, m, lang)}{more}</li>"
        )
    head = "".join(items[:CAND_OPEN])
    rest = items[CAND_OPEN:]
    out = f'<h4>{label(lang, "candidates")} ({len(matches)})</h4><ol class="cands">{head}</ol>'
    if rest:
        out += (
            f"<details><summary>{len(rest)} {label(lang, 'more')}</summary>"
            f'<ol class="cands" start="{CAND_OPEN + 1}">{"".join(rest)}</ol></details>'
        )
    return out


def nearest_html(doc: Document | None, r: Mapping[str, Any], lang: str) -> str:
    n = r.get("nearest")
    if not isinstance(n, Mapping):
        return ""
    sim = n.get("similarity")
    sim_txt = f" ({label(lang, 'similarity')} {sim:.0%})" if isinstance(sim, (int, float)) else ""
    ctx = context_html(doc, n, lang, cls="near")
    # the whole quote against the passage gives the unchanged words around each change; the
    # matcher's own diff lists only the changes
    whole = isinstance(r.get("quote"), str) and isinstance(n.get("text"), str)
    ops = word_diff(r["quote"], n["text"]) if whole else diff_ops(n.get("diff"))
    if ops is None and isinstance(n.get("diff"), str):
        diff = f'<pre class="diff">{esc(n["diff"])}</pre>'
    else:
        tips = (label(lang, "only_quote"), label(lang, "only_source"))
        body = render_diff(ops or [], DIFF_WORDS, tips)
        legend = (
            f'<span class="small legend"><del>{label(lang, "quote")}</del> → <ins>{label(lang, "source")}</ins></span>'
        )
        diff = f'<div class="diff"><span class="small">{label(lang, "diff")}:</span> {legend}<div>{body}</div></div>'
    return (
        f'<div class="nearest"><h4>{label(lang, "nearest")}{esc(sim_txt)}</h4>{ctx}{diff}'
        f"{flags_html(n.get('reasons'), lang)}</div>"
    )


def elsewhere_html(r: Mapping[str, Any], lang: str) -> str:
    places = r.get("found_elsewhere")
    if not isinstance(places, list) or not places:
        return ""
    items = []
    for p in places:
        if not isinstance(p, Mapping):
            items.append(f"<li>{esc(p)}</li>")
            continue
        src = p.get("source_id") or p.get("source") or p.get("id") or ""
        bits = [f"<b>{esc(src)}</b>"] if src else []
        path = section_path(p.get("section")) or p.get("label") or ""
        if path:
            bits.append(esc(path))
        if p.get("page"):
            bits.append(f"{label(lang, 'page')} {esc(p['page'])}")
        if isinstance(p.get("start"), int):
            bits.append(f'<span class="mono">[{p["start"]}, {esc(p.get("end"))})</span>')
        if p.get("message"):
            bits.append(f'<span class="small">{esc(p["message"])}</span>')
        items.append(f'<li class="elsewhere">{" · ".join(bits)}</li>')
    return f'<div class="found-elsewhere"><h4>{label(lang, "found_elsewhere")}</h4><ul>{"".join(items)}</ul></div>'


def _quote_text(q: Any) -> str:
    return q if isinstance(q, str) else json.dumps(q, ensure_ascii=False)


def card_html(index: int, r: Mapping[str, Any], documents: Mapping[str, Document], lang: str) -> str:
    """The ``<article>`` of one result record."""
    status = str(r.get("status") or "invalid_record")
    sid = r.get("source_id")
    doc = documents.get(sid) if isinstance(sid, str) else None
    matches = [m for m in r.get("matches") or [] if isinstance(m, Mapping)]
    where = where_html(matches[0], lang) if len(matches) == 1 else ""
    if not where and r.get("section"):
        where = f'<span class="secpath">{esc(section_path(r.get("section")))}</span>'
    head = (
        f'<h3><span class="badge st-{esc(status)}" data-badge="{esc(status)}">{esc(label(lang, status))}</span>'
        f'<span class="cid mono">{esc(r.get("citation_id") or "—")}</span>'
        f'<span class="src">{esc(sid or "—")}</span><span class="where">{where}</span></h3>'
    )
    parts = [head, f'<p class="msg">{message_html(r.get("message"), lang)}</p>']
    if r.get("quote") is not None:
        parts.append(f'<blockquote class="quote" lang="{lang}">{esc(_quote_text(r.get("quote")))}</blockquote>')
    small = []
    if r.get("tier"):
        steps = ", ".join(str(s) for s in r.get("steps") or [])
        tier = tier_name(str(r["tier"]), lang)
        small.append(f"{label(lang, 'steps')}: {esc(tier)}" + (f" (<code>{esc(steps)}</code>)" if steps else ""))
    if r.get("prepared"):
        small.append(f"{label(lang, 'prepared')}: <code>" + esc(", ".join(str(p) for p in r["prepared"])) + "</code>")
    if small:
        parts.append(f'<p class="small">{" · ".join(small)}</p>')
    if len(matches) > 1 or (status == "ambiguous" and matches):
        parts.append(candidates_html(doc, matches, lang))
    elif matches:
        parts.append(f"<h4>{label(lang, 'in_context')}</h4>{context_html(doc, matches[0], lang)}")
        if r.get("tier") == "ocr" or (doc is not None and doc.meta.get("ocr")) or matches[0].get("boxes"):
            from ipsis.report.scan import crop_html

            page = matches[0].get("page") or ""
            ocr = r.get("tier") == "ocr" or (doc is not None and bool(doc.meta.get("ocr")))
            parts.append(crop_html(doc, matches[0], label(lang, "scan" if ocr else "printed").format(page=page)))
    parts.append(nearest_html(doc, r, lang))
    parts.append(elsewhere_html(r, lang))
    parts.append(judge_html(r, lang, doc))
    parts.append(carried_html(r.get("carried"), lang))
    parts.append(warnings_html(r.get("warnings"), lang))
    return (
        f'<article class="cit s-{esc(status)}" id="cit-{index}" tabindex="-1" data-status="{esc(status)}" '
        f'data-source="{esc(sid or "")}" data-cid="{esc(r.get("citation_id") or "")}">{"".join(parts)}</article>'
    )

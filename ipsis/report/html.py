"""The HTML report: one self-contained file (inline CSS and JS, no network, works from file://).

Two entry points, both rendering from JSON-able records so that fields other stages add later
(sections, near misses, store hashes, judge verdicts) show up when present and are skipped when
absent:

- :func:`render_html` (``ipsis verify --format html``): ``results`` are :class:`Result` objects
  or their ``to_json()`` dicts; ``run`` is the run info (``ipsis_version``, ``policy``,
  ``policy_fingerprint``, optionally ``sources``: a list of ``{"id", "sha256", "retrieved_at",
  "origin"}`` or a dict id -> such a dict); ``documents`` maps source ids to :class:`Document`
  so each quote can be shown inside its section's text.
- :func:`render_check_html` (``ipsis check --format html``): ``check_json`` is
  ``CheckReport.to_json()`` — ``{"format", "truncated", "sources": [{"number", "id", "cited"}],
  "findings": [{"kind", "message", "answer_span", "source", "quote", "citation_id"?}],
  "citations": [result records]}``. For the answer text to be shown, pass ``answer_text`` or put
  it in ``check_json["answer"]`` (a string, or ``{"text": ...}``). A citation is coloured in the
  answer at its record's ``answer_span`` (``[start, end)`` into the answer) or, failing that, at
  the ``answer_span`` of a finding with the same ``citation_id``. ``uncited_sentence`` findings
  are underlined. ``documents`` maps source ids to documents, as for :func:`render_html`.

Labels are in English, Portuguese or Spanish, guessed from the answer (or the quotes) unless
``lang`` is given. Everything from documents and answers is HTML-escaped.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ipsis import __version__
from ipsis.document import Document
from ipsis.report.assets import CSS, JS, csp
from ipsis.report.html_cards import card_html
from ipsis.report.html_judge import claim_card, support_of, verdict_chip
from ipsis.report.html_text import esc
from ipsis.report.html_words import kind_chip, message_html
from ipsis.report.labels import detect_language, detect_language_of, label, status_label
from ipsis.report.messages import verdict_text
from ipsis.verify.result import STATUSES


def as_records(results: Iterable[Any]) -> list[dict[str, Any]]:
    """Result objects or dicts, as dicts."""
    return [r.to_json() if hasattr(r, "to_json") else dict(r) for r in results]


def _source_rows(
    run: Mapping[str, Any], documents: Mapping[str, Document], ids: Iterable[str]
) -> dict[str, dict[str, Any]]:
    rows: dict[str, dict[str, Any]] = {}
    listed = run.get("sources")
    if isinstance(listed, Mapping):
        listed = [{"id": k, **v} if isinstance(v, Mapping) else {"id": k, "sha256": v} for k, v in listed.items()]
    for s in listed if isinstance(listed, list) else []:
        if isinstance(s, Mapping):
            sid = str(s.get("id") or s.get("source_id") or "")
            if sid:
                rows.setdefault(sid, {}).update({k: v for k, v in s.items() if v is not None})
    for sid in ids:
        row = rows.setdefault(sid, {})
        doc = documents.get(sid)
        if doc is not None:
            for key in ("sha256", "retrieved_at", "origin", "path"):
                if doc.meta.get(key) is not None:
                    row.setdefault(key, doc.meta[key])
    return rows


def _sources_table(rows: Mapping[str, Mapping[str, Any]], lang: str, numbers: Mapping[str, Any] | None = None) -> str:
    if not rows:
        return ""
    body = []
    for sid, row in rows.items():
        when = row.get("retrieved_at") or row.get("retrieval_date") or row.get("retrieved") or ""
        origin = row.get("origin") or row.get("path") or ""
        num = f"{esc(numbers[sid])} " if numbers and sid in numbers else ""
        cited = row.get("cited")
        cited_txt = ""
        if cited is not None:
            cited_txt = f' <span class="small">({label(lang, "cited" if cited else "never_cited")})</span>'
        body.append(
            f'<tr data-source-row="{esc(sid)}"><td>{num}<b>{esc(sid)}</b>{cited_txt}</td>'
            f'<td class="hash mono">{esc(row.get("sha256") or "—")}</td><td>{esc(when or "—")}</td>'
            f'<td class="small">{esc(origin)}</td></tr>'
        )
    return (
        f'<details class="srcs"><summary>{label(lang, "sources")} ({len(rows)})</summary>'
        f'<table class="sources"><tr><th>{label(lang, "source")}</th><th>{label(lang, "sha256")}</th>'
        f"<th>{label(lang, 'retrieved')}</th><th></th></tr>{''.join(body)}</table></details>"
    )


def _counts(records: Sequence[Mapping[str, Any]], lang: str) -> tuple[str, str]:
    """The status counts line and the status/source filter controls."""
    counts = Counter(str(r.get("status")) for r in records)
    order = [s for s in STATUSES if counts.get(s)] + sorted(s for s in counts if s not in STATUSES)
    chips = "".join(
        f'<span class="count" data-count="{esc(s)}"><span class="badge st-{esc(s)}">'
        f"{esc(status_label(lang, s))}</span> {counts[s]}</span>"
        for s in order
    )
    line = f'<div class="counts"><b>{label(lang, "citations")}: {len(records)}</b>{chips}</div>'
    boxes = "".join(
        f'<label><input type="checkbox" data-filter-status value="{esc(s)}" checked> '
        f"{esc(status_label(lang, s))}</label>"
        for s in order
    )
    sources = sorted({str(r.get("source_id")) for r in records if r.get("source_id")})
    opts = "".join(f'<option value="{esc(s)}">{esc(s)}</option>' for s in sources)
    select = (
        f'<label>{label(lang, "filter_source")} <select id="f-source"><option value="">'
        f"{label(lang, 'all_sources')}</option>{opts}</select></label>"
    )
    filters = (
        f'<div class="filters js-only" role="group"><span>{label(lang, "filter_status")}:</span>{boxes}{select}'
        f'<span class="keys small">{label(lang, "keys")}</span></div>'
    )
    return line, filters


def _meta(run: Mapping[str, Any], lang: str) -> str:
    version = run.get("ipsis_version") or __version__
    bits = [f"ipsis {esc(version)}"]
    fp = run.get("policy_fingerprint")
    if fp:
        policy = json.dumps(run.get("policy") or {}, ensure_ascii=False, sort_keys=True)
        bits.append(f'{label(lang, "policy")} <code class="fingerprint" title="{esc(policy)}">{esc(fp)}</code>')
    for key in ("started_at", "store"):
        if run.get(key):
            bits.append(f"{label(lang, key)}: {esc(run[key])}")
    return f'<div class="meta">{" · ".join(bits)}</div>'


def page(lang: str, title: str, header: str, body: str) -> str:
    """The whole document around ``header`` (the summary bar) and ``body``."""
    return (
        f'<!DOCTYPE html>\n<html lang="{esc(lang)}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta http-equiv="Content-Security-Policy" content="{csp()}">'
        f'<meta name="generator" content="ipsis {esc(__version__)}">'
        f"<title>{esc(title)}</title><style>{CSS}</style></head>"
        f'<body><header class="bar" id="summary">{header}</header><main>{body}</main>'
        f"<script>{JS}</script></body></html>\n"
    )


def _lang_of(records: Sequence[Mapping[str, Any]], extra: str = "") -> str:
    quotes = [r.get("quote") for r in records if isinstance(r.get("quote"), str)]
    return detect_language_of([extra, *(q for q in quotes if isinstance(q, str))])


def render_html(
    results: Iterable[Any],
    *,
    run: Mapping[str, Any] | None = None,
    documents: Mapping[str, Document] | None = None,
    lang: str | None = None,
    title: str | None = None,
) -> str:
    """The verification report of ``results`` as one HTML page (see the module docstring)."""
    records = as_records(results)
    run = run or {}
    documents = documents or {}
    lang = lang or _lang_of(records)
    ids = [str(r["source_id"]) for r in records if r.get("source_id")]
    rows = _source_rows(run, documents, dict.fromkeys(ids))
    counts, filters = _counts(records, lang)
    title = title or label(lang, "title")
    header = f"<h1>{esc(title)}</h1>{counts}{_meta(run, lang)}{_sources_table(rows, lang)}{filters}"
    cards = "".join(card_html(i, r, documents, lang) for i, r in enumerate(records, 1))
    body = f'<section class="citations"><h2>{label(lang, "citations")}</h2>{cards or label(lang, "nothing")}</section>'
    return page(lang, title, header, body)


def _answer_text(check_json: Mapping[str, Any], answer_text: str | None) -> str | None:
    if answer_text is not None:
        return answer_text
    a = check_json.get("answer")
    if isinstance(a, Mapping):
        a = a.get("text")
    return a if isinstance(a, str) else None


def _span(value: Any, n: int) -> tuple[int, int] | None:
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(x, int) for x in value):
        s, e = int(value[0]), int(value[1])
        if 0 <= s <= e <= n:
            return s, e
    return None


def _plain(message: Any, lang: str) -> str:
    from ipsis.report.messages import translate

    return translate("" if message is None else str(message), lang)


def bare_claims(check_json: Mapping[str, Any], records: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The judged claims of citations without a quote (those with a quote are on their card)."""
    with_card = {str(r.get("citation_id")) for r in records if support_of(r) is not None}
    return [
        c
        for c in check_json.get("claims") or []
        if isinstance(c, Mapping) and str(c.get("citation_id")) not in with_card and support_of(c) is not None
    ]


def _verdict_line(claims: Sequence[Mapping[str, Any]], lang: str) -> str:
    if not claims:
        return ""
    counts = Counter(str((support_of(c) or {}).get("verdict")) for c in claims)
    chips = "".join(
        f'<span class="count" data-verdict-count="{esc(v)}">{verdict_chip(v, lang)} {k}</span>'
        for v, k in sorted(counts.items())
    )
    return f'<div class="counts verdicts"><b>{label(lang, "claims")}: {len(claims)}</b>{chips}</div>'


def answer_html(text: str, check_json: Mapping[str, Any], records: Sequence[Mapping[str, Any]], lang: str) -> str:
    """The answer with each citation coloured by its status and uncited sentences underlined."""
    n = len(text)
    findings = [f for f in check_json.get("findings") or [] if isinstance(f, Mapping)]
    by_cid = {str(f["citation_id"]): f.get("answer_span") for f in findings if f.get("citation_id") is not None}
    by_cid_finding = {str(f["citation_id"]): f for f in findings if f.get("citation_id") is not None}
    spans: list[tuple[int, int, str, str]] = []  # start, end, kind, attrs
    for i, r in enumerate(records, 1):
        sp = _span(r.get("answer_span"), n) or _span(by_cid.get(str(r.get("citation_id"))), n)
        if sp:
            st = str(r.get("status"))
            cls = "marker" if sp[1] - sp[0] <= 12 else "claim"
            tip, extra = status_label(lang, st), ""
            j = support_of(r)
            if j is not None and j.get("verdict"):  # a judged claim: the marker shows the verdict
                v = str(j["verdict"])
                cls += f" v-{esc(v)}"
                extra = f' data-verdict="{esc(v)}"'
                tip += " · " + verdict_text(v, lang)[0]
            spans.append((*sp, "a", f'class="{cls} st-{esc(st)}"{extra} href="#cit-{i}" title="{esc(tip)}"'))
    marked = {(s, e) for s, e, _, _ in spans}
    claims = {str(c.get("citation_id")): (k, c) for k, c in enumerate(bare_claims(check_json, records), 1)}
    for mk in check_json.get("markers") or []:  # citations without a quote: cited, judged with --judge
        sp = _span(mk.get("answer_span") if isinstance(mk, Mapping) else None, n)
        if sp and sp not in marked:
            f = by_cid_finding.get(str(mk.get("citation_id")))
            st = "unknown_source" if f and f.get("kind") == "unknown_source" else "cited"
            tip = _plain(f.get("message"), lang) if f else label(lang, "cited")
            judged = claims.get(str(mk.get("citation_id")))
            verdict = str((support_of(judged[1]) or {}).get("verdict") or "") if judged else ""
            if judged and verdict:
                tip = verdict_text(verdict, lang)[0]
                attrs = (
                    f'class="marker st-{st} v-{esc(verdict)}" data-verdict="{esc(verdict)}" href="#claim-{judged[0]}"'
                )
                spans.append((*sp, "a", f'{attrs} title="{esc(tip)}"'))
            else:
                spans.append((*sp, "b", f'class="marker st-{st}" title="{esc(tip)}"'))
            marked.add(sp)
    for f in findings:
        sp = _span(f.get("answer_span"), n)
        if sp and f.get("kind") == "uncited_sentence":
            spans.append((*sp, "u", f'class="uncited" title="{esc(label(lang, "uncited"))}"'))
        elif sp and sp not in marked and f.get("citation_id") is None:
            spans.append((*sp, "s", f'class="finding-span" title="{esc(_plain(f.get("message"), lang))}"'))
    cuts = sorted({0, n, *(s for s, _, _, _ in spans), *(e for _, e, _, _ in spans)})
    out = []
    for a, b in itertools.pairwise(cuts):
        piece = esc(text[a:b])
        for s, e, tag, attrs in sorted(spans, key=lambda x: x[2]):  # <u> inside <a>
            if s <= a and b <= e:
                piece = f"<{tag} {attrs}>{piece}</{tag}>"
        out.append(piece)
    return f'<section class="answer" lang="{lang}" aria-label="{label(lang, "answer")}">{"".join(out)}</section>'


def render_check_html(
    check_json: Mapping[str, Any],
    *,
    answer_text: str | None = None,
    documents: Mapping[str, Document] | None = None,
    run: Mapping[str, Any] | None = None,
    lang: str | None = None,
    title: str | None = None,
) -> str:
    """The report of ``ipsis check`` (``CheckReport.to_json()``) as one HTML page."""
    records = as_records(check_json.get("citations") or [])
    run = run or {}
    documents = documents or {}
    text = _answer_text(check_json, answer_text)
    lang = lang or (detect_language(text) if text else _lang_of(records))
    numbers: dict[str, Any] = {}
    for s in check_json.get("sources") or []:
        if isinstance(s, Mapping) and s.get("id") is not None:
            numbers[str(s["id"])] = s.get("number")
    ids = list(numbers) + [str(r["source_id"]) for r in records if r.get("source_id")]
    rows = _source_rows(run, documents, dict.fromkeys(ids))
    for s in check_json.get("sources") or []:
        if isinstance(s, Mapping) and s.get("id") is not None and "cited" in s:
            rows[str(s["id"])]["cited"] = bool(s["cited"])
    findings = [f for f in check_json.get("findings") or [] if isinstance(f, Mapping)]
    kinds = Counter(str(f.get("kind")) for f in findings)
    kind_line = "".join(
        f'<span class="count" data-kind="{esc(k)}">{kind_chip(k, lang)} {v}</span>' for k, v in sorted(kinds.items())
    )
    bare = bare_claims(check_json, records)
    numbered = {n: sid for sid, n in numbers.items()}
    # the claim cards count as citations too (status retrieved), so the bar and filters see them
    counted = [*records, *({"status": "retrieved", "source_id": numbered.get(c.get("source"))} for c in bare)]
    counts, filters = _counts(counted, lang)
    judged = [*(r for r in records if support_of(r) is not None), *bare]
    title = title or label(lang, "check_title")
    fmt = f' <span class="small">({esc(check_json.get("format"))})</span>' if check_json.get("format") else ""
    header = (
        f"<h1>{esc(title)}{fmt}</h1>{counts}"
        f'<div class="counts"><b>{label(lang, "findings")}: {len(findings)}</b>{kind_line}</div>'
        f"{_verdict_line(judged, lang)}{_meta(run, lang)}{_sources_table(rows, lang, numbers)}{filters}"
    )
    body = []
    if check_json.get("truncated"):
        body.append(f'<div class="banner" role="alert" id="truncated">{label(lang, "truncated")}</div>')
    if text is not None:
        body.append(f"<h2>{label(lang, 'answer')}</h2>{answer_html(text, check_json, records, lang)}")
    if findings:
        cid_index = {str(r.get("citation_id")): i for i, r in enumerate(records, 1)}
        items = []
        for f in findings:
            link = cid_index.get(str(f.get("citation_id")))
            sp = f.get("answer_span")
            ok = _span(sp, 1 << 62)
            where = f' <span class="mono small">[{ok[0]}, {ok[1]})</span>' if ok else ""
            said = message_html(f.get("message"), lang)
            msg = f'<a href="#cit-{link}">{said}</a>' if link else said
            chip = kind_chip(f.get("kind"), lang)
            items.append(f'<li class="finding" data-kind="{esc(f.get("kind"))}">{chip} {msg}{where}</li>')
        body.append(f'<h2>{label(lang, "findings")}</h2><ol class="findings">{"".join(items)}</ol>')
    cards = "".join(card_html(i, r, documents, lang) for i, r in enumerate(records, 1))
    for k, c in enumerate(bare, 1):
        sid = numbered.get(c.get("source"))
        cards += claim_card(k, c, sid, documents.get(sid) if sid else None, lang)
    body.append(f'<section class="citations"><h2>{label(lang, "citations")}</h2>{cards or label(lang, "nothing")}')
    body.append("</section>")
    return page(lang, title, header, "".join(body))


def check_report_html(report: Any, *, run: Mapping[str, Any] | None = None, lang: str | None = None) -> str:
    """:func:`render_check_html` for an :class:`ipsis.answers.check.CheckReport` object.

    Adds what ``to_json()`` leaves out: the answer text, where each citation sits in the answer
    (``answer_span`` from the checked citation) and the source documents.
    """
    payload = report.to_json()
    checked = [c for c in report.checked if c.result is not None]
    citations = payload.get("citations") or []
    for rec, c in zip(citations, checked, strict=False):
        if c.span is not None and "answer_span" not in rec:
            rec["answer_span"] = [c.span[0], c.span[1]]
    payload["markers"] = [
        {
            "citation_id": c.citation_id if hasattr(c, "citation_id") else c.citation.citation_id,
            "answer_span": [c.span[0], c.span[1]],
            "sources": list(c.numbers),
        }
        for c in report.checked
        if c.result is None and c.span is not None
    ]
    documents = {s.id: s.document for s in report.sources}
    return render_check_html(payload, answer_text=report.answer.text, documents=documents, run=run, lang=lang)

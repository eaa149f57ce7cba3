"""``ipsis diff --format html``: one self-contained page, the amended sections side by side.

No script and no network (a CSP that allows only the page's own style); every text from the
documents is escaped. Each amended section shows its older and newer wording in two columns,
deleted words struck (``<del>``) and inserted words underlined (``<ins>``), so the change reads
without colour; added, removed, revoked and moved sections are listed with their notes.
"""

from __future__ import annotations

import difflib
from html import escape

from ipsis.document import Document
from ipsis.history.diff import ADDED, AMENDED, MOVED, REMOVED, REVOKED, DocumentDiff, comparable_text
from ipsis.verify.reasons import tokens

STYLE = """body{font:15px/1.5 system-ui,sans-serif;margin:1.5rem;color:#111}
h1{font-size:1.3rem}table.counts td,table.counts th{padding:.1rem .6rem;text-align:right}
.sec{border-top:1px solid #ccc;padding:.6rem 0}.pair{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
.old,.new{white-space:pre-wrap;font-family:Georgia,serif}del{background:#fdd;text-decoration:line-through}
ins{background:#dfd;text-decoration:underline}.note{color:#555;font-size:.9em}.kind{font-weight:600}
@media (max-width:700px){.pair{grid-template-columns:1fr}}"""
CSP = "default-src 'none'; style-src 'unsafe-inline'"


def _marked(old: str, new: str) -> tuple[str, str]:
    """The two texts as HTML with the changed words wrapped in ``<del>`` / ``<ins>``."""
    a, b = [t.text for t in tokens(old)], [t.text for t in tokens(new)]
    left: list[str] = []
    right: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        x, y = escape(" ".join(a[i1:i2])), escape(" ".join(b[j1:j2]))
        if op == "equal":
            left.append(x)
            right.append(y)
            continue
        if x:
            left.append(f"<del>{x}</del>")
        if y:
            right.append(f"<ins>{y}</ins>")
    return " ".join(left), " ".join(right)


def render_diff_html(d: DocumentDiff, a: Document, b: Document) -> str:
    """The page for ``d`` (the diff of ``a`` -> ``b``)."""
    by_kind = d.to_json()["counts_by_kind"]
    changes = sorted({k for counts in by_kind.values() for k in counts})
    head = "".join(f"<th>{escape(k)}</th>" for k in changes)
    rows = "".join(
        f"<tr><th>{escape(kind)}</th>" + "".join(f"<td>{counts.get(k, 0)}</td>" for k in changes) + "</tr>"
        for kind, counts in sorted(by_kind.items())
    )
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        f"<title>ipsis diff {escape(d.a)} → {escape(d.b)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(d.a)} → {escape(d.b)}</h1>",
        f"<table class='counts'><tr><th></th>{head}</tr>{rows}</table>",
    ]
    for c in d.changes:
        if c.change not in (AMENDED, ADDED, REMOVED, REVOKED, MOVED):
            continue
        where = escape(c.label or c.id)
        parts.append(f"<section class='sec' id='{escape(c.id)}'><div><span class='kind'>{escape(c.change)}</span> ")
        parts.append(f"{where} <code>{escape(c.id)}</code></div>")
        for n in c.notes:
            parts.append(f"<div class='note'>{escape(n)}</div>")
        if c.change == AMENDED and c.a is not None and c.b is not None:
            old, new = _marked(comparable_text(a, *c.a), comparable_text(b, *c.b))
            parts.append(f"<div class='pair'><div class='old'>{old}</div><div class='new'>{new}</div></div>")
        elif c.b is not None:
            parts.append(f"<div class='new'>{escape(comparable_text(b, *c.b))}</div>")
        elif c.a is not None:
            parts.append(f"<div class='old'><del>{escape(comparable_text(a, *c.a))}</del></div>")
        parts.append("</section>")
    parts.append("</body></html>\n")
    return "".join(parts)

"""Quote preparation: take off what surrounds a quote, and say what was taken.

Wrapping quote marks, Markdown emphasis, blockquote markers, ``[sic]``, outer ellipses and
trailing citation markers are not part of the source's words. They are removed before any
tier, and listed in the result, never silently.

>>> prepare_quote('> **“Returns are accepted within 30 days.”** [2]')
('Returns are accepted within 30 days.', ['blockquote', 'citation_marker', 'markdown_emphasis', 'wrapping_quotes'])
>>> prepare_quote("...os dados pessoais [sic] …")
('os dados pessoais', ['outer_ellipsis', 'sic'])
"""

from __future__ import annotations

import regex

_PAIRS = {
    '"': '"',
    "“": "”",
    "”": "”",
    "„": "“",
    "«": "»",
    "»": "«",
    "'": "'",
    "‘": "’",
    "‹": "›",
    "「": "」",
    "『": "』",
}
_BLOCKQUOTE = regex.compile(r"(?m)^[ \t]*>[ \t]?")
_SIC = regex.compile(r"\s*[\[(]sic[\])]", regex.IGNORECASE)
_MARKER = regex.compile(
    r"(?:\s*(?:\[\^?\d+(?:\s*[,–-]\s*\d+)*\]|【\d+(?:[†:][^】]*)?】|\((?:source|fonte|fuente)s?\s+\d+\)|<sup>\d+</sup>))+\s*[.;,]?\s*$",
    regex.IGNORECASE,
)
_STRONG = regex.compile(r"(?<![^\s(\[\"“«])(\*\*|__|`+)(?=\S)(.+?)(?<=\S)\1(?=$|[\s.,;:!?)\]\"”»])", regex.DOTALL)
_EMPHASIS_WRAP = regex.compile(r"^([*_])(?=\S)(.*\S)\1$", regex.DOTALL)
_OUTER_ELLIPSIS = regex.compile(
    r"^(?:\.{3}|…|\[(?:\.{3}|…)\]|\((?:\.{3}|…)\))\s*|\s*(?:\.{3}|…|\[(?:\.{3}|…)\]|\((?:\.{3}|…)\))$"
)


def prepare_quote(quote: str) -> tuple[str, list[str]]:
    """Return the quote to search and the sorted names of what was taken off it."""
    removed: set[str] = set()
    q = quote.strip()
    while True:
        before = q
        if _BLOCKQUOTE.search(q):
            q = _BLOCKQUOTE.sub("", q).strip()
            removed.add("blockquote")
        m = _MARKER.search(q)
        if m and m.start() > 0:
            q = q[: m.start()].strip()
            removed.add("citation_marker")
        if _STRONG.search(q):
            q = _STRONG.sub(lambda m: m.group(2), q).strip()
            removed.add("markdown_emphasis")
        m2 = _EMPHASIS_WRAP.match(q)
        if m2:
            q = m2.group(2).strip()
            removed.add("markdown_emphasis")
        if len(q) >= 2 and _PAIRS.get(q[0]) == q[-1]:
            inner = q[1:-1]
            if q[0] not in inner and q[-1] not in inner:
                q = inner.strip()
                removed.add("wrapping_quotes")
        if _SIC.search(q):
            q = _SIC.sub("", q).strip()
            removed.add("sic")
        if _OUTER_ELLIPSIS.search(q):
            q = _OUTER_ELLIPSIS.sub("", q).strip()
            removed.add("outer_ellipsis")
        if q == before:
            return q, sorted(removed)

"""``describe``: the minimal selector that cites a range of a document."""

from __future__ import annotations

from typing import Any

from ipsis.document import Document
from ipsis.errors import InputError
from ipsis.spans import Span
from ipsis.verify.locate import _contexts, _selector_for
from ipsis.verify.match import document_view, find_all, quote_view
from ipsis.verify.policy import DEFAULT_POLICY, Policy


def describe(document: Document, start: int, end: int, policy: Policy = DEFAULT_POLICY) -> dict[str, Any]:
    """The minimal unique TextQuoteSelector for ``document.text[start:end]``.

    The result's ``start``/``end`` (and ``position``) are where the selector's ``exact`` is in
    the document text (the range given, less blanks at its ends; ``requested`` keeps the range
    given); ``occurrences`` counts the places where ``exact`` itself appears (at the policy's
    tier), and ``unique`` says whether ``prefix``/``suffix`` single this one out.

    >>> doc = Document("help-v1", "Contact support. Read the guide. Contact support.")
    >>> describe(doc, 33, 49)["selector"]
    {'type': 'TextQuoteSelector', 'exact': 'Contact support.', 'prefix': 'guide. ', 'suffix': ''}
    """
    text = document.text
    if not 0 <= start < end <= len(text):
        msg = f"range [{start}, {end}) is outside the document text (0..{len(text)})"
        msg += f"; give 0 <= START < END <= {len(text)}"
        raise InputError(msg)
    exact = text[start:end]
    view = document_view(document, policy.max_tier, policy.disabled_steps)
    q = quote_view(exact, policy.max_tier, policy.disabled_steps).text
    hits = [(h, h + len(q)) for h in find_all(view.text, q, boundaries=policy.boundaries)] if q.strip() else []
    spans = [(h, view.offsets.span_to_source(Span(*h))) for h in hits]
    # the place that is the range itself, else one overlapping it (overlapping places: "aaa" in "aaaaaaaaaa")
    own = [h for h, sp in spans if (sp.start, sp.end) == (start, end)]
    own = own or [h for h, sp in spans if sp.overlaps(Span(start, end))]
    if not own:  # the range cuts a word or is blank: describe it in the document text itself
        view = document_view(document, "exact")
        hits = [(h, h + len(exact)) for h in find_all(text, exact, boundaries=False)]
        own = [(start, end)]
    sel, unique = _selector_for(document, view, own[0], _contexts(view, hits, own[:1], policy.context_cap)[own[0]])
    # start/end are where ``exact`` is: the range without the blanks (or quote marks, page
    # furniture) at its ends that no quote carries, so that text[start:end] == exact
    at = view.offsets.span_to_source(Span(*own[0]))
    message = "unique" if unique else f"not unique within {policy.context_cap} characters of context (the text repeats)"
    if (at.start, at.end) != (start, end):
        message += f"; the range [{start}, {end}) was trimmed to [{at.start}, {at.end}), the text a quote would carry"
    return {
        "start": at.start,
        "end": at.end,
        "requested": {"start": start, "end": end},
        "selector": sel.to_json(),
        "position": {"type": "TextPositionSelector", "start": at.start, "end": at.end},
        "occurrences": len(hits),
        "unique": unique,
        "message": message,
    }

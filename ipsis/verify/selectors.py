"""W3C Web Annotation selectors, named field for field after the spec.

- TextQuoteSelector: https://www.w3.org/TR/annotation-model/#text-quote-selector
- TextPositionSelector: https://www.w3.org/TR/annotation-model/#text-position-selector

>>> TextQuoteSelector("Contact support.", prefix="guide. ").to_json()
{'type': 'TextQuoteSelector', 'exact': 'Contact support.', 'prefix': 'guide. ', 'suffix': ''}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class TextQuoteSelector:
    """The quoted text (``exact``) with the text right before (``prefix``) and after (``suffix``)."""

    exact: str
    prefix: str = ""
    suffix: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"type": "TextQuoteSelector", "exact": self.exact, "prefix": self.prefix, "suffix": self.suffix}


@dataclass(frozen=True, slots=True)
class TextPositionSelector:
    """A half-open ``[start, end)`` range of code points into the document text."""

    start: int
    end: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "TextPositionSelector", "start": self.start, "end": self.end}

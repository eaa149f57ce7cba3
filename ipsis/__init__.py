"""ipsis: check that what an AI assistant quotes is really in the source it cites."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from ipsis.document import Document, Hint, Mark
    from ipsis.errors import IpsisError
    from ipsis.spans import OffsetMap, Span

__all__ = ["Document", "Hint", "IpsisError", "Mark", "OffsetMap", "Span", "__version__"]

_EXPORTS = {
    "Document": "ipsis.document",
    "Hint": "ipsis.document",
    "Mark": "ipsis.document",
    "IpsisError": "ipsis.errors",
    "OffsetMap": "ipsis.spans",
    "Span": "ipsis.spans",
}


def __getattr__(name: str) -> Any:
    """The re-exports, imported on first use (``ipsis --help`` needs none of them)."""
    from ipsis.lazy import lazy_exports

    return lazy_exports(__name__, _EXPORTS)(name)

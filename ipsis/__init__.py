"""ipsis: check that what an AI assistant quotes is really in the source it cites."""

from __future__ import annotations

__version__ = "0.1.0"

from ipsis.document import Document, Hint, Mark
from ipsis.errors import IpsisError
from ipsis.spans import OffsetMap, Span

__all__ = ["Document", "Hint", "IpsisError", "Mark", "OffsetMap", "Span", "__version__"]

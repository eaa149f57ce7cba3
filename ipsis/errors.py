"""Every error ipsis raises, in one tree.

::

    IpsisError
    ├── InputError (ValueError)            bad input the caller must fix (CLI exit 2)
    │   ├── RecordError                    a malformed citation-record stream (line number)
    │   ├── UnsupportedFormatError         a file ipsis cannot read
    │   ├── ReferenceSyntaxError           a written reference that names no section
    │   └── SectionNotFoundError (LookupError)  a cited section the document lacks (``.closest``)
    ├── ExtractionError                    a reader could not get text out of a file
    │   ├── NoTextLayerError               PDF pages with no text layer (and OCR off or empty)
    │   ├── OcrUnavailableError            pages need OCR and Tesseract (or its language) is missing
    │   └── EncryptedDocumentError         needs a password
    ├── SourceNotFoundError (LookupError)  an id that is not in the store (or not readable)
    ├── StoreError                         the store is unusable or a write was refused
    │   └── VersionConflictError           different bytes under an existing id and version
    ├── QuoteNotFoundError (LookupError)
    ├── AmbiguousQuoteError (LookupError)  ``.candidates`` holds every span
    ├── MissingExtraError (ImportError)    an optional extra is not installed (CLI exit 2):
    │                                      ``ipsis[nli]``, ``[embed]``, ``[pdfplumber]``, ``[pypdf]``
    └── JudgeError                         a support judge gave no answer (CLI exit 2)
        ├── JudgeUnavailableError          the endpoint did not answer (after the retries)
        └── JudgeReplyError                the reply is not the structured answer asked for

Rule (from pypdf): raise when the caller must act, ``warnings.warn`` on a caller's coding
mistake, and log a repair that ipsis made.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class IpsisError(Exception):
    """Base class of every ipsis error."""


class InputError(IpsisError, ValueError):
    """Input the caller must fix: the message names the file, field or line and the fix."""


class RecordError(InputError):
    """A citation-record stream that cannot be parsed (message carries the line number)."""


class UnsupportedFormatError(InputError):
    """A file whose format ipsis cannot read."""


class ReferenceSyntaxError(InputError):
    """A reference that names no section ipsis can recognise ("art. xyz")."""


class SectionNotFoundError(InputError, LookupError):
    """The cited section is not in the document; ``.closest`` holds the nearest id (or None)."""

    def __init__(self, message: str, closest: str | None = None) -> None:
        super().__init__(message)
        self.closest = closest


class ExtractionError(IpsisError):
    """A reader could not extract text from a file."""


class NoTextLayerError(ExtractionError):
    """Pages without a text layer; ``.pages`` lists them (1-based)."""

    def __init__(self, message: str, pages: Sequence[int] = ()) -> None:
        super().__init__(message)
        self.pages = list(pages)


class OcrUnavailableError(ExtractionError):
    """Pages need OCR and the ``tesseract`` binary, or the language data asked for, is missing;
    the message names the Debian packages to install (``tesseract-ocr``, ``tesseract-ocr-por`` ...)."""


class EncryptedDocumentError(ExtractionError):
    """The document is encrypted and the password is missing or wrong."""


class SourceNotFoundError(IpsisError, LookupError):
    """A source id that does not exist (or that the user may not read)."""


class StoreError(IpsisError):
    """The store cannot be opened or a write was refused."""


class VersionConflictError(StoreError):
    """Different bytes offered under an id and version that already exist."""


class QuoteNotFoundError(IpsisError, LookupError):
    """The quote is not in the document."""


class AmbiguousQuoteError(IpsisError, LookupError):
    """The quote occurs several times; ``.candidates`` holds every span."""

    def __init__(self, message: str, candidates: Sequence[Any] = ()) -> None:
        super().__init__(message)
        self.candidates = list(candidates)


class JudgeError(IpsisError):
    """A judge could not give an answer (bad configuration, endpoint down, bad reply)."""


class JudgeUnavailableError(JudgeError):
    """The judge endpoint did not answer (after the retries)."""


class JudgeReplyError(JudgeError):
    """The judge answered something that is not the structured reply asked for."""


class MissingExtraError(IpsisError, ImportError):
    """An optional extra (``ipsis[nli]``, ``ipsis[embed]``, ``ipsis[pdfplumber]``, ``ipsis[pypdf]``)
    is not installed; the message names the ``pip install`` that adds it."""


def require_extra(module: str, extra: str, purpose: str) -> Any:
    """Import ``module``, or raise :class:`MissingExtraError` saying which extra installs it.

    >>> require_extra("json", "none", "reading JSON").__name__
    'json'
    """
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        msg = f"{purpose} needs {module.split('.')[0]}, which is not installed: pip install 'ipsis[{extra}]'"
        raise MissingExtraError(msg) from exc

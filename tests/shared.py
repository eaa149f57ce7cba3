"""Where the tests find the real documents: ``../shared`` beside the checkout, never a copy.

The corpora (``../shared/corpora``), the hand-made provider answers (``../shared/fixtures/answers``)
and the recorded real answers (``../shared/fixtures/answers-real``) are public documents gathered
for testing; they stay in ``../shared`` (or the folder named by ``IPSIS_SHARED``). Every test
module that reads them takes its paths from here. When the folder is absent, ``conftest.py`` skips
those tests with a loud reason; under ``CI`` the whole run fails instead, so a missing folder can
never pass as green.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("IPSIS_SHARED") or ROOT.parent / "shared").resolve()
CORPORA = SHARED / "corpora"
ANSWERS = SHARED / "fixtures" / "answers"
ANSWERS_REAL = SHARED / "fixtures" / "answers-real"

MISSING = (
    f"{SHARED} is missing: these tests read the real documents from ../shared beside the "
    "checkout (or IPSIS_SHARED); they are never copied into the project"
)


def available() -> bool:
    """True when the shared documents are there."""
    return CORPORA.is_dir()


def resolve(rel: str) -> Path:
    """A path written in a golden case: ``corpora/...`` and ``fixtures/...`` are in ../shared,
    anything else (``tests/fixtures/...``, ``examples/...``) is the project's own."""
    return SHARED / rel if rel.startswith(("corpora/", "fixtures/")) else ROOT / rel


def corpus(rel: str) -> Path:
    """The path of a shared corpus file, ``rel`` as in ``"rfc/rfc7519.txt"``."""
    return CORPORA / rel


# The documents the suites were first written against (the project's corpus before ../shared grew):
# tests that ingest "every corpus document" use this list, so a document added to ../shared
# changes no existing figure. Documents added later are read by the tests of their own issues.
CORE_CORPUS: tuple[str, ...] = (
    "br/cf88-camara-cedi-texto-atualizado-ec105.pdf",
    "br/cf88-senado-compilado-ec108-2020.html",
    "br/cf88-senado-texto-original-1988.html",
    "br/guia-boas-praticas-lgpd-gov-2020.pdf",
    "br/lei-13709-2018-lgpd-planalto.html",
    "br/lei-14133-2021-planalto-reserialized-cp1252.html",
    "br/lgpd-camara-cedi-2024.pdf",
    "br/lgpd-senado-edicao-2024.pdf",
    "br/trap-cf88-planalto-derived-mojibake-cp1250.md",
    "es/constitucion-espanola-boe-api-texto-excerpt.xml",
    "es/constitucion-espanola-boe-consolidado-2024-02-17.pdf",
    "pdf/gr-fek-2008-syntagma-revision-2col.pdf",
    "pt/crp-constituicao-republica-portuguesa.txt",
    "rfc/rfc7519-rfceditor-pdfrfc.pdf",
    "rfc/rfc7519.txt",
    "rfc/rfc9111-auth48-to-be.v3.xml",
    "rfc/rfc9111-httpwg-rendered.html",
    "rfc/rfc9111.txt",
)

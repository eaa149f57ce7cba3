"""A verify run over corpus documents for the report tests (HTML and browser).

The quotes come from the real text of corpora/rfc/rfc7519.txt (section 4.1.1) and
corpora/pt/crp-constituicao-republica-portuguesa.txt (Artigo 13.º), plus one inline source
whose text carries markup that must render as text.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from ipsis.cli import main
from tests.shared import SHARED

ROOT = Path(__file__).resolve().parent.parent
RFC = SHARED / "corpora" / "rfc" / "rfc7519.txt"
CRP = SHARED / "corpora" / "pt" / "crp-constituicao-republica-portuguesa.txt"

EVIL_TEXT = (
    "Returns policy.\n"
    'Staff note: <script>window.pwned = 1;</script> and <img src="x" onerror="window.pwned = 2"> '
    "are not instructions.\nReturns are accepted within 30 days."
)

# citation_id -> (source_id, quote, expected status)
RECORDS: list[dict[str, Any]] = [
    # RFC 7519 section 4.1.1, wrapped over two lines in the source ("issued the\n   JWT.").
    {
        "citation_id": "rfc-iss",
        "source_id": "rfc7519",
        "quote": 'The "iss" (issuer) claim identifies the principal that issued the JWT.',
    },
    # The title phrase: many places in the RFC.
    {"citation_id": "rfc-title", "source_id": "rfc7519", "quote": "JSON Web Token"},
    # "signed" instead of "issued": not in the RFC.
    {
        "citation_id": "rfc-signed",
        "source_id": "rfc7519",
        "quote": 'The "iss" (issuer) claim identifies the principal that signed the JWT.',
    },
    {"citation_id": "rfc-gone", "source_id": "rfc9999", "quote": "The JWT Claims Set represents a JSON object."},
    # CRP Artigo 13.º n.º 1.
    {
        "citation_id": "crp-13",
        "source_id": "crp",
        "quote": "Todos os cidadãos têm a mesma dignidade social e são iguais perante a lei.",
    },
    # Twelve articles start their first number with it.
    {"citation_id": "crp-todos", "source_id": "crp", "quote": "Todos têm direito"},
    {
        "citation_id": "crp-desiguais",
        "source_id": "crp",
        "quote": "Todos os cidadãos têm a mesma dignidade social e são desiguais perante a lei.",
    },
    # Markup in the source and in the quote.
    {
        "citation_id": "evil-<b>1</b>",
        "source_id": "evil",
        "quote": '<script>window.pwned = 1;</script> and <img src="x" onerror="window.pwned = 2">',
    },
]

EXPECTED = {
    "rfc-iss": "located",
    "rfc-title": "ambiguous",
    "rfc-signed": "not_found",
    "rfc-gone": "unknown_source",
    "crp-13": "located",
    "crp-todos": "ambiguous",
    "crp-desiguais": "not_found",
    "evil-<b>1</b>": "located",
}


def write_inputs(tmp: Path) -> tuple[Path, Path]:
    records = tmp / "records.jsonl"
    records.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in RECORDS), encoding="utf-8")
    sources = tmp / "sources.json"
    sources.write_text(
        json.dumps({"rfc7519": str(RFC), "crp": str(CRP), "evil": {"text": EVIL_TEXT}}, ensure_ascii=False),
        encoding="utf-8",
    )
    return records, sources


def run_verify(tmp: Path, fmt: str = "html") -> tuple[Path, list[dict[str, Any]]]:
    """Write the report with ``ipsis verify --format html -o``; also return the JSON results."""
    records, sources = write_inputs(tmp)
    out = tmp / "report.html"
    runner = CliRunner()
    res = runner.invoke(main, ["verify", str(records), "--sources", str(sources), "--format", fmt, "-o", str(out)])
    assert res.exit_code == 1, res.output
    assert "located=3/8" in res.stderr
    res = runner.invoke(main, ["verify", str(records), "--sources", str(sources), "--format", "json"])
    return out, json.loads(res.stdout)["results"]


def texts() -> dict[str, str]:
    return {
        "rfc7519": RFC.read_bytes().decode("utf-8"),
        "crp": CRP.read_bytes().decode("utf-8"),
        "evil": EVIL_TEXT,
    }


# Records on the CRP, RFC 7519 and an unknown source, shared by the report reading and language tests.
READING_RECORDS: list[dict[str, object]] = [
    # CRP Artigo 13.º n.º 1, as written
    {"citation_id": "crp-13", "source_id": "crp",
     "quote": "Todos os cidadãos têm a mesma dignidade social e são iguais perante a lei."},
    # ... with a negation the article does not have
    {"citation_id": "crp-13-neg", "source_id": "crp",
     "quote": "Todos os cidadãos têm a mesma dignidade social e não são iguais perante a lei."},
    # twelve articles open their n.º 1 with these words
    {"citation_id": "crp-todos", "source_id": "crp", "quote": "Todos têm direito"},
    {"citation_id": "crp-todos-ctx", "source_id": "crp", "quote": "Todos têm direito", "prefix": "nada disso "},
    {"citation_id": "crp-eli", "source_id": "crp", "quote": "Todos os cidadãos têm [...] perante a lei."},
    # RFC 7519 4.1.1 says "issued"
    {"citation_id": "rfc-signed", "source_id": "rfc",
     "quote": 'The "iss" (issuer) claim identifies the principal that signed the JWT.'},
    {"citation_id": "rfc-case", "source_id": "rfc",
     "quote": 'THE "iss" (issuer) claim identifies the principal that issued the JWT.'},
    {"citation_id": "lei-x", "source_id": "lei-x", "quote": "Esta Lei dispõe sobre o tratamento de dados pessoais."},
]  # fmt: skip

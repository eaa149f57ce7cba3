"""The OpenAPI 3.1 document served at ``/openapi.json``, written by hand and kept true by a
schemathesis run against the live server (``tests/test_serve_openapi.py``)."""

from __future__ import annotations

from typing import Any

from ipsis import __version__
from ipsis.answers.detect import FORMATS as ANSWER_FORMATS
from ipsis.ingest.normalize import TIERS
from ipsis.verify.result import STATUSES

REF = "#/components/schemas/"


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": REF + name}


def _nullable(kind: str) -> dict[str, Any]:
    return {"type": [kind, "null"]}


def _or_null(schema: dict[str, Any]) -> dict[str, Any]:
    """An optional request field: null means absent."""
    return {"anyOf": [schema, {"type": "null"}]}


SPAN = {"type": ["array", "null"], "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}

SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["error", "message"],
        "properties": {
            "error": {
                "type": "string",
                "description": "A stable code: invalid_json, invalid_field, body_too_large ...",
            },
            "message": {"type": "string", "description": "What failed and how to fix it."},
            "line": {"type": "integer"},
            "column": {"type": "integer"},
            "field": {"type": "string"},
            "limit": {"type": "number"},
        },
    },
    "Policy": {
        "type": "object",
        "additionalProperties": False,
        "description": "What counts as located; the same options as the CLI.",
        "properties": {
            "max_tier": {"type": "string", "enum": list(TIERS), "default": "typography"},
            "min_length": {"type": "integer", "minimum": 0, "default": 15},
            "boundaries": {"type": "boolean", "default": True},
            "position_breaks_ties": {"type": "boolean", "default": False},
        },
    },
    "InlineSource": {
        "type": "object",
        "required": ["text"],
        "properties": {"text": {"type": "string"}, "id": {"type": ["string", "null"]}},
    },
    "SourceRef": {
        "description": "A stored source id the user may read, or an inline text.",
        "oneOf": [{"type": "string"}, _ref("InlineSource")],
    },
    "Match": {
        "type": "object",
        "required": ["start", "end", "text"],
        "properties": {
            "start": {"type": "integer", "description": "Code point offset into the document text."},
            "end": {"type": "integer"},
            "text": {"type": "string"},
            "line": _nullable("integer"),
            "page": _nullable("integer"),
            "selector": {"type": ["object", "null"]},
            "section": {"type": "object"},
        },
    },
    "Result": {
        "type": "object",
        "description": "One citation's result, as `ipsis verify --format json` prints it.",
        "required": ["citation_id", "source_id", "quote", "status", "tier", "steps", "matches", "message"],
        "properties": {
            "citation_id": _nullable("string"),
            "source_id": _nullable("string"),
            "quote": {},
            "status": {"type": "string", "enum": list(STATUSES)},
            "tier": _nullable("string"),
            "steps": {"type": "array", "items": {"type": "string"}},
            "matches": {"type": "array", "items": _ref("Match")},
            "message": {"type": "string"},
            "nearest": {"type": "object"},
            "found_elsewhere": {"type": "array", "items": {"type": "object"}},
            "ocr": {
                "type": ["object", "array"],
                "description": "A match on OCR text: every difference with its noise class, source offsets and"
                " confidence, and the words read with low confidence (one record per place when ambiguous).",
            },
        },
    },
    "Run": {
        "type": "object",
        "required": ["ipsis_version", "policy", "policy_fingerprint"],
        "properties": {
            "ipsis_version": {"type": "string"},
            "policy": {"type": "object"},
            "policy_fingerprint": {"type": "string"},
            "user": {"type": "string"},
        },
    },
    "Summary": {
        "type": "object",
        "required": ["total", "located", "by_status"],
        "properties": {
            "total": {"type": "integer"},
            "located": {"type": "integer"},
            "by_status": {"type": "object", "additionalProperties": {"type": "integer"}},
        },
    },
    "LocateRequest": {
        "type": "object",
        "required": ["source", "quote"],
        "properties": {
            "source": _ref("SourceRef"),
            "quote": {"type": "string"},
            "prefix": _nullable("string"),
            "suffix": _nullable("string"),
            "position": _nullable("integer"),
            "section": {"type": ["string", "null"], "description": 'A cited section, e.g. "art. 5º, § 1º, II".'},
            "citation_id": _nullable("string"),
            "policy": _or_null(_ref("Policy")),
        },
    },
    "LocateResponse": {
        "allOf": [
            _ref("Result"),
            {
                "type": "object",
                "required": ["policy_fingerprint"],
                "properties": {"policy_fingerprint": {"type": "string"}},
            },
        ]
    },
    "VerifyRequest": {
        "type": "object",
        "required": ["records"],
        "properties": {
            "records": {
                "type": "array",
                "description": "Citation records {citation_id, source_id, quote, prefix?, suffix?, section?, "
                "position?}; a malformed record becomes an invalid_record result.",
                "items": {},
            },
            "sources": _or_null(
                {
                    "type": "object",
                    "description": "Inline sources by id; other source ids are looked up in the store.",
                    "additionalProperties": {
                        "type": "object",
                        "required": ["text"],
                        "properties": {"text": {"type": "string"}},
                    },
                }
            ),
            "policy": _or_null(_ref("Policy")),
        },
    },
    "VerifyResponse": {
        "type": "object",
        "required": ["run", "results", "summary"],
        "properties": {
            "run": _ref("Run"),
            "results": {"type": "array", "items": _ref("Result")},
            "summary": _ref("Summary"),
        },
    },
    "CheckRequest": {
        "type": "object",
        "required": ["answer", "sources"],
        "properties": {
            "answer": {
                "description": "The answer as received (text, JSON, NDJSON or SSE), or its parsed JSON.",
                "type": ["string", "object", "array"],
            },
            "sources": {
                "description": "A JSON array, ---/blank-line separated text, XML-tagged documents, or "
                '{"sources": [...]}; an object with an id and no text names a stored source.',
                "type": ["string", "array", "object"],
            },
            "answer_format": {"type": ["string", "null"], "enum": [*ANSWER_FORMATS, "markdown", None]},
            "feedback": {"type": ["boolean", "null"], "default": False},
            "format": {
                "type": ["string", "null"],
                "enum": ["json", "html", None],
                "default": "json",
                "description": "html: the report page of `ipsis check --format html`, rendered from the JSON.",
            },
            "lang": {"type": ["string", "null"], "enum": ["en", "pt", "es", None]},
            "policy": _or_null(_ref("Policy")),
        },
    },
    "Finding": {
        "type": "object",
        "required": ["kind", "message", "answer_span", "source", "quote"],
        "properties": {
            "kind": {"type": "string"},
            "message": {"type": "string"},
            "answer_span": SPAN,
            "source": _nullable("integer"),
            "quote": _nullable("string"),
            "citation_id": {"type": "string"},
        },
    },
    "CheckResponse": {
        "type": "object",
        "description": "`ipsis check --format json` plus the answer text, citation spans, clean and run.",
        "required": ["format", "truncated", "sources", "findings", "citations", "answer", "clean", "run"],
        "properties": {
            "format": {"type": "string"},
            "truncated": {"type": "boolean"},
            "sources": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["number", "id", "cited"],
                    "properties": {
                        "number": {"type": "integer"},
                        "id": {"type": "string"},
                        "cited": {"type": "boolean"},
                    },
                },
            },
            "findings": {"type": "array", "items": _ref("Finding")},
            "citations": {"type": "array", "items": _ref("Result")},
            "markers": {"type": "array", "items": {"type": "object"}},
            "answer": {"type": "object", "required": ["text"], "properties": {"text": {"type": "string"}}},
            "clean": {"type": "boolean"},
            "run": _ref("Run"),
            "feedback": {"type": "string"},
        },
    },
    "DescribeRequest": {
        "type": "object",
        "required": ["source", "start", "end"],
        "properties": {
            "source": _ref("SourceRef"),
            "start": {"type": "integer", "minimum": 0},
            "end": {"type": "integer", "minimum": 0},
            "max_tier": {"type": ["string", "null"], "enum": [*TIERS, None]},
        },
    },
    "DescribeResponse": {"type": "object", "required": ["selector"], "properties": {"selector": {"type": "object"}}},
    "Health": {
        "type": "object",
        "required": ["status", "version", "auth", "limits"],
        "description": "store, cache (the caller's own hits and misses), busy and threads are shown "
        "without --tokens, and with --tokens only to a caller with a valid token.",
        "properties": {
            "status": {"type": "string", "enum": ["ok"]},
            "version": {"type": "string"},
            "auth": {"type": "boolean"},
            "store": {"type": "boolean"},
            "cache": {"type": "object"},
            "busy": {"type": "integer", "description": "Requests running in the worker's threads now."},
            "threads": {"type": "integer"},
            "limits": {"type": "object"},
        },
    },
    "SourceList": {
        "type": "object",
        "required": ["sources"],
        "properties": {"sources": {"type": "array", "items": {"type": "object", "required": ["id"]}}},
    },
    "SectionTree": {
        "type": "object",
        "required": ["doc_id", "family", "length", "sections"],
        "properties": {
            "doc_id": {"type": "string"},
            "family": {"type": "string"},
            "length": {"type": "integer"},
            "sections": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["id", "kind", "label", "start", "end"],
                    "properties": {
                        "id": {"type": "string"},
                        "kind": {"type": "string"},
                        "label": {"type": "string"},
                        "start": {"type": "integer"},
                        "end": {"type": "integer"},
                    },
                },
            },
        },
    },
}


def _error(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": _ref("Error")}}}


def _ok(schema: str, description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": _ref(schema)}}}


COMMON_ERRORS = {
    "401": _error("Missing or unknown bearer token (only with --tokens)."),
    "403": _error("forbidden_host: without --tokens, the Host header is not a loopback name (DNS rebinding)."),
    "503": _error("server_busy: too many open connections or uploads at once; retry (Retry-After)."),
}
POST_ERRORS = {
    **COMMON_ERRORS,
    "400": _error(
        "The body is not JSON (line and column given), not UTF-8, empty, nested too deeply or has a lone surrogate."
    ),
    "408": _error("body_timeout: the body did not arrive within the server's --body-timeout."),
    "413": _error("A limit was passed: body size, records, sources or quote length."),
    "415": _error("unsupported_media_type: the body must be sent as Content-Type: application/json."),
    "422": _error("A field is missing or mistyped, the input cannot be read, or the time limit was passed."),
}


def _post(op: str, summary: str, request: str, response: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    ok = _ok(response, "The result.")
    if op == "check":
        ok["content"]["text/html"] = {"schema": {"type": "string"}}
    return {
        "post": {
            "operationId": op,
            "summary": summary,
            "requestBody": {"required": True, "content": {"application/json": {"schema": _ref(request)}}},
            "responses": {"200": ok, **POST_ERRORS, **(extra or {})},
        }
    }


def openapi_document() -> dict[str, Any]:
    """The OpenAPI document of the running server."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "ipsis",
            "version": __version__,
            "description": "Check that what an AI assistant quotes is really in the source it cites. "
            "Offsets are Unicode code points into the document text.",
        },
        "components": {
            "schemas": SCHEMAS,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "security": [{}, {"bearer": []}],
        "paths": {
            "/v1/health": {
                "get": {
                    "operationId": "health",
                    "summary": "Liveness, version, cache figures and limits (no token needed).",
                    "security": [{}],
                    "responses": {"200": _ok("Health", "The server is up.")},
                }
            },
            "/v1/locate": _post("locate", "Find one quote in one source.", "LocateRequest", "LocateResponse"),
            "/v1/verify": _post("verify", "Verify citation records.", "VerifyRequest", "VerifyResponse"),
            "/v1/check": _post("check", "Check a whole answer against its sources.", "CheckRequest", "CheckResponse"),
            "/v1/describe": _post(
                "describe",
                "The minimal unique TextQuoteSelector for a range.",
                "DescribeRequest",
                "DescribeResponse",
                {"404": _error("No such source (or not readable by this user).")},
            ),
            "/v1/sources": {
                "get": {
                    "operationId": "sources",
                    "summary": "The stored source versions this user may read.",
                    "responses": {"200": _ok("SourceList", "The readable sources."), **COMMON_ERRORS},
                }
            },
            "/v1/sources/{source_id}/sections": {
                "get": {
                    "operationId": "sections",
                    "summary": "The section tree of a stored source.",
                    "parameters": [{"name": "source_id", "in": "path", "required": True, "schema": {"type": "string"}}],
                    "responses": {
                        "200": _ok("SectionTree", "The sections with their [start, end) offsets."),
                        "404": _error("No such source (or not readable by this user)."),
                        **COMMON_ERRORS,
                    },
                }
            },
        },
    }

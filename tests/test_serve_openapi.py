"""/openapi.json is true: schemathesis generates requests from it and checks every response
(status codes, content types, response schemas, no server errors) against a running server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("starlette")
schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance  # noqa: E402

from tests.serve_helpers import Server, running_server  # noqa: E402

MAX_EXAMPLES = 25


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with running_server("--timeout", "5") as s:
        yield s


# The request schemas describe the shape of a body; whether its content can be read (an answer
# that parses in its format, sources that are not blank, a range inside the text) is the
# library's call, answered with a 422 that names the problem. So a schema-valid body may be
# refused: that one check is off, every other one (no 5xx, documented status codes and content
# types, response bodies that match their schemas, schema-violating bodies refused) stays on.
EXCLUDED = [positive_data_acceptance]


def test_api_conforms_to_openapi(server: Server) -> None:
    # each operation's strategy driven by hypothesis directly (schemathesis' pytest plugin is
    # tied to pytest internals that change between minor releases)
    schema = schemathesis.openapi.from_url(server.url + "/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 7
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
        def check(case: object) -> None:
            case.call_and_validate(excluded_checks=EXCLUDED)  # type: ignore[attr-defined]

        check()


def test_document_lists_every_route(server: Server) -> None:
    status, doc = server.get("/openapi.json")
    assert status == 200
    assert set(doc["paths"]) == {
        "/v1/health",
        "/v1/locate",
        "/v1/verify",
        "/v1/check",
        "/v1/describe",
        "/v1/sources",
        "/v1/sources/{source_id}/sections",
    }

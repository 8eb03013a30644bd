"""Schemathesis over the service's own OpenAPI document, on a bounded budget (issue 13, "keep the
probes"): every operation gets MAX_EXAMPLES generated requests (about 300 in all; the schema's
explicit examples are left out, they come by the hundred), derandomized so a run is repeatable,
and every answer must be no 5xx, a documented status, the documented content type, headers and
response schema.

Runs on both backends, about a minute each. Requests go through the session's TestClient, so the
service and its database are the real ones the rest of the suite uses."""
from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api.app import create_app
from tests.conftest import TEST_ADMIN_KEY

MAX_EXAMPLES = 10
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance]


# The document as the app generates it; no database is needed to build it.
schema = schemathesis.openapi.from_dict(create_app().openapi())


def as_httpx(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The transport's request arguments (requests' names) as httpx takes them."""
    out = {k: kwargs[k] for k in ("method", "url", "params", "headers", "json") if k in kwargs}
    if "data" in kwargs:
        data = kwargs["data"]
        out["content" if isinstance(data, (bytes, str)) else "data"] = data
    if "files" in kwargs:
        out["files"] = kwargs["files"]
    return out


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True, database=None,
          phases=[Phase.generate], suppress_health_check=list(HealthCheck))
def test_the_api_answers_as_documented(case, client):
    # The administrator key opens /v1/admin; with no key configured for /v1, it is harmless elsewhere.
    kwargs = case.as_transport_kwargs(base_url="http://testserver",
                                      headers={"Authorization": f"Bearer {TEST_ADMIN_KEY}"})
    response = client.request(**as_httpx(kwargs))
    case.validate_response(response, checks=CHECKS)

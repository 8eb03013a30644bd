"""The OpenAPI document says what the server answers: every error as application/problem+json.

FastAPI documents only the success response and its own 422 (as application/json, in a shape the
service never sends). `document` rewrites the generated document once: each operation gains the
problems it can answer from one shared map, with the headers that come with them."""
from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from api.idempotency import MAX_KEY_CHARS, takes_key
from api.problems import MEDIA_TYPE
from graph.core.vocab import SECRET_KINDS

PROBLEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "An RFC 9457 problem: what went wrong and, for invalid input, which fields to fix.",
    "required": ["type", "title", "status", "detail"],
    "properties": {
        "type": {"type": "string", "description": "urn:credence:problem:<slug>"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "errors": {"type": "array", "description": "Invalid input: one entry per field to fix.", "items": {
            "type": "object", "required": ["field", "message"],
            "properties": {"field": {"type": "string"}, "message": {"type": "string"}}}},
        "secrets": {"type": "array", "description": "Invalid input holding a secret (docs/secrets.md): each one by "
                                                    "field, kind and character span in that field as sent, never "
                                                    "by value.", "items": {
            "type": "object", "required": ["field", "kind", "start", "end"],
            "properties": {"field": {"type": "string"}, "kind": {"type": "string", "enum": list(SECRET_KINDS)},
                           "start": {"type": "integer"}, "end": {"type": "integer"}}}},
    },
    "additionalProperties": True,
}

_HEADER = {"schema": {"type": "string"}}
# status -> (description, response headers). /v1 routes can answer every one of them.
PROBLEMS: dict[int, tuple[str, dict[str, Any]]] = {
    400: ("Malformed request: a body that is not JSON or nests too deep to read, a repeated parameter.", {}),
    401: ("Missing or wrong API key.", {"WWW-Authenticate": {**_HEADER, "description": "Bearer"}}),
    403: ("The key may not do this: outside its agents, role or scope, or the feature is disabled.", {}),
    404: ("No such memory, conflict or link for this agent.", {}),
    405: ("The path does not take this method.",
          {"Allow": {**_HEADER, "description": "Every method the path takes."}}),
    409: (("Conflict with the current state: a version changed, a conflict already resolved, an "
           "idempotency key reused with another body."), {}),
    413: ("The request body is larger than the configured limit.", {}),
    422: ("Invalid input: `errors` names each field to fix (and `secrets` each secret found). Nothing was written.",
          {}),
    503: ("The graph database cannot be reached now; retry after the given seconds.",
          {"Retry-After": {**_HEADER, "description": "Seconds to wait before retrying."}}),
}
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "description": "Makes a retry of this write safe (docs/operations.md, Idempotent retries): the same key with "
                   "the same request returns the first answer (with `Idempotent-Replayed: true`) without writing "
                   "again; the same key with another request is 409. Scoped to the caller and the agents; kept "
                   "CREDENCE_IDEMPOTENCY_TTL seconds (24 hours by default). Use a new UUID per logical write.",
    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_KEY_CHARS,
               "pattern": "^[\\x21-\\x7e]([\\x20-\\x7e]*[\\x21-\\x7e])?$"},  # printable ASCII, unpadded
}
OPEN_ROUTE_PROBLEMS = {"/ready": (405, 503), "/health": (405,)}  # probes: no key, no input


def problem_response(status: int) -> dict[str, Any]:
    description, headers = PROBLEMS[status]
    response: dict[str, Any] = {"description": description,
                                "content": {MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}}
    if headers:
        response["headers"] = headers
    return response


def document(app: FastAPI) -> None:
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = generate()
        schema.setdefault("components", {}).setdefault("schemas", {})["Problem"] = PROBLEM_SCHEMA
        for path, operations in schema.get("paths", {}).items():
            statuses = OPEN_ROUTE_PROBLEMS.get(path, tuple(PROBLEMS))
            for method, operation in operations.items():
                if takes_key(method.upper(), path):
                    operation.setdefault("parameters", []).append(IDEMPOTENCY_KEY)
                responses = operation.setdefault("responses", {})
                for status in statuses:
                    responses[str(status)] = problem_response(status)  # replaces FastAPI's own 422
                operation["responses"] = dict(sorted(responses.items()))
        for unused in ("HTTPValidationError", "ValidationError"):
            schema["components"]["schemas"].pop(unused, None)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]

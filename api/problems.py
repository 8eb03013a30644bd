"""Errors become RFC 9457 problem+json responses here, and only here."""
from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from graph.core.errors import BackendUnavailable, CredenceError, InvalidInput, NotFound, StateConflict, VersionConflict

log = logging.getLogger(__name__)
MEDIA_TYPE = "application/problem+json"
RETRY_AFTER_SECONDS = 5


def problem(status: int, slug: str, title: str, detail: str, headers: dict[str, str] | None = None,
            **extra: Any) -> JSONResponse:
    body = {"type": f"urn:credence:problem:{slug}", "title": title, "status": status, "detail": detail, **extra}
    return JSONResponse(body, status_code=status, media_type=MEDIA_TYPE, headers=headers)


def field_name(loc: tuple[Any, ...]) -> str:
    """('body', 'memories', 3, 'text') -> 'memories[3].text'; ('query', 'limit') -> 'limit'."""
    # The first element says where the value came from; a body field may itself be called "query".
    parts = list(loc[1:] if loc and loc[0] in ("body", "query", "path", "header", "cookie") else loc)
    name = ""
    for part in parts:
        name += f"[{part}]" if isinstance(part, int) else (f".{part}" if name else str(part))
    return name or "body"


async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
    errors = [{"field": field_name(tuple(e["loc"])), "message": e["msg"]} for e in exc.errors()]
    detail = "; ".join(f"{e['field']}: {e['message']}" for e in errors)
    return problem(422, "invalid-input", "Invalid input", detail, errors=errors)


async def _invalid(_: Request, exc: InvalidInput) -> JSONResponse:
    return problem(422, "invalid-input", "Invalid input", str(exc),
                   errors=[{"field": exc.field, "message": exc.message}])


async def _not_found(_: Request, exc: NotFound) -> JSONResponse:
    return problem(404, "not-found", "Not found", str(exc))


async def _version(_: Request, exc: VersionConflict) -> JSONResponse:
    return problem(409, "version-conflict", "Version conflict",
                   f"{exc}; fetch it again and retry with expected_version={exc.actual}", current_version=exc.actual)


async def _state(_: Request, exc: StateConflict) -> JSONResponse:
    return problem(409, "state-conflict", "Not possible in the current state", str(exc))


async def _unavailable(_: Request, exc: BackendUnavailable) -> JSONResponse:
    log.warning("backend unavailable: %s", exc)
    return problem(503, "backend-unavailable", "Graph backend unavailable",
                   "the graph database cannot be reached right now; retry later",
                   headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


async def _credence(_: Request, exc: CredenceError) -> JSONResponse:
    log.exception("unmapped domain error", exc_info=exc)
    return problem(500, "internal", "Internal error", "an unexpected error occurred; it has been logged")


async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
    return problem(exc.status_code, "http", str(exc.detail), str(exc.detail), headers=getattr(exc, "headers", None))


async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
    log.exception("unhandled error", exc_info=exc)
    return problem(500, "internal", "Internal error", "an unexpected error occurred; it has been logged")


def install(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(InvalidInput, _invalid)
    app.add_exception_handler(NotFound, _not_found)
    app.add_exception_handler(VersionConflict, _version)
    app.add_exception_handler(StateConflict, _state)
    app.add_exception_handler(BackendUnavailable, _unavailable)
    app.add_exception_handler(CredenceError, _credence)
    app.add_exception_handler(StarletteHTTPException, _http)
    app.add_exception_handler(Exception, _unexpected)

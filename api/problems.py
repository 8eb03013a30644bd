"""Errors become RFC 9457 problem+json responses here, and only here."""
from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import iter_route_contexts
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import compile_path
from starlette.types import ASGIApp, ExceptionHandler, Message, Receive, Scope, Send

from graph.core.errors import (
    BackendUnavailable,
    CredenceError,
    InvalidInput,
    NotFound,
    SecretInInput,
    StateConflict,
    VersionConflict,
)

log = logging.getLogger(__name__)
MEDIA_TYPE = "application/problem+json"
RETRY_AFTER_SECONDS = 5
E = TypeVar("E", bound=Exception)


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
    # A secret is named by field, kind and span (graph/memories/secrets.py), never by value.
    extra: dict[str, Any] = {"secrets": list(exc.findings)} if isinstance(exc, SecretInInput) else {}
    return problem(422, "invalid-input", "Invalid input", str(exc),
                   errors=[{"field": exc.field, "message": exc.message}], **extra)


async def _not_found(_: Request, exc: NotFound) -> JSONResponse:
    return problem(404, "not-found", "Not found", str(exc))


async def _version(_: Request, exc: VersionConflict) -> JSONResponse:
    return problem(409, "version-conflict", "Version conflict",
                   f"{exc}; fetch it again and retry with expected_version={exc.actual}", current_version=exc.actual)


async def _state(_: Request, exc: StateConflict) -> JSONResponse:
    return problem(409, "state-conflict", "Not possible in the current state", str(exc))


async def _unavailable(_: Request, exc: BackendUnavailable) -> JSONResponse:
    return unavailable_problem(exc)


def unavailable_problem(exc: BackendUnavailable) -> JSONResponse:
    """Also sent by the request gate (api/gate.py), which checks keys outside the handlers."""
    log.warning("backend unavailable: %s", exc)
    return problem(503, exc.slug, exc.title,
                   exc.public or "the graph database cannot be reached right now; retry later",
                   headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


async def _credence(_: Request, exc: CredenceError) -> JSONResponse:
    log.error("unmapped domain error", exc_info=exc)
    return problem(500, "internal", "Internal error", "an unexpected error occurred; it has been logged")


async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    headers = getattr(exc, "headers", None)
    if exc.status_code == 405:
        # Starlette names only the methods of the first route matching the path; a path served by
        # several routes (GET and POST /v1/memories) allows all of theirs.
        headers = {**(headers or {}), "Allow": ", ".join(allowed_methods(request))}
    return problem(exc.status_code, "http", str(exc.detail), str(exc.detail), headers=headers)


def allowed_methods(request: Request) -> list[str]:
    methods: set[str] = set()
    for route in iter_route_contexts(request.app.routes):  # included routers flattened, prefixes applied
        if route.methods and route.path and compile_path(route.path)[0].match(request.url.path):
            methods |= route.methods
    return sorted(methods)


async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
    log.error("unhandled error", exc_info=exc)
    return problem(500, "internal", "Internal error", "an unexpected error occurred; it has been logged")


class KeepConnectionOnError:
    """Starlette's ServerErrorMiddleware sends the 500 problem (from `_unexpected`) and then raises
    the error again for the server to log; uvicorn answers that by closing the connection, so every
    500 also reset a keep-alive client. Wrapped around the whole stack, this swallows the error once
    its response has been sent in full (it is already logged); a response cut short still raises."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = {"started": False, "complete": False}

        async def tracking(message: Message) -> None:
            if message["type"] == "http.response.start":
                state["started"] = True
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                state["complete"] = True
            await send(message)

        try:
            await self.app(scope, receive, tracking)
        except Exception as exc:
            if state["complete"]:
                return
            if state["started"]:
                raise
            log.exception("unhandled error outside the problem handlers", exc_info=exc)
            await problem(500, "internal", "Internal error", "an unexpected error occurred; it has been logged")(
                scope, receive, send)


def handle(app: FastAPI, exc_class: type[E], handler: Callable[[Request, E], Awaitable[Response]]) -> None:
    """`app.add_exception_handler`, with the handler checked against the class it is for: Starlette
    types every handler as taking any Exception, which a handler of one class does not match."""
    app.add_exception_handler(exc_class, cast(ExceptionHandler, handler))


def install(app: FastAPI) -> None:
    build = app.build_middleware_stack
    app.build_middleware_stack = lambda: KeepConnectionOnError(build())  # type: ignore[method-assign]
    handle(app, RequestValidationError, _validation)
    handle(app, InvalidInput, _invalid)
    handle(app, NotFound, _not_found)
    handle(app, VersionConflict, _version)
    handle(app, StateConflict, _state)
    handle(app, BackendUnavailable, _unavailable)
    handle(app, CredenceError, _credence)
    handle(app, StarletteHTTPException, _http)
    handle(app, Exception, _unexpected)

"""The request gate, a pure ASGI middleware: who is calling (from the headers alone) and how much
they may send, decided before a byte of the body is read.

An unauthenticated caller gets its 401 without the server reading (or buffering) its body, and a
body over the limit is refused by its Content-Length, or, when it is streamed without one, as soon
as the bytes received pass the limit (413). What the caller may then do with which agents is
checked per route (api/deps.py), where the agents are known."""
from __future__ import annotations

import secrets
from typing import ClassVar

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.problems import problem, unavailable_problem
from graph.core.errors import BackendUnavailable
from graph.keys.model import EVERY_AGENT, Access, Role
from graph.services import Services

ACCESS = "credence.access"  # the scope key the gate leaves its Access under
# The routes allowed max_batch_body_bytes (/v1/import also keeps its own, lower, limit).
BATCH_PATHS = frozenset({"/v1/memories:batch", "/v1/import"})

OPEN = Access(principal="open", role=Role.ADMIN, scope=EVERY_AGENT)
API_KEY = Access(principal="api-key", role=Role.ADMIN, scope=EVERY_AGENT)
ADMIN_KEY = Access(principal="admin-key", role=Role.ADMIN, scope=EVERY_AGENT, operator=True)
_CHALLENGE = {"WWW-Authenticate": "Bearer"}


class BodyTooLarge(HTTPException):
    """Raised from `receive` while the body streams in; FastAPI re-raises HTTPExceptions met while
    reading a body, so it becomes the same 413 problem as a too large Content-Length."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body exceeds the limit of {limit} bytes")
        self.limit = limit


def too_large_problem(detail: str, limit: int) -> JSONResponse:
    return problem(413, "body-too-large", "Request body too large", detail, max_bytes=limit)


async def on_body_too_large(_: Request, exc: BodyTooLarge) -> JSONResponse:
    """The exception handler for a body that passed the limit while it streamed in."""
    return too_large_problem(str(exc.detail), exc.limit)


class Refusal(Exception):
    """A request refused for who sent it or how (401, 403, 400), by the gate or by a route's checks
    (api/deps.py); `refusal_problem` renders both the same way."""
    KINDS: ClassVar[dict[int, tuple[str, str]]] = {
        400: ("bad-request", "Bad request"), 401: ("unauthorized", "Unauthorized"), 403: ("forbidden", "Forbidden")}

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status, self.detail = status, detail


def refusal_problem(refusal: Refusal) -> JSONResponse:
    slug, title = Refusal.KINDS[refusal.status]
    return problem(refusal.status, slug, title, refusal.detail,
                   headers=_CHALLENGE if refusal.status == 401 else None)


async def on_refusal(_: Request, refusal: Refusal) -> JSONResponse:
    """The exception handler for refusals raised by routes."""
    return refusal_problem(refusal)


class RequestGate:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        services: Services = scope["app"].state.services
        headers = Headers(scope=scope)
        path: str = scope["path"]
        if path.startswith("/v1/"):
            try:
                scope[ACCESS] = await authenticate(services, headers.get("authorization"),
                                                   admin=path.startswith("/v1/admin/"))
            except Refusal as refusal:
                await refusal_problem(refusal)(scope, receive, send)
                return
            except BackendUnavailable as exc:
                await unavailable_problem(exc)(scope, receive, send)
                return
        settings = services.settings
        limit = settings.max_batch_body_bytes if path in BATCH_PATHS else settings.max_body_bytes
        declared = headers.get("content-length")
        if declared is not None and not declared.isdigit():
            await refusal_problem(Refusal(400, "Content-Length must be a number of bytes"))(scope, receive, send)
            return
        if declared is not None and int(declared) > limit:
            await too_large_problem(f"the request body ({declared} bytes) exceeds the limit of {limit} bytes",
                                    limit)(scope, receive, send)
            return
        await self.app(scope, _counting(receive, limit), send)


def _counting(receive: Receive, limit: int) -> Receive:
    """`receive`, refusing the body once more than `limit` bytes have arrived (chunked uploads)."""
    received = 0

    async def counted() -> Message:
        nonlocal received
        message = await receive()
        if message["type"] == "http.request":
            received += len(message.get("body", b""))
            if received > limit:
                raise BodyTooLarge(limit)
        return message

    return counted


def _bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    return (token.strip() or None) if scheme.lower() == "bearer" else None


def _same(given: str, configured) -> bool:
    return configured is not None and secrets.compare_digest(given.encode(), configured.get_secret_value().encode())


async def authenticate(services: Services, authorization: str | None, *, admin: bool) -> Access:
    """The caller's access from its `Authorization` header, or a Refusal (401 / 403).

    - /v1/admin/* needs the configured administrator key (403 while none is configured).
    - Elsewhere under /v1, a key is needed when CREDENCE_API_KEY is set or CREDENCE_REQUIRE_API_KEY is
      true; without either, a call without a key is open (every agent, as before keys existed).
    - CREDENCE_API_KEY and the administrator key cover every agent with every role (one-tenant
      deployments); a scoped key covers its agents with its role. A key that is presented must be
      valid, open or not."""
    settings = services.settings
    token = _bearer(authorization)
    if admin and settings.admin_api_key is None:
        raise Refusal(403, "administration is disabled: set CREDENCE_ADMIN_API_KEY to enable /v1/admin")
    if token is None:
        if admin or settings.api_key is not None or settings.require_api_key:
            raise Refusal(401, "missing API key: send `Authorization: Bearer <key>`")
        return OPEN
    if _same(token, settings.admin_api_key):
        return ADMIN_KEY
    access = API_KEY if _same(token, settings.api_key) else await services.keys.recognise(token)
    if access is None:
        raise Refusal(401, "wrong, revoked or unknown API key")
    if admin:
        raise Refusal(403, "/v1/admin needs the administrator key (CREDENCE_ADMIN_API_KEY)")
    return access

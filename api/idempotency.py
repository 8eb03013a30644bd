"""`Idempotency-Key` on writes, a pure ASGI middleware inside the request gate.

When a route that writes knows its agents and has let the caller through (`begin`, from
api/deps.py), a request with the header gets a fingerprint (method, path, query and a SHA-256 of
the body), and the key is looked up for (caller, agents, key): a recorded answer is
replayed with `Idempotent-Replayed: true`, another request under the same key is 409. Otherwise
the request runs, and the gateway's write hook claims the record as the first statement of its
write transaction (graph/idempotency). Its answer is kept on the record before it is sent."""
from __future__ import annotations

import hashlib
import logging
import uuid
from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.problems import problem
from graph.core.errors import CredenceError
from graph.idempotency.service import (
    Claim,
    IdempotencyService,
    KeyInUse,
    KeyRedacted,
    KeyReused,
    Replay,
    Taken,
    record_id,
)
from graph.keys.model import Access
from graph.store.gateway import Tx, write_hook

log = logging.getLogger(__name__)

HEADER = "idempotency-key"
REPLAYED = "Idempotent-Replayed"
MAX_KEY_CHARS = 255
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
PENDING = "credence.idempotency"
_KEPT_HEADERS = ("content-type", "location")
# Reads sent as POST (their queries do not fit a URL): they take the header and ignore it.
READS_BY_POST = frozenset({"/v1/search", "/v1/search:many", "/v1/context"})


def takes_key(method: str, path: str) -> bool:
    """A route whose writes an Idempotency-Key makes safe to retry (documented in OpenAPI as such)."""
    return (method in WRITE_METHODS and path.startswith("/v1/") and not path.startswith("/v1/admin/")
            and path not in READS_BY_POST)


@dataclass
class Pending:
    """One request's idempotency state, from the middleware to the route and back."""
    key: str
    service: IdempotencyService
    claim: Claim | None = None
    armed: bool = False   # between `begin` and the answer: the request's own write transactions
    hooked: bool = False  # the claim ran in a write transaction (which may have rolled back)

    async def hook(self, tx: Tx) -> None:
        if self.armed and self.claim is not None:
            await self.service.claim(tx, self.claim)
            self.hooked = True


async def begin(request: Request, access: Access, agents: list[str]) -> None:
    """Called once the route's agents are known and allowed: replay, refuse, or arm the claim."""
    pending: Pending | None = request.scope.get(PENDING)
    if pending is None or pending.claim is not None:
        return
    agent = ",".join(sorted(set(agents)))
    # The whole body (already read for a route with a body model; a route that streams it, such as
    # /v1/import, then reads this cached copy), within the gate's size limit.
    body = await request.body()
    fingerprint = hashlib.sha256("\n".join((request.method, request.url.path, request.url.query,
                                            hashlib.sha256(body).hexdigest())).encode()).hexdigest()
    claim = Claim(id=record_id(access.principal, agent, pending.key), agent=agent, fingerprint=fingerprint,
                  token=uuid.uuid4().hex)
    await pending.service.check(claim)
    pending.claim, pending.armed = claim, True


class IdempotencyMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope.get("path", "")
        key = Headers(scope=scope).get(HEADER) if scope["type"] == "http" else None
        if (key is None or scope["method"] not in WRITE_METHODS or not path.startswith("/v1/")
                or path.startswith("/v1/admin/")):
            await self.app(scope, receive, send)
            return
        if not 1 <= len(key) <= MAX_KEY_CHARS or not key.isascii() or not key.isprintable():
            await problem(400, "invalid-idempotency-key", "Invalid Idempotency-Key",
                          f"Idempotency-Key must be 1 to {MAX_KEY_CHARS} printable ASCII characters")(
                scope, receive, send)
            return
        pending = Pending(key=key, service=scope["app"].state.services.idempotency)
        scope[PENDING] = pending

        keeper = _AnswerKeeper(pending, send)
        token = write_hook.set(pending.hook)
        try:
            try:
                await self.app(scope, receive, keeper.send)
            except Taken:
                assert pending.claim is not None
                pending.armed = False
                await pending.service.after_taken(pending.claim)
        except Replay as replay:
            await _replay(replay)(scope, receive, send)
        except KeyReused:
            await problem(409, "idempotency-key-reused", "Idempotency-Key reused",
                          "this Idempotency-Key was first used for a different request (method, path, query "
                          "or body); use a new key for a new request")(scope, receive, send)
        except KeyRedacted:
            await problem(409, "idempotency-key-redacted", "Idempotency-Key answer removed",
                          "the first request with this Idempotency-Key committed, but a hard delete has since "
                          "removed what its answer held; it is not run again")(scope, receive, send)
        except KeyInUse:
            await problem(409, "idempotency-key-in-use", "Idempotency-Key in use",
                          "a request with this Idempotency-Key is still running, or its write committed but "
                          "its answer was not kept; retry shortly, and read the data back before writing it "
                          "again under a new key", headers={"Retry-After": "1"})(scope, receive, send)
        finally:
            write_hook.reset(token)


class _AnswerKeeper:
    """Passes the response on, except that a request which claimed a record first has its answer
    kept on the record, then sent."""

    def __init__(self, pending: Pending, send: Send) -> None:
        self.pending, self._send = pending, send
        self.start: Message | None = None
        self.chunks: list[bytes] = []

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start" and self.pending.hooked:
            self.start = message
            return
        if self.start is None:
            await self._send(message)
            return
        self.chunks.append(message.get("body", b""))
        if message.get("more_body", False):
            return
        await self._keep()
        await self._send(self.start)
        await self._send({"type": "http.response.body", "body": b"".join(self.chunks)})

    async def _keep(self) -> None:
        assert self.start is not None and self.pending.claim is not None
        self.pending.armed = False  # the keeping transaction must not claim anything itself
        headers = Headers(raw=self.start.get("headers", []))
        try:
            await self.pending.service.complete(self.pending.claim, self.start["status"],
                                                b"".join(self.chunks).decode(), headers.get("content-type"),
                                                headers.get("location"))
        except (CredenceError, UnicodeDecodeError) as exc:
            # The write committed with its record; a retry is told so (409) instead of writing twice.
            log.warning("could not keep the answer of idempotency record %s: %s", self.pending.claim.id, exc)


def _replay(replay: Replay) -> Response:
    recorded = replay.recorded
    headers = {REPLAYED: "true"}
    if recorded.location:
        headers["Location"] = recorded.location
    return Response(recorded.body or b"", status_code=recorded.status or 200, headers=headers,
                    media_type=recorded.content_type)

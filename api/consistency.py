"""Read-your-own-writes across service processes: the `Credence-Consistency-Token` header.

A response to a request that committed a write carries the header: the database's bookmarks of
those writes (the driver's), encoded as one opaque token. A later request that sends it back, to
this process or any other on the same database, runs every unit of work after those writes: on a
cluster the member that serves it waits until it has applied them (graph/store/gateway.py,
`Causality`; docs/scaling.md). Without the header a request sees what its process has seen.

A pure ASGI middleware inside the request gate, around idempotency, so a write's idempotency record
is covered by the token too. A token that is not one this service wrote is 400; one the database
does not recognise is 422 (field `consistency_token`)."""
from __future__ import annotations

import base64
import binascii
import json

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.problems import problem
from graph.store.gateway import Causality, causality

HEADER = "Credence-Consistency-Token"
MAX_TOKEN_CHARS = 8_192
MAX_BOOKMARKS = 64
MAX_BOOKMARK_CHARS = 512


def encode(bookmarks: set[str] | frozenset[str]) -> str:
    return base64.urlsafe_b64encode(json.dumps(sorted(bookmarks), separators=(",", ":")).encode()).decode().rstrip("=")


def decode(token: str) -> frozenset[str] | None:
    """The bookmarks a token names, or None when it is not a token this service wrote."""
    if not 1 <= len(token) <= MAX_TOKEN_CHARS or not token.isascii():
        return None
    try:
        values = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    except (binascii.Error, ValueError):
        return None
    if (not isinstance(values, list) or not 1 <= len(values) <= MAX_BOOKMARKS
            or not all(isinstance(v, str) and 1 <= len(v) <= MAX_BOOKMARK_CHARS and v.isprintable() for v in values)):
        return None
    return frozenset(values)


class ConsistencyMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        sent = Headers(scope=scope).get(HEADER)
        after = decode(sent) if sent is not None else frozenset()
        if after is None:
            await problem(400, "invalid-consistency-token", "Invalid consistency token",
                          f"{HEADER} must be a token from an earlier answer's {HEADER} header, unchanged")(
                scope, receive, send)
            return
        held = Causality(after=after)

        async def answering(message: Message) -> None:
            if message["type"] == "http.response.start" and held.written:
                MutableHeaders(scope=message).append(HEADER, encode(held.written))
            await send(message)

        token = causality.set(held)
        try:
            await self.app(scope, receive, answering)
        finally:
            causality.reset(token)

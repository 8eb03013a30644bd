"""Every HTTP request, observed once, outermost: its id, its latency in /metrics by route template
and status, and its access line in the log (docs/operations.md, "Metrics" and "Logs").

A pure ASGI middleware around the whole stack, Starlette's error middleware included, so that
refusals by the request gate (401, 413) and idempotent replays, which never reach a route, are
counted with the route their path names, an unexpected error's 500 is counted and carries the
request id, and the error's own log line (api/problems.py) is written with that id."""
from __future__ import annotations

import logging
import re
import time
import uuid

from fastapi import FastAPI
from fastapi.routing import iter_route_contexts
from starlette.datastructures import Headers, MutableHeaders
from starlette.routing import compile_path
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graph.observability.logs import request_id
from graph.observability.metrics import HTTP_REQUEST_SECONDS

access_log = logging.getLogger("credence.access")
HEADER = "x-request-id"
# A caller's own request id is kept when it is short and plain (a proxy's or a client's trace id);
# anything else is replaced, so a log line never carries what a caller smuggled into it.
CALLER_ID = re.compile(r"[A-Za-z0-9._:@/+=-]{1,128}")
UNMATCHED = "unmatched"  # the route label of a path no route serves: raw paths would be unbounded


def install(app: FastAPI) -> None:
    """Wrap the app's whole middleware stack, as built at its first request (after problems.install)."""
    build = app.build_middleware_stack
    app.build_middleware_stack = lambda: Observe(build())  # type: ignore[method-assign]


class Observe:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._routes: list[tuple[re.Pattern[str], str, set[str]]] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        sent = Headers(scope=scope).get(HEADER)
        rid = sent if sent is not None and CALLER_ID.fullmatch(sent) else uuid.uuid4().hex
        token = request_id.set(rid)
        status = 500  # what the client gets if the app raises before answering

        async def answering(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                MutableHeaders(scope=message).append(HEADER, rid)
            await send(message)

        try:
            await self.app(scope, receive, answering)
        finally:
            seconds = time.perf_counter() - started
            method, route = scope["method"], self.route(scope)
            HTTP_REQUEST_SECONDS.labels(method, route, str(status)).observe(seconds)
            access_log.info("%s %s %d %.1f ms (%s)", method, route, status, seconds * 1000, scope["path"],
                            extra={"request_id": rid, "method": method, "route": route, "path": scope["path"],
                                   "status": status, "duration_ms": round(seconds * 1000, 2)})
        request_id.reset(token)  # after an error, the server's own report of it still carries the id

    def route(self, scope: Scope) -> str:
        """The path template of the route that served the request (set by the router), or, for a
        request answered before routing (the gate, an idempotent replay), of the route its path and
        method would have reached."""
        served = scope.get("route")
        if isinstance(path := getattr(served, "path", None), str):
            return path
        if self._routes is None:
            self._routes = [(compile_path(r.path)[0], r.path, set(r.methods or ()))
                            for r in iter_route_contexts(scope["app"].routes) if r.path]
        matches = [(template, methods) for pattern, template, methods in self._routes
                   if pattern.match(scope["path"])]
        for template, methods in matches:
            if scope["method"] in methods:
                return template
        return matches[0][0] if matches else UNMATCHED

"""The FastAPI application factory."""
from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI

from api import observe, openapi, problems
from api.consistency import ConsistencyMiddleware
from api.deps import bearer_scheme
from api.gate import BodyTooLarge, Refusal, RequestGate, on_body_too_large, on_refusal
from api.idempotency import IdempotencyMiddleware
from api.routers import (
    admin,
    ask,
    audit,
    consolidation,
    context,
    entities,
    feedback,
    health,
    ingest,
    jobs,
    keys,
    links,
    memories,
    metrics,
    predicates,
    preferences,
    review,
    search,
    transfer,
)
from graph.embedding.encoder import Embedder
from graph.services import Services
from graph.settings import Settings

log = logging.getLogger("credence")


def create_app(services: Services | None = None, settings: Settings | None = None,
               embedder: Embedder | None = None) -> FastAPI:
    """With `services`, the caller owns the backend's life (tests, benchmarks); without, the app
    starts it on start-up and stops it on shutdown (with `embedder`, an already loaded model)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        owned = services is None
        app.state.services = services or await Services.start(settings or Settings.from_env(), embedder)
        try:
            yield
        finally:
            if owned:
                await app.state.services.close()

    app = FastAPI(title="Credence", version="0.1.0", lifespan=lifespan,
                  description="A memory service for AI agents whose beliefs keep their origin, trust and history.")
    app.state.services = services
    problems.install(app)
    openapi.document(app)  # every route answers problem+json, and says so
    app.include_router(health.router)
    app.include_router(metrics.router)
    for router in (memories.router, links.router, feedback.router, review.router, search.router, context.router,
                   predicates.router, transfer.router, admin.router, keys.router, entities.router, audit.router,
                   ask.router, preferences.router, jobs.router, jobs.admin, consolidation.router, ingest.router):
        app.include_router(router, dependencies=[Depends(bearer_scheme)])
    problems.handle(app, Refusal, on_refusal)  # 401/403/400 raised by routes' checks (api/deps.py)
    problems.handle(app, BodyTooLarge, on_body_too_large)
    # Added last, runs first: the gate (key, body size) before anything reads the body; idempotency
    # inside it, where the caller is known; the consistency token around idempotency, so the token
    # covers the idempotency record's writes too.
    app.add_middleware(IdempotencyMiddleware)
    app.add_middleware(ConsistencyMiddleware)
    app.add_middleware(RequestGate)
    # Around all of it, errors included: the request's id, latency and access line (api/observe.py).
    observe.install(app)
    return app

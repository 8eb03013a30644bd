"""GET /metrics: the process's metrics in Prometheus' text format (graph/observability/metrics.py).

Open like /health unless CREDENCE_METRICS_TOKEN is set; then a scraper sends it as a bearer token.
It is a credential of its own, not an API key: it reads no memory, and no API key reads metrics.
Labels carry route templates and statement names, never tenants or ids. Not in the OpenAPI
document: it is for Prometheus, not for the API's clients."""
from __future__ import annotations

import asyncio
import logging
import secrets

from fastapi import APIRouter, Request, Response

from api.deps import ServicesDep
from api.problems import problem
from graph.core.errors import CredenceError
from graph.observability.metrics import exposition

log = logging.getLogger(__name__)
JOB_DEPTH_SECONDS = 2.0

router = APIRouter(tags=["health"])


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request, services: ServicesDep) -> Response:
    token = services.settings.metrics_token
    if token is not None:
        scheme, _, presented = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not secrets.compare_digest(
                presented.strip().encode(), token.get_secret_value().encode()):
            return problem(401, "unauthorized", "Unauthorized", "/metrics needs the metrics token "
                           "(CREDENCE_METRICS_TOKEN) as `Authorization: Bearer <token>`",
                           headers={"WWW-Authenticate": "Bearer"})
    try:  # the queue's depth is counted in the database at each scrape; a scrape never fails for it
        async with asyncio.timeout(JOB_DEPTH_SECONDS):
            await services.maintenance.publish_depth()
    except (CredenceError, TimeoutError) as exc:
        log.warning("credence_jobs not refreshed for this scrape: %s", exc)
    body, content_type = exposition(request.headers.get("accept"))
    return Response(body, headers={"Content-Type": content_type})

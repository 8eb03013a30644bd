"""Liveness and readiness probes."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.deps import ServicesDep
from api.problems import RETRY_AFTER_SECONDS, problem

router = APIRouter(tags=["health"])


@router.get("/health", summary="The process is alive; what it knows of its database, without asking it")
async def health(services: ServicesDep) -> dict[str, Any]:
    # Liveness stays 200 while a database restarts: killing the service would not bring it back sooner.
    return {"status": "ok", "database": services.backend_health()}


@router.get("/ready", summary="Backend reachable, schema applied, model loaded")
async def ready(services: ServicesDep) -> JSONResponse:
    state = await services.readiness()
    if state["ready"]:
        return JSONResponse(state)
    return problem(503, "not-ready", "Not ready", "a dependency is not ready", checks=state["checks"],
                   database=state["database"], headers={"Retry-After": str(RETRY_AFTER_SECONDS)})

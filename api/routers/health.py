"""Liveness and readiness probes."""
from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.deps import ServicesDep
from api.problems import RETRY_AFTER_SECONDS, problem

router = APIRouter(tags=["health"])


@router.get("/health", summary="The process is alive")
async def health() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/ready", summary="Backend reachable, schema applied, model loaded")
async def ready(services: ServicesDep) -> JSONResponse:
    state = await services.readiness()
    if state["ready"]:
        return JSONResponse(state)
    return problem(503, "not-ready", "Not ready", "a dependency is not ready", checks=state["checks"],
                   headers={"Retry-After": str(RETRY_AFTER_SECONDS)})

"""/v1/context: a prompt-ready context for an agent and a query, within a token budget."""
from __future__ import annotations

from fastapi import APIRouter

from api.deps import GuardDep, ServicesDep
from api.schemas.context import ContextRequest, ContextResponse

router = APIRouter(prefix="/v1", tags=["context"])


@router.post("/context", response_model=ContextResponse,
             summary="Best memories for a query, expanded one hop, packed into max_tokens when given")
async def context(body: ContextRequest, services: ServicesDep, guard: GuardDep) -> ContextResponse:
    await guard.read(body.agent)
    return ContextResponse.of(await services.context.context(body.to_context()), body)

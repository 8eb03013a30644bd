"""/v1/ask: a question as a person asks it, routed by intent to a handler on the belief graph."""
from __future__ import annotations

from fastapi import APIRouter

from api.deps import GuardDep, ServicesDep
from api.schemas.ask import AskRequest, AskResponse

router = APIRouter(prefix="/v1", tags=["ask"])


@router.post("/ask", response_model=AskResponse,
             summary="Ask a question: routed to about-me, entity, relationship, temporal, historical, negation, "
                     "sentiment, decision, goal or search; explain says which handler ran and why")
async def ask(body: AskRequest, services: ServicesDep, guard: GuardDep) -> AskResponse:
    await guard.read(body.agent)
    return AskResponse.of(await services.ask.ask(body.to_domain()), body.question)

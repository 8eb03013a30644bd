"""/v1/memories/{id}/reinforce|dispute|corroborate: feedback that moves a belief's trust."""
from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field

from api.deps import ActorDep, AgentQuery, GuardDep, ServicesDep
from api.schemas.beliefs import ProvenanceIn
from api.schemas.common import Request
from graph.beliefs.feedback import FeedbackResult, FeedbackService
from graph.core.checks import MAX_REASON_CHARS

router = APIRouter(prefix="/v1", tags=["feedback"])


def get_feedback(services: ServicesDep) -> FeedbackService:
    return services.feedback


FeedbackDep = Annotated[FeedbackService, Depends(get_feedback)]


class DisputeIn(Request):
    reason: str | None = Field(None, max_length=MAX_REASON_CHARS)


class CorroborateIn(Request):
    source: ProvenanceIn


class FeedbackOut(BaseModel):
    id: str
    reinforcements: int
    disputes: int
    corroboration: int
    trust: float
    confidence: float
    status: str

    @classmethod
    def of(cls, result: FeedbackResult) -> FeedbackOut:
        return cls(**result.__dict__)


@router.post("/memories/{memory_id}/reinforce", response_model=FeedbackOut)
async def reinforce(memory_id: UUID, agent: AgentQuery, feedback: FeedbackDep, actor: ActorDep) -> FeedbackOut:
    return FeedbackOut.of(await feedback.reinforce(agent, str(memory_id), actor))


@router.post("/memories/{memory_id}/dispute", response_model=FeedbackOut,
             summary="Count a dispute; below trust 0.3 an active belief becomes disputed")
async def dispute(memory_id: UUID, agent: AgentQuery, feedback: FeedbackDep, actor: ActorDep,
                  body: DisputeIn | None = None) -> FeedbackOut:
    return FeedbackOut.of(await feedback.dispute(agent, str(memory_id), actor, body.reason if body else None))


@router.post("/memories/{memory_id}/corroborate", response_model=FeedbackOut,
             summary="Another source confirms the memory; a source it already has adds nothing")
async def corroborate(memory_id: UUID, agent: AgentQuery, body: CorroborateIn, feedback: FeedbackDep,
                      actor: ActorDep, guard: GuardDep) -> FeedbackOut:
    source = body.source.to_domain()
    guard.sources(source.source)
    return FeedbackOut.of(await feedback.corroborate(agent, str(memory_id), actor, source))

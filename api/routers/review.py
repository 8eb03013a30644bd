"""/v1/conflicts, /v1/quarantine and /v1/memories/{id}/explain: the human side of beliefs."""
from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Query

from api.deps import ActorDep, AgentQuery, GuardDep, MemoriesDep, ServicesDep
from api.schemas.common import CURSOR_PATTERN
from api.schemas.memories import MemoryOut, MemoryPage
from api.schemas.review import (
    ConflictListOut,
    ConflictOut,
    ExplainOut,
    QuarantineIn,
    ResolveIn,
    ResolveOut,
    ReviewIn,
    ReviewOut,
    SupersessionOut,
)

router = APIRouter(prefix="/v1", tags=["review"])


# A review can put a less trusted memory above a more trusted one: it is for a person or operator,
# not for the agent whose write was quarantined.
REVIEWERS_ONLY = "conflicts and the quarantine are reviewed with a key that may claim every source"


@router.get("/conflicts", response_model=ConflictListOut, summary="Conflicts, pending ones unless asked otherwise")
async def list_conflicts(agent: AgentQuery, services: ServicesDep,
                         subject: Annotated[str | None, Query(max_length=100)] = None,
                         predicate: Annotated[str | None, Query(max_length=100)] = None,
                         include_resolved: bool = False,
                         limit: Annotated[int, Query(ge=1, le=500)] = 100) -> ConflictListOut:
    views = await services.conflicts.list(agent, subject=subject, predicate=predicate,
                                          include_resolved=include_resolved, limit=limit)
    return ConflictListOut(count=len(views), conflicts=[ConflictOut.of(v) for v in views])


@router.post("/conflicts/{conflict_id}/resolve", response_model=ResolveOut,
             summary="Resolve a pending conflict; a second resolution is 409")
async def resolve_conflict(conflict_id: UUID, agent: AgentQuery, body: ResolveIn, services: ServicesDep,
                           actor: ActorDep, guard: GuardDep) -> ResolveOut:
    guard.any_source(REVIEWERS_ONLY)
    result = await services.conflicts.resolve(agent, str(conflict_id), body.action, actor, body.reason)
    return ResolveOut(conflict_id=result.conflict_id, action=result.action, memory=MemoryOut.of(result.new_memory),
                      superseded=list(result.superseded), resolved_conflicts=list(result.resolved))


@router.get("/quarantine", response_model=MemoryPage, summary="Quarantined memories, newest first")
async def list_quarantine(agent: AgentQuery, memories: MemoriesDep,
                          limit: Annotated[int, Query(ge=1, le=500)] = 50,
                          cursor: Annotated[str | None, Query(max_length=512, pattern=CURSOR_PATTERN, description=
                                                 "next_cursor of the previous page, unchanged.")] = None) -> MemoryPage:
    page = await memories.list(agent, statuses=("quarantined",), limit=limit, after=cursor)
    return MemoryPage(count=len(page.items), items=[MemoryOut.of(m) for m in page.items], next_cursor=page.next_cursor)


@router.post("/memories/{memory_id}/quarantine", response_model=MemoryOut, summary="Quarantine a memory by hand")
async def quarantine_memory(memory_id: UUID, agent: AgentQuery, body: QuarantineIn, services: ServicesDep,
                            actor: ActorDep) -> MemoryOut:
    return MemoryOut.of(await services.quarantine.quarantine(agent, str(memory_id), body.reason, body.details, actor))


@router.post("/quarantine/{memory_id}/review", response_model=ReviewOut,
             summary="Activate (conflicts are resolved again) or reject a quarantined memory")
async def review_quarantine(memory_id: UUID, agent: AgentQuery, body: ReviewIn, services: ServicesDep,
                            actor: ActorDep, guard: GuardDep) -> ReviewOut:
    guard.any_source(REVIEWERS_ONLY)
    review = await services.quarantine.review(agent, str(memory_id), body.action, body.reason, actor)
    return ReviewOut(memory=MemoryOut.of(review.memory), superseded=list(review.superseded),
                     pending_conflict_id=review.pending_conflict_id)


@router.get("/memories/{memory_id}/explain", response_model=ExplainOut,
            summary="Status, trust term by term, sources, claim, conflicts and supersessions")
async def explain_memory(memory_id: UUID, agent: AgentQuery, services: ServicesDep) -> ExplainOut:
    return ExplainOut.of(await services.explain.memory(agent, str(memory_id)))


@router.get("/memories/{memory_id}/explain/supersession", response_model=SupersessionOut,
            summary="What superseded the memory, when, and the trust of both at that time")
async def explain_supersession(memory_id: UUID, agent: AgentQuery, services: ServicesDep) -> SupersessionOut:
    return SupersessionOut.of(await services.explain.supersession(agent, str(memory_id)))

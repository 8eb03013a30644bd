"""/v1/memories: store, batch-store, read, list, patch, archive and hard-delete memories."""
from __future__ import annotations

from typing import Annotated
from urllib.parse import urlencode
from uuid import UUID

from fastapi import APIRouter, Query, Request, Response, status

from api.deps import ActorDep, AgentQuery, GuardDep, IngestionDep, MemoriesDep, WritesDep, may_erase
from api.schemas.common import CURSOR_PATTERN, MemoryType, Status
from api.schemas.memories import (
    HardDeleteOut,
    HistoryOut,
    IngestedOut,
    MemoryBatchCreate,
    MemoryBatchOut,
    MemoryCreate,
    MemoryOut,
    MemoryPage,
    MemoryUpdate,
    OperationOut,
    PatchOut,
    SecretOut,
    StoreOut,
)
from graph.audit import DEFAULT_TRAIL_PAGE, MAX_AUDIT_PAGE
from graph.core.vocab import visible_statuses
from graph.ingestion.model import MessageResult
from graph.memories.model import MemoryPatch
from graph.memories.service import MAX_PAGE

router = APIRouter(prefix="/v1", tags=["memories"])


@router.post("/memories", status_code=status.HTTP_201_CREATED, response_model=StoreOut | IngestedOut,
             responses={200: {"model": StoreOut | IngestedOut,
                              "description": "Deduplicated: an active belief already said this; it was corroborated "
                                             "instead. Or read through ingestion (`ingest`): the operations."}},
             summary="Store a memory; with a claim, conflicts are resolved by trust (200 when deduplicated); "
                     "with `ingest`, its text goes through ingestion")
async def create_memory(body: MemoryCreate, writes: WritesDep, ingestion: IngestionDep, actor: ActorDep,
                        response: Response, guard: GuardDep, request: Request) -> StoreOut | IngestedOut:
    await guard.write(body.agent)
    new = body.to_domain()
    guard.sources(new.provenance.source)
    if body.ingest is False or (body.claim is not None and body.ingest is None):
        result = await writes.store(new, actor=actor)
    else:
        answer = (await ingestion.store([new], [body.ingest], actor, field_prefix="",
                                        hard_delete=may_erase(request)))[0]
        if isinstance(answer, MessageResult):
            response.status_code = status.HTTP_200_OK
            return IngestedOut.of(answer)
        result = answer
    memory = result.memory
    response.headers["Location"] = f"/v1/memories/{memory.id}?{urlencode({'agent': memory.agent})}"
    if result.deduplicated:
        response.status_code = status.HTTP_200_OK
    return StoreOut.of_result(result)


@router.post("/memories:batch", status_code=status.HTTP_201_CREATED, response_model=MemoryBatchOut,
             summary="Store up to CREDENCE_MAX_BATCH memories in one transaction")
async def create_memories(body: MemoryBatchCreate, ingestion: IngestionDep, actor: ActorDep,
                          guard: GuardDep, request: Request) -> MemoryBatchOut:
    await guard.write(*{m.agent for m in body.memories})  # a batch may hold several agents: all in scope
    new = [m.to_domain(body.secrets) for m in body.memories]
    guard.sources(*{m.provenance.source for m in new})
    # Items that opt into ingestion (or whose agent does by default) are read in the same transaction.
    answers = await ingestion.store(new, [m.ingest for m in body.memories], actor, hard_delete=may_erase(request))
    stored = [StoreOut.of_result(a) for a in answers if not isinstance(a, MessageResult)]
    return MemoryBatchOut(count=len(stored), memories=stored,
                          ingested=[IngestedOut.of(a) for a in answers if isinstance(a, MessageResult)])


@router.get("/memories/{memory_id}", response_model=MemoryOut)
async def get_memory(memory_id: UUID, agent: AgentQuery, memories: MemoriesDep) -> MemoryOut:
    return MemoryOut.of(await memories.get(agent, str(memory_id)))


@router.get("/memories", response_model=MemoryPage, summary="A tenant's memories, newest first")
async def list_memories(
    agent: AgentQuery, memories: MemoriesDep,
    status_: Annotated[list[Status] | None, Query(alias="status", description="Repeatable; default active.")] = None,
    status_filter: Annotated[list[Status] | None, Query(description="Alias of status.")] = None,
    include_superseded: bool = False, include_disputed: bool = False, include_quarantined: bool = False,
    include_all: Annotated[bool, Query(description="Every status, archived included.")] = False,
    memory_type: Annotated[list[MemoryType] | None, Query(description="Repeatable.")] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
    cursor: Annotated[str | None, Query(max_length=512, pattern=CURSOR_PATTERN, description=
                                                 "next_cursor of the previous page, unchanged.")] = None,
) -> MemoryPage:
    statuses = visible_statuses(status_ or status_filter, include_superseded=include_superseded,
                                include_disputed=include_disputed, include_quarantined=include_quarantined,
                                include_all=include_all)
    page = await memories.list(agent, statuses=statuses, memory_types=memory_type, limit=limit, after=cursor)
    return MemoryPage(count=len(page.items), items=[MemoryOut.of(m) for m in page.items],
                      next_cursor=page.next_cursor)


@router.patch("/memories/{memory_id}", response_model=PatchOut)
async def update_memory(memory_id: UUID, agent: AgentQuery, body: MemoryUpdate, memories: MemoriesDep,
                        actor: ActorDep) -> PatchOut:
    patch = MemoryPatch(changes=body.changes(), expected_version=body.expected_version, secrets=body.secrets)
    result = await memories.patch(agent, str(memory_id), patch, actor=actor)
    return PatchOut(**MemoryOut.of(result.memory).model_dump(), redacted=[SecretOut.of(s) for s in result.redacted])


@router.delete("/memories/{memory_id}", response_model=MemoryOut | HardDeleteOut,
               summary="Archive a memory, or with hard=true remove it and what only it referenced")
async def delete_memory(memory_id: UUID, agent: AgentQuery, memories: MemoriesDep, actor: ActorDep,
                        guard: GuardDep, hard: Annotated[bool, Query()] = False) -> MemoryOut | HardDeleteOut:
    if hard:
        await guard.admin(agent)
        removed = await memories.hard_delete(agent, str(memory_id), actor=actor)
        return HardDeleteOut(id=str(memory_id), related_nodes_removed=removed)
    return MemoryOut.of(await memories.archive(agent, str(memory_id), actor=actor))


@router.get("/memories/{memory_id}/history", response_model=HistoryOut,
            summary="Every change to a memory, oldest first: who, when, what, before and after")
async def memory_history(
    memory_id: UUID, agent: AgentQuery, memories: MemoriesDep,
    limit: Annotated[int, Query(ge=1, le=MAX_AUDIT_PAGE, description=
                                "Records in one page; the default answers the whole trail up to this.")]
    = DEFAULT_TRAIL_PAGE,
    cursor: Annotated[str | None, Query(max_length=512, pattern=CURSOR_PATTERN, description=
                                        "next_cursor of the previous page, unchanged.")] = None,
) -> HistoryOut:
    page = await memories.history(agent, str(memory_id), limit=limit, cursor=cursor)
    return HistoryOut(id=str(memory_id), count=len(page.items), operations=[OperationOut.of(o) for o in page.items],
                      next_cursor=page.next_cursor)

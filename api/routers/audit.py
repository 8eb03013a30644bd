"""/v1/audit: a tenant's audit trail, newest first, filtered and paged (docs/audit.md)."""
from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Query

from api.deps import AgentQuery, ServicesDep
from api.schemas.common import CURSOR_PATTERN, AuditOp, Instant
from api.schemas.memories import AuditPage, OperationOut
from graph.audit import DEFAULT_AUDIT_PAGE, MAX_ACTOR_CHARS, MAX_AUDIT_PAGE

router = APIRouter(prefix="/v1", tags=["audit"])


@router.get("/audit", response_model=AuditPage,
            summary="A tenant's audit records, newest first: by op, actor, memory and time, a page at a time")
async def audit_trail(
    agent: AgentQuery, services: ServicesDep,
    op: Annotated[list[AuditOp] | None, Query(description="Repeatable: records of any of these ops.")] = None,
    actor: Annotated[str | None, Query(min_length=1, max_length=MAX_ACTOR_CHARS, description=
                                       "Records this actor made (X-Credence-Actor).")] = None,
    memory_id: Annotated[UUID | None, Query(description="Records that touched this memory.")] = None,
    after: Annotated[Instant | None, Query(description="Records made strictly after this ISO-8601 instant.")] = None,
    before: Annotated[Instant | None, Query(description=
                                            "Records made strictly before this ISO-8601 instant.")] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_AUDIT_PAGE)] = DEFAULT_AUDIT_PAGE,
    cursor: Annotated[str | None, Query(max_length=512, pattern=CURSOR_PATTERN, description=
                                        "next_cursor of the previous page, unchanged.")] = None,
) -> AuditPage:
    page = await services.audit.query(agent, ops=op, actor=actor, memory_id=str(memory_id) if memory_id else None,
                                      after=after, before=before, limit=limit, cursor=cursor)
    return AuditPage(count=len(page.items), items=[OperationOut.of(o) for o in page.items],
                     next_cursor=page.next_cursor)

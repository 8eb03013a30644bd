"""/v1/ingest: remember from what people say."""
from __future__ import annotations

from fastapi import APIRouter, Request

from api.deps import ActorDep, GuardDep, ServicesDep, may_erase
from api.schemas.ingest import IngestIn, IngestOut
from graph.core.errors import InvalidInput

router = APIRouter(prefix="/v1", tags=["ingest"])


@router.post("/ingest", response_model=IngestOut,
             summary="Remember from messages: extract, then ADD / UPDATE / DELETE / NOOP through the belief engine")
async def ingest(body: IngestIn, services: ServicesDep, actor: ActorDep, guard: GuardDep,
                 request: Request) -> IngestOut:
    if (body.messages is None) == (body.text is None):
        raise InvalidInput("messages", "send `messages` or `text`, one of them")
    await guard.write(body.agent)
    domain = body.to_domain()
    guard.sources(domain.source, *{m.source for m in domain.messages if m.source})
    return IngestOut.of(await services.ingestion.ingest(domain, actor, hard_delete=may_erase(request)))

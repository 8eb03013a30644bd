"""/v1/memories/{id}/links: SUPPORTS and CAUSES edges between one tenant's memories."""
from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Path, status

from api.deps import ActorDep, AgentQuery, GuardDep, ServicesDep
from api.schemas.links import LinkCreate, LinkOut, LinksOut, LinkType

router = APIRouter(prefix="/v1", tags=["links"])


@router.post("/memories/{memory_id}/links", status_code=status.HTTP_201_CREATED, response_model=LinksOut,
             summary="Link this memory to another (idempotent); context expands along these links")
async def create_link(memory_id: UUID, body: LinkCreate, services: ServicesDep, actor: ActorDep,
                      guard: GuardDep) -> LinksOut:
    await guard.write(body.agent)
    await services.links.link(body.agent, str(memory_id), str(body.to), body.type, body.note, actor)
    return LinksOut(id=str(memory_id), links=[LinkOut.of(link) for link in
                                              await services.links.links(body.agent, str(memory_id))])


@router.get("/memories/{memory_id}/links", response_model=LinksOut)
async def list_links(memory_id: UUID, agent: AgentQuery, services: ServicesDep) -> LinksOut:
    return LinksOut(id=str(memory_id), links=[LinkOut.of(link) for link in
                                              await services.links.links(agent, str(memory_id))])


@router.delete("/memories/{memory_id}/links/{link_type}/{to_id}", status_code=status.HTTP_204_NO_CONTENT)
async def delete_link(memory_id: UUID, link_type: Annotated[LinkType, Path()], to_id: UUID, agent: AgentQuery,
                      services: ServicesDep, actor: ActorDep) -> None:
    await services.links.unlink(agent, str(memory_id), str(to_id), link_type, actor)

"""/v1/entities: the entity graph (people, places, organisations, products and their relationships)."""
from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Query

from api.deps import ActorDep, AgentQuery, GuardDep, ServicesDep
from api.schemas.common import AwareInstant
from api.schemas.entities import (
    AboutOut,
    EntitiesOut,
    EntityDetailOut,
    EntityMerge,
    EntityOut,
    EntityPatch,
    Kind,
    NeighbourhoodOut,
    PathOut,
)
from graph.core.keys import name_key
from graph.entities.service import MAX_DEPTH, MAX_LIST, MAX_PATH_HOPS

router = APIRouter(prefix="/v1", tags=["entities"])
AsOf = Annotated[AwareInstant | None, Query(description="Answer with what held then (valid time); default now.")]


@router.get("/entities", response_model=EntitiesOut, summary="A tenant's entities in name order")
async def list_entities(agent: AgentQuery, services: ServicesDep, kind: Kind | None = None,
                        name: Annotated[str | None, Query(max_length=1_000, description=
                                        "Only the entity with this name or alias (case and spaces ignored).")] = None,
                        after: Annotated[str | None, Query(max_length=1_000)] = None,
                        limit: Annotated[int, Query(ge=1, le=MAX_LIST)] = 100) -> EntitiesOut:
    found = await services.entities.list(agent, kind=kind, name=name, after=after, limit=limit)
    return EntitiesOut(entities=[EntityOut.of(e) for e in found],
                       next_after=name_key(found[-1].name) if len(found) == limit else None)


@router.post("/entities:merge", response_model=EntityOut,
             summary="Fold one entity into another (administrator); one transaction")
async def merge_entities(body: EntityMerge, services: ServicesDep, actor: ActorDep, guard: GuardDep) -> EntityOut:
    await guard.admin(body.agent)
    return EntityOut.of(await services.entities.merge(body.agent, str(body.keep), str(body.merge), actor))


@router.get("/entities/{entity_id}", response_model=EntityDetailOut)
async def get_entity(entity_id: UUID, agent: AgentQuery, services: ServicesDep, as_of: AsOf = None) -> EntityDetailOut:
    return EntityDetailOut.of(await services.entities.get(agent, str(entity_id), as_of))


@router.patch("/entities/{entity_id}", response_model=EntityOut, summary="Set its kind, add known aliases")
async def patch_entity(entity_id: UUID, body: EntityPatch, services: ServicesDep, actor: ActorDep,
                       guard: GuardDep) -> EntityOut:
    await guard.write(body.agent)
    return EntityOut.of(await services.entities.update(body.agent, str(entity_id), kind=body.kind,
                                                       aliases=body.add_aliases, actor=actor))


@router.get("/entities/{entity_id}/neighbourhood", response_model=NeighbourhoodOut,
            summary="Entities and relationships within `depth` hops, ready to draw")
async def neighbourhood(entity_id: UUID, agent: AgentQuery, services: ServicesDep,
                        depth: Annotated[int, Query(ge=1, le=MAX_DEPTH)] = 1, as_of: AsOf = None) -> NeighbourhoodOut:
    return NeighbourhoodOut.of(await services.entities.neighbourhood(agent, str(entity_id), depth, as_of))


@router.get("/entities/{entity_id}/path/{to_id}", response_model=PathOut,
            summary="The shortest path of relationships between two entities (404 when none)")
async def path(entity_id: UUID, to_id: UUID, agent: AgentQuery, services: ServicesDep,
               max_hops: Annotated[int, Query(ge=1, le=MAX_PATH_HOPS)] = 4, as_of: AsOf = None) -> PathOut:
    return PathOut.of(await services.entities.path(agent, str(entity_id), str(to_id), max_hops, as_of))


@router.get("/entities/{entity_id}/about", response_model=AboutOut,
            summary="What we know about it: relationships by type, memories by predicate")
async def about(entity_id: UUID, agent: AgentQuery, services: ServicesDep, as_of: AsOf = None) -> AboutOut:
    return AboutOut.of(await services.entities.about(agent, str(entity_id), as_of))

"""/v1/predicates: the predicate schema registry (cardinality, conflict policy, normaliser, dedup)."""
from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from api.deps import AgentQuery, GuardDep, PredicatesDep
from api.schemas.beliefs import PredicateBulkIn, PredicateListOut, PredicateSchemaIn, PredicateSchemaOut

router = APIRouter(prefix="/v1", tags=["predicates"])
PredicatePath = Annotated[str, Path(min_length=1, max_length=100, pattern=r"\S")]


@router.put("/predicates/{predicate}", response_model=PredicateSchemaOut)
async def put_predicate(predicate: PredicatePath, agent: AgentQuery, body: PredicateSchemaIn,
                        predicates: PredicatesDep, guard: GuardDep) -> PredicateSchemaOut:
    await guard.admin(agent)
    [schema] = await predicates.put(agent, [body.to_domain(predicate)])
    return PredicateSchemaOut.of(schema)


@router.get("/predicates/{predicate}", response_model=PredicateSchemaOut,
            summary="The schema that applies to a predicate: registered, or the defaults")
async def get_predicate(predicate: PredicatePath, agent: AgentQuery, predicates: PredicatesDep) -> PredicateSchemaOut:
    return PredicateSchemaOut.of(await predicates.get(agent, predicate, default=True))


@router.post("/predicates", response_model=PredicateListOut, summary="Register several schemas at once")
async def put_predicates(body: PredicateBulkIn, predicates: PredicatesDep, guard: GuardDep) -> PredicateListOut:
    await guard.admin(body.agent)
    stored = await predicates.put(body.agent, [p.to_domain(p.predicate) for p in body.predicates])
    return PredicateListOut(count=len(stored), predicates=[PredicateSchemaOut.of(s) for s in stored])


@router.get("/predicates", response_model=PredicateListOut)
async def list_predicates(agent: AgentQuery, predicates: PredicatesDep) -> PredicateListOut:
    schemas = await predicates.list(agent)
    return PredicateListOut(count=len(schemas), predicates=[PredicateSchemaOut.of(s) for s in schemas])

"""/v1/consolidate: one tenant's consolidation, previewed (dry_run) or applied (docs/consolidation.md)."""
from __future__ import annotations

from fastapi import APIRouter

from api.deps import ActorDep, GuardDep, ServicesDep
from api.schemas.consolidation import ConsolidateIn, ConsolidationOut
from graph.consolidation import Request
from graph.keys.model import Role

router = APIRouter(prefix="/v1", tags=["consolidation"])


@router.post("/consolidate", response_model=ConsolidationOut,
             summary="Merge near-duplicates, surface contradictions, corroborate, digest old events, merge "
                     "duplicate entities, prune past retention: previewed with dry_run, or applied")
async def consolidate(body: ConsolidateIn, services: ServicesDep, actor: ActorDep, guard: GuardDep) -> ConsolidationOut:
    steps = body.step_overrides()
    # A preview reads; applying writes; merging entities or pruning (a hard delete) is an administrator's.
    prunes = steps.get("prune", services.consolidation.defaults.prune_allowed)
    role = Role.READ if body.dry_run else Role.ADMIN if steps.get("entities", True) or prunes else Role.WRITE
    await guard(role, body.agent)
    report = await services.consolidation.consolidate(
        Request(agent=body.agent, dry_run=body.dry_run, steps=steps, thresholds=body.threshold_overrides()), actor)
    return ConsolidationOut.of(report)

"""/v1/preferences: an agent's memory preferences."""
from __future__ import annotations

from fastapi import APIRouter

from api.deps import ActorDep, AgentQuery, GuardDep, ServicesDep
from api.schemas.preferences import PreferencesIn, PreferencesOut

router = APIRouter(prefix="/v1", tags=["preferences"])


@router.get("/preferences", response_model=PreferencesOut, summary="An agent's memory preferences (the defaults "
                                                                    "until set)")
async def get_preferences(agent: AgentQuery, services: ServicesDep) -> PreferencesOut:
    return PreferencesOut.of(await services.preferences.get(agent))


@router.put("/preferences", response_model=PreferencesOut,
            summary="Set an agent's memory preferences, all of them (what is left out takes its default)")
async def put_preferences(body: PreferencesIn, services: ServicesDep, guard: GuardDep,
                          actor: ActorDep) -> PreferencesOut:
    await guard.write(body.agent)
    return PreferencesOut.of(await services.preferences.put(body.to_domain(), actor))

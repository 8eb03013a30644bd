"""Dependencies as Annotated aliases, so routes read like plain functions."""
from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import Depends, Header, HTTPException, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from api.schemas.common import Agent
from graph.memories.audit import DEFAULT_ACTOR
from graph.memories.service import MemoryService
from graph.beliefs.predicates import PredicateService
from graph.retrieval.service import RetrievalService
from graph.services import Services

_bearer = HTTPBearer(auto_error=False)

# The tenant, as a query parameter of every route that addresses one thing by id.
AgentQuery = Annotated[Agent, Query(description="The tenant (agent) the data belongs to.")]


def get_services(request: Request) -> Services:
    return request.app.state.services


ServicesDep = Annotated[Services, Depends(get_services)]


def get_memories(services: ServicesDep) -> MemoryService:
    return services.memories


def get_retrieval(services: ServicesDep) -> RetrievalService:
    return services.retrieval


def require_api_key(services: ServicesDep,
                    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> None:
    """With CREDENCE_API_KEY set, every /v1 call needs `Authorization: Bearer <key>`."""
    expected = services.settings.api_key
    if expected is None:
        return
    given = credentials.credentials if credentials else ""
    if not secrets.compare_digest(given.encode(), expected.get_secret_value().encode()):
        raise HTTPException(401, "missing or wrong API key", headers={"WWW-Authenticate": "Bearer"})


def require_admin_key(services: ServicesDep,
                      credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> None:
    """/v1/admin reads across tenants: off unless CREDENCE_ADMIN_API_KEY is set, then only with that key."""
    expected = services.settings.admin_api_key
    if expected is None:
        raise HTTPException(403, "administration is disabled: set CREDENCE_ADMIN_API_KEY to enable /v1/admin")
    given = credentials.credentials if credentials else ""
    if not secrets.compare_digest(given.encode(), expected.get_secret_value().encode()):
        raise HTTPException(401, "missing or wrong administrator key", headers={"WWW-Authenticate": "Bearer"})


MemoriesDep = Annotated[MemoryService, Depends(get_memories)]
RetrievalDep = Annotated[RetrievalService, Depends(get_retrieval)]


def get_actor(x_credence_actor: Annotated[str | None, Header(max_length=200, description=
              "Who makes the change, for the audit trail (a user, an agent, a job). Default: api.")] = None) -> str:
    return (x_credence_actor or "").strip() or DEFAULT_ACTOR


ActorDep = Annotated[str, Depends(get_actor)]


def get_predicates(services: ServicesDep) -> PredicateService:
    return services.predicates


PredicatesDep = Annotated[PredicateService, Depends(get_predicates)]

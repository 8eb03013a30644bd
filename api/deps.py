"""Dependencies as Annotated aliases, so routes read like plain functions.

Who is calling was settled by the request gate (api/gate.py) before the body was read. Here each
route checks what it touches: its agents must be in the caller's scope with the role the call
needs (403 otherwise), and a write with an Idempotency-Key is replayed or armed (api/idempotency.py).
An `agent` in the query reads on GET and writes on any other method; routes that take their agents
from the body, and the calls that need more (hard delete, the predicate registry), use `Guard`."""
from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Query, Request
from fastapi.security import HTTPBearer

from api import idempotency
from api.gate import ACCESS, Refusal
from api.schemas.common import Agent
from graph.audit import DEFAULT_ACTOR, MAX_ACTOR_CHARS
from graph.beliefs.predicates import PredicateService
from graph.ingestion.service import IngestService
from graph.keys.model import Access, Role
from graph.memories.service import MemoryService
from graph.retrieval.service import RetrievalService
from graph.services import Services
from graph.writes.service import WriteService

# Only documents the scheme in OpenAPI: the gate has already checked the key.
bearer_scheme = HTTPBearer(auto_error=False, description="An API key: scoped (issued through /v1/admin/keys), "
                                                         "CREDENCE_API_KEY, or the administrator key.")


def get_services(request: Request) -> Services:
    return request.app.state.services


ServicesDep = Annotated[Services, Depends(get_services)]


def get_memories(services: ServicesDep) -> MemoryService:
    return services.memories


def get_writes(services: ServicesDep) -> WriteService:
    return services.writes


def get_ingestion(services: ServicesDep) -> IngestService:
    return services.ingestion


def may_erase(request: Request) -> bool:
    """Whether the caller may erase ("forget that" read by ingestion is a hard delete): the admin role."""
    return bool(request.scope[ACCESS].role >= Role.ADMIN)


def get_retrieval(services: ServicesDep) -> RetrievalService:
    return services.retrieval


class Guard:
    """`await guard.write(body.agent)`: the caller may act with this role on these agents, or 403."""

    def __init__(self, request: Request) -> None:
        self.request = request

    async def __call__(self, role: Role, *agents: str) -> None:
        access: Access = self.request.scope[ACCESS]
        refusal = access.refusal(role, agents)
        if refusal is not None:
            raise Refusal(403, refusal)
        if role >= Role.WRITE:
            await idempotency.begin(self.request, access, list(agents))

    async def read(self, *agents: str) -> None:
        await self(Role.READ, *agents)

    async def write(self, *agents: str) -> None:
        await self(Role.WRITE, *agents)

    async def admin(self, *agents: str) -> None:
        await self(Role.ADMIN, *agents)

    def sources(self, *claimed: str) -> None:
        """The caller's key may claim these provenance sources, or 403 (before anything is written)."""
        refusal = self.request.scope[ACCESS].source_refusal(claimed)
        if refusal is not None:
            raise Refusal(403, refusal)

    def any_source(self, why: str) -> None:
        """Only a key whose sources are not restricted may make this call, or 403."""
        if self.request.scope[ACCESS].sources is not None:
            raise Refusal(403, f"this key may claim some sources only; {why}")


GuardDep = Annotated[Guard, Depends(Guard)]


async def agent_in_scope(request: Request, agent: Annotated[Agent, Query(
        description="The tenant (agent) the data belongs to; once.")]) -> str:
    """The tenant named in the query: given once, and in the caller's scope."""
    if len(request.query_params.getlist("agent")) > 1:
        raise Refusal(400, "`agent` is given more than once in the query; give it once")
    await Guard(request)(Role.READ if request.method == "GET" else Role.WRITE, agent)
    return agent


# The tenant, as a query parameter of every route that addresses one thing by id.
AgentQuery = Annotated[str, Depends(agent_in_scope)]


MemoriesDep = Annotated[MemoryService, Depends(get_memories)]
WritesDep = Annotated[WriteService, Depends(get_writes)]
RetrievalDep = Annotated[RetrievalService, Depends(get_retrieval)]
IngestionDep = Annotated[IngestService, Depends(get_ingestion)]


def get_actor(x_credence_actor: Annotated[str | None, Header(max_length=MAX_ACTOR_CHARS, description=
              "Who makes the change, for the audit trail (a user, an agent, a job). Default: api.")] = None) -> str:
    return (x_credence_actor or "").strip() or DEFAULT_ACTOR


ActorDep = Annotated[str, Depends(get_actor)]


def get_predicates(services: ServicesDep) -> PredicateService:
    return services.predicates


PredicatesDep = Annotated[PredicateService, Depends(get_predicates)]

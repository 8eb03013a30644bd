"""/v1/admin: operations across tenants, behind the administrator key only."""
from __future__ import annotations

from fastapi import APIRouter

from api.deps import RetrievalDep, ServicesDep
from api.schemas.admin import CompactionOut
from api.schemas.search import AdminSearchRequest, AdminSearchResponse

router = APIRouter(prefix="/v1/admin", tags=["admin"])


@router.post("/search", response_model=AdminSearchResponse,
             summary="The same search in several tenants (each filtered on its own), merged by score")
async def admin_search(body: AdminSearchRequest, retrieval: RetrievalDep) -> AdminSearchResponse:
    merged = await retrieval.search_agents(body.to_domain(body.agents[0]), body.agents)
    return AdminSearchResponse.of(merged, body.query)


@router.post("/compact", response_model=CompactionOut,
             summary="Force out of the database files what hard deletes left there, where the backend can",
             description="Embedded ArcadeDB: compresses pages, rebuilds the full-text index and retires the "
                         "write-ahead files (the database pauses for well under a second). Neo4j Community "
                         "cannot be compacted online: the answer says what stays on disk and for how long. "
                         "Run it at a quiet time, after hard deletes that must leave no trace "
                         "(docs/operations.md, Hard delete).")
async def compact_database(services: ServicesDep) -> CompactionOut:
    return CompactionOut.of(await services.compact())

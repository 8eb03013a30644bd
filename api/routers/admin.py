"""/v1/admin: operations across tenants, behind the administrator key only."""
from __future__ import annotations

from fastapi import APIRouter

from api.deps import RetrievalDep
from api.schemas.search import AdminSearchRequest, AdminSearchResponse

router = APIRouter(prefix="/v1/admin", tags=["admin"])


@router.post("/search", response_model=AdminSearchResponse,
             summary="The same search in several tenants (each filtered on its own), merged by score")
async def admin_search(body: AdminSearchRequest, retrieval: RetrievalDep) -> AdminSearchResponse:
    merged = await retrieval.search_agents(body.to_domain(body.agents[0]), body.agents)
    return AdminSearchResponse.of(merged, body.query)

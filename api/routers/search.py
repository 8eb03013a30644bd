"""/v1/search and /v1/search:many: hybrid retrieval within one tenant."""
from __future__ import annotations

from fastapi import APIRouter

from api.deps import GuardDep, RetrievalDep
from api.schemas.search import SearchManyRequest, SearchManyResponse, SearchRequest, SearchResponse

router = APIRouter(prefix="/v1", tags=["search"])


@router.post("/search", response_model=SearchResponse,
             summary="Hybrid (vector + full-text) search, reranked on relevance, confidence, recency, importance")
async def search(body: SearchRequest, retrieval: RetrievalDep, guard: GuardDep) -> SearchResponse:
    await guard.read(body.agent)
    return SearchResponse.of(await retrieval.search(body.to_domain(body.agent)), body.query, body.agent)


@router.post("/search:many", response_model=SearchManyResponse, summary="Several searches of one tenant in one call")
async def search_many(body: SearchManyRequest, retrieval: RetrievalDep, guard: GuardDep) -> SearchManyResponse:
    await guard.read(body.agent)
    results = await retrieval.search_many([s.to_domain(body.agent) for s in body.searches])
    return SearchManyResponse(results=[SearchResponse.of(r, s.query, body.agent)
                                       for r, s in zip(results, body.searches, strict=True)])

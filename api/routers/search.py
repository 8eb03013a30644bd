"""/v1/search: semantic retrieval within one tenant."""
from __future__ import annotations

from fastapi import APIRouter

from api.deps import RetrievalDep
from api.schemas.memories import MemoryOut
from api.schemas.search import SearchHitOut, SearchRequest, SearchResponse

router = APIRouter(prefix="/v1", tags=["search"])


@router.post("/search", response_model=SearchResponse)
async def search(body: SearchRequest, retrieval: RetrievalDep) -> SearchResponse:
    result = await retrieval.search(body.to_domain())
    results = [SearchHitOut(**MemoryOut.of(h.memory).model_dump(), score=h.score) for h in result.hits]
    return SearchResponse(count=len(results), results=results)

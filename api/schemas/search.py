"""Request and response bodies for /v1/search."""
from __future__ import annotations

from pydantic import BaseModel, Field, StrictFloat, StrictInt

from api.schemas.common import Agent, MemoryType, Request, Status
from api.schemas.memories import MemoryOut
from graph.model import DEFAULT_STATUSES, SearchQuery


class SearchRequest(Request):
    agent: Agent
    query: str = Field(min_length=1, max_length=4_000, pattern=r"\S")
    limit: StrictInt = Field(10, ge=1, le=100)
    min_score: StrictFloat | None = Field(None, ge=-1.0, le=1.0, description="Lowest cosine similarity returned.")
    memory_types: list[MemoryType] | None = Field(None, min_length=1)
    statuses: list[Status] = Field(default_factory=lambda: list(DEFAULT_STATUSES), min_length=1,
                                   description="Active only unless asked; superseded etc. need naming.")

    def to_domain(self) -> SearchQuery:
        return SearchQuery(agent=self.agent, text=self.query, limit=self.limit, min_score=self.min_score,
                           memory_types=tuple(self.memory_types) if self.memory_types else None,
                           statuses=tuple(dict.fromkeys(self.statuses)))


class SearchHitOut(MemoryOut):
    score: float = Field(description="Cosine similarity of query and memory, in [-1, 1].")


class SearchResponse(BaseModel):
    count: int
    results: list[SearchHitOut]

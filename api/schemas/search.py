"""Request and response bodies for /v1/search."""
from __future__ import annotations

from pydantic import AliasChoices, BaseModel, Field, StrictBool, StrictFloat, StrictInt

from api.schemas.common import Agent, MemoryType, Request, Status
from api.schemas.memories import MemoryOut
from graph.model import SearchQuery, visible_statuses


class SearchRequest(Request):
    agent: Agent
    query: str = Field(min_length=1, max_length=4_000, pattern=r"\S")
    limit: StrictInt = Field(10, ge=1, le=100)
    min_score: StrictFloat | None = Field(None, ge=-1.0, le=1.0, description="Lowest cosine similarity returned.")
    memory_types: list[MemoryType] | None = Field(None, min_length=1)
    statuses: list[Status] | None = Field(
        None, min_length=1, validation_alias=AliasChoices("statuses", "status_filter"),
        description="Exactly these statuses (alias status_filter). Default: active only.")
    include_superseded: StrictBool = False
    include_disputed: StrictBool = False
    include_quarantined: StrictBool = False
    include_all: StrictBool = Field(False, description="Every status, archived included.")
    session_id: str | None = Field(None, max_length=200,
                                   description="Show this session's claims; they override global ones.")

    def effective_statuses(self) -> tuple[str, ...]:
        return visible_statuses(self.statuses, include_superseded=self.include_superseded,
                                include_disputed=self.include_disputed, include_quarantined=self.include_quarantined,
                                include_all=self.include_all)

    def to_domain(self) -> SearchQuery:
        return SearchQuery(agent=self.agent, text=self.query, limit=self.limit, min_score=self.min_score,
                           memory_types=tuple(self.memory_types) if self.memory_types else None,
                           statuses=self.effective_statuses(), session_id=self.session_id)


class SearchHitOut(MemoryOut):
    score: float = Field(description="Cosine similarity of query and memory, in [-1, 1].")


class SearchResponse(BaseModel):
    count: int
    results: list[SearchHitOut]

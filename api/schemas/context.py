"""Request and response bodies for /v1/context."""
from __future__ import annotations

from pydantic import BaseModel, Field, StrictInt

from api.schemas.common import Agent
from api.schemas.expand import RelatedOut
from api.schemas.search import RetrievalOptions, SearchMetaOut
from graph.context import MAX_MEMORIES, MAX_TOKENS, ContextQuery, ContextResult
from graph.links.expansion import Expand


class ContextRequest(RetrievalOptions):
    agent: Agent
    max_memories: StrictInt = Field(15, ge=1, le=MAX_MEMORIES, description="Without max_tokens: how many memories. "
                                                                "The search pool is twice this.")
    max_tokens: StrictInt | None = Field(None, ge=1, le=MAX_TOKENS,
                                         description="Token budget for the whole formatted context, headers included.")

    def to_context(self) -> ContextQuery:
        return ContextQuery(search=self.query_for(self.agent, 2 * self.max_memories), max_memories=self.max_memories,
                            max_tokens=self.max_tokens,
                            expand=self.expand.to_domain() if self.expand else Expand(depth=1))


class ContextMemoryOut(BaseModel):
    id: str
    text: str
    memory_type: str
    status: str
    composite_score: float = Field(description="The value packing weighs against the memory's tokens.")
    via: str = Field(description="search, or the edge kinds that brought it in (joined by +; the last hop of "
                                 "each path).")
    expanded_from: list[str] = Field(description="Search hits of the pool it was reached from (empty for search "
                                                 "hits).")
    related: list[RelatedOut] = Field(description="For search hits: the memories their edges reach, nearest "
                                                  "first, at most expand.limit, whether or not they made it into "
                                                  "the context.")
    related_truncated: bool = Field(description="For search hits: true when their edges reached more memories than "
                                                "expand.limit; `related` lists the nearest.")


class ExcludedOut(BaseModel):
    id: str
    reason: str = Field(description="budget: it did not fit.")
    value: float


class PackingOut(BaseModel):
    max_tokens: int | None
    token_estimate: int
    included_ids: list[str]
    excluded: list[ExcludedOut]


class ContextExplainOut(BaseModel):
    search_meta: SearchMetaOut | None
    packing: PackingOut


class ContextResponse(BaseModel):
    context: str = Field(description="Memories grouped by type, ready for a prompt; empty when nothing fits.")
    token_estimate: int = Field(description="Estimated tokens of `context`; never above max_tokens.")
    included: int
    excluded: int
    excluded_reasons: list[ExcludedOut]
    memories: list[ContextMemoryOut] = Field(description="The included memories, best value first.")
    explain: ContextExplainOut | None = Field(None, description="With explain: true.")

    @classmethod
    def of(cls, result: ContextResult, request: ContextRequest) -> ContextResponse:
        packed = result.packed
        excluded = [ExcludedOut(id=e.id, reason=e.reason, value=e.value) for e in packed.excluded]
        memories = []
        for item in sorted(packed.included, key=lambda i: (-i.value, i.id)):
            c = result.candidates[item.id]
            memories.append(ContextMemoryOut(id=item.id, text=c.memory.text, memory_type=c.memory.memory_type,
                                             status=c.memory.status, composite_score=c.value, via=c.via,
                                             expanded_from=list(c.expanded_from),
                                             related=[RelatedOut.of(r) for r in c.related],
                                             related_truncated=c.related_truncated))
        explain = None
        if request.explain:
            meta = SearchMetaOut.of(result.search_meta, request.query, request.agent) if result.search_meta else None
            explain = ContextExplainOut(search_meta=meta, packing=PackingOut(
                max_tokens=result.max_tokens, token_estimate=packed.token_estimate,
                included_ids=[i.id for i in packed.included], excluded=excluded))
        return cls(context=packed.context, token_estimate=packed.token_estimate, included=len(packed.included),
                   excluded=len(excluded), excluded_reasons=excluded, memories=memories, explain=explain)

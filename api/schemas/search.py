"""Request and response bodies for /v1/search, /v1/search:many and /v1/admin/search."""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AliasChoices,
    BaseModel,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StringConstraints,
    field_validator,
    model_validator,
)

from api.schemas.beliefs import QuarantineOut
from api.schemas.common import Agent, AwareInstant, MemoryType, Request, Sensitivity, Status, Tag
from api.schemas.expand import ExpandOptions, RelatedOut
from api.schemas.memories import MemoryOut
from graph.core.errors import InvalidInput
from graph.core.vocab import DEFAULT_SENSITIVITY_CEILING, SEARCH_MODES, visible_statuses
from graph.retrieval import (
    MAX_AGENTS,
    MAX_EXCLUDED,
    MAX_EXCLUDED_CHARS,
    MAX_FILTER_TAGS,
    MAX_LIMIT,
    MAX_QUERY_CHARS,
    MAX_SEARCHES,
    MAX_SESSION_CHARS,
    SearchHit,
    SearchMeta,
    SearchQuery,
    SearchResult,
    Weights,
)
from graph.retrieval.across_tenants import AcrossTenants
from graph.retrieval.rerank import gate

Weight = StrictFloat | StrictInt
ExcludedTerm = Annotated[str, StringConstraints(min_length=1, max_length=MAX_EXCLUDED_CHARS, pattern=r"\S")]


class RerankWeights(Request):
    """Custom rerank weights; any left out keep their default. Each at least 0, not all 0."""
    relevance: Weight = 0.40
    confidence: Weight = 0.25
    recency: Weight = 0.20
    importance: Weight = 0.15

    @model_validator(mode="after")
    def _valid(self) -> RerankWeights:
        self.to_domain()  # the rule lives in graph.retrieval.rerank.Weights
        return self

    def to_domain(self) -> Weights:
        try:
            return Weights(**{k: float(v) for k, v in self.model_dump().items()})
        except InvalidInput as exc:
            raise ValueError(f"{exc.field}: {exc.message}") from None


class RetrievalOptions(Request):
    """What search and context share: the query, the retrievers, the rerank and the filters."""
    query: str = Field(min_length=1, max_length=MAX_QUERY_CHARS, pattern=r"\S")
    mode: Literal[SEARCH_MODES] = Field(  # type: ignore[valid-type]
        "hybrid", description="Candidates from both indexes (hybrid), or the vector or full-text index alone.")
    rerank: StrictBool | RerankWeights = Field(
        True, description="true: the four-signal rerank; false: raw relevance order; an object: custom weights.")
    explain: StrictBool = Field(False, description="Add `meta` and per-result `explain` (costs a little more).")
    min_similarity: StrictFloat | StrictInt | None = Field(
        None, ge=0.0, le=1.0, validation_alias=AliasChoices("min_similarity", "min_score"),
        description="Lowest match returned: max(cosine similarity, keyword score), both absolute. Alias min_score.")
    memory_types: list[MemoryType] | None = Field(None, min_length=1)
    tags: list[Tag] = Field([], max_length=MAX_FILTER_TAGS, description="A memory must carry every one of these tags.")
    exclude: list[ExcludedTerm] = Field(
        [], max_length=MAX_EXCLUDED, description="Leave out memories whose text holds one of these terms (whole words, "
                                                 "any case, a plural too), inside the query: \"restaurants\" with "
                                                 "exclude [\"Italian\"].")
    statuses: list[Status] | None = Field(
        None, min_length=1, validation_alias=AliasChoices("statuses", "status_filter"),
        description="Exactly these statuses (alias status_filter). Default: active only.")
    include_superseded: StrictBool = False
    include_disputed: StrictBool = False
    include_quarantined: StrictBool = False
    include_all: StrictBool = Field(False, description="Every status, archived included.")
    session_id: str | None = Field(None, max_length=MAX_SESSION_CHARS,
                                   description="Show this session's claims; they override global ones.")
    after: AwareInstant | None = Field(None, description="Only memories whose `time_field` is later than this.")
    before: AwareInstant | None = Field(None, description="Only memories whose `time_field` is earlier than this.")
    time_field: Literal["created_at", "event_at"] = Field(
        "created_at", description="What before/after compare; memories without an event_at fail event_at bounds.")
    as_of: AwareInstant | None = Field(
        None, description="Valid time: what was true then. Validity windows are checked at this instant "
                          "(default: known_at, else now), and past states of a belief count in their own window.")
    known_at: AwareInstant | None = Field(
        None, description="Record time: what Credence believed then. Memories recorded later are left out, "
                          "and beliefs superseded later count as they stood then.")

    sensitivity_ceiling: Sensitivity = Field(
        DEFAULT_SENSITIVITY_CEILING, description="The most sensitive memories shown: normal, sensitive (the default) "
                                                 "or private.")
    expand: ExpandOptions | None = Field(
        None, description="Recall with relationships: follow typed edges from each result (docs/graph.md). "
                          "Default: depth 0 for search, 1 for context.")

    @field_validator("tags")
    @classmethod
    def _distinct(cls, tags: list[str]) -> list[str]:
        return list(dict.fromkeys(tags))

    @model_validator(mode="after")
    def _window(self) -> RetrievalOptions:
        if self.after and self.before and self.after >= self.before:
            raise ValueError("after must be earlier than before")
        return self

    def query_for(self, agent: str, limit: int) -> SearchQuery:
        statuses = visible_statuses(self.statuses, include_superseded=self.include_superseded,
                                    include_disputed=self.include_disputed,
                                    include_quarantined=self.include_quarantined, include_all=self.include_all)
        on_event = self.time_field == "event_at"
        extra: dict[str, Any] = {"expand": self.expand.to_domain()} if self.expand else {}
        rerank = None if self.rerank is False else (
            Weights() if self.rerank is True else self.rerank.to_domain())
        return SearchQuery(
            agent=agent, text=self.query, limit=limit, mode=self.mode, rerank=rerank, explain=self.explain,
            min_similarity=float(self.min_similarity) if self.min_similarity is not None else None,
            memory_types=tuple(self.memory_types) if self.memory_types else None, tags=tuple(self.tags),
            statuses=statuses, session_id=self.session_id, as_of=self.as_of, known_at=self.known_at,
            created_after=None if on_event else self.after, created_before=None if on_event else self.before,
            event_after=self.after if on_event else None, event_before=self.before if on_event else None,
            sensitivity_ceiling=self.sensitivity_ceiling, exclude=tuple(self.exclude), **extra)


class SearchOptions(RetrievalOptions):
    """Everything a search takes besides the tenant."""
    limit: StrictInt = Field(10, ge=1, le=MAX_LIMIT)

    def to_domain(self, agent: str) -> SearchQuery:
        return self.query_for(agent, self.limit)


class SearchRequest(SearchOptions):
    agent: Agent


class SearchManyRequest(Request):
    agent: Agent
    searches: list[SearchOptions] = Field(min_length=1, max_length=MAX_SEARCHES,
                                          description=f"Up to {MAX_SEARCHES} searches, answered in order.")


class AdminSearchRequest(SearchOptions):
    agents: list[Agent] = Field(min_length=1, max_length=MAX_AGENTS,
                                description="The tenants to search, each on its own.")


class Retrieved(BaseModel):
    vector_similarity: float | None
    keyword_score: float | None
    keyword_hits: list[str]
    neighbour_of: str | None = Field(None, description="A conversation turn brought by the hit beside it in its "
                                                       "thread: that hit's id (it ranks with at least 0.9 of the "
                                                       "hit's relevance per step away, when its own is lower).")


class RerankExplain(BaseModel):
    weights: dict[str, float]
    signals: dict[str, float]
    relevance_share: float = Field(description="The share of confidence, recency and importance that counted: 1 from "
                                               "relevance 0.5 (even odds of answering), in proportion below it.")
    composite_score: float


class StatusExplain(BaseModel):
    status: Status
    superseded_by: str | None
    quarantine: QuarantineOut | None


class HitExplain(BaseModel):
    retrieved: Retrieved
    rerank: RerankExplain
    status: StatusExplain


class SearchHitOut(MemoryOut):
    score: float = Field(description="Relevance from retrieval in [0, 1], on an absolute scale: a calibrated "
                                     "combination of the cosine, the saturated BM25 score and the share of query "
                                     "terms matched (docs/retrieval.md), not relative to this query's best candidate.")
    similarity: float | None = Field(description="Cosine similarity of query and memory, in [-1, 1].")
    composite_score: float = Field(description="The four-signal rerank score (computed even with rerank off).")
    ranking_signals: dict[str, float]
    explain: HitExplain | None = Field(None, description="With explain: true.")
    related: list[RelatedOut] = Field([], description="With expand: the memories this result's edges reach, "
                                                       "nearest first, at most expand.limit.")
    related_truncated: bool = Field(False, description="With expand: true when this result's edges reached more "
                                                       "memories than expand.limit; `related` lists the nearest.")

    @classmethod
    def of_hit(cls, hit: SearchHit, result: SearchResult, explain: bool) -> SearchHitOut:
        out = cls(**MemoryOut.of(hit.memory).model_dump(), score=hit.score, similarity=hit.similarity,
                  composite_score=hit.composite, ranking_signals=hit.signals.as_dict(),
                  related=[RelatedOut.of(r) for r in hit.related], related_truncated=hit.related_truncated)
        if explain:
            out.explain = HitExplain(
                retrieved=Retrieved(vector_similarity=hit.similarity, keyword_score=hit.keyword_score,
                                    keyword_hits=list(hit.keyword_hits or ()), neighbour_of=hit.neighbour_of),
                rerank=RerankExplain(weights=result.weights.as_dict(), signals=hit.signals.as_dict(),
                                     relevance_share=gate(hit.signals.relevance, result.weights),
                                     composite_score=hit.composite),
                status=StatusExplain(status=hit.memory.status, superseded_by=hit.superseded_by,
                                     quarantine=QuarantineOut.of(hit.memory.quarantine)))
        return out


class SearchMetaOut(BaseModel):
    query: str
    agent: str
    options: dict[str, Any]
    counts: dict[str, int]
    excluded: dict[str, int]
    strategy: str = Field(description="exact: the tenant was ranked exactly; index: via the ANN index.")
    keyword_terms: list[str] = Field(description="The content terms keyword search looked for (none in vector mode).")
    keyword_weight: float = Field(description="How much keyword evidence counted in hybrid ranking: 1 for up to 12 "
                                              "terms, 12/n for a longer search text.")

    @classmethod
    def of(cls, meta: SearchMeta, query: str, agent: str) -> SearchMetaOut:
        return cls(query=query, agent=agent, options=meta.options, counts=meta.counts, excluded=meta.excluded,
                   strategy=meta.strategy, keyword_terms=list(meta.keyword_terms), keyword_weight=meta.keyword_weight)


class SearchResponse(BaseModel):
    count: int
    results: list[SearchHitOut]
    meta: SearchMetaOut | None = Field(None, description="With explain: true.")

    @classmethod
    def of(cls, result: SearchResult, query: str, agent: str) -> SearchResponse:
        explain = result.meta is not None
        hits = [SearchHitOut.of_hit(h, result, explain) for h in result.hits]
        meta = SearchMetaOut.of(result.meta, query, agent) if result.meta else None
        return cls(count=len(hits), results=hits, meta=meta)


class SearchManyResponse(BaseModel):
    results: list[SearchResponse] = Field(description="One response per search, in request order.")


class AdminSearchResponse(BaseModel):
    count: int
    results: list[SearchHitOut] = Field(description="The best `limit` across the tenants; each names its agent.")
    meta: dict[str, SearchMetaOut] | None = Field(None, description="With explain: true, per agent.")

    @classmethod
    def of(cls, merged: AcrossTenants, query: str) -> AdminSearchResponse:
        hits = [SearchHitOut.of_hit(h, merged.results[h.memory.agent], merged.results[h.memory.agent].meta is not None)
                for h in merged.hits]
        meta = {a: SearchMetaOut.of(r.meta, query, a) for a, r in merged.results.items() if r.meta} or None
        return cls(count=len(hits), results=hits, meta=meta)

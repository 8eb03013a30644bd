"""Typed answers. Each model reads one response schema of the service, named in `openapi`; a test
(tests/integration/test_client_schema.py) fetches the live /openapi.json and checks that every field
declared here exists there with a compatible type, and that a field required here is required there.

Written by hand rather than generated, so that names read well (`Memory`, not `MemoryOut`) and the
package needs no generator; `extra="allow"` keeps fields a newer service adds (`model_extra`), so an
older client reads a newer service's answers without failing."""
from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    model_config = ConfigDict(extra="allow")
    openapi: ClassVar[str]  # the component in the service's /openapi.json this model reads

    def to_json(self) -> dict[str, Any]:
        """Plain JSON types (datetimes as ISO-8601 strings), extra fields included."""
        return self.model_dump(mode="json")


class Claim(Model):
    openapi = "ClaimOut"
    subject: str
    predicate: str
    value: str
    normalized_value: str | None
    exclusive: bool
    scope: str
    session_id: str | None
    valid_from: datetime | None
    valid_until: datetime | None


class Quarantine(Model):
    openapi = "QuarantineOut"
    reason: str
    details: str | None
    created_at: datetime
    resolution: str | None
    resolved_at: datetime | None


class Memory(Model):
    openapi = "MemoryOut"
    id: str
    agent: str
    text: str
    memory_type: str
    category: str | None
    importance: float
    tags: list[str]
    status: str
    version: int
    created_at: datetime
    updated_at: datetime
    event_at: datetime | None
    metadata: dict[str, Any] | None
    source_type: str
    corroboration: int
    reinforcements: int
    disputes: int
    trust: float
    confidence: float
    quarantine: Quarantine | None
    claim: Claim | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    access_count: int = 0
    last_accessed_at: datetime | None = None


class StoredMemory(Memory):
    """A write's answer: the memory, and what the write did to the beliefs around it."""
    openapi = "StoreOut"
    deduplicated: bool
    superseded: list[str]
    quarantined: bool
    pending_conflict_id: str | None
    conflicts: list[str]
    # Secrets replaced by [REDACTED:<kind>] (secrets="redact"): {field, kind, start, end}, never a value.
    redacted: list[dict[str, Any]] = []


class PatchedMemory(Memory):
    """A patch's answer: the memory, and the secrets the patch had replaced (secrets="redact")."""
    openapi = "PatchOut"
    redacted: list[dict[str, Any]] = []


class MemoryPage(Model):
    openapi = "MemoryPage"
    count: int
    items: list[Memory]
    next_cursor: str | None


class Deleted(Model):
    openapi = "HardDeleteOut"
    id: str
    deleted: bool = True
    related_nodes_removed: int


class Operation(Model):
    """One audit record: who changed which memories how (docs/audit.md)."""
    openapi = "OperationOut"
    id: str
    op: str
    actor: str
    at: datetime
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    memory_ids: list[str] = []
    job_id: str | None = None
    redacted: bool = False


class History(Model):
    """A memory's audit trail, oldest first; `next_cursor` is set when more records follow."""
    openapi = "HistoryOut"
    id: str
    count: int
    operations: list[Operation]
    next_cursor: str | None = None


class AuditPage(Model):
    """A page of a tenant's audit records, newest first."""
    openapi = "AuditPage"
    count: int
    items: list[Operation]
    next_cursor: str | None


class Related(Model):
    """A memory a result's typed edges reach (search and context with `expand`)."""
    openapi = "RelatedOut"
    id: str
    text: str
    memory_type: str
    status: str
    kind: str
    direction: str
    hops: int
    path: list[str]
    kinds: list[str]
    directions: list[str]


class SearchHit(Memory):
    openapi = "SearchHitOut"
    score: float
    similarity: float | None
    composite_score: float
    ranking_signals: dict[str, float]
    explain: dict[str, Any] | None = None
    related: list[Related] = []


class SearchMeta(Model):
    openapi = "SearchMetaOut"
    query: str
    agent: str
    options: dict[str, Any]
    counts: dict[str, int]
    excluded: dict[str, int]
    strategy: str
    keyword_terms: list[str]
    keyword_weight: float


class SearchResults(Model):
    openapi = "SearchResponse"
    count: int
    results: list[SearchHit]
    meta: SearchMeta | None = None


class AdminSearchResults(Model):
    openapi = "AdminSearchResponse"
    count: int
    results: list[SearchHit]
    meta: dict[str, SearchMeta] | None = None


class ContextMemory(Model):
    openapi = "ContextMemoryOut"
    id: str
    text: str
    memory_type: str
    status: str
    composite_score: float
    via: str
    expanded_from: list[str]
    related: list[Related] = []


class Excluded(Model):
    openapi = "ExcludedOut"
    id: str
    reason: str
    value: float


class Context(Model):
    openapi = "ContextResponse"
    context: str
    token_estimate: int
    included: int
    excluded: int
    excluded_reasons: list[Excluded]
    memories: list[ContextMemory]
    explain: dict[str, Any] | None = None


class Feedback(Model):
    openapi = "FeedbackOut"
    id: str
    reinforcements: int
    disputes: int
    corroboration: int
    trust: float
    confidence: float
    status: str


class Conflict(Model):
    openapi = "ConflictOut"
    id: str
    status: str
    reason: str
    rule: str | None
    resolution: str | None
    resolved_by: str | None
    new_trust: float
    existing_trust: float
    created_at: datetime
    resolved_at: datetime | None
    new_id: str
    existing_id: str
    new_status: str | None
    existing_status: str | None
    new_claim: Claim | None
    existing_claim: Claim | None


class Resolution(Model):
    openapi = "ResolveOut"
    conflict_id: str
    action: str
    memory: Memory
    superseded: list[str]
    resolved_conflicts: list[str]


class Review(Model):
    openapi = "ReviewOut"
    memory: Memory
    superseded: list[str]
    pending_conflict_id: str | None


class TrustTerms(Model):
    openapi = "TrustTermsOut"
    source_base: float
    corroboration_bonus: float
    feedback_signal: float
    recency_penalty: float
    trust: float
    stored: float
    computed_at: datetime
    inputs: dict[str, Any]


class Explanation(Model):
    openapi = "ExplainOut"
    memory: Memory
    status: str
    trust: TrustTerms
    sources: list[dict[str, Any]]
    claim: Claim | None
    conflicts: list[dict[str, Any]]
    superseded_by: list[dict[str, Any]]
    supersedes: list[dict[str, Any]]


class Supersession(Model):
    openapi = "SupersessionOut"
    id: str
    status: str
    superseded: bool
    superseded_by: list[dict[str, Any]]
    claim: Claim | None


class Link(Model):
    openapi = "LinkOut"
    type: str
    direction: str
    id: str
    at: datetime | None
    created_by: str | None = None
    note: str | None = None
    reason: str | None = None
    conflict_id: str | None = None
    resolved_at: datetime | None = None
    resolution: str | None = None


class Links(Model):
    openapi = "LinksOut"
    id: str
    links: list[Link]


class PredicateSchema(Model):
    openapi = "PredicateSchemaOut"
    predicate: str
    cardinality: str
    conflict_policy: str
    normalize: str
    dedup_policy: str
    registered: bool
    updated_at: datetime | None


# What an entity may be; a test holds it equal to the service's (tests/integration/test_client_schema.py).
ENTITY_KINDS = ("person", "place", "organisation", "product", "other")


class Entity(Model):
    """A person, place, organisation or product the tenant's claims name (docs/entities.md)."""
    openapi = "EntityOut"
    id: str
    name: str
    kind: str
    aliases: list[str]
    mentions: int
    created_at: datetime | None


class EntityRef(Model):
    openapi = "EntityRefOut"
    id: str
    name: str
    kind: str


class Relationship(Model):
    """`source` -[type]-> `target`, evidenced by memories; `current` false: historical (closed)."""
    openapi = "RelationshipOut"
    id: str
    type: str
    source: EntityRef
    target: EntityRef
    strength: float
    mentions: int
    trust: float
    first_seen: datetime | None
    last_seen: datetime | None
    valid_from: datetime | None
    valid_until: datetime | None
    current: bool
    memory_ids: list[str]


class EntityPage(Model):
    openapi = "EntitiesOut"
    entities: list[Entity]
    next_after: str | None


class EntityDetail(Model):
    openapi = "EntityDetailOut"
    entity: Entity
    relationships: list[Relationship]


class GraphNode(Model):
    openapi = "GraphNodeOut"
    entity: Entity
    hops: int


class Neighbourhood(Model):
    """Nodes (with their distance in relationships) and edges around `root`, ready to draw."""
    openapi = "NeighbourhoodOut"
    root: str
    nodes: list[GraphNode]
    edges: list[Relationship]


class EntityPath(Model):
    """`relationships[i]` joins `entities[i]` and `entities[i + 1]`."""
    openapi = "PathOut"
    entities: list[EntityRef]
    relationships: list[Relationship]


class Mention(Model):
    openapi = "MentionOut"
    memory_id: str
    text: str
    status: str
    role: str
    subject: str
    predicate: str
    value: str
    created_at: datetime | None


class PredicateGroup(Model):
    openapi = "PredicateGroupOut"
    predicate: str
    memories: list[Mention]


class RelationshipGroup(Model):
    openapi = "RelationshipGroupOut"
    type: str
    relationships: list[Relationship]


class About(Model):
    """What we know about an entity: its relationships by type, the memories naming it by predicate."""
    openapi = "AboutOut"
    entity: Entity
    relationships: list[RelationshipGroup]
    memories: list[PredicateGroup]


# Asking (POST /v1/ask) and memory preferences (/v1/preferences).
class AskSlots(Model):
    openapi = "SlotsOut"
    subject: str | None
    predicate: str | None
    entity: list[str]
    topic: str | None
    exclude: list[str]
    window: str | None


class Cited(Model):
    """A memory behind an answer, and why."""
    openapi = "CitedOut"
    memory: Memory
    why: str


class AskExplain(Model):
    openapi = "AskExplainOut"
    handler: str
    router: str
    reasons: list[str]


class AskWindow(Model):
    openapi = "WindowOut"
    phrase: str
    start: datetime | None
    end: datetime | None
    resolved: bool
    anchor: str | None
    anchor_memory_id: str | None


class SummarySection(Model):
    openapi = "SectionOut"
    title: str
    lines: list[str]
    memory_ids: list[str]


class SlotState(Model):
    """One value a slot held; `current` marks the one that holds now (it comes last)."""
    openapi = "StateOut"
    memory_id: str
    value: str
    status: str
    valid_from: datetime | None
    valid_until: datetime | None
    current: bool
    historical: bool


class SentimentReading(Model):
    openapi = "ReadingOut"
    memory_id: str
    at: datetime
    score: float


class Feeling(Model):
    openapi = "FeelingOut"
    about: str
    readings: list[SentimentReading]
    trend: str
    earlier_mean: float | None
    recent_mean: float | None
    change: float | None
    split_at: datetime | None


class FollowedUp(Model):
    """A decision with its outcomes, or a goal with the progress recorded on it."""
    openapi = "FollowedUpOut"
    memory_id: str
    status: str
    follow_up_ids: list[str]
    last_at: datetime | None


class Answer(Model):
    """What POST /v1/ask answers: the intent, the handler's structured answer, the memories behind
    it (each with why) and, in `explain`, which handler ran and why."""
    openapi = "AskResponse"
    question: str
    intent: str
    also: list[str]
    slots: AskSlots
    found: bool
    summary: str
    memories: list[Cited]
    explain: AskExplain
    window: AskWindow | None = None
    sections: list[SummarySection] = []
    entity: About | None = None
    relationships: list[Relationship] = []
    path: EntityPath | None = None
    timeline: list[SlotState] = []
    feeling: Feeling | None = None
    decisions: list[FollowedUp] = []
    goals: list[FollowedUp] = []
    excluded: list[str] = []


class MemoryPreferences(Model):
    openapi = "PreferencesOut"
    agent: str
    never_store_types: list[str]
    never_store_topics: list[str]
    sensitivity_ceiling: str
    context_max_tokens: int | None
    type_quotas: dict[str, int]
    retention_days: dict[str, int]
    extraction_instructions: str | None
    ingest_by_default: bool
    version: int
    updated_at: datetime | None


# Every model above, for the schema test and for readers.
class JobProgress(Model):
    openapi = "ProgressOut"
    done: int
    total: int | None


class Job(Model):
    """A durable job (docs/maintenance.md): queued, running, succeeded, cancelled or dead."""
    openapi = "JobOut"
    id: str
    agent: str
    kind: str
    status: str
    priority: int
    params: dict[str, Any]
    progress: JobProgress
    attempts: int
    max_attempts: int
    created_at: datetime
    updated_at: datetime
    run_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    actor: str
    key: str | None
    depends_on: list[str]
    waiting_for: list[str]
    lease_owner: str | None
    lease_until: datetime | None
    cancel_requested: bool
    result: dict[str, Any] | None
    last_error: str | None
    parent_id: str | None

    @property
    def finished(self) -> bool:
        return self.status in ("succeeded", "cancelled", "dead")


class JobPage(Model):
    openapi = "JobPageOut"
    count: int
    items: list[Job]
    next_cursor: str | None


class ConsolidationChange(Model):
    """One change a consolidation makes (or would make), with why (docs/consolidation.md)."""
    openapi = "ChangeOut"
    kind: str  # merge, contradiction, corroborate, digest, entity_merge, prune
    target: str
    others: list[str]
    reason: str
    score: float | None = None
    trust_before: float | None = None
    trust_after: float | None = None
    text: str | None = None


class ConsolidationThresholds(Model):
    openapi = "ThresholdsOut"
    duplicate_similarity: float
    entity_similarity: float
    digest_similarity: float
    digest_window_hours: float
    digest_min_members: int
    digest_min_age_days: float
    retention_days: float


class MemoryCounts(Model):
    openapi = "CountsOut"
    total: int
    active: int


class ContradictionCounts(Model):
    openapi = "ContradictionsOut"
    pending: int
    resolved: int = 0


class DigestCounts(Model):
    openapi = "DigestsOut"
    clusters: int
    source_memories: int


class PrunedCounts(Model):
    openapi = "PrunedOut"
    archived: int
    expired: int


class Consolidation(Model):
    """A consolidation's report: its counts and every change, planned (dry run) or applied."""
    openapi = "ConsolidationOut"
    agent: str
    dry_run: bool
    job_id: str | None
    steps: list[str]
    thresholds: ConsolidationThresholds
    deduplicated: int
    contradictions: ContradictionCounts
    corroborated: int
    digests: DigestCounts
    entities_merged: int
    pruned: PrunedCounts
    before: MemoryCounts
    after: MemoryCounts
    duration_ms: int
    skipped: int
    changes: list[ConsolidationChange]


# Ingestion (POST /v1/ingest, and a store with `ingest`): what a message led to.
class DerivedClaim(Model):
    openapi = "ClaimDerived"
    subject: str
    predicate: str | None  # None: a value whose slot the decision found among known claims
    value: str


class IngestOperation(Model):
    """One decision, as applied (or planned, in a dry run)."""
    openapi = "OperationApplied"
    op: str  # ADD | UPDATE | DELETE | NOOP
    mode: str | None  # UPDATE: supersede, replace, append; DELETE: soft, hard
    reason: str
    memory_id: str | None
    target_id: str | None
    claim: DerivedClaim | None
    memory_type: str
    text: str | None
    sensitivity: str
    historical: bool
    superseded: list[str] = []


class IngestedMessage(Model):
    openapi = "MessageOut"
    index: int
    operations: list[IngestOperation]
    secrets: list[dict[str, Any]]  # {kind, start, end}, never a value
    skipped: list[str]


class Ingestion(Model):
    openapi = "IngestOut"
    dry_run: bool
    extractor: str
    decider: str
    messages: list[IngestedMessage]

    @property
    def operations(self) -> list[IngestOperation]:
        return [o for m in self.messages for o in m.operations]


class Ingested(Model):
    """A store read through ingestion (`ingest`, or the agent's default): its operations."""
    openapi = "IngestedOut"
    ingested: bool = True
    index: int
    operations: list[IngestOperation]
    secrets: list[dict[str, Any]]
    skipped: list[str]


ALL: tuple[type[Model], ...] = (
    Claim, Quarantine, Memory, StoredMemory, PatchedMemory, MemoryPage, Deleted, Operation, History, AuditPage,
    Related, SearchHit,
    SearchMeta, SearchResults, AdminSearchResults, ContextMemory, Excluded, Context, Feedback, Conflict, Resolution,
    Review, TrustTerms, Explanation, Supersession, Link, Links, PredicateSchema, Entity, EntityRef, Relationship,
    EntityPage, EntityDetail, GraphNode, Neighbourhood, EntityPath, Mention, PredicateGroup, RelationshipGroup, About,
    AskSlots, Cited, AskExplain, AskWindow, SummarySection, SlotState, SentimentReading, Feeling, FollowedUp, Answer,
    MemoryPreferences,
    JobProgress, Job, JobPage,
    ConsolidationChange, ConsolidationThresholds, MemoryCounts, ContradictionCounts, DigestCounts, PrunedCounts,
    Consolidation,
    DerivedClaim, IngestOperation, IngestedMessage, Ingestion, Ingested,
)

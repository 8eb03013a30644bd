"""Request and response bodies for /v1/memories."""
from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, model_validator

from api.schemas.beliefs import ClaimIn, ClaimOut, ProvenanceIn, QuarantineOut, SuspiciousIn
from api.schemas.common import Agent, Instant, MemoryType, Request, Sensitivity, Status, Tag
from api.schemas.ingest import MessageOut
from graph.audit import Operation
from graph.core.vocab import (
    AUDIT_OPS,
    DEFAULT_SECRET_MODE,
    DEFAULT_SENSITIVITY,
    ON_CONFLICT,
    SECRET_KINDS,
    SECRET_MODES,
)
from graph.memories.model import DEFAULT_IMPORTANCE, Memory, NewMemory, Provenance, SecretSpan, StoreResult
from graph.memories.rules import (
    MAX_CATEGORY_CHARS,
    MAX_METADATA_BYTES,
    MAX_METADATA_DEPTH,
    MAX_RECURRENCE_CHARS,
    MAX_TAGS,
    MAX_VERSION,
    NOT_NULL_ON_PATCH,
    PATCHABLE_FIELDS,
)
from graph.memories.threads import MAX_THREAD_CHARS

SecretMode = Literal[SECRET_MODES]  # type: ignore[valid-type]
SECRETS_DESCRIPTION = ("What a secret in what is sent does (passwords, card numbers, SSNs, IBANs, API keys and "
                       "tokens, JWTs, private keys; docs/secrets.md): refuse (the default) answers 422 naming each "
                       "by field, kind and character span, and stores nothing; redact stores the text with each "
                       "secret replaced by [REDACTED:<kind>] and lists them in `redacted`.")


class SecretOut(BaseModel):
    """A secret found in what was sent: never its value."""
    field: str = Field(description="The field as sent, e.g. text, metadata.db.password, memories[2].claim.value.")
    kind: Literal[SECRET_KINDS]  # type: ignore[valid-type]
    start: int = Field(description="Its first character in that field's value as sent (0-based).")
    end: int = Field(description="One past its last character.")

    @classmethod
    def of(cls, span: SecretSpan) -> SecretOut:
        return cls(field=span.field, kind=span.kind, start=span.start, end=span.end)


SENSITIVITY_DESCRIPTION = ("normal, sensitive (health, finances, death or loss, ...) or private (kept to the user). "
                           "Search and context show memories up to their `sensitivity_ceiling` (default sensitive).")
EFFECTIVE_FROM_DESCRIPTION = "Out of search and context until this instant (\"starting next month\")."
EXPIRES_AT_DESCRIPTION = ("Out of search and context from this instant on (\"until Friday\"); the daily expiry job "
                          "archives it later.")
RECURRENCE_DESCRIPTION = "An RFC 5545 RRULE, without the RRULE: prefix: FREQ=WEEKLY;BYDAY=MO for every Monday."
HISTORICAL_DESCRIPTION = "It says how things were (\"I used to ...\"), not how they are."
THREAD_DESCRIPTION = ("The conversation this was said in (your session or chat id). Turns of one thread are kept in "
                      "the order they arrive, each joined to the next by a NEXT edge, and search can bring a hit's "
                      "neighbouring turns.")


class MemoryCreate(Request):
    agent: Agent
    text: str = Field(min_length=1, pattern=r"\S",
                      description="What the agent learned. Non-empty; at most CREDENCE_MAX_TEXT_CHARS.")
    memory_type: MemoryType = "fact"
    category: str | None = Field(None, max_length=MAX_CATEGORY_CHARS)
    importance: StrictFloat = Field(DEFAULT_IMPORTANCE, ge=0.0, le=1.0)
    tags: list[Tag] = Field(default_factory=list, max_length=MAX_TAGS)
    event_at: Instant | None = Field(None, description="When the remembered event happened (ISO-8601).")
    metadata: dict[str, Any] | None = Field(
        None, description=f"Free-form JSON object: at most {MAX_METADATA_BYTES // 1024} KiB as JSON, nested at most "
                          f"{MAX_METADATA_DEPTH} levels, valid Unicode, finite numbers.")
    claim: ClaimIn | None = Field(None, description="What the memory asserts; enables conflict detection.")
    provenance: ProvenanceIn | None = Field(None, description="Default: source inference.")
    quarantine: SuspiciousIn | None = Field(None, description="Flag suspicious input: stored quarantined.")
    on_conflict: Literal[ON_CONFLICT] = Field(  # type: ignore[valid-type]
        "quarantine", description="keep_active: a write that loses a conflict stays active; the conflict is "
                                  "still recorded for review.")
    secrets: SecretMode | None = Field(None, description=SECRETS_DESCRIPTION + " In a batch, the default is the "
                                                                               "batch's `secrets`.")
    sensitivity: Sensitivity = Field(DEFAULT_SENSITIVITY, description=SENSITIVITY_DESCRIPTION)
    effective_from: Instant | None = Field(None, description=EFFECTIVE_FROM_DESCRIPTION)
    expires_at: Instant | None = Field(None, description=EXPIRES_AT_DESCRIPTION)
    recurrence: str | None = Field(None, max_length=MAX_RECURRENCE_CHARS, description=RECURRENCE_DESCRIPTION)
    historical: StrictBool = Field(False, description=HISTORICAL_DESCRIPTION)
    thread: str | None = Field(None, min_length=1, max_length=MAX_THREAD_CHARS, pattern=r"\S",
                               description=THREAD_DESCRIPTION)
    ingest: StrictBool | None = Field(None, description=
                                      "true: read the text as a user's message through ingestion (docs/ingestion.md): "
                                      "claims extracted, each decided ADD / UPDATE / DELETE / NOOP against what the "
                                      "agent knows; the answer lists the operations. Only for text without a claim. "
                                      "null: the agent's default (CREDENCE_INGEST_BY_DEFAULT); false: store as is.")

    @model_validator(mode="after")
    def _window(self) -> MemoryCreate:
        if self.effective_from and self.expires_at and self.expires_at <= self.effective_from:
            raise ValueError("expires_at must be later than effective_from")
        return self

    def to_domain(self, secrets: str = DEFAULT_SECRET_MODE) -> NewMemory:
        return NewMemory(agent=self.agent, text=self.text, memory_type=self.memory_type, category=self.category,
                         importance=self.importance, tags=tuple(self.tags), event_at=self.event_at,
                         metadata=self.metadata, claim=self.claim.to_domain() if self.claim else None,
                         provenance=self.provenance.to_domain() if self.provenance else Provenance(),
                         suspicious=(self.quarantine.details or "") if self.quarantine else None,
                         on_conflict=self.on_conflict, secrets=self.secrets or secrets,
                         sensitivity=self.sensitivity, effective_from=self.effective_from, expires_at=self.expires_at,
                         recurrence=self.recurrence, historical=self.historical, thread=self.thread)


class MemoryBatchCreate(Request):
    memories: list[MemoryCreate] = Field(min_length=1, description="At most CREDENCE_MAX_BATCH items.")
    secrets: SecretMode = Field(DEFAULT_SECRET_MODE, description=SECRETS_DESCRIPTION + " An item's own `secrets` "
                                                                                       "overrides it.")


class MemoryUpdate(Request):
    """Only the fields sent change. `text` re-embeds the memory. `expected_version` guards against
    lost updates: the patch applies only if the memory is still at that version (else 409).
    The fields besides expected_version are the domain's PATCHABLE_FIELDS (a unit test holds them
    equal); the domain checks every change again, whoever calls it."""
    model_config = ConfigDict(json_schema_extra=lambda schema: _patch_schema(schema))

    text: str | None = Field(None, min_length=1, pattern=r"\S")
    memory_type: MemoryType | None = None
    category: str | None = Field(None, max_length=MAX_CATEGORY_CHARS)
    importance: StrictFloat | None = Field(None, ge=0.0, le=1.0)
    tags: list[Tag] | None = Field(None, max_length=MAX_TAGS)
    event_at: Instant | None = None
    metadata: dict[str, Any] | None = Field(None, description="Replaces the metadata; the same rules as on create.")
    sensitivity: Sensitivity | None = Field(None, description=SENSITIVITY_DESCRIPTION)
    effective_from: Instant | None = Field(None, description=EFFECTIVE_FROM_DESCRIPTION + " null clears it.")
    expires_at: Instant | None = Field(None, description=EXPIRES_AT_DESCRIPTION + " null clears it.")
    recurrence: str | None = Field(None, max_length=MAX_RECURRENCE_CHARS, description=RECURRENCE_DESCRIPTION)
    historical: StrictBool | None = Field(None, description=HISTORICAL_DESCRIPTION)
    expected_version: StrictInt | None = Field(None, ge=1, le=MAX_VERSION)
    secrets: SecretMode = Field(DEFAULT_SECRET_MODE, description=SECRETS_DESCRIPTION)

    @model_validator(mode="after")
    def _something_to_change(self) -> MemoryUpdate:
        changes = self.model_fields_set & set(PATCHABLE_FIELDS)
        if not changes:
            raise ValueError("send at least one field to change")
        for name in NOT_NULL_ON_PATCH:
            if name in changes and getattr(self, name) is None:
                raise ValueError(f"{name} cannot be null")
        return self

    def changes(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in PATCHABLE_FIELDS if name in self.model_fields_set}


def _patch_schema(schema: dict[str, Any]) -> None:
    """The document says what the server takes: at least one patchable field, and null only where it
    clears something (the model needs None to tell "absent" apart, so the schema is edited here)."""
    schema["anyOf"] = [{"required": [name]} for name in PATCHABLE_FIELDS]
    for name in NOT_NULL_ON_PATCH:
        prop = schema["properties"][name]
        kept = [branch for branch in prop.pop("anyOf", []) if branch.get("type") != "null"]
        if len(kept) == 1:
            prop.update(kept[0])
        prop.pop("default", None)


class MemoryOut(BaseModel):
    id: str
    agent: str
    text: str
    memory_type: str
    category: str | None
    importance: float
    tags: list[str]
    status: Status
    version: int
    created_at: datetime
    updated_at: datetime
    event_at: datetime | None
    metadata: dict[str, Any] | None
    source_type: str = Field(description="The memory's own provenance source, which sets its base trust.")
    corroboration: int = Field(description="Distinct sources behind the memory.")
    reinforcements: int
    disputes: int
    trust: float
    confidence: float = Field(description="Equals trust: belief strength, apart from importance.")
    quarantine: QuarantineOut | None
    claim: ClaimOut | None = Field(None, description="Present on single-memory reads and writes.")
    valid_from: datetime | None = Field(None, description="Start of the claim's validity window, if any.")
    valid_until: datetime | None = Field(None, description="End of the claim's validity window (exclusive), if any.")
    access_count: int = Field(0, description="Times retrieval returned this memory (recorded asynchronously).")
    last_accessed_at: datetime | None = None
    superseded_at: datetime | None = Field(
        None, description="Record time: when it stopped being the present belief (superseded), if it did.")
    sensitivity: Sensitivity = DEFAULT_SENSITIVITY
    effective_from: datetime | None = None
    expires_at: datetime | None = None
    recurrence: str | None = None
    historical: bool = False
    sentiment: float | None = Field(None, description="The text's VADER compound sentiment at write time, -1 to 1.")
    thread: str | None = Field(None, description="The conversation thread it was stored in, if any.")
    turn: int | None = Field(None, description="Its place in its thread: 0 for the first turn, then 1, 2, ...")

    @classmethod
    def of(cls, memory: Memory) -> MemoryOut:
        return cls(id=memory.id, agent=memory.agent, text=memory.text, memory_type=memory.memory_type,
                   category=memory.category, importance=memory.importance, tags=list(memory.tags),
                   status=memory.status, version=memory.version, created_at=memory.created_at,
                   updated_at=memory.updated_at, event_at=memory.event_at, metadata=memory.metadata,
                   source_type=memory.source_type, corroboration=memory.corroboration,
                   reinforcements=memory.reinforcements, disputes=memory.disputes, trust=memory.trust,
                   confidence=memory.confidence, quarantine=QuarantineOut.of(memory.quarantine),
                   claim=ClaimOut.of(memory.claim), valid_from=memory.valid_from, valid_until=memory.valid_until,
                   access_count=memory.access_count, last_accessed_at=memory.last_accessed_at,
                   superseded_at=memory.superseded_at, sensitivity=memory.sensitivity,
                   effective_from=memory.effective_from, expires_at=memory.expires_at, recurrence=memory.recurrence,
                   historical=memory.historical, sentiment=memory.sentiment, thread=memory.thread,
                   turn=memory.turn)


class StoreOut(MemoryOut):
    deduplicated: bool = Field(description="true: an active belief already said this; it was corroborated instead.")
    superseded: list[str] = Field(description="Ids of the beliefs this write replaced.")
    quarantined: bool
    pending_conflict_id: str | None = Field(description="The conflict awaiting review, when the write was blocked.")
    conflicts: list[str] = Field(description="Ids of every conflict this write recorded.")
    redacted: list[SecretOut] = Field(default_factory=list, description=
                                      "Secrets replaced by [REDACTED:<kind>] before storing (secrets=redact).")

    @classmethod
    def of_result(cls, result: StoreResult) -> StoreOut:
        return cls(**MemoryOut.of(result.memory).model_dump(), deduplicated=result.deduplicated,
                   superseded=list(result.superseded), quarantined=result.memory.status == "quarantined",
                   pending_conflict_id=result.pending_conflict_id, conflicts=list(result.conflicts),
                   redacted=[SecretOut.of(s) for s in result.redacted])


class PatchOut(MemoryOut):
    redacted: list[SecretOut] = Field(default_factory=list, description=
                                      "Secrets replaced by [REDACTED:<kind>] before storing (secrets=redact).")


class MemoryBatchOut(BaseModel):
    count: int = Field(description="Memories stored as they were sent (`memories`).")
    memories: list[StoreOut] = Field(description="The items stored as they were sent, in their order.")
    ingested: list[IngestedOut] = Field(default_factory=list, description=
                                        "The items read through ingestion (`ingest`), each with its position.")


class IngestedOut(MessageOut):
    """A store read through ingestion: the operations its text led to (docs/ingestion.md); `index`
    is its position in the request (0 for a single memory)."""
    ingested: Literal[True] = True


class MemoryPage(BaseModel):
    count: int
    items: list[MemoryOut]
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page; null on the last page.")


class HardDeleteOut(BaseModel):
    id: str
    deleted: bool = True
    related_nodes_removed: int = Field(description="Nodes only this memory referenced, removed with it.")


class OperationOut(BaseModel):
    id: str
    op: str = Field(description="What happened: " + ", ".join(AUDIT_OPS) + " (docs/audit.md).")
    actor: str = Field(description="Who made the change (X-Credence-Actor; default api).")
    at: datetime
    before: dict[str, Any] | None = Field(description="What the change touched, before it; null when it "
                                                      "created something, or once a hard delete redacted it.")
    after: dict[str, Any] | None
    memory_ids: list[str] = Field(default_factory=list, description=
                                  "The memories it touched (a hard delete's record touches none: its memory is gone).")
    job_id: str | None = Field(None, description="The maintenance job that made the change; null for a caller's.")
    redacted: bool = Field(False, description="A hard delete of a memory this record shared blanked its payload.")

    @classmethod
    def of(cls, operation: Operation) -> OperationOut:
        return cls(id=operation.id, op=operation.op, actor=operation.actor, at=operation.at, before=operation.before,
                   after=operation.after, memory_ids=list(operation.memory_ids), job_id=operation.job_id,
                   redacted=operation.redacted)


class HistoryOut(BaseModel):
    id: str
    count: int
    operations: list[OperationOut]
    next_cursor: str | None = Field(None, description="Pass as `cursor` for the next page; null on the last page.")


class AuditPage(BaseModel):
    count: int
    items: list[OperationOut] = Field(description="Newest first.")
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page; null on the last page.")

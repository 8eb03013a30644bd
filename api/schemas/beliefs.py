"""Request and response parts for claims, provenance, quarantine and predicate schemas."""
from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field, StrictBool

from api.schemas.common import Agent, Instant, Request
from graph.beliefs.predicates import PredicateSchema
from graph.core.vocab import (
    CARDINALITIES,
    CONFLICT_POLICIES,
    DEDUP_POLICIES,
    DEFAULT_SOURCE,
    NORMALIZER_NAMES,
    SCOPES,
    SOURCE_TYPES,
)
from graph.memories.claims import MAX_PREDICATE, MAX_SESSION_ID, MAX_SUBJECT, MAX_VALUE
from graph.memories.model import Claim, Provenance, Quarantine
from graph.memories.rules import MAX_REF_CHARS, MAX_SUSPICIOUS_DETAILS_CHARS

# Literal types built from the domain's vocabularies, so each list of names has one home.
SourceType = Literal[SOURCE_TYPES]  # type: ignore[valid-type]
Scope = Literal[SCOPES]  # type: ignore[valid-type]
Cardinality = Literal[CARDINALITIES]  # type: ignore[valid-type]
ConflictPolicy = Literal[CONFLICT_POLICIES]  # type: ignore[valid-type]
Normalizer = Literal[NORMALIZER_NAMES]  # type: ignore[valid-type]
DedupPolicy = Literal[DEDUP_POLICIES]  # type: ignore[valid-type]


class ClaimIn(Request):
    subject: str = Field(max_length=MAX_SUBJECT, description="Who or what the claim is about, e.g. `user`.")
    predicate: str = Field(max_length=MAX_PREDICATE, description="e.g. `budget_is`, `lives_in`.")
    value: str = Field(max_length=MAX_VALUE)
    exclusive: StrictBool = Field(True, description="false: several values may hold at once.")
    scope: Scope = "global"
    session_id: str | None = Field(None, max_length=MAX_SESSION_ID, description="Required when scope is session.")
    valid_from: Instant | None = None
    valid_until: Instant | None = None

    def to_domain(self) -> Claim:
        return Claim(subject=self.subject, predicate=self.predicate, value=self.value, exclusive=self.exclusive,
                     scope=self.scope, session_id=self.session_id, valid_from=self.valid_from,
                     valid_until=self.valid_until)


class ProvenanceIn(Request):
    source: SourceType = Field(DEFAULT_SOURCE, description="Where the memory came from; sets its base trust.")
    ref: str | None = Field(None, max_length=MAX_REF_CHARS, description="Document id, tool call id, message id...")

    def to_domain(self) -> Provenance:
        return Provenance(source=self.source, ref=self.ref)


class SuspiciousIn(Request):
    """Flags the input as suspicious: it is stored quarantined, out of default retrieval."""
    details: str | None = Field(None, max_length=MAX_SUSPICIOUS_DETAILS_CHARS)


class ClaimOut(BaseModel):
    subject: str
    predicate: str
    value: str
    normalized_value: str | None
    exclusive: bool
    scope: str
    session_id: str | None
    valid_from: datetime | None
    valid_until: datetime | None

    @classmethod
    def of(cls, claim: Claim | None) -> ClaimOut | None:
        if claim is None:
            return None
        return cls(subject=claim.subject, predicate=claim.predicate, value=claim.value,
                   normalized_value=claim.normalized_value, exclusive=claim.exclusive, scope=claim.scope,
                   session_id=claim.session_id, valid_from=claim.valid_from, valid_until=claim.valid_until)


class QuarantineOut(BaseModel):
    """Why the memory was quarantined; kept after review, with how the review ended."""
    reason: str
    details: str | None
    created_at: datetime
    resolution: str | None = Field(description="activated or rejected once reviewed; null while quarantined.")
    resolved_at: datetime | None

    @classmethod
    def of(cls, quarantine: Quarantine | None) -> QuarantineOut | None:
        return None if quarantine is None else cls(reason=quarantine.reason, details=quarantine.details,
                                                   created_at=quarantine.created_at, resolution=quarantine.resolution,
                                                   resolved_at=quarantine.resolved_at)


class PredicateSchemaIn(Request):
    # The defaults of an unregistered predicate, from the vocabulary.
    cardinality: Cardinality = CARDINALITIES[0]
    conflict_policy: ConflictPolicy = CONFLICT_POLICIES[0]
    normalize: Normalizer = NORMALIZER_NAMES[0]
    dedup_policy: DedupPolicy = DEDUP_POLICIES[0]

    def to_domain(self, predicate: str) -> PredicateSchema:
        return PredicateSchema(predicate=predicate, cardinality=self.cardinality,
                               conflict_policy=self.conflict_policy, normalize=self.normalize,
                               dedup_policy=self.dedup_policy)


class NamedPredicateSchemaIn(PredicateSchemaIn):
    predicate: str = Field(min_length=1, max_length=100, pattern=r"\S")


class PredicateBulkIn(Request):
    agent: Agent
    predicates: list[NamedPredicateSchemaIn] = Field(min_length=1, max_length=500)


class PredicateSchemaOut(BaseModel):
    predicate: str
    cardinality: str
    conflict_policy: str
    normalize: str
    dedup_policy: str
    registered: bool = Field(description="false: nothing registered; these are the defaults that apply.")
    updated_at: datetime | None

    @classmethod
    def of(cls, schema: PredicateSchema) -> PredicateSchemaOut:
        return cls(predicate=schema.predicate, cardinality=schema.cardinality,
                   conflict_policy=schema.conflict_policy, normalize=schema.normalize,
                   dedup_policy=schema.dedup_policy, registered=schema.registered, updated_at=schema.updated_at)


class PredicateListOut(BaseModel):
    count: int
    predicates: list[PredicateSchemaOut]

"""Bodies for conflicts, quarantine and explain."""
from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from api.schemas.beliefs import ClaimOut
from api.schemas.common import Request
from api.schemas.memories import MemoryOut
from graph.beliefs.conflicts import ACTIONS, ConflictView
from graph.beliefs.explain import Explanation, Supersession, SupersessionEdge, TrustNow


class ConflictOut(BaseModel):
    id: str
    status: Literal["pending", "resolved"]
    reason: str = Field(description="trust_insufficient, predicate_requires_review, suspicious_input, keep_both, ...")
    rule: str | None = Field(description="The precedence rule that decided: higher_trust, user_correction, ...")
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
    new_claim: ClaimOut | None
    existing_claim: ClaimOut | None

    @classmethod
    def of(cls, view: ConflictView) -> ConflictOut:
        fields = {k: getattr(view, k) for k in cls.model_fields if k not in ("new_claim", "existing_claim")}
        return cls(**fields, new_claim=ClaimOut.of(view.new_claim), existing_claim=ClaimOut.of(view.existing_claim))


class ConflictListOut(BaseModel):
    count: int
    conflicts: list[ConflictOut]


class ResolveIn(Request):
    action: Literal[ACTIONS] = Field(description=(  # type: ignore[valid-type]
        "supersede: the new memory becomes active and replaces the existing belief; reject: the new memory is "
        "archived; keep_both: both stay active."))
    reason: str | None = Field(None, max_length=2_000)


class ResolveOut(BaseModel):
    conflict_id: str
    action: str
    memory: MemoryOut = Field(description="The conflict's new memory, as it is now.")
    superseded: list[str]
    resolved_conflicts: list[str]


class QuarantineIn(Request):
    reason: Literal["manual", "suspicious_input"] = "manual"
    details: str | None = Field(None, max_length=2_000)


class ReviewIn(Request):
    action: Literal["activate", "reject"]
    reason: str | None = Field(None, max_length=2_000)


class ReviewOut(BaseModel):
    memory: MemoryOut
    superseded: list[str]
    pending_conflict_id: str | None = Field(description="Set when activation lost on trust: still quarantined.")


class TrustInputsOut(BaseModel):
    source: str
    corroboration: int
    reinforcements: int
    disputes: int
    age_days: float


class TrustTermsOut(BaseModel):
    source_base: float
    corroboration_bonus: float
    feedback_signal: float
    recency_penalty: float
    trust: float = Field(
        description="Now: source_base + corroboration_bonus + feedback_signal - recency_penalty, in [0, 1].")
    stored: float = Field(description="The trust stored at the last change (the recency term has moved since).")
    computed_at: datetime
    inputs: TrustInputsOut

    @classmethod
    def of(cls, trust: TrustNow) -> TrustTermsOut:
        return cls(**trust.terms.as_dict(), stored=trust.stored, computed_at=trust.computed_at,
                   inputs=TrustInputsOut(**asdict(trust.inputs)))


class SourceOut(BaseModel):
    type: str = Field(description="user_explicit, user_implicit, tool, inference, ...")
    ref: str = Field(description="Where it came from (a URL, a message id); empty when not given.")
    at: datetime | None = Field(description="When this source confirmed the belief.")


class ConflictRefOut(BaseModel):
    id: str
    status: Literal["pending", "resolved"]
    reason: str
    rule: str | None
    resolution: str | None
    new_trust: float | None
    existing_trust: float | None
    created_at: datetime
    resolved_at: datetime | None
    role: Literal["new", "existing"] = Field(description="This memory's side of the conflict.")
    other_id: str | None = Field(description="The memory on the other side.")


class SupersessionEdgeOut(BaseModel):
    id: str = Field(description="The memory at the other end of the SUPERSEDES edge.")
    at: datetime | None
    reason: str | None = Field(description="The rule: higher_trust, user_correction, newer_valid_time, ...")
    status: str | None = Field(None, description="superseded_by only: the newer memory's status now.")
    new_trust: float | None = None
    old_trust: float | None = None

    @classmethod
    def all(cls, edges: tuple[SupersessionEdge, ...]) -> list[SupersessionEdgeOut]:
        return [cls(**asdict(e)) for e in edges]


class ExplainOut(BaseModel):
    memory: MemoryOut
    status: str
    trust: TrustTermsOut
    sources: list[SourceOut] = Field(description="Oldest first.")
    claim: ClaimOut | None
    conflicts: list[ConflictRefOut] = Field(description="Oldest first.")
    superseded_by: list[SupersessionEdgeOut]
    supersedes: list[SupersessionEdgeOut]

    @classmethod
    def of(cls, view: Explanation) -> ExplainOut:
        memory = view.memory
        return cls(memory=MemoryOut.of(memory), status=memory.status, trust=TrustTermsOut.of(view.trust),
                   sources=[SourceOut(**asdict(s)) for s in view.sources], claim=ClaimOut.of(memory.claim),
                   conflicts=[ConflictRefOut(**asdict(c)) for c in view.conflicts],
                   superseded_by=SupersessionEdgeOut.all(view.superseded_by),
                   supersedes=SupersessionEdgeOut.all(view.supersedes))


class SupersessionOut(BaseModel):
    id: str
    status: str
    superseded: bool
    superseded_by: list[SupersessionEdgeOut] = Field(description="Who replaced it, when, why, and both trusts then.")
    claim: ClaimOut | None

    @classmethod
    def of(cls, view: Supersession) -> SupersessionOut:
        return cls(id=view.id, status=view.status, superseded=view.superseded,
                   superseded_by=SupersessionEdgeOut.all(view.superseded_by), claim=ClaimOut.of(view.claim))

"""Bodies for conflicts, quarantine and explain."""
from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from api.schemas.beliefs import ClaimOut
from api.schemas.common import Request
from api.schemas.memories import MemoryOut
from graph.beliefs.conflicts import ACTIONS


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
    def of(cls, view: dict[str, Any]) -> "ConflictOut":
        return cls(**{**view, "new_claim": ClaimOut.of(view["new_claim"]),
                      "existing_claim": ClaimOut.of(view["existing_claim"])})


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


class TrustTermsOut(BaseModel):
    source_base: float
    corroboration_bonus: float
    feedback_signal: float
    recency_penalty: float
    trust: float = Field(description="Now: source_base + corroboration_bonus + feedback_signal - recency_penalty, in [0, 1].")
    stored: float = Field(description="The trust stored at the last change (the recency term has moved since).")
    computed_at: datetime
    inputs: dict[str, Any]


class ExplainOut(BaseModel):
    memory: MemoryOut
    status: str
    trust: TrustTermsOut
    sources: list[dict[str, Any]]
    claim: ClaimOut | None
    conflicts: list[dict[str, Any]]
    superseded_by: list[dict[str, Any]]
    supersedes: list[dict[str, Any]]


class SupersessionOut(BaseModel):
    id: str
    status: str
    superseded: bool
    superseded_by: list[dict[str, Any]] = Field(description="Who replaced it, when, why, and both trusts then.")
    claim: ClaimOut | None

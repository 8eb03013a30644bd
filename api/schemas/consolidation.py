"""POST /v1/consolidate: what one consolidation is asked to do, and its report."""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, StrictBool, StrictFloat, StrictInt

from api.schemas.common import Agent, Request
from graph.consolidation import Change, Report, Thresholds
from graph.core.vocab import CONSOLIDATION_CHANGES
from graph.settings import CONSOLIDATION_BOUNDS

ChangeKind = Literal[CONSOLIDATION_CHANGES]  # type: ignore[valid-type]
_B = CONSOLIDATION_BOUNDS


def _bounded(name: str, description: str) -> Any:
    low, high = _B[name]
    return Field(None, ge=low, le=high, description=f"{description} ({low:g} to {high:g}; default from settings).")


class StepsIn(Request):
    """Which steps run; a step left out keeps its default (every step on, `prune` as the service allows)."""
    duplicates: StrictBool | None = Field(None, description="Merge near-duplicate memories.")
    contradictions: StrictBool | None = Field(None, description="Make coexisting rival beliefs pending conflicts.")
    corroboration: StrictBool | None = Field(None, description="Count distinct sources of the same claim.")
    digests: StrictBool | None = Field(None, description="Summarise clusters of old related events.")
    entities: StrictBool | None = Field(None, description="Merge entities with near-identical names.")
    prune: StrictBool | None = Field(None, description="Hard-delete archived and expired memories past retention "
                                                       "(only where CREDENCE_CONSOLIDATION_PRUNE allows it).")


class ThresholdsIn(Request):
    duplicate_similarity: StrictFloat | StrictInt | None = _bounded(
        "duplicate_similarity", description="Cosine at or above which two memories are near-duplicates")
    entity_similarity: StrictFloat | StrictInt | None = _bounded(
        "entity_similarity", description="Name similarity at or above which two entities are one")
    digest_similarity: StrictFloat | StrictInt | None = _bounded(
        "digest_similarity", description="Cosine to a cluster's centroid an event needs to join it")
    digest_window_hours: StrictFloat | StrictInt | None = _bounded(
        "digest_window_hours", description="Hours a digest's events may span")
    digest_min_members: StrictInt | None = _bounded(
        "digest_min_members", description="Fewest events a digest summarises")
    digest_min_age_days: StrictFloat | StrictInt | None = _bounded(
        "digest_min_age_days", description="Days an event must be old to be digested")
    retention_days: StrictFloat | StrictInt | None = _bounded(
        "retention_days", description="Days archived or expired memories are kept before pruning")


class ConsolidateIn(Request):
    agent: Agent
    dry_run: StrictBool = Field(False, description="true: answer the plan (every change with its reason) and change "
                                                   "nothing; false: apply exactly that plan.")
    steps: StepsIn | None = None
    thresholds: ThresholdsIn | None = None

    def step_overrides(self) -> dict[str, bool]:
        return self.steps.model_dump(exclude_none=True) if self.steps else {}

    def threshold_overrides(self) -> dict[str, float]:
        return self.thresholds.model_dump(exclude_none=True) if self.thresholds else {}


class ChangeOut(BaseModel):
    kind: ChangeKind = Field(description="merge, contradiction, corroborate, digest, entity_merge or prune.")
    target: str = Field(description="merge: the memory that stays; contradiction: the newer belief; corroborate: the "
                                    "memory whose trust rises; digest: the digest memory; entity_merge: the entity "
                                    "that stays; prune: the memory deleted.")
    others: list[str] = Field(description="merge: the near-duplicates archived into it; contradiction: the older "
                                          "rival; corroborate: the memories whose sources it gains; digest: its "
                                          "members; entity_merge: the entity folded into it.")
    reason: str
    score: float | None = Field(None, description="merge: the lowest cosine to the survivor; entity_merge: the name "
                                                  "similarity; digest: the lowest cosine of a member to the centroid.")
    trust_before: float | None = None
    trust_after: float | None = None
    text: str | None = Field(None, description="digest: its text.")

    @classmethod
    def of(cls, c: Change) -> ChangeOut:
        return cls(kind=c.kind, target=c.target, others=list(c.others), reason=c.reason, score=c.score,
                   trust_before=c.trust_before, trust_after=c.trust_after, text=c.text)


class ThresholdsOut(BaseModel):
    duplicate_similarity: float
    entity_similarity: float
    digest_similarity: float
    digest_window_hours: float
    digest_min_members: int
    digest_min_age_days: float
    retention_days: float

    @classmethod
    def of(cls, t: Thresholds) -> ThresholdsOut:
        return cls(**t.__dict__)


class CountsOut(BaseModel):
    total: int
    active: int


class ContradictionsOut(BaseModel):
    pending: int = Field(description="Pairs of rival beliefs made pending conflicts.")
    resolved: int = Field(0, description="Always 0: consolidation never resolves a contradiction; a person does.")


class DigestsOut(BaseModel):
    clusters: int
    source_memories: int


class PrunedOut(BaseModel):
    archived: int
    expired: int


class ConsolidationOut(BaseModel):
    agent: str
    dry_run: bool
    job_id: str | None
    steps: list[str] = Field(description="The steps that ran, in order.")
    thresholds: ThresholdsOut
    deduplicated: int = Field(description="Near-duplicates archived into the memory that stays.")
    contradictions: ContradictionsOut
    corroborated: int = Field(description="Memories that gained the sources of others asserting the same claim.")
    digests: DigestsOut
    entities_merged: int
    pruned: PrunedOut
    before: CountsOut
    after: CountsOut = Field(description="A dry run: what a forced run would leave, with nothing else changing.")
    duration_ms: int
    skipped: int = Field(description="Planned changes a concurrent write made moot before they were applied.")
    changes: list[ChangeOut] = Field(description="Every change, in the order it is (or would be) applied.")

    @classmethod
    def of(cls, r: Report) -> ConsolidationOut:
        return cls(agent=r.agent, dry_run=r.dry_run, job_id=r.job_id, steps=list(r.steps),
                   thresholds=ThresholdsOut.of(r.thresholds), deduplicated=r.deduplicated,
                   contradictions=ContradictionsOut(pending=r.contradictions_pending), corroborated=r.corroborated,
                   digests=DigestsOut(clusters=r.digests, source_memories=r.digested_memories),
                   entities_merged=r.entities_merged,
                   pruned=PrunedOut(archived=r.pruned_archived, expired=r.pruned_expired),
                   before=CountsOut(total=r.before.total, active=r.before.active),
                   after=CountsOut(total=r.after.total, active=r.after.active), duration_ms=r.duration_ms,
                   skipped=r.skipped, changes=[ChangeOut.of(c) for c in r.changes])


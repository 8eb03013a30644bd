"""What a consolidation is asked to do, and what it answers: the plan (every change with its reason)
and the report's counts. The domain checks its own input here (InvalidInput naming the field), so a
job or a pipeline calling graph/ directly meets the rules the HTTP API does. Pure."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from graph.core.checks import check_short_text
from graph.core.errors import InvalidInput
from graph.core.tenancy import check_agent
from graph.core.vocab import CONSOLIDATION_STEPS
from graph.settings import CONSOLIDATION_BOUNDS, Settings

MAX_JOB_ID_CHARS = 200


@dataclass(frozen=True)
class Thresholds:
    """The rules' numbers (docs/consolidation.md): defaults from settings, overridable per request
    within CONSOLIDATION_BOUNDS."""
    duplicate_similarity: float = 0.95
    entity_similarity: float = 0.85
    digest_similarity: float = 0.55
    digest_window_hours: float = 72.0
    digest_min_members: int = 3
    digest_min_age_days: float = 30.0
    retention_days: float = 90.0

    @classmethod
    def of(cls, settings: Settings) -> Thresholds:
        return cls(**{f.name: getattr(settings, f"consolidation_{f.name}") for f in fields(cls)})


@dataclass(frozen=True)
class Steps:
    """Which steps run; pruning only where the service allows it."""
    duplicates: bool = True
    contradictions: bool = True
    corroboration: bool = True
    digests: bool = True
    entities: bool = True
    prune: bool = False

    def on(self) -> tuple[str, ...]:
        return tuple(name for name in CONSOLIDATION_STEPS if getattr(self, name))


@dataclass(frozen=True)
class Defaults:
    """What the service allows and starts from (from settings, once per process)."""
    thresholds: Thresholds = Thresholds()
    prune_allowed: bool = False
    batch: int = 200
    exact_pairs_max: int = 0  # most memories whose near-duplicates an exact join finds (0: the index always)

    @classmethod
    def of(cls, settings: Settings) -> Defaults:
        return cls(Thresholds.of(settings), settings.consolidation_prune, settings.consolidation_batch,
                   settings.consolidation_exact_pairs_max)


@dataclass(frozen=True)
class Request:
    agent: str
    dry_run: bool = False
    steps: Mapping[str, bool] | None = None  # a step left out keeps its default
    thresholds: Mapping[str, float] | None = None  # an override left out keeps the setting


@dataclass(frozen=True)
class Checked:
    """A request with every default filled in and every value within its bounds."""
    agent: str
    dry_run: bool
    steps: Steps
    thresholds: Thresholds
    job_id: str | None = None


def check_request(request: Request, defaults: Defaults, job_id: str | None = None) -> Checked:
    check_agent(request.agent)
    if not isinstance(request.dry_run, bool):
        raise InvalidInput("dry_run", "must be true or false")
    if job_id is not None:
        check_short_text(job_id, "job_id", MAX_JOB_ID_CHARS)
    steps = Steps(prune=defaults.prune_allowed)
    chosen = _mapping(request.steps, "steps")
    for name, value in chosen.items():
        if name not in CONSOLIDATION_STEPS:
            raise InvalidInput(f"steps.{name}", f"is no step; one of {', '.join(CONSOLIDATION_STEPS)}")
        if not isinstance(value, bool):
            raise InvalidInput(f"steps.{name}", "must be true or false")
    steps = replace(steps, **chosen)
    if steps.prune and not defaults.prune_allowed:
        raise InvalidInput("steps.prune", "pruning is off on this service (CREDENCE_CONSOLIDATION_PRUNE=false)")
    overrides = _mapping(request.thresholds, "thresholds")
    for name, value in overrides.items():
        if name not in CONSOLIDATION_BOUNDS:
            raise InvalidInput(f"thresholds.{name}", f"is no threshold; one of {', '.join(CONSOLIDATION_BOUNDS)}")
        low, high = CONSOLIDATION_BOUNDS[name]
        whole = name == "digest_min_members"
        if (isinstance(value, bool) or not isinstance(value, int if whole else (int, float))
                or not low <= value <= high):
            kind = "a whole number" if whole else "a number"
            raise InvalidInput(f"thresholds.{name}", f"must be {kind} from {low:g} to {high:g}")
    thresholds = replace(defaults.thresholds, **overrides)
    return Checked(request.agent, request.dry_run, steps, thresholds, job_id)


def _mapping(value: Any, name: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidInput(name, "must be an object")
    return dict(value)


@dataclass(frozen=True)
class Change:
    """One change a consolidation makes, with why. `target` and `others` by kind:
    merge: the memory that stays, and the near-duplicates archived into it;
    contradiction: the newer belief, and the older rival it now has a pending conflict with;
    corroborate: the memory whose trust rises, and the memories whose sources it gains;
    digest: the digest memory (its id is fixed by its members), and its members;
    entity_merge: the entity that stays, and the one folded into it;
    prune: the memory deleted."""
    kind: str  # one of graph.core.vocab.CONSOLIDATION_CHANGES
    target: str
    others: tuple[str, ...] = ()
    reason: str = ""
    score: float | None = None  # merge: the lowest cosine to the survivor; entity_merge: name similarity
    trust_before: float | None = None  # merge (the survivor), corroborate
    trust_after: float | None = None
    text: str | None = None  # digest: its text


@dataclass(frozen=True)
class Counts:
    total: int
    active: int


@dataclass(frozen=True)
class Report:
    """The answer: the counts of the PRD's report and every change, planned (dry run) or applied."""
    agent: str
    dry_run: bool
    job_id: str | None
    steps: tuple[str, ...]
    thresholds: Thresholds
    deduplicated: int  # near-duplicates archived into the memory that stays
    contradictions_pending: int  # contradictions made pending conflicts (never resolved here)
    corroborated: int  # memories whose trust rose
    digests: int
    digested_memories: int
    entities_merged: int
    pruned_archived: int
    pruned_expired: int
    before: Counts
    after: Counts
    duration_ms: int
    skipped: int  # planned changes a concurrent write made moot before they were applied
    changes: tuple[Change, ...] = field(default_factory=tuple)
    timings: tuple[tuple[str, float], ...] = ()  # seconds per part (plan snapshot, plan duplicates, apply ...)

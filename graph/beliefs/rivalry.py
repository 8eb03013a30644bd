"""Which active beliefs a belief may supersede or conflict with: ONE rule set, used by every path
that can activate or supersede a belief (the claim write path, quarantine review activation and
conflict resolution). No path asks the graph for conflicting beliefs except through `rivals`.

Two beliefs are rivals when all of these hold:
  1. the predicate is single-valued (cardinality `single`) and both claims are exclusive: a
     multi-valued predicate or an `exclusive: false` claim has no rivals, on any path;
  2. same tenant, subject and predicate, and a different normalised value;
  3. the scope gate: a session claim meets only claims of its own session; global and temporal
     claims meet each other;
  4. their validity windows overlap;
  5. the other belief is active.
Rule 1 is `may_have_rivals`; rules 2-5 are `SlotState.rivals` (slots.py), over the beliefs that
beliefs/slots/open reads with the slot's lock. Which rival wins is precedence.py's rule; what
losing means is the predicate's conflict policy (`decide`), or on review `review_policy`.

Every path records each clash it meets as a (:Conflict) (`conflict_rows`): resolved when the path
decided it, pending when it waits for a person, so two active rivals never stand side by side
unrecorded, and the conflicts view is the whole history.

An accepted belief then takes its place on the slot's valid-time timeline (engine.settle, with
timeline.py's rules): windows closed where the next state starts, and SUPERSEDES edges in
valid-time order, whatever order the states arrived in. Pure: no I/O."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from graph.beliefs.precedence import Clash, Contender
from graph.beliefs.predicates import PredicateSchema
from graph.beliefs.trust import trust_now
from graph.core.timeutil import from_graph, from_graph_required
from graph.core.vocab import DEFAULT_SOURCE, QUARANTINED
from graph.memories.model import Claim


def may_have_rivals(claim: Claim, schema: PredicateSchema) -> bool:
    """Rule 1: only an exclusive claim of a single-valued predicate can conflict with anything."""
    return claim.exclusive and schema.cardinality == "single"


def review_policy(schema: PredicateSchema) -> str:
    """The conflict policy a quarantine review activates under. The review is the review that a
    require_review predicate asked for, so there trust decides (supersede); keep_both stays."""
    return "keep_both" if schema.conflict_policy == "keep_both" else "supersede"


def me_of(memory: dict[str, Any], claim: Claim | None, now: datetime) -> Contender:
    """A stored belief (memories/get's memory map and its claim) as a contender."""
    return Contender(memory["id"], memory["source_type"] or DEFAULT_SOURCE, trust_now(memory, now),
                     from_graph_required(memory["created_at"]),
                     (claim.valid_from if claim else None) or from_graph(memory.get("event_at")),
                     claim.valid_until if claim else None)


def conflict_rows(clashes: Iterable[Clash], *, status: str, reason: str, resolution: str | None, new_trust: float,
                  rule: str | None = None) -> list[dict[str, Any]]:
    """beliefs/settle's conflict rows, one per clash; `rule` overrides precedence's rule (a person
    decided, not trust)."""
    return [{"id": str(uuid.uuid4()), "existing_id": c.existing.memory_id, "status": status, "reason": reason,
             "rule": rule or c.rule, "resolution": resolution, "new_trust": new_trust,
             "existing_trust": c.existing.trust} for c in clashes]


def unrecorded(clashes: Iterable[Clash], linked: set[str]) -> list[Clash]:
    """The clashes with rivals that no pending conflict links to the belief yet."""
    return [c for c in clashes if c.existing.memory_id not in linked]


def settled_by_activation(pending: list[dict[str, Any]], decided: set[str]) -> list[str]:
    """The pending conflicts (beliefs/conflicts/pending_of rows) an activation settles: those with
    a rival it decided against now, and those whose other side no longer waits on them. A
    quarantined belief that lost to this one still waits, and its conflict stays pending."""
    return [p["id"] for p in pending if p["other_id"] in decided or p["other_status"] != QUARANTINED]

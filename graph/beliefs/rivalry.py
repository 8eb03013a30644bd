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
Rule 1 for the belief itself is pure (`may_have_rivals`); rules 2-5, and rule 1 for the other
side, are matched in Cypher by beliefs/find_conflicts. Which rival wins is precedence.py's rule;
what losing means is the predicate's conflict policy (`decide`), or on review `review_policy`.

Every path records each clash it meets as a (:Conflict) (`conflict_rows`): resolved when the path
decided it, pending when it waits for a person, so two active rivals never stand side by side
unrecorded, and the conflicts view is the whole history.

An accepted belief then takes its place on the slot's valid-time timeline (`succession`, with
timeline.py's rules; `apply_succession` writes it): windows closed where the next state starts, and
SUPERSEDES edges in valid-time order, whatever order the states arrived in."""
from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from graph.beliefs.precedence import Clash, Contender, Verdict
from graph.beliefs.predicates import PredicateSchema
from graph.beliefs.timeline import State, Succession, place
from graph.beliefs.trust import DEFAULT_SOURCE, trust_now
from graph.core.timeutil import from_graph, from_graph_required, iso
from graph.memories.model import Claim
from graph.store.gateway import Tx


def may_have_rivals(claim: Claim, schema: PredicateSchema) -> bool:
    """Rule 1: only an exclusive claim of a single-valued predicate can conflict with anything."""
    return claim.exclusive and schema.cardinality == "single"


def review_policy(schema: PredicateSchema) -> str:
    """The conflict policy a quarantine review activates under. The review is the review that a
    require_review predicate asked for, so there trust decides (supersede); keep_both stays."""
    return "keep_both" if schema.conflict_policy == "keep_both" else "supersede"


def gate_of(agent: str, claim: Claim) -> dict[str, Any]:
    """find_duplicate / find_conflicts parameters: where a claim sits and what it says."""
    return {"agent": agent, "subject": claim.subject, "predicate": claim.predicate,
            "normalized_value": claim.normalized_value, "scope": claim.scope, "session_id": claim.session_id,
            "valid_from": iso(claim.valid_from), "valid_until": iso(claim.valid_until)}


def contender_of(row: dict[str, Any], now: datetime) -> Contender:
    """A find_conflicts or timeline/states row as a precedence contender, with its trust at this
    moment and its valid time (valid_from, else event_at)."""
    return Contender(row["id"], row["source_type"] or DEFAULT_SOURCE, trust_now(row, now),
                     from_graph_required(row["created_at"]), from_graph(row["valid_from"] or row["event_at"]),
                     from_graph(row["valid_until"]))


def contenders_of(rows: list[dict[str, Any]], now: datetime) -> list[Contender]:
    """find_conflicts rows as precedence contenders."""
    return [contender_of(r, now) for r in rows]


def me_of(memory: dict[str, Any], claim: Claim | None, now: datetime) -> Contender:
    """A stored belief (memories/get's memory map and its claim) as a contender."""
    return Contender(memory["id"], memory["source_type"] or DEFAULT_SOURCE, trust_now(memory, now),
                     from_graph_required(memory["created_at"]),
                     (claim.valid_from if claim else None) or from_graph(memory.get("event_at")),
                     claim.valid_until if claim else None)


async def succession(tx: Tx, agent: str, claim: Claim, schema: PredicateSchema, me: Contender, verdict: Verdict,
                     now: datetime) -> Succession:
    """Where an accepted belief (verdict status active) sits on its slot's timeline. The timeline
    is read only when it can matter: the belief clashed with a rival, or it is dated."""
    timeline: list[State] = []
    if (may_have_rivals(claim, schema) and verdict.status == "active" and verdict.conflict_status == "resolved"
            and verdict.resolution != "keep_both" and (verdict.clashes or me.valid_start)):
        rows = await tx.many("beliefs/timeline/states", agent=agent, subject=claim.subject, predicate=claim.predicate,
                             scope=claim.scope, session_id=claim.session_id)
        timeline = [State(contender_of(r, now), r["status"], r["succeeded"]) for r in rows if r["id"] != me.memory_id]
    return place(me, verdict, timeline, now)


async def apply_succession(tx: Tx, agent: str, me_id: str, plan: Succession, now: datetime, *,
                           own_window: bool) -> None:
    """Writes the windows, statuses and valid-time SUPERSEDES edges of `plan`. `own_window`: also
    set the belief's own (False when it was just created with them)."""
    rows = [c for c in plan.closures if own_window or c.memory_id != me_id]
    if rows:
        await tx.many("beliefs/timeline/close", agent=agent, now=iso(now), rows=[
            {"id": c.memory_id, "valid_until": iso(c.valid_until), "status": c.status} for c in rows])
    linked = [c for c in plan.closures if c.successor_id]
    if linked:
        await tx.scalar("beliefs/timeline/unlink", agent=agent, ids=[c.memory_id for c in linked])
        await tx.many("beliefs/timeline/link", agent=agent, now=iso(now), edges=[
            {"new_id": c.successor_id, "old_id": c.memory_id, "new_trust": c.successor_trust, "old_trust": c.trust}
            for c in linked])


async def rivals(tx: Tx, agent: str, claim: Claim, schema: PredicateSchema, now: datetime, *,
                 exclude: str | None = None) -> list[Contender]:
    """The active beliefs `claim` may supersede or conflict with, with their trust now. `claim`
    carries its normalised value; `exclude` is the belief's own id once it is stored."""
    if not may_have_rivals(claim, schema):
        return []
    rows = await tx.many("beliefs/find_conflicts", **gate_of(agent, claim))
    return contenders_of([r for r in rows if r["id"] != exclude], now)


def conflict_rows(clashes: Iterable[Clash], *, status: str, reason: str, resolution: str | None, new_trust: float,
                  rule: str | None = None) -> list[dict[str, Any]]:
    """beliefs/record_conflicts rows, one per clash; `rule` overrides precedence's rule (a person
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
    return [p["id"] for p in pending if p["other_id"] in decided or p["other_status"] != "quarantined"]

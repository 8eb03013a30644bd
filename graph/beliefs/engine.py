"""The belief engine: the one orchestration of rivals -> decide -> succession -> record, used by
every path that can make a belief current (the write path, quarantine review, conflict resolution).

A transaction opens the slots it touches in one statement (`open_slots`: the locks, the schemas,
the beliefs that can matter, entity aliases), decides each claim in order against that state in
pure code (slots.py, rivalry.py, precedence.py, timeline.py), so claims of one batch see each
other, and writes the net change to existing beliefs in one statement (`Book.write`): statuses,
windows, successor edges, corroborations and conflicts. New memories are written by
memories/create with their claims, entities and relations, before it."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from graph.beliefs.normalize import NORMALIZERS, normalize
from graph.beliefs.precedence import Contender, Verdict
from graph.beliefs.rivalry import conflict_rows, may_have_rivals
from graph.beliefs.slots import Belief, SlotState
from graph.beliefs.timeline import Succession, place
from graph.core.keys import predicate_key, slot_key
from graph.core.timeutil import iso
from graph.core.vocab import ACTIVE
from graph.entities.claims import claim_entities, entity_keys_of
from graph.memories.model import Claim
from graph.store.gateway import Tx


@dataclass
class Book:
    """The open slots of one tenant in one transaction, and what the decisions owe the graph."""
    agent: str
    states: dict[str, SlotState]
    aliases: dict[str, str]
    conflicts: list[dict[str, Any]] = field(default_factory=list)

    def find(self, memory_id: str) -> tuple[SlotState, Belief] | None:
        """The open slot that holds this belief, and the belief, if any does."""
        for state in self.states.values():
            belief = state.get(memory_id)
            if belief is not None:
                return state, belief
        return None

    def state_of(self, claim: Claim) -> SlotState:
        return self.states[slot_key(self.agent, claim.subject, claim.predicate)]

    def normalized(self, claim: Claim) -> Claim:
        """The claim with its value normalised by its predicate's normaliser."""
        schema = self.state_of(claim).schema
        return replace(claim, normalized_value=normalize(schema.normalize, claim.value))

    def entities(self, claim: Claim) -> dict[str, Any]:
        """The claim's entity rows for memories/create: subject, value, relation."""
        subject, value, relation = claim_entities(self.agent, claim, self.aliases)
        return {"subject": subject, "value": value, "relation": relation}

    def record_conflicts(self, new_id: str, rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
        recorded = [{**row, "new_id": new_id} for row in rows]
        self.conflicts.extend(recorded)
        return recorded

    async def write(self, tx: Tx, now: datetime) -> None:
        """The net change to the slots' stored beliefs, in one statement (nothing when none)."""
        beliefs = [b for state in self.states.values() for b in state.beliefs]
        updates = [{"id": b.id, "status": b.status, "bumps": b.bumps, "closed": b.closed, "reason": b.left_reason,
                    "valid_until": iso(b.valid_until)} for b in beliefs if b.bumps]
        corroborations = [{"id": b.id, "trust": b.trust(now), "sources": b.added_sources}
                          for b in beliefs if b.corroborated]
        successors = [{**b.successor, "old_id": b.id, "reason": "newer_valid_time"}
                      for b in beliefs if b.successor is not None]
        edges = [edge for state in self.states.values() for edge in state.edges]
        if updates or corroborations or successors or edges or self.conflicts:
            await tx.scalar("beliefs/settle", agent=self.agent, now=iso(now), change={
                "updates": updates, "corroborations": corroborations, "successors": successors, "edges": edges,
                "conflicts": self.conflicts})


async def open_slots(tx: Tx, agent: str, claims: Sequence[Claim], now: datetime) -> Book:
    """Locks the claims' slots and reads their state, in one statement."""
    slots: dict[str, dict[str, Any]] = {}
    for claim in claims:
        key = slot_key(agent, claim.subject, claim.predicate)
        slot = slots.setdefault(key, {"key": key, "subject": claim.subject, "predicate": claim.predicate,
                                      "predicate_key": predicate_key(agent, claim.predicate), "values": set()})
        # A duplicate has the same normalised value; which normaliser applies is read with the slot.
        slot["values"].update(f(claim.value) for f in NORMALIZERS.values())
    keys = sorted({k for claim in claims for k in entity_keys_of(agent, claim)})
    rows = await tx.many("beliefs/slots/open", agent=agent, now=iso(now), write={"entity_keys": keys, "slots": [
        {**slot, "values": sorted(slot["values"])} for slot in sorted(slots.values(), key=lambda s: s["key"])]})
    aliases = {a["key"]: a["entity_key"] for a in rows[0]["aliases"]} if rows else {}
    return Book(agent, {r["key"]: SlotState.of(r, slots[r["key"]]["predicate"]) for r in rows}, aliases)


def settle(state: SlotState, claim: Claim, me: Contender, verdict: Verdict, now: datetime, *,
           reasons: dict[str, str]) -> Succession:
    """Where an accepted belief sits on its slot's timeline (timeline.py), applied to the state: the
    rivals it replaces outright, the windows it closes, its own window when it is an older state.
    The timeline is read only when it can matter: the belief clashed with a rival, or it is dated.
    `me` must be in the state already (a new belief: added with the plan's status after this)."""
    timeline = []
    if (may_have_rivals(claim, state.schema) and verdict.status == ACTIVE and verdict.conflict_status == "resolved"
            and verdict.resolution != "keep_both" and (verdict.clashes or me.valid_start)):
        timeline = state.timeline(claim, now, exclude=me.memory_id)
    plan = place(me, verdict, timeline, now)
    for beaten in plan.superseded:
        state.supersede(beaten.memory_id, reasons[beaten.memory_id],
                        {"new_id": me.memory_id, "new_trust": me.trust, "old_trust": beaten.trust})
    for closure in plan.closures:
        state.close(closure)
    return plan


def pending_rows(verdict: Verdict, trust: float) -> list[dict[str, Any]]:
    """The conflicts a write records for its verdict's clashes: resolved when decided now, pending
    when they wait for a person."""
    return conflict_rows(verdict.clashes, status=verdict.conflict_status,
                         reason=verdict.quarantine_reason or verdict.resolution or "keep_active",
                         resolution=verdict.resolution, new_trust=trust)


def belief_of_memory(memory: dict[str, Any], claim: Claim, status: str) -> Belief:
    """A stored memory (memories/get's maps) joining its slot's state, e.g. on activation."""
    return Belief.of({**memory, "status": status, "succeeded": False, "normalized_value": claim.normalized_value,
                      "exclusive": claim.exclusive, "scope": claim.scope, "session_id": claim.session_id,
                      "valid_from": claim.valid_from, "valid_until": claim.valid_until, "sources": ()})

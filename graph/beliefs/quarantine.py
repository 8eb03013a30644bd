"""The quarantine lane (docs/beliefs.md): quarantining by hand, and reviewing."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from graph import audit
from graph.beliefs.engine import Book, belief_of_memory, open_slots, settle
from graph.beliefs.precedence import Contender, decide
from graph.beliefs.rivalry import (
    conflict_rows,
    may_have_rivals,
    me_of,
    review_policy,
    settled_by_activation,
    unrecorded,
)
from graph.core.checks import check_choice, check_note
from graph.core.errors import NotFound, StateConflict
from graph.core.tenancy import check_agent
from graph.core.timeutil import iso, utcnow
from graph.core.vocab import (
    ACTIVE,
    ARCHIVED,
    DISPUTED,
    MANUAL_QUARANTINE_REASONS,
    OP_QUARANTINE,
    OP_REVIEW,
    QUARANTINED,
    REVIEW_ACTIONS,
    SUPERSEDED,
)
from graph.memories.model import Memory
from graph.memories.records import claim_from_map, memory_from_map
from graph.store.gateway import GraphRunner, Tx

QUARANTINABLE = (ACTIVE, DISPUTED)


@dataclass(frozen=True)
class Review:
    memory: Memory
    superseded: tuple[str, ...] = ()
    pending_conflict_id: str | None = None  # set when activation lost a conflict and it stays quarantined


class QuarantineService:
    def __init__(self, runner: GraphRunner) -> None:
        self.runner = runner

    async def quarantine(self, agent: str, memory_id: str, reason: str, details: str | None, actor: str) -> Memory:
        check_agent(agent)
        check_choice(reason, "reason", MANUAL_QUARANTINE_REASONS)
        check_note(details, "details")

        async def work(tx: Tx) -> Memory:
            current = await tx.optional("memories/get", agent=agent, id=memory_id)
            if not current:
                raise NotFound("memory", memory_id)
            status = current["memory"]["status"]
            if status not in QUARANTINABLE:
                raise StateConflict(f"memory {memory_id} is {status}; "
                                    "only active or disputed memories can be quarantined")
            changed = await tx.optional("beliefs/set_status", agent=agent, memory_id=memory_id, status=QUARANTINED,
                                     quarantine_reason=reason, quarantine_details=details,
                                     quarantine_resolution=None, now=iso(utcnow()))
            assert changed is not None, "the memory was read above, in this transaction"
            await audit.record(tx, agent, OP_QUARANTINE, actor, [memory_id], before={"status": status},
                               after={"status": QUARANTINED, "reason": reason, "details": details})
            return memory_from_map(changed["memory"], changed["claim"])

        return await self.runner.write_tx(work)

    async def review(self, agent: str, memory_id: str, action: str, reason: str | None, actor: str) -> Review:
        """activate: the memory is treated as a normal write again. With a claim, trust-gated
        precedence runs against today's active beliefs (the belief engine, as on the write path);
        if it still loses, it stays quarantined with a pending conflict (a person can then resolve
        that conflict to override). reject: archived."""
        check_agent(agent)
        check_choice(action, "action", REVIEW_ACTIONS)
        check_note(reason, "reason")

        async def work(tx: Tx) -> Review:
            now = utcnow()
            current = await tx.optional("memories/get", agent=agent, id=memory_id)
            if not current:
                raise NotFound("memory", memory_id)
            memory, claim = current["memory"], claim_from_map(current["claim"])
            book = None
            if claim:
                book = await open_slots(tx, agent, [claim], now)
                fresh = await tx.optional("memories/get", agent=agent, id=memory_id)  # under the lock
                assert fresh is not None  # this transaction read it a statement ago
                memory = fresh["memory"]
            if memory["status"] != QUARANTINED:
                raise StateConflict(f"memory {memory_id} is {memory['status']}, not quarantined")
            pending = await tx.many("beliefs/conflicts/pending_of", agent=agent, memory_id=memory_id)
            if action == "reject":
                result = await self._finish(tx, agent, memory_id, ARCHIVED, "rejected", (), [p["id"] for p in pending],
                                            "reject", actor, reason, now)
                return Review(result)

            me = me_of(memory, claim, now)
            contenders: list[Contender] = []
            policy = "supersede"
            if book is not None and claim is not None:
                # The same rule set as the write path: cardinality and exclusivity included.
                state = book.state_of(claim)
                if may_have_rivals(claim, state.schema):
                    contenders = [b.contender(now) for b in state.rivals(claim, exclude=memory_id)]
                policy = review_policy(state.schema)
            verdict = decide(me, contenders, policy=policy, on_conflict="quarantine")
            known = {p["other_id"] for p in pending}
            if verdict.status == ACTIVE:
                status, superseded = ACTIVE, tuple[str, ...]()
                if book is not None and claim is not None:
                    # Its place in valid time, as on the write path: an older state activates as history.
                    state = book.state_of(claim)
                    belief = belief_of_memory(memory, claim, ACTIVE)
                    state.beliefs.append(belief)
                    plan = settle(state, claim, me, verdict, now,
                                  reasons={c.existing.memory_id: "review_activation" for c in verdict.clashes})
                    status, superseded = belief.status, plan.replaced()
                    # As on the write path, each clash decided now is recorded, resolved (supersede or
                    # keep_both); one a pending conflict records already is settled with it.
                    book.record_conflicts(memory_id, conflict_rows(
                        unrecorded(verdict.clashes, known), status="resolved", reason=verdict.resolution or "supersede",
                        resolution=verdict.resolution, new_trust=me.trust))
                settle_ids = settled_by_activation(pending, {c.existing.memory_id for c in verdict.clashes})
                result = await self._finish(tx, agent, memory_id, status, "activated", superseded, settle_ids,
                                            verdict.resolution or "supersede", actor, reason, now, book)
                return Review(result, superseded)

            lost = [c for c in verdict.clashes if not c.new_wins]
            conflicts = conflict_rows(unrecorded(lost, known), status="pending", reason="trust_insufficient",
                                      resolution=None, new_trust=me.trust)
            if book is not None:
                book.record_conflicts(memory_id, conflicts)
                await book.write(tx, now)
            await audit.record(tx, agent, OP_REVIEW, actor, [memory_id],
                               after={"action": "activate", "outcome": "kept_quarantined", "reason": reason,
                                      "lost_to": [c.existing.memory_id for c in verdict.clashes if not c.new_wins]})
            pending_id = conflicts[0]["id"] if conflicts else (pending[0]["id"] if pending else None)
            return Review(memory_from_map(memory, current["claim"]), (), pending_id)

        return await self.runner.write_tx(work)

    @staticmethod
    async def _finish(tx: Tx, agent: str, memory_id: str, status: str, outcome: str, superseded: tuple[str, ...],
                      settle_ids: list[str], resolution: str, actor: str, reason: str | None, now: datetime,
                      book: Book | None = None) -> Memory:
        """The review's status first (it ends the quarantine), then what the engine decided for the
        slot (its own window closed, when it activated as history)."""
        changed = await tx.optional("beliefs/set_status", agent=agent, memory_id=memory_id, status=status,
                               quarantine_reason=None, quarantine_details=None, quarantine_resolution=outcome,
                               now=iso(now))
        if book is not None:
            await book.write(tx, now)
            changed = await tx.optional("memories/get", agent=agent, id=memory_id)
        assert changed is not None  # read under the slot's lock in this transaction
        if settle_ids:
            await tx.many("beliefs/conflicts/resolve", agent=agent, ids=settle_ids, resolution=resolution, actor=actor,
                          now=iso(now))
        await audit.record(tx, agent, OP_REVIEW, actor, [memory_id, *superseded], before={"status": QUARANTINED},
                           after={"status": status, "outcome": outcome, SUPERSEDED: list(superseded),
                                  "reason": reason})
        return memory_from_map(changed["memory"], changed["claim"])

"""The quarantine lane (PRD v0.8.1 feature 9): quarantining by hand, and reviewing."""
from __future__ import annotations

from dataclasses import dataclass

from graph.beliefs.precedence import Contender, decide
from graph.beliefs.predicates import schema_in
from graph.beliefs.rivalry import (
    apply_succession,
    conflict_rows,
    me_of,
    review_policy,
    rivals,
    settled_by_activation,
    succession,
    unrecorded,
)
from graph.beliefs.write_path import lock_claim, supersede_all
from graph.core.errors import NotFound, StateConflict
from graph.core.timeutil import iso, utcnow
from graph.memories import audit
from graph.memories.model import Memory
from graph.memories.records import claim_from_map, memory_from_map
from graph.store.gateway import GraphRunner, Tx

QUARANTINABLE = ("active", "disputed")


@dataclass(frozen=True)
class Review:
    memory: Memory
    superseded: tuple[str, ...] = ()
    pending_conflict_id: str | None = None  # set when activation lost a conflict and it stays quarantined


class QuarantineService:
    def __init__(self, runner: GraphRunner) -> None:
        self.runner = runner

    async def quarantine(self, agent: str, memory_id: str, reason: str, details: str | None, actor: str) -> Memory:
        async def work(tx: Tx) -> Memory:
            current = await tx.optional("memories/get", agent=agent, id=memory_id)
            if not current:
                raise NotFound("memory", memory_id)
            status = current["memory"]["status"]
            if status not in QUARANTINABLE:
                raise StateConflict(
                    f"memory {memory_id} is {status}; only active or disputed memories can be quarantined")
            changed = await tx.optional("beliefs/set_status", agent=agent, memory_id=memory_id, status="quarantined",
                                     quarantine_reason=reason, quarantine_details=details,
                                     quarantine_resolution=None, now=iso(utcnow()))
            assert changed is not None, "the memory was read above, in this transaction"
            await audit.record(tx, agent, "quarantine", actor, [memory_id], before={"status": status},
                               after={"status": "quarantined", "reason": reason, "details": details})
            return memory_from_map(changed["memory"], changed["claim"])

        return await self.runner.write_tx(work)

    async def review(self, agent: str, memory_id: str, action: str, reason: str | None, actor: str) -> Review:
        """activate: the memory is treated as a normal write again. With a claim, trust-gated
        precedence runs against today's active beliefs; if it still loses, it stays quarantined with
        a pending conflict (a person can then resolve that conflict to override). reject: archived."""

        async def work(tx: Tx) -> Review:
            now = utcnow()
            current = await tx.optional("memories/get", agent=agent, id=memory_id)
            if not current:
                raise NotFound("memory", memory_id)
            memory, claim = current["memory"], claim_from_map(current["claim"])
            if claim:
                await lock_claim(tx, agent, claim)
                fresh = await tx.optional("memories/get", agent=agent, id=memory_id)
                assert fresh is not None, "read above, in this transaction"
                memory = fresh["memory"]
            if memory["status"] != "quarantined":
                raise StateConflict(f"memory {memory_id} is {memory['status']}, not quarantined")
            pending = await tx.many("beliefs/conflicts/pending_of", agent=agent, memory_id=memory_id)
            if action == "reject":
                result = await self._finish(tx, agent, memory, "archived", "rejected", (), [p["id"] for p in pending],
                                            "reject", actor, reason, now)
                return Review(result)

            contenders: list[Contender] = []
            policy = "supersede"
            if claim:
                # The same rule set as the write path: cardinality and exclusivity included.
                schema = await schema_in(tx, agent, claim.predicate)
                contenders = await rivals(tx, agent, claim, schema, now, exclude=memory_id)
                policy = review_policy(schema)
            me = me_of(memory, claim, now)
            verdict = decide(me, contenders, policy=policy, on_conflict="quarantine")
            known = {p["other_id"] for p in pending}
            if verdict.status == "active":
                # Its place in valid time, as on the write path: an older state activates as history.
                plan = await succession(tx, agent, claim, schema, me, verdict, now) if claim else None
                beaten = list(plan.superseded if plan else verdict.supersede)
                superseded = await supersede_all(tx, agent, memory, beaten, "review_activation", now)
                if plan:
                    superseded += tuple(i for i in plan.replaced() if i not in superseded)
                # As on the write path, each clash decided now is recorded, resolved (supersede or
                # keep_both); one a pending conflict records already is settled with it.
                decided = conflict_rows(unrecorded(verdict.clashes, known), status="resolved",
                                        reason=verdict.resolution or "supersede", resolution=verdict.resolution,
                                        new_trust=me.trust)
                if decided:
                    await tx.many("beliefs/record_conflicts", agent=agent, new_id=memory_id, conflicts=decided,
                                 now=iso(now))
                settle = settled_by_activation(pending, {c.existing.memory_id for c in verdict.clashes})
                result = await self._finish(tx, agent, memory, plan.status if plan else "active", "activated",
                                            superseded, settle, verdict.resolution or "supersede", actor, reason, now)
                if plan and plan.closures:
                    await apply_succession(tx, agent, memory_id, plan, now, own_window=True)
                    fresh = await tx.optional("memories/get", agent=agent, id=memory_id)
                    assert fresh is not None, "read above, in this transaction"
                    result = memory_from_map(fresh["memory"], fresh["claim"])
                return Review(result, superseded)

            lost = [c for c in verdict.clashes if not c.new_wins]
            conflicts = conflict_rows(unrecorded(lost, known), status="pending", reason="trust_insufficient",
                                      resolution=None, new_trust=me.trust)
            if conflicts:
                await tx.many("beliefs/record_conflicts", agent=agent, new_id=memory_id, conflicts=conflicts,
                              now=iso(now))
            await audit.record(tx, agent, "review", actor, [memory_id],
                               after={"action": "activate", "outcome": "kept_quarantined", "reason": reason,
                                      "lost_to": [c.existing.memory_id for c in verdict.clashes if not c.new_wins]})
            pending_id = conflicts[0]["id"] if conflicts else (pending[0]["id"] if pending else None)
            return Review(memory_from_map(memory, current["claim"]), (), pending_id)

        return await self.runner.write_tx(work)

    @staticmethod
    async def _finish(tx: Tx, agent: str, memory: dict, status: str, outcome: str, superseded: tuple[str, ...],
                      settle: list[str], resolution: str, actor: str, reason: str | None, now) -> Memory:
        changed = await tx.optional("beliefs/set_status", agent=agent, memory_id=memory["id"], status=status,
                                 quarantine_reason=None, quarantine_details=None, quarantine_resolution=outcome,
                                 now=iso(now))
        assert changed is not None, "the memory was read by the caller, in this transaction"
        if settle:
            await tx.many("beliefs/conflicts/resolve", agent=agent, ids=settle, resolution=resolution, actor=actor,
                          now=iso(now))
        await audit.record(tx, agent, "review", actor, [memory["id"], *superseded], before={"status": "quarantined"},
                           after={"status": status, "outcome": outcome, "superseded": list(superseded),
                                  "reason": reason})
        return memory_from_map(changed["memory"], changed["claim"])

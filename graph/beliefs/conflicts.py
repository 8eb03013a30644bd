"""Conflicts: listing them, and resolving one by hand (supersede, reject, keep_both), once."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graph.beliefs.precedence import Contender, clashes_of
from graph.beliefs.predicates import schema_in
from graph.beliefs.rivalry import conflict_rows, rivals, unrecorded
from graph.beliefs.trust import DEFAULT_SOURCE, trust_now
from graph.beliefs.write_path import lock_claim, supersede_all
from graph.core.errors import NotFound, StateConflict
from graph.core.timeutil import from_graph, from_graph_required, iso, utcnow
from graph.memories import audit
from graph.memories.model import Claim
from graph.memories.records import claim_from_map, memory_from_map
from graph.store.gateway import GraphRunner, Tx

ACTIONS = ("supersede", "reject", "keep_both")


@dataclass(frozen=True)
class Resolution:
    conflict_id: str
    action: str
    new_memory: Any        # Memory
    superseded: tuple[str, ...]
    resolved: tuple[str, ...]  # every conflict this closed (the one asked for, and any it settled)


@dataclass(frozen=True)
class ConflictView:
    """A conflict between a new memory and an existing belief, with both sides as they are now."""
    id: str
    status: str  # pending | resolved
    reason: str  # trust_insufficient, predicate_requires_review, suspicious_input, keep_both, ...
    rule: str | None  # the precedence rule that decided
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
    new_claim: Claim | None
    existing_claim: Claim | None


def conflict_view(row: dict[str, Any]) -> ConflictView:
    c = row["conflict"]
    return ConflictView(
        id=c["id"], status=c["status"], reason=c["reason"], rule=c.get("rule"), resolution=c.get("resolution"),
        resolved_by=c.get("resolved_by"), new_trust=c["new_trust"], existing_trust=c["existing_trust"],
        created_at=from_graph_required(c["created_at"]), resolved_at=from_graph(c.get("resolved_at")),
        new_id=row["new_id"], existing_id=row["existing_id"], new_status=row.get("new_status"),
        existing_status=row.get("existing_status"), new_claim=claim_from_map(row.get("new_claim")),
        existing_claim=claim_from_map(row.get("existing_claim")))


class ConflictService:
    def __init__(self, runner: GraphRunner) -> None:
        self.runner = runner

    async def list(self, agent: str, *, subject: str | None = None, predicate: str | None = None,
                   include_resolved: bool = False, limit: int = 100) -> list[ConflictView]:
        rows = await self.runner.read("beliefs/conflicts/list", agent=agent, subject=subject, predicate=predicate,
                                      include_resolved=include_resolved, limit=limit)
        return [conflict_view(r) for r in rows]

    async def resolve(self, agent: str, conflict_id: str, action: str, actor: str, reason: str | None) -> Resolution:
        async def work(tx: Tx) -> Resolution:
            now = utcnow()
            found = await tx.optional("beliefs/conflicts/get", agent=agent, id=conflict_id)
            if not found:
                raise NotFound("conflict", conflict_id)
            new = await tx.optional("memories/get", agent=agent, id=found["new_id"])
            assert new is not None, "a conflict's memories outlive it (a hard delete takes its conflicts)"
            claim = claim_from_map(new["claim"])
            if claim:
                await lock_claim(tx, agent, claim)
            # Re-read under the lock: a concurrent resolution of the same conflict loses here.
            conflict = await tx.optional("beliefs/conflicts/get", agent=agent, id=conflict_id)
            assert conflict is not None, "read above, in this transaction"
            if conflict["conflict"]["status"] != "pending":
                raise StateConflict(f"conflict {conflict_id} is already resolved "
                                    f"({conflict['conflict'].get('resolution')})")
            superseded: tuple[str, ...] = ()
            memory, settle, recorded = new["memory"], [conflict_id], []
            if action == "reject":
                status, outcome = "archived", "rejected"
                settle += [p["id"] for p in await tx.many("beliefs/conflicts/pending_of", agent=agent,
                                                          memory_id=memory["id"])]
            else:
                status, outcome = "active", "activated"
                # The belief's active rivals now, by the same rule set as the write path (a multi-valued
                # predicate or a non-exclusive claim has none).
                contenders: list[Contender] = []
                if claim:
                    schema = await schema_in(tx, agent, claim.predicate)
                    contenders = await rivals(tx, agent, claim, schema, now, exclude=memory["id"])
                pending = await tx.many("beliefs/conflicts/pending_of", agent=agent, memory_id=memory["id"])
                linked = {p["other_id"] for p in pending} | {conflict["existing_id"]}
                me = Contender(memory["id"], memory["source_type"] or DEFAULT_SOURCE, trust_now(memory, now),
                               from_graph_required(memory["created_at"]))
                fresh = unrecorded(clashes_of(me, contenders), linked)
                if action == "supersede":
                    # The reviewer decided: the new belief replaces every active rival it has now, and
                    # each one no conflict named yet is recorded as resolved by that decision.
                    superseded = await supersede_all(tx, agent, memory, contenders, "manual_resolution", now)
                    recorded = conflict_rows(fresh, status="resolved", reason="supersede", resolution="supersede",
                                             new_trust=me.trust, rule="manual_resolution")
                    settle += [p["id"] for p in pending if p["other_id"] in superseded]
                else:
                    # keep_both keeps the conflict's other side. A rival the conflict never named is no
                    # decision of the reviewer's: both stay active, and that conflict waits for review.
                    recorded = conflict_rows(fresh, status="pending", reason="keep_active", resolution=None,
                                             new_trust=me.trust)
                if recorded:
                    await tx.many("beliefs/record_conflicts", agent=agent, new_id=memory["id"], conflicts=recorded,
                                 now=iso(now))
            changed = await tx.optional("beliefs/set_status", agent=agent, memory_id=memory["id"], status=status,
                                     quarantine_reason=None, quarantine_details=None,
                                     quarantine_resolution=outcome, now=iso(now))
            assert changed is not None, "the memory was read above, in this transaction"
            resolved = await tx.many("beliefs/conflicts/resolve", agent=agent, ids=list(dict.fromkeys(settle)),
                                    resolution=action, actor=actor, now=iso(now))
            await audit.record(tx, agent, "resolve", actor, [memory["id"], conflict["existing_id"], *superseded],
                               before={"conflict": "pending", "status": changed["previous"]},
                               after={"conflict": conflict_id, "action": action, "status": status,
                                      "superseded": list(superseded), "conflicts": [c["id"] for c in recorded],
                                      "reason": reason})
            return Resolution(conflict_id, action, memory_from_map(changed["memory"], changed["claim"]), superseded,
                              tuple(r["id"] for r in resolved))

        return await self.runner.write_tx(work)

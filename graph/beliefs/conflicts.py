"""Conflicts: listing them, and resolving one by hand (supersede, reject, keep_both), once."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graph import audit
from graph.beliefs.engine import belief_of_memory, open_slots, settle
from graph.beliefs.precedence import Clash, Verdict, clashes_of
from graph.beliefs.rivalry import conflict_rows, may_have_rivals, me_of, unrecorded
from graph.core.checks import check_choice, check_limit, check_note
from graph.core.errors import NotFound, StateConflict
from graph.core.tenancy import check_agent
from graph.core.timeutil import from_graph, from_graph_required, iso, utcnow
from graph.core.vocab import ACTIVE, ARCHIVED, OP_RESOLVE, RESOLUTION_ACTIONS, SUPERSEDED
from graph.memories.model import Claim
from graph.memories.records import claim_from_map, memory_from_map
from graph.store.gateway import GraphRunner, Tx

ACTIONS = RESOLUTION_ACTIONS
MAX_LIST = 500  # conflicts in one listing


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
        check_agent(agent)
        check_limit(limit, "limit", 1, MAX_LIST)
        rows = await self.runner.read("beliefs/conflicts/list", agent=agent, subject=subject, predicate=predicate,
                                      include_resolved=include_resolved, limit=limit)
        return [conflict_view(r) for r in rows]

    async def resolve(self, agent: str, conflict_id: str, action: str, actor: str, reason: str | None) -> Resolution:
        """supersede: the reviewer trusts the conflict's new belief over its rivals, and valid time
        still decides what is current (the belief engine, as on the write path): rivals it beats are
        replaced, an older state than a rival becomes history. reject: archived. keep_both: both stay
        active."""
        check_agent(agent)
        check_choice(action, "action", RESOLUTION_ACTIONS)
        check_note(reason, "reason")

        async def work(tx: Tx) -> Resolution:
            now = utcnow()
            found = await tx.optional("beliefs/conflicts/get", agent=agent, id=conflict_id)
            if not found:
                raise NotFound("conflict", conflict_id)
            new = await tx.optional("memories/get", agent=agent, id=found["new_id"])
            assert new is not None  # a conflict's memories are deleted with it
            claim = claim_from_map(new["claim"])
            book = await open_slots(tx, agent, [claim], now) if claim else None
            # Re-read under the lock: a concurrent resolution of the same conflict loses here.
            conflict = await tx.optional("beliefs/conflicts/get", agent=agent, id=conflict_id)
            assert conflict is not None
            if conflict["conflict"]["status"] != "pending":
                raise StateConflict(f"conflict {conflict_id} is already resolved "
                                    f"({conflict['conflict'].get('resolution')})")
            memory = (await tx.optional("memories/get", agent=agent, id=found["new_id"]) or new)["memory"]
            superseded: tuple[str, ...] = ()
            settle_ids, recorded = [conflict_id], []
            if action == "reject":
                status, outcome = ARCHIVED, "rejected"
                settle_ids += [p["id"] for p in await tx.many("beliefs/conflicts/pending_of", agent=agent,
                                                              memory_id=memory["id"])]
            else:
                status, outcome = ACTIVE, "activated"
                pending = await tx.many("beliefs/conflicts/pending_of", agent=agent, memory_id=memory["id"])
                linked = {p["other_id"] for p in pending} | {conflict["existing_id"]}
                me = me_of(memory, claim, now)
                clashes: tuple[Clash, ...] = ()
                if book is not None and claim is not None:
                    # The belief's active rivals now, by the same rule set as the write path (a
                    # multi-valued predicate or a non-exclusive claim has none).
                    state = book.state_of(claim)
                    if may_have_rivals(claim, state.schema):
                        clashes = clashes_of(me, [b.contender(now) for b in state.rivals(claim, exclude=memory["id"])])
                fresh = unrecorded(clashes, linked)
                if action == "supersede":
                    # The reviewer's word takes trust's place: every clash the belief lost on trust it
                    # wins; one it meets as an older state stays history. Each rival no conflict named
                    # yet is recorded as resolved by that decision.
                    overruled = tuple(c if c.new_wins or c.history else Clash(c.existing, True, "manual_resolution")
                                      for c in clashes)
                    if book is not None and claim is not None:
                        state = book.state_of(claim)
                        belief = state.get(memory["id"])
                        if belief is None:
                            belief = belief_of_memory(memory, claim, ACTIVE)
                            state.beliefs.append(belief)
                        verdict = Verdict(ACTIVE, tuple(c.existing for c in overruled if c.new_wins), overruled,
                                          "resolved", "supersede", None, history=any(c.history for c in overruled))
                        plan = settle(state, claim, me, verdict, now, reasons={
                            c.existing.memory_id: "manual_resolution" for c in overruled})
                        status, superseded = belief.status, plan.replaced()
                    recorded = conflict_rows(fresh, status="resolved", reason="supersede", resolution="supersede",
                                             new_trust=me.trust, rule="manual_resolution")
                    settle_ids += [p["id"] for p in pending if p["other_id"] in superseded]
                else:
                    # keep_both keeps the conflict's other side. A rival the conflict never named is no
                    # decision of the reviewer's: both stay active, and that conflict waits for review.
                    recorded = conflict_rows(fresh, status="pending", reason="keep_active", resolution=None,
                                             new_trust=me.trust)
            changed = await tx.optional("beliefs/set_status", agent=agent, memory_id=memory["id"], status=status,
                                        quarantine_reason=None, quarantine_details=None,
                                        quarantine_resolution=outcome, now=iso(now))
            assert changed is not None
            if book is not None:
                book.record_conflicts(memory["id"], recorded)
                await book.write(tx, now)
                after = await tx.optional("memories/get", agent=agent, id=memory["id"])
                assert after is not None
                changed = {**changed, "memory": after["memory"], "claim": after["claim"]}
            resolved = await tx.many("beliefs/conflicts/resolve", agent=agent, ids=list(dict.fromkeys(settle_ids)),
                                     resolution=action, actor=actor, now=iso(now))
            await audit.record(tx, agent, OP_RESOLVE, actor, [memory["id"], conflict["existing_id"], *superseded],
                               before={"conflict": "pending", "status": changed["previous"]},
                               after={"conflict": conflict_id, "action": action, "status": status,
                                      SUPERSEDED: list(superseded), "conflicts": [c["id"] for c in recorded],
                                      "reason": reason})
            return Resolution(conflict_id, action, memory_from_map(changed["memory"], changed["claim"]), superseded,
                              tuple(r["id"] for r in resolved))

        return await self.runner.write_tx(work)

"""An operator's restore of an archived memory: what expiry, decay or an archive did is undone, until
consolidation's pruning hard-deletes it (docs/maintenance.md, "Reversing").

The memory returns to the status it was archived from (active when that is not known; quarantined
when a quarantine review had rejected it). A claim that would become active goes through its slot
first, under the slot's lock, as every path to a current belief does: if a current belief now
rivals it (the slot moved on while it was archived), it returns quarantined instead, with those
rivals named, for a review to decide by the usual precedence. A restored memory whose expiry has
passed loses its expiry (else the next expiry run would archive it again); the audit record keeps
the old value, so nothing is lost."""
from __future__ import annotations

from graph import audit
from graph.beliefs.engine import open_slots
from graph.beliefs.rivalry import may_have_rivals
from graph.core.checks import check_note, check_uuid
from graph.core.errors import NotFound, StateConflict
from graph.core.tenancy import check_agent
from graph.core.timeutil import from_graph, iso, utcnow
from graph.core.vocab import ACTIVE, ARCHIVED, OP_RESTORE, QUARANTINED
from graph.memories.model import Memory
from graph.memories.records import claim_from_map, memory_from_map
from graph.store.gateway import GraphRunner, Tx

RESTORED_OVER_RIVAL = "restored_over_rival"  # the quarantine reason of a restore a current belief rivals


class RestoreService:
    def __init__(self, runner: GraphRunner) -> None:
        self.runner = runner

    async def restore(self, agent: str, memory_id: str, actor: str, reason: str | None = None) -> Memory:
        check_agent(agent)
        memory_id = check_uuid(memory_id, "memory_id")
        check_note(reason, "reason")

        async def work(tx: Tx) -> Memory:
            now = utcnow()
            current = await tx.optional("memories/get", agent=agent, id=memory_id)
            if current is None:
                raise NotFound("memory", memory_id)
            claim = claim_from_map(current["claim"])
            if claim is not None:
                book = await open_slots(tx, agent, [claim], now)
                current = await tx.optional("memories/get", agent=agent, id=memory_id)  # read again under the lock
                assert current is not None
            memory = current["memory"]
            if memory["status"] != ARCHIVED:
                raise StateConflict(f"memory {memory_id} is {memory['status']}; "
                                    "only an archived memory can be restored")
            target = memory.get("archived_from") or (
                QUARANTINED if memory.get("quarantine_resolution") == "rejected" else ACTIVE)
            details, rivals = None, []
            if claim is not None and target == ACTIVE:
                state = book.state_of(claim)
                if may_have_rivals(claim, state.schema):
                    rivals = sorted(b.id for b in state.rivals(book.normalized(claim), exclude=memory_id))
                if rivals:
                    target, details = QUARANTINED, "current rival belief(s): " + ", ".join(rivals)
            expires_at = from_graph(memory.get("expires_at"))
            clear_expiry = expires_at is not None and expires_at <= now
            row = await tx.optional("maintenance/restore", agent=agent, id=memory_id, status=target,
                                    quarantine_reason=RESTORED_OVER_RIVAL if rivals else None,
                                    quarantine_details=details, clear_expiry=clear_expiry, now=iso(now))
            assert row is not None  # archived, read under this transaction's lock
            await audit.record(tx, agent, OP_RESTORE, actor, [memory_id],
                               before={"status": ARCHIVED, "archived_reason": memory.get("archived_reason"),
                                       **({"expires_at": iso(expires_at)} if clear_expiry else {})},
                               after={"status": target, "reason": reason,
                                      **({"expires_at": None} if clear_expiry else {}),
                                      **({"rivals": rivals} if rivals else {})})
            return memory_from_map(row["memory"], row["claim"])

        return await self.runner.write_tx(work)

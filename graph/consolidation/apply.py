"""Applying a plan: its changes in plan order, in bounded transactions (at most `batch` changes each),
each transaction whole or not at all and idempotent. Every change checks again, inside its own
transaction and under the locks a concurrent writer takes too (a belief's slot lock, the memory's
node lock), that what the plan saw still holds; one that no longer does is skipped, never forced. So
a run that dies half way leaves a prefix of the plan applied, and the next run plans only the rest:
the graph ends as one run leaves it. Every change leaves its audit record in its transaction."""
from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, TypeVar

import numpy as np

from graph import audit
from graph.audit import Entry
from graph.beliefs.engine import open_slots
from graph.beliefs.rivalry import may_have_rivals
from graph.beliefs.trust import trust_now
from graph.consolidation.beliefs import CONFLICT_REASON
from graph.consolidation.duplicates import merged_tags
from graph.consolidation.model import Change
from graph.consolidation.planner import Conflict, Corroborate, Digest, EntityMerge, Merge, Plan, Progress, Prune
from graph.core.errors import NotFound
from graph.core.keys import slot_key
from graph.core.timeutil import iso, utcnow
from graph.core.vocab import (
    ACTIVE,
    OP_CONTRADICTION,
    OP_CORROBORATE,
    OP_DIGEST,
    OP_MERGE,
    OP_PRUNE,
)
from graph.entities.service import EntityService
from graph.memories.model import NewMemory, Provenance
from graph.memories.service import hard_delete_many_in
from graph.store.gateway import GraphRunner, Tx
from graph.writes.service import Prepared, WriteService

T = TypeVar("T")
PRUNE_BATCH = 100  # deleted together: one scrub pass over the tenant per batch
DIGEST_BATCH = 50  # digests embedded in one model call and written in one transaction
DIGEST_SOURCE = Provenance("inference", "consolidation")


async def _rows_of(vectors: Awaitable[np.ndarray], keep: list[int]) -> np.ndarray:
    """The vectors of the kept items, in their order (a digest whose members changed is not written)."""
    return (await vectors)[keep]


def chunks(items: Sequence[T], size: int) -> list[Sequence[T]]:
    return [items[i:i + size] for i in range(0, len(items), size)]


@dataclass
class Outcome:
    applied: list[Change] = field(default_factory=list)
    skipped: int = 0
    timings: dict[str, float] = field(default_factory=dict)  # seconds each step's transactions took


@dataclass
class Applier:
    runner: GraphRunner
    writes: WriteService
    entities: EntityService
    agent: str
    actor: str
    job_id: str | None
    batch: int
    progress: Progress | None = None
    prune_cutoff: datetime | None = None  # the retention cutoff the plan used
    outcome: Outcome = field(default_factory=Outcome)
    done: int = 0
    total: int = 0

    async def apply(self, plan: Plan) -> Outcome:
        self.total = len(plan.changes())
        await self._step("duplicates", plan.merges, self.batch, self._merges)
        await self._step("contradictions", plan.conflicts, self.batch, self._conflicts)
        await self._step("corroboration", plan.corroborations, self.batch, self._corroborations)
        await self._step("digests", plan.digests, min(self.batch, DIGEST_BATCH), self._digests)
        await self._step("entities", plan.entity_merges, 1, self._entity_merge)
        await self._step("prune", plan.prunes, min(self.batch, PRUNE_BATCH), self._prunes)
        return self.outcome

    async def _step(self, name: str, ops: Sequence[T], size: int,
                    run: Callable[[Sequence[T]], Awaitable[list[Change]]]) -> None:
        started = time.perf_counter()
        for batch in chunks(ops, size):
            applied = await run(batch)
            self.outcome.applied += applied
            self.outcome.skipped += len(batch) - len(applied)
            self.done += len(batch)
            if self.progress is not None:
                await self.progress(self.done, self.total)
        if ops:
            self.outcome.timings[f"apply {name}"] = time.perf_counter() - started

    def _entry(self, op: str, memory_ids: Sequence[str], before: dict[str, Any] | None,
               after: dict[str, Any]) -> Entry:
        return Entry(op, self.actor, tuple(memory_ids), before, after, self.job_id)

    # -- near-duplicates ---------------------------------------------------------------------------
    async def _merges(self, batch: Sequence[Merge]) -> list[Change]:
        slots = {slot_key(self.agent, c.subject, c.predicate): (c.subject, c.predicate)
                 for op in batch for c in op.claims}
        async with self.writes.slots.hold(sorted(slots)):
            return await self.runner.write_tx(lambda tx: self._merge_tx(tx, batch, slots))

    async def _merge_tx(self, tx: Tx, batch: Sequence[Merge], slots: dict[str, tuple[str, str]]) -> list[Change]:
        now = utcnow()
        for key in sorted(slots):  # a belief's slot lock, as every writer of it takes (sorted: no deadlock)
            subject, predicate = slots[key]
            await tx.scalar("beliefs/lock_slot", agent=self.agent, key=key, subject=subject, predicate=predicate,
                            now=iso(now))
        groups = {op.group.survivor: op for op in batch}
        merged = {r["survivor"]: tuple(r["merged"]) for r in await tx.many(
            "consolidation/merge", agent=self.agent, now=iso(now), groups=[{
                "survivor": op.group.survivor,
                "members": [{"id": m, "note": f"near-duplicate, cosine {cos:.3f}"} for m, cos in op.group.members]}
                for op in batch]) if r["merged"]}
        rows = [{"survivor": s, "merged": list(m), "tags": list(groups[s].tags), "importance": groups[s].importance,
                 "source_type": groups[s].source_type, "expires_at": iso(groups[s].expires_at)}
                for s, m in merged.items()]
        terms = []
        if rows:
            await tx.scalar("consolidation/merge_finish", agent=self.agent, now=iso(now), rows=rows)
            terms = await tx.many("consolidation/merge_survivors", agent=self.agent, now=iso(now), rows=rows)
        by_survivor = {row["survivor"]: row for row in terms}
        trusts, entries, applied = [], [], []
        for op in batch:  # in plan order
            row = by_survivor.get(op.group.survivor)
            if row is None:
                continue
            done = merged[op.group.survivor]
            trust = trust_now(row, now)
            trusts.append({"id": op.group.survivor, "trust": trust})
            cosines = dict(op.group.members)
            entries.append(self._entry(OP_MERGE, [op.group.survivor, *done],
                                       before={"trust": row["trust_before"], "status": dict.fromkeys(done, ACTIVE)},
                                       after={"survivor": op.group.survivor, "archived": list(done),
                                              "cosine": {m: cosines[m] for m in done}, "trust": trust,
                                              "corroboration": row["corroboration"],
                                              "source_type": row["source_type"], "reason": op.change.reason}))
            applied.append(op.change if len(done) == len(op.group.members) else replace(op.change, others=done))
        if trusts:
            await tx.scalar("consolidation/set_trust", agent=self.agent, rows=trusts)
        await audit.record_all(tx, self.agent, entries)
        return applied

    # -- contradictions ----------------------------------------------------------------------------
    async def _conflicts(self, batch: Sequence[Conflict]) -> list[Change]:
        keys = sorted({slot_key(self.agent, c.subject, c.predicate) for op in batch for c in op.claims})
        async with self.writes.slots.hold(keys):
            return await self.runner.write_tx(lambda tx: self._conflict_tx(tx, batch))

    async def _conflict_tx(self, tx: Tx, batch: Sequence[Conflict]) -> list[Change]:
        now = utcnow()
        book = await open_slots(tx, self.agent, [c for op in batch for c in op.claims], now)
        ids = sorted({i for op in batch for i in (op.found.new, op.found.existing)})
        linked = {frozenset((r["a"], r["b"])) for r in await tx.many("consolidation/contradicted", agent=self.agent,
                                                                        ids=ids)}
        entries, applied = [], []
        for op in batch:
            new_claim = op.claims[0]
            state = book.state_of(new_claim)
            new, old = state.get(op.found.new), state.get(op.found.existing)
            pair = frozenset((op.found.new, op.found.existing))
            # Still two active rivals with no conflict between them, read under the slot's lock.
            if (new is None or old is None or pair in linked or not may_have_rivals(new_claim, state.schema)
                    or old.id not in {b.id for b in state.rivals(new_claim, exclude=new.id)}):
                continue
            linked.add(pair)
            conflict = {"id": str(uuid.uuid4()), "existing_id": old.id, "status": "pending", "reason": CONFLICT_REASON,
                        "rule": None, "resolution": None, "new_trust": new.trust(now), "existing_trust": old.trust(now)}
            book.record_conflicts(new.id, [conflict])
            entries.append(self._entry(OP_CONTRADICTION, [new.id, old.id], None, {
                "conflict": conflict["id"], "subject": op.found.subject, "predicate": op.found.predicate,
                "values": list(op.found.values), "new_trust": conflict["new_trust"],
                "existing_trust": conflict["existing_trust"], "reason": op.change.reason}))
            applied.append(op.change)
        await book.write(tx, now)
        await audit.record_all(tx, self.agent, entries)
        return applied

    # -- corroboration -----------------------------------------------------------------------------
    async def _corroborations(self, batch: Sequence[Corroborate]) -> list[Change]:
        keys = sorted({slot_key(self.agent, op.claim.subject, op.claim.predicate) for op in batch})
        async with self.writes.slots.hold(keys):
            return await self.runner.write_tx(lambda tx: self._corroborate_tx(tx, batch))

    async def _corroborate_tx(self, tx: Tx, batch: Sequence[Corroborate]) -> list[Change]:
        now = utcnow()
        book = await open_slots(tx, self.agent, [op.claim for op in batch], now)
        entries, applied = [], []
        for op in batch:
            state = book.state_of(op.claim)
            belief = state.get(op.found.target)
            added = [s for s in op.found.sources if belief is not None and s.key not in belief.sources]
            if belief is None or belief.status != ACTIVE or not added:
                continue
            before = {"corroboration": belief.corroboration, "trust": belief.trust(now)}
            for source in added:
                state.corroborate(belief.id, source.row())
            entries.append(self._entry(OP_CORROBORATE, [belief.id], before, {
                "corroboration": belief.corroboration, "trust": belief.trust(now),
                "sources": [{"source": s.type, "ref": s.ref} for s in added], "peers": list(op.found.peers),
                "reason": op.change.reason}))
            applied.append(op.change)
        await book.write(tx, now)
        await audit.record_all(tx, self.agent, entries)
        return applied

    # -- digests -----------------------------------------------------------------------------------
    async def _digests(self, batch: Sequence[Digest]) -> list[Change]:
        items = [NewMemory(agent=self.agent, text=op.text, memory_type="event", category="digest",
                           importance=max(m.importance for m in op.members),
                           tags=merged_tags([m.tags for m in op.members]), event_at=op.members[0].when,
                           sensitivity=op.members[0].sensitivity, provenance=DIGEST_SOURCE, secrets="redact")
                 for op in batch]
        prepared = await self.writes.prepare(items, "digests", ids=[op.id for op in batch])
        try:
            await prepared.vectors()  # the model call stays outside the transaction's time budget
            applied = await self.runner.write_tx(lambda tx: self._digest_tx(tx, batch, prepared))
        finally:
            prepared.discard()
        if applied:
            self.writes.on_vectors_written({item.agent for item in items})
        return applied

    async def _digest_tx(self, tx: Tx, batch: Sequence[Digest], prepared: Prepared) -> list[Change]:
        now = utcnow()
        rows = await tx.many("consolidation/digest_members", agent=self.agent, clusters=[
            {"id": op.id, "members": [m.id for m in op.members]} for op in batch])
        ready = {r["id"] for r in rows if not r["exists"]
                 and r["ready"] == len(next(op for op in batch if op.id == r["id"]).members)}
        keep = [i for i, op in enumerate(batch) if op.id in ready]
        if not keep:
            return []
        chosen_vectors = asyncio.ensure_future(_rows_of(prepared.vectors(), keep))
        await self.writes.write(tx, Prepared([prepared.items[i] for i in keep], [prepared.rows[i] for i in keep],
                                             [prepared.redacted[i] for i in keep], chosen_vectors),
                                self.actor, self.job_id)
        chosen = [batch[i] for i in keep]
        await tx.scalar("consolidation/link_digests", agent=self.agent, now=iso(now), rows=[
            {"digest": op.id, "members": [m.id for m in op.members], "note": op.change.reason} for op in chosen])
        await audit.record_all(tx, self.agent, [self._entry(OP_DIGEST, [op.id, *(m.id for m in op.members)], None, {
            "digest": op.id, "members": [m.id for m in op.members], "reason": op.change.reason}) for op in chosen])
        return [op.change for op in chosen]

    # -- entities ----------------------------------------------------------------------------------
    async def _entity_merge(self, batch: Sequence[EntityMerge]) -> list[Change]:
        applied = []
        for op in batch:
            try:  # the entity merge of the entity graph, as an operator's is (one transaction, audited)
                await self.entities.merge(self.agent, op.found.keep, op.found.gone, self.actor, job_id=self.job_id)
            except NotFound:  # merged or deleted since the plan was made
                continue
            applied.append(op.change)
        return applied

    # -- pruning -----------------------------------------------------------------------------------
    async def _prunes(self, batch: Sequence[Prune]) -> list[Change]:
        return await self.runner.write_tx(lambda tx: self._prune_tx(tx, batch))

    async def _prune_tx(self, tx: Tx, batch: Sequence[Prune]) -> list[Change]:
        # Still past retention, read in this transaction: a memory restored since is kept.
        assert self.prune_cutoff is not None, "the service sets the cutoff its plan used"
        still = {r["id"]: r for r in await tx.many("consolidation/prunable", agent=self.agent,
                                                   cutoff=iso(self.prune_cutoff), ids=[op.found.id for op in batch])}
        if not still:
            return []
        # Deleted together: the scrub of their ids is one pass over the tenant, not one per memory.
        deleted, _ = await hard_delete_many_in(
            tx, self.agent, sorted(still), self.actor, op=OP_PRUNE, job_id=self.job_id,
            why={i: {"reason": r["reason"], "status": r["status"]} for i, r in still.items()})
        return [op.change for op in batch if op.found.id in deleted]

"""Storing, reading, changing and deleting memories. Each public write is one transaction."""
from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import Any

from graph.beliefs.claims import slot_key
from graph.beliefs.slot_queue import SlotQueue
from graph.beliefs.trust import compute_trust
from graph.beliefs.write_path import write_claim_memory
from graph.core import cursor
from graph.core.errors import InvalidInput, NotFound, VersionConflict
from graph.core.tenant_token import tenant_token
from graph.core.timeutil import from_graph_required, iso, utcnow
from graph.core.values import loads_readable
from graph.core.vocab import DEFAULT_STATUSES
from graph.embedding.encoder import AsyncEncoder
from graph.memories import audit
from graph.memories.audit import DEFAULT_ACTOR
from graph.memories.model import Memory, MemoryPatch, NewMemory, Page, StoreResult
from graph.memories.records import memory_from_map
from graph.memories.rules import MAX_METADATA_DEPTH, check_new, check_patch, metadata_json
from graph.store.gateway import GraphRunner, Tx

MAX_AUDIT_DEPTH = MAX_METADATA_DEPTH + 2  # a patch's metadata sits two levels inside its audit record
MAX_ORPHAN_PASSES = 4  # claims -> entities -> ... : deeper chains do not exist in the model


class MemoryService:
    def __init__(self, runner: GraphRunner, encoder: AsyncEncoder, *, max_text_chars: int, max_batch: int,
                 on_vectors_written: Callable[[], None] = lambda: None) -> None:
        self.runner, self.encoder = runner, encoder
        self.max_text_chars, self.max_batch = max_text_chars, max_batch
        self.slots = SlotQueue()  # claims on one belief slot take turns in this process
        # Told after every commit that adds vectors, so retrieval can fold them into its index.
        self.on_vectors_written = on_vectors_written

    # -- writes -----------------------------------------------------------------------------------
    async def create(self, new: NewMemory, actor: str = DEFAULT_ACTOR) -> StoreResult:
        return (await self.create_many([new], field_prefix="", actor=actor))[0]

    async def create_many(self, items: Sequence[NewMemory], field_prefix: str = "memories",
                          actor: str = DEFAULT_ACTOR) -> list[StoreResult]:
        """All or nothing: one bad item rejects the whole batch, naming the item. Items with a claim
        go through the belief write path in order, so claims in one batch see each other."""
        if not items:
            raise InvalidInput(field_prefix or "memories", "must hold at least one memory")
        if len(items) > self.max_batch:
            raise InvalidInput(field_prefix or "memories",
                               f"holds {len(items)} memories; the limit is {self.max_batch}")
        # The domain's own rules (graph/memories/rules.py), whoever the caller is.
        checked = [check_new(item, f"{field_prefix}[{i}]." if field_prefix else "", self.max_text_chars)
                   for i, item in enumerate(items)]
        vectors = await self.encoder.encode([item.text for item in items])
        now = iso(utcnow())
        rows = [_row(item, values, vector, now) for item, values, vector in zip(items, checked, vectors, strict=True)]

        async def work(tx: Tx) -> list[StoreResult]:
            results: dict[int, StoreResult] = {}
            plain: dict[str, list[int]] = {}
            for i, item in enumerate(items):
                if item.claim is None:
                    plain.setdefault(item.agent, []).append(i)
            # One statement per tenant keeps $agent inside every query; one transaction keeps it atomic.
            for agent, positions in plain.items():
                created = await tx.many("memories/create", agent=agent, rows=[rows[i] for i in positions])
                by_id = {r["memory"]["id"]: r["memory"] for r in created}  # do not rely on row order
                for i in positions:
                    results[i] = StoreResult(memory=memory_from_map(by_id[rows[i]["props"]["id"]]))
                await audit.record(tx, agent, "store", actor, [rows[i]["props"]["id"] for i in positions],
                                   after={"memories": len(positions)})
                flagged = [rows[i]["props"] for i in positions if items[i].suspicious is not None]
                for props in flagged:
                    await audit.record(tx, agent, "quarantine", actor, [props["id"]],
                                       after={"reason": "suspicious_input", "details": props["quarantine_details"]})
            for i, item in enumerate(items):
                if item.claim is not None:
                    results[i] = await write_claim_memory(tx, item, rows[i], actor)
            return [results[i] for i in range(len(items))]

        claimed = (slot_key(item.agent, item.claim.subject, item.claim.predicate) for item in items if item.claim)
        async with self.slots.hold(claimed):
            stored = await self.runner.write_tx(work)
        self.on_vectors_written()
        return stored

    async def update(self, agent: str, memory_id: str, patch: MemoryPatch, actor: str = DEFAULT_ACTOR) -> Memory:
        # Only PATCHABLE_FIELDS, each within its rules; anything else is refused before the encoder
        # or the graph is touched (graph/memories/rules.py).
        clean = check_patch(patch, self.max_text_chars)
        changes = dict(clean)
        set_event_at = "event_at" in changes
        event_at = iso(changes.pop("event_at", None))
        if "text" in changes:
            changes["embedding"] = (await self.encoder.encode_one(changes["text"])).tolist()
        if "metadata" in changes:
            changes["metadata"] = metadata_json(changes["metadata"], "metadata")

        async def work(tx: Tx) -> Memory:
            row = await tx.optional(
                "memories/update", agent=agent, id=memory_id, expected_version=patch.expected_version,
                changes=changes, set_event_at=set_event_at, event_at=event_at, now=iso(utcnow()))
            if row is None:
                raise NotFound("memory", memory_id)
            if not row["ok"]:
                raise VersionConflict(memory_id, patch.expected_version or 0, row["found_version"])
            await audit.record(tx, agent, "update", actor, [memory_id],
                               after={**clean, "version": row["memory"]["version"]})
            return memory_from_map(row["memory"], row["claim"])

        updated = await self.runner.write_tx(work)
        if "embedding" in changes:
            self.on_vectors_written()
        return updated

    async def archive(self, agent: str, memory_id: str, actor: str = DEFAULT_ACTOR) -> Memory:
        async def work(tx: Tx) -> Memory:
            row = await tx.optional("memories/archive", agent=agent, id=memory_id, now=iso(utcnow()))
            if row is None:
                raise NotFound("memory", memory_id)
            if row["previous"] != "archived":
                await audit.record(tx, agent, "archive", actor, [memory_id], before={"status": row["previous"]},
                                   after={"status": "archived"})
            return memory_from_map(row["memory"], row["claim"])

        return await self.runner.write_tx(work)

    async def hard_delete(self, agent: str, memory_id: str, actor: str = DEFAULT_ACTOR) -> int:
        """Removes the memory, its relationships, every node only it referenced, its conflicts and
        the payload of every audit record about it. Returns the number of nodes removed besides the
        memory (claims, entities, sources). The deletion itself is audited, without content."""

        async def work(tx: Tx) -> int:
            reach = await tx.one("memories/hard_delete_reach", agent=agent, id=memory_id)
            if reach["found"] == 0:
                raise NotFound("memory", memory_id)
            await tx.scalar("memories/hard_delete_records", agent=agent, id=memory_id)
            await tx.scalar("memories/hard_delete_idempotency", agent=agent, id=memory_id)
            await tx.scalar("memories/hard_delete_mentions", agent=agent, id=memory_id)
            await tx.scalar("memories/hard_delete_memory", agent=agent, id=memory_id)
            removed, pending = 0, list(reach["reach"])
            for _ in range(MAX_ORPHAN_PASSES):
                if not pending:
                    break
                deleted = await tx.scalar("memories/delete_orphans", agent=agent, element_ids=pending)
                if deleted == 0:
                    break
                removed += deleted
            if reach["claim_key"]:
                await tx.scalar("beliefs/drop_idle_slot", agent=agent, key=reach["claim_key"])
            await audit.record(tx, agent, "hard_delete", actor, [], after={"id": memory_id})
            return removed

        return await self.runner.write_tx(work)

    # -- reads ------------------------------------------------------------------------------------
    async def get(self, agent: str, memory_id: str) -> Memory:
        rows = await self.runner.read("memories/get", agent=agent, id=memory_id)
        if not rows:
            raise NotFound("memory", memory_id)
        return memory_from_map(rows[0]["memory"], rows[0]["claim"])

    async def history(self, agent: str, memory_id: str) -> list[audit.Operation]:
        """Audit records of one memory, oldest first; a memory with none is unknown."""
        rows = await self.runner.read("memories/audit/history", agent=agent, id=memory_id)
        if not rows:
            await self.get(agent, memory_id)  # 404 for an unknown memory
        # Audit payloads are read through repair too: older versions recorded patches as given.
        return [audit.Operation(id=o["id"], op=o["op"], actor=o["actor"], at=from_graph_required(o["at"]),
                                before=loads_readable(o["before"], MAX_AUDIT_DEPTH),
                                after=loads_readable(o["after"], MAX_AUDIT_DEPTH))
                for o in (r["operation"] for r in rows)]

    async def list(self, agent: str, *, statuses: Sequence[str] = DEFAULT_STATUSES,
                   memory_types: Sequence[str] | None = None, limit: int = 50, after: str | None = None) -> Page:
        after_created, after_id = cursor.decode(after) if after else (None, None)
        rows = await self.runner.read(
            "memories/list", agent=agent, statuses=list(statuses),
            memory_types=list(memory_types) if memory_types else None,
            after_created=after_created, after_id=after_id, limit=limit + 1)
        items = [memory_from_map(r["memory"], r["claim"]) for r in rows]
        more = len(items) > limit
        items = items[:limit]
        next_cursor = cursor.encode(items[-1].created_at, items[-1].id) if more else None
        return Page(items=items, next_cursor=next_cursor)



def _row(item: NewMemory, checked: dict[str, Any], vector: Any, now: str) -> dict[str, Any]:
    """The node a new memory becomes, from the item and its checked values (rules.check_new); the
    belief path may still change its status and trust."""
    trust = compute_trust(item.provenance.source).trust
    suspicious = item.suspicious is not None
    return {
        "props": {
            "id": str(uuid.uuid4()), "text": item.text, "tenant_token": tenant_token(item.agent),
            "memory_type": item.memory_type, "category": item.category, "importance": checked["importance"],
            "tags": checked["tags"], "version": 1, "metadata": checked["metadata"],
            "embedding": vector.tolist(), "source_type": item.provenance.source, "corroboration": 1,
            "reinforcements": 0, "disputes": 0, "trust": trust, "confidence": trust,
            "status": "quarantined" if suspicious else "active",
            "quarantine_reason": "suspicious_input" if suspicious else None,
            "quarantine_details": (item.suspicious or None) if suspicious else None,
        },
        "source_ref": item.provenance.ref or "",
        "created_at": now, "event_at": iso(item.event_at), "valid_from": None, "valid_until": None,
    }

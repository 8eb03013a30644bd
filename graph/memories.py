"""Storing, reading, changing and deleting memories. Each public write is one transaction."""
from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any

from graph import cursor
from graph.embedder import AsyncEncoder
from graph.errors import InvalidInput, NotFound, VersionConflict
from graph.model import DEFAULT_STATUSES, Memory, MemoryPatch, NewMemory, Page
from graph.records import memory_from_map
from graph.runner import GraphRunner, Tx
from graph.timeutil import iso, utcnow

MAX_METADATA_BYTES = 16_384
MAX_ORPHAN_PASSES = 4  # claims -> entities -> ... : deeper chains do not exist in the model


class MemoryService:
    def __init__(self, runner: GraphRunner, encoder: AsyncEncoder, *, max_text_chars: int, max_batch: int) -> None:
        self.runner, self.encoder = runner, encoder
        self.max_text_chars, self.max_batch = max_text_chars, max_batch

    # -- validation: rules the request schema cannot express ------------------------------------
    def _check_text(self, text: str, field: str) -> None:
        if not text.strip():
            raise InvalidInput(field, "must contain non-whitespace text")
        if len(text) > self.max_text_chars:
            raise InvalidInput(field, f"is {len(text)} characters; the limit is {self.max_text_chars}")

    @staticmethod
    def _metadata_json(metadata: dict[str, Any] | None, field: str) -> str | None:
        if metadata is None:
            return None
        encoded = json.dumps(metadata, separators=(",", ":"), sort_keys=True)
        if len(encoded.encode()) > MAX_METADATA_BYTES:
            raise InvalidInput(field, f"is larger than {MAX_METADATA_BYTES} bytes as JSON")
        return encoded

    # -- writes -----------------------------------------------------------------------------------
    async def create(self, new: NewMemory) -> Memory:
        return (await self.create_many([new], field_prefix=""))[0]

    async def create_many(self, items: Sequence[NewMemory], field_prefix: str = "memories") -> list[Memory]:
        """All or nothing: one bad item rejects the whole batch, naming the item."""
        if not items:
            raise InvalidInput(field_prefix or "memories", "must hold at least one memory")
        if len(items) > self.max_batch:
            raise InvalidInput(field_prefix or "memories", f"holds {len(items)} memories; the limit is {self.max_batch}")
        rows_metadata = []
        for i, item in enumerate(items):
            where = f"{field_prefix}[{i}]." if field_prefix else ""
            self._check_text(item.text, f"{where}text")
            rows_metadata.append(self._metadata_json(item.metadata, f"{where}metadata"))
        vectors = await self.encoder.encode([item.text for item in items])
        now = iso(utcnow())
        ids = [str(uuid.uuid4()) for _ in items]
        by_agent: dict[str, list[dict[str, Any]]] = {}
        for memory_id, item, metadata, vector in zip(ids, items, rows_metadata, vectors):
            by_agent.setdefault(item.agent, []).append({
                "props": {
                    "id": memory_id, "text": item.text,
                    "memory_type": item.memory_type, "category": item.category,
                    "importance": float(item.importance), "tags": list(dict.fromkeys(item.tags)),
                    "status": "active", "version": 1, "metadata": metadata,
                    "embedding": vector.tolist(),
                },
                "created_at": now, "event_at": iso(item.event_at),
            })

        async def work(tx: Tx) -> list[dict[str, Any]]:
            # One statement per tenant keeps $agent inside every query; one transaction keeps it atomic.
            records = []
            for agent, rows in by_agent.items():
                records += await tx.run("memories/create", agent=agent, rows=rows)
            return records

        stored = {m.id: m for m in (memory_from_map(r["memory"]) for r in await self.runner.write_tx(work))}
        return [stored[i] for i in ids]

    async def update(self, agent: str, memory_id: str, patch: MemoryPatch) -> Memory:
        changes = dict(patch.changes)
        set_event_at = "event_at" in changes
        event_at = iso(changes.pop("event_at", None))
        if "text" in changes:
            self._check_text(changes["text"], "text")
            changes["embedding"] = (await self.encoder.encode_one(changes["text"])).tolist()
        if "metadata" in changes:
            changes["metadata"] = self._metadata_json(changes["metadata"], "metadata")
        if "tags" in changes:
            changes["tags"] = list(dict.fromkeys(changes["tags"] or ()))
        rows = await self.runner.write(
            "memories/update", agent=agent, id=memory_id, expected_version=patch.expected_version,
            changes=changes, set_event_at=set_event_at, event_at=event_at, now=iso(utcnow()))
        if not rows:
            raise NotFound("memory", memory_id)
        if not rows[0]["ok"]:
            raise VersionConflict(memory_id, patch.expected_version or 0, rows[0]["found_version"])
        return memory_from_map(rows[0]["memory"])

    async def archive(self, agent: str, memory_id: str) -> Memory:
        rows = await self.runner.write("memories/archive", agent=agent, id=memory_id, now=iso(utcnow()))
        if not rows:
            raise NotFound("memory", memory_id)
        return memory_from_map(rows[0]["memory"])

    async def hard_delete(self, agent: str, memory_id: str) -> int:
        """Removes the memory, its relationships and every node only it referenced. Returns the
        number of nodes removed besides the memory."""

        async def work(tx: Tx) -> int:
            [reach] = await tx.run("memories/hard_delete_reach", agent=agent, id=memory_id)
            if reach["found"] == 0:
                raise NotFound("memory", memory_id)
            await tx.run("memories/hard_delete_memory", agent=agent, id=memory_id)
            removed, pending = 0, list(reach["reach"])
            for _ in range(MAX_ORPHAN_PASSES):
                if not pending:
                    break
                [row] = await tx.run("memories/delete_orphans", agent=agent, element_ids=pending)
                if row["deleted"] == 0:
                    break
                removed += row["deleted"]
            return removed

        return await self.runner.write_tx(work)

    # -- reads ------------------------------------------------------------------------------------
    async def get(self, agent: str, memory_id: str) -> Memory:
        rows = await self.runner.read("memories/get", agent=agent, id=memory_id)
        if not rows:
            raise NotFound("memory", memory_id)
        return memory_from_map(rows[0]["memory"])

    async def get_many(self, agent: str, ids: Sequence[str]) -> dict[str, Memory]:
        rows = await self.runner.read("memories/get_many", agent=agent, ids=list(ids))
        memories = (memory_from_map(r["memory"]) for r in rows)
        return {m.id: m for m in memories}

    async def list(self, agent: str, *, statuses: Sequence[str] = DEFAULT_STATUSES,
                   memory_types: Sequence[str] | None = None, limit: int = 50, after: str | None = None) -> Page:
        after_created, after_id = cursor.decode(after) if after else (None, None)
        rows = await self.runner.read(
            "memories/list", agent=agent, statuses=list(statuses),
            memory_types=list(memory_types) if memory_types else None,
            after_created=after_created, after_id=after_id, limit=limit + 1)
        items = [memory_from_map(r["memory"]) for r in rows]
        more = len(items) > limit
        items = items[:limit]
        next_cursor = cursor.encode(items[-1].created_at, items[-1].id) if more else None
        return Page(items=items, next_cursor=next_cursor)


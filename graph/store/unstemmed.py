"""Memories without stems (graph/language/stems.py) get theirs, a batch of one tenant's at a time.

Two callers, one logic: start-up's migration (graph/store/schema.py `stem_memories`) for memories
stored before stems, and the stem job (graph/maintenance/stemming.py) for those a process from before
stems still writes after start-up marked the migration done (a rolling upgrade on one database).
Driven from Python: Cypher has no stemmer."""
from __future__ import annotations

from dataclasses import dataclass

from graph.language import stems
from graph.store.gateway import GraphRunner, Tx


@dataclass(frozen=True)
class Batch:
    read: int  # memories without stems read (fewer than the limit: none is left)
    stemmed: int  # of those, given their stems (a memory patched meanwhile waits for the next batch)


async def tenants(runner: GraphRunner, limit: int) -> list[str]:
    """Up to `limit` tenants with memories without stems (agent ids only, across tenants)."""
    return [r["agent"] for r in await runner.read("store/migrations/memory_stems/unstemmed_agents", limit=limit)]


async def count(runner: GraphRunner, agent: str) -> int:
    return int((await runner.read_one("store/migrations/memory_stems/unstemmed_count", agent=agent))["unstemmed"])


async def stem_batch(tx: Tx, agent: str, limit: int) -> Batch:
    """Gives up to `limit` of the tenant's memories without stems their stems, in `tx`."""
    memories = await tx.many("store/migrations/memory_stems/unstemmed", agent=agent, limit=limit)
    rows = [{"id": m["id"], "text": m["text"] or "", "stems": stems.stored(m["text"] or "")} for m in memories]
    stemmed = await tx.scalar("store/migrations/memory_stems/set", agent=agent, rows=rows) if rows else 0
    return Batch(len(memories), int(stemmed))

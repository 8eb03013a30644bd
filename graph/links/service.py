"""Typed edges between memories that users assert: SUPPORTS and CAUSES. SUPERSEDES edges come
from the belief write path only; listing shows all three."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from graph.memories import audit
from graph.core.errors import InvalidInput, NotFound
from graph.store.gateway import GraphRunner, Tx
from graph.core.timeutil import from_graph, iso, utcnow

LINK_TYPES = ("SUPPORTS", "CAUSES")


@dataclass(frozen=True)
class Link:
    """One edge at a memory, seen from it."""
    type: str  # SUPPORTS, CAUSES or SUPERSEDES
    direction: str  # out: the memory is the edge's start; in: its end
    id: str  # the memory at the other end
    at: datetime | None
    note: str | None = None
    reason: str | None = None  # SUPERSEDES only: why the belief was replaced


class LinkService:
    def __init__(self, runner: GraphRunner) -> None:
        self.runner = runner

    async def link(self, agent: str, from_id: str, to_id: str, link_type: str, note: str | None,
                   actor: str) -> None:
        if from_id == to_id:
            raise InvalidInput("to", "must be another memory than the one linked from")

        async def work(tx: Tx) -> None:
            created = await tx.optional("links/create", agent=agent, from_id=from_id, to_id=to_id, type=link_type,
                                note=note, now=iso(utcnow()))
            if created is None:
                await _missing(tx, agent, from_id, to_id)
            await audit.record(tx, agent, "link", actor, [from_id, to_id],
                               after={"type": link_type, "from": from_id, "to": to_id, "note": note})

        await self.runner.write_tx(work)

    async def unlink(self, agent: str, from_id: str, to_id: str, link_type: str, actor: str) -> None:
        async def work(tx: Tx) -> None:
            deleted = await tx.scalar("links/delete", agent=agent, from_id=from_id, to_id=to_id, type=link_type)
            if not deleted:
                raise NotFound(f"{link_type} link", f"{from_id} -> {to_id}")
            await audit.record(tx, agent, "unlink", actor, [from_id, to_id],
                               before={"type": link_type, "from": from_id, "to": to_id})

        await self.runner.write_tx(work)

    async def links(self, agent: str, memory_id: str) -> list[Link]:
        row = await self.runner.read_tx(lambda tx: tx.optional("links/list", agent=agent, id=memory_id))
        if row is None:
            raise NotFound("memory", memory_id)
        return [Link(type=e["type"], direction=e["direction"], id=e["id"], at=from_graph(e["at"]), note=e["note"],
                     reason=e["reason"]) for e in row["links"]]


async def _missing(tx: Tx, agent: str, *ids: str) -> None:
    for memory_id in ids:
        if not await tx.optional("memories/get", agent=agent, id=memory_id):
            raise NotFound("memory", memory_id)
    raise AssertionError("links/create matched nothing although both memories exist")

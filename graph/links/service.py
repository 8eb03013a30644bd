"""Typed edges between one tenant's memories (docs/graph.md): users add and remove CAUSES,
SUPPORTS, PROMOTED_FROM, OUTCOME_OF (an outcome to its decision) and PROGRESS_ON (progress to its
goal); the engine owns SUPERSEDES, CONTRADICTS and DIGEST_OF. Every edge
says when and by whom it was made. CAUSES stays acyclic: a causal chain must end somewhere."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from graph import audit
from graph.core.checks import check_note
from graph.core.errors import InvalidInput, NotFound, StateConflict
from graph.core.keys import lock_key
from graph.core.tenancy import check_agent
from graph.core.timeutil import from_graph, iso, utcnow
from graph.core.vocab import OP_LINK, OP_UNLINK
from graph.links.kinds import check_user_kind
from graph.store.gateway import GraphRunner, Tx


@dataclass(frozen=True)
class Link:
    """One edge at a memory, seen from it."""
    type: str  # one of kinds.EDGE_KINDS
    direction: str  # out: the memory is the edge's start; in: its end
    id: str  # the memory at the other end
    at: datetime | None  # when the edge was made
    created_by: str | None = None  # engine, consolidation, or the actor who linked; None: before this was kept
    note: str | None = None
    reason: str | None = None  # SUPERSEDES: why the belief was replaced; CONTRADICTS: why the conflict arose
    conflict_id: str | None = None  # CONTRADICTS: the pair's latest conflict
    resolved_at: datetime | None = None  # CONTRADICTS: when that conflict was resolved (None: pending)
    resolution: str | None = None  # CONTRADICTS: how


MAX_NOTE_CHARS = 1_000  # a link's note

class LinkService:
    def __init__(self, runner: GraphRunner) -> None:
        self.runner = runner

    async def link(self, agent: str, from_id: str, to_id: str, link_type: str, note: str | None,
                   actor: str) -> None:
        check_agent(agent)
        check_user_kind(link_type, "add")
        check_note(note, "note", MAX_NOTE_CHARS)
        if from_id == to_id:
            raise InvalidInput("to", "must be another memory than the one linked from (no self-loops)")

        async def work(tx: Tx) -> None:
            now = utcnow()
            if link_type == "CAUSES":
                await _refuse_causal_cycle(tx, agent, from_id, to_id, now)
            created = await tx.optional("links/create", agent=agent, from_id=from_id, to_id=to_id, type=link_type,
                                        note=note, actor=actor, now=iso(now))
            if created is None:
                await _missing(tx, agent, from_id, to_id)
            await audit.record(tx, agent, OP_LINK, actor, [from_id, to_id],
                               after={"type": link_type, "from": from_id, "to": to_id, "note": note})

        await self.runner.write_tx(work)

    async def unlink(self, agent: str, from_id: str, to_id: str, link_type: str, actor: str) -> None:
        check_agent(agent)
        check_user_kind(link_type, "remove")

        async def work(tx: Tx) -> None:
            deleted = await tx.scalar("links/delete", agent=agent, from_id=from_id, to_id=to_id, type=link_type)
            if not deleted:
                raise NotFound(f"{link_type} link", f"{from_id} -> {to_id}")
            await audit.record(tx, agent, OP_UNLINK, actor, [from_id, to_id],
                               before={"type": link_type, "from": from_id, "to": to_id})

        await self.runner.write_tx(work)

    async def links(self, agent: str, memory_id: str) -> list[Link]:
        check_agent(agent)
        row = await self.runner.read_tx(lambda tx: tx.optional("links/list", agent=agent, id=memory_id))
        if row is None:
            raise NotFound("memory", memory_id)
        return [Link(type=e["type"], direction=e["direction"], id=e["id"], at=from_graph(e["at"]),
                     created_by=e["created_by"], note=e["note"], reason=e["reason"], conflict_id=e["conflict_id"],
                     resolved_at=from_graph(e["resolved_at"]), resolution=e["resolution"])
                for e in sorted(row["links"], key=lambda e: (e["type"], e["direction"], e["id"]))]


async def _refuse_causal_cycle(tx: Tx, agent: str, from_id: str, to_id: str, now: datetime) -> None:
    """`from` CAUSES `to` closes a cycle when `to` already leads to `from`. The tenant's CAUSES lock
    makes the check and the write one step for concurrent linkers."""
    await tx.scalar("links/lock_causes", key=lock_key(agent, "CAUSES"), agent=agent, now=iso(now))
    chain = await tx.optional("links/causal_path", agent=agent, from_id=to_id, to_id=from_id)
    if chain is not None:
        raise StateConflict(f"{from_id} CAUSES {to_id} would close a causal cycle: {' -> '.join(chain['ids'])} "
                            "already leads back; a causal chain must end somewhere")


async def _missing(tx: Tx, agent: str, *ids: str) -> None:
    for memory_id in ids:
        if not await tx.optional("memories/get", agent=agent, id=memory_id):
            raise NotFound("memory", memory_id)
    raise AssertionError("links/create matched nothing although both memories exist")

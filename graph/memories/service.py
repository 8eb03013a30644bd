"""Reading, changing and deleting memories (new ones are written by graph/writes). Each public
write is one transaction."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from graph import audit
from graph.audit import DEFAULT_ACTOR, DEFAULT_TRAIL_PAGE, AuditService, Entry, OperationPage
from graph.core import cursor
from graph.core.checks import check_choice, check_limit
from graph.core.errors import InvalidInput, NotFound, VersionConflict
from graph.core.keys import thread_key
from graph.core.tenancy import check_agent
from graph.core.timeutil import from_graph, iso, utcnow
from graph.core.values import MAX_METADATA_DEPTH, loads_readable
from graph.core.vocab import (
    ARCHIVED,
    DEFAULT_STATUSES,
    MEMORY_TYPES,
    OP_ARCHIVE,
    OP_HARD_DELETE,
    OP_UPDATE,
    STATUSES,
)
from graph.embedding.encoder import AsyncEncoder
from graph.language import stems
from graph.memories.model import Memory, MemoryPatch, Page, PatchResult
from graph.memories.records import memory_from_map
from graph.memories.rules import PATCH_INSTANTS, check_patch, metadata_json
from graph.memories.secrets import check_mode, refuse, screen_changes
from graph.memories.sentiment import sentiment_of
from graph.store.gateway import GraphRunner, Tx

MAX_PAGE = 500  # memories in one listing page
MAX_ORPHAN_PASSES = 4  # claims -> entities -> ... : deeper chains do not exist in the model


class MemoryService:
    def __init__(self, runner: GraphRunner, encoder: AsyncEncoder, *, max_text_chars: int,
                 on_vectors_written: Callable[[Iterable[str]], None] = lambda agents: None) -> None:
        self.runner, self.encoder = runner, encoder
        self.audit = AuditService(runner)
        self.max_text_chars = max_text_chars
        # Told after every commit that changes vectors, so retrieval can fold them into its index.
        self.on_vectors_written = on_vectors_written

    # -- changes (new memories are written by graph/writes) ------------------------------------
    async def update(self, agent: str, memory_id: str, patch: MemoryPatch, actor: str = DEFAULT_ACTOR) -> Memory:
        return (await self.patch(agent, memory_id, patch, actor)).memory

    async def patch(self, agent: str, memory_id: str, patch: MemoryPatch, actor: str = DEFAULT_ACTOR) -> PatchResult:
        """The memory as patched, and the secrets redacted from the patch (patch.secrets="redact");
        in refuse mode a secret in text, category, tags or metadata refuses the patch (secrets.py)."""
        # Only PATCHABLE_FIELDS, each within its rules; anything else is refused before the encoder
        # or the graph is touched (graph/memories/rules.py). Secrets are found before either.
        check_agent(agent)
        mode = check_mode(patch.secrets)
        screened, spans = screen_changes(patch)
        refuse(spans, mode)
        clean = check_patch(replace(patch, changes=screened), self.max_text_chars)
        changes = dict(clean)
        # Instants travel as ISO-8601 text and become datetimes in the statement (as on create).
        instants = {name: iso(changes.pop(name)) for name in PATCH_INSTANTS if name in changes}
        if "text" in changes:
            changes["embedding"] = (await self.encoder.encode_one(changes["text"])).tolist()
            changes["sentiment"] = sentiment_of(changes["text"])
            changes["stems"] = stems.stored(changes["text"])
        if "metadata" in changes:
            changes["metadata"] = metadata_json(changes["metadata"], "metadata")

        async def work(tx: Tx) -> Memory:
            row = await tx.optional(
                "memories/update", agent=agent, id=memory_id, expected_version=patch.expected_version,
                changes=changes, set_instants=list(instants), instants=instants, now=iso(utcnow()))
            if row is None:
                raise NotFound("memory", memory_id)
            if not row["ok"]:
                raise VersionConflict(memory_id, patch.expected_version or 0, row["found_version"])
            # Before and after of exactly the fields the patch changed, and the versions either side.
            await audit.record(tx, agent, OP_UPDATE, actor, [memory_id],
                               before={**_patched(row["previous"], clean), "version": row["found_version"]},
                               after={**_audited(clean), "version": row["memory"]["version"]})
            return memory_from_map(row["memory"], row["claim"])

        updated = await self.runner.write_tx(work)
        if "embedding" in changes:
            self.on_vectors_written([agent])
        return PatchResult(memory=updated, redacted=tuple(spans))

    async def archive(self, agent: str, memory_id: str, actor: str = DEFAULT_ACTOR) -> Memory:
        check_agent(agent)

        async def work(tx: Tx) -> Memory:
            archived = await archive_in(tx, agent, memory_id, actor)
            if archived is None:
                raise NotFound("memory", memory_id)
            return archived

        return await self.runner.write_tx(work)

    async def hard_delete(self, agent: str, memory_id: str, actor: str = DEFAULT_ACTOR) -> int:
        """Removes the memory, its relationships, every node only it referenced, its conflicts and
        the payload of every audit record about it. Returns the number of nodes removed besides the
        memory (claims, entities, sources). The deletion itself is audited, without content."""
        check_agent(agent)

        async def work(tx: Tx) -> int:
            removed = await hard_delete_in(tx, agent, memory_id, actor)
            if removed is None:
                raise NotFound("memory", memory_id)
            return removed

        return await self.runner.write_tx(work)

    # -- reads ------------------------------------------------------------------------------------
    async def get(self, agent: str, memory_id: str) -> Memory:
        check_agent(agent)
        rows = await self.runner.read("memories/get", agent=agent, id=memory_id)
        if not rows:
            raise NotFound("memory", memory_id)
        return memory_from_map(rows[0]["memory"], rows[0]["claim"])

    async def history(self, agent: str, memory_id: str, *, limit: int = DEFAULT_TRAIL_PAGE,
                      cursor: str | None = None) -> OperationPage:
        """Audit records of one memory, oldest first, a page at a time (graph/audit: AuditService.trail
        checks the input); a memory with none is unknown."""
        page = await self.audit.trail(agent, memory_id, limit=limit, cursor=cursor)
        if not page.items and cursor is None:
            await self.get(agent, memory_id)  # 404 for an unknown memory
        return page

    async def list(self, agent: str, *, statuses: Sequence[str] = DEFAULT_STATUSES,
                   memory_types: Sequence[str] | None = None, limit: int = 50, after: str | None = None) -> Page:
        check_agent(agent)
        check_limit(limit, "limit", 1, MAX_PAGE)
        if not statuses:
            raise InvalidInput("status", "must name at least one status")
        for i, status in enumerate(statuses):
            check_choice(status, f"status[{i}]", STATUSES)
        for i, memory_type in enumerate(memory_types or ()):
            check_choice(memory_type, f"memory_type[{i}]", MEMORY_TYPES)
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


def _audited(fields: dict[str, Any]) -> dict[str, Any]:
    """A patch's fields as its audit record holds them: instants as ISO-8601 text."""
    return {k: iso(v) if isinstance(v, datetime) else v for k, v in fields.items()}


def _patched(previous: dict[str, Any], clean: dict[str, Any]) -> dict[str, Any]:
    """What the fields a patch changed held before it, as the audit record holds them."""
    before: dict[str, Any] = {}
    for name in clean:
        value = previous.get(name)
        if name == "metadata":
            value = loads_readable(value, MAX_METADATA_DEPTH)
        elif name in PATCH_INSTANTS:
            value = from_graph(value)
        before[name] = value
    return _audited(before)


async def archive_in(tx: Tx, agent: str, memory_id: str, actor: str, *, job_id: str | None = None,
                     after: dict[str, Any] | None = None) -> Memory | None:
    """Archives a memory in the caller's transaction (the API's, or a pipeline's or a job's that
    changes more at once); `after` adds why to the audit record. None when the tenant has no such memory."""
    row = await tx.optional("memories/archive", agent=agent, id=memory_id, now=iso(utcnow()))
    if row is None:
        return None
    if row["previous"] != ARCHIVED:
        await audit.record(tx, agent, OP_ARCHIVE, actor, [memory_id], before={"status": row["previous"]},
                           after={"status": ARCHIVED, **(after or {})}, job_id=job_id)
    return memory_from_map(row["memory"], row["claim"])


async def hard_delete_in(tx: Tx, agent: str, memory_id: str, actor: str, *, op: str = OP_HARD_DELETE,
                         job_id: str | None = None, after: dict[str, Any] | None = None) -> int | None:
    """A hard delete in the caller's transaction (the API's, or a pipeline's or a maintenance job's):
    the memory, its relationships, every node only it referenced, its conflicts, its idempotency
    answers, and every mention of its id; the deletion is audited under `op` without content (`after`
    may add why). None when the tenant has no such memory; otherwise the nodes removed besides it."""
    found, removed = await hard_delete_many_in(tx, agent, [memory_id], actor, op=op, job_id=job_id,
                                               why={memory_id: after or {}})
    return removed if found else None


async def hard_delete_many_in(tx: Tx, agent: str, memory_ids: Sequence[str], actor: str, *,
                              op: str = OP_HARD_DELETE, job_id: str | None = None,
                              why: dict[str, dict[str, Any]] | None = None) -> tuple[set[str], int]:
    """Hard deletes of several memories at once, in the caller's transaction (a maintenance job that
    prunes a batch): as `hard_delete_in` for each, with every mention of their ids scrubbed in one
    pass over the tenant instead of one per memory. Each deletion has its own audit record (`why[id]`
    may add why). Answers the ids the tenant had (the others are left alone) and how many nodes only
    they referenced went with them."""
    reach = await tx.one("memories/hard_delete_reach", agent=agent, ids=list(memory_ids))
    found = set(reach["found"])
    if not found:
        return found, 0
    ids = sorted(found)
    await tx.scalar("memories/hard_delete_records", agent=agent, ids=ids)
    await tx.scalar("memories/hard_delete_idempotency", agent=agent, ids=ids)
    await tx.scalar("memories/hard_delete_mentions", agent=agent, ids=ids)
    # A turn leaves its thread joined, one at a time: each unlink sees the turns still there.
    for turn in sorted(reach["turns"], key=lambda t: t["id"]):
        await tx.scalar("memories/threads/unlink", agent=agent, id=turn["id"],
                        thread_key=thread_key(agent, turn["thread"]), now=iso(utcnow()))
        await tx.scalar("memories/hard_delete_memory", agent=agent, ids=[turn["id"]])
    await tx.scalar("memories/hard_delete_memory", agent=agent, ids=ids)
    removed, pending = 0, list(reach["reach"])
    for _ in range(MAX_ORPHAN_PASSES):
        deleted = await tx.scalar("memories/delete_orphans", agent=agent, element_ids=pending) if pending else 0
        if deleted == 0:
            break
        removed += deleted
    for key in sorted(k for k in reach["claim_keys"] if k):
        await tx.scalar("beliefs/drop_idle_slot", agent=agent, key=key)
    await audit.record_all(tx, agent, [Entry(op, actor, [], after={"id": i, **(why or {}).get(i, {})}, job_id=job_id)
                                       for i in ids])
    return found, removed

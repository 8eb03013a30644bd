"""Reading the audit trail back: one memory's records oldest first, or a tenant's newest first with
filters, a keyset page at a time (graph/core/cursor.py, as memories/list pages). `AuditService`
checks every input itself, so a worker calling the domain meets the rules the HTTP API does."""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from graph.audit.records import MAX_ACTOR_CHARS, Operation, OperationPage
from graph.core import cursor as keyset
from graph.core.checks import check_choice, check_limit, check_short_text, check_uuid
from graph.core.errors import InvalidInput
from graph.core.tenancy import check_agent
from graph.core.timeutil import check_instant, from_graph_required, iso
from graph.core.values import MAX_METADATA_DEPTH, loads_readable
from graph.core.vocab import AUDIT_OPS
from graph.store.gateway import GraphRunner

MAX_AUDIT_DEPTH = MAX_METADATA_DEPTH + 2  # a patch's metadata sits two levels inside its audit record
MAX_AUDIT_PAGE = 500  # records in one page, of a tenant's audit or of one memory's trail
DEFAULT_AUDIT_PAGE = 50
DEFAULT_TRAIL_PAGE = MAX_AUDIT_PAGE  # a memory's whole trail in one answer, as before pages existed, up to this


def operation_of(row: dict[str, Any]) -> Operation:
    o = row["operation"]
    # Audit payloads are read through repair too: older versions recorded patches as given.
    return Operation(id=o["id"], op=o["op"], actor=o["actor"], at=from_graph_required(o["at"]),
                     before=loads_readable(o["before"], MAX_AUDIT_DEPTH),
                     after=loads_readable(o["after"], MAX_AUDIT_DEPTH),
                     memory_ids=tuple(sorted(set(row.get("memory_ids") or ()))), job_id=o.get("job_id"),
                     redacted=bool(o.get("redacted")))


def _page(rows: list[dict[str, Any]], limit: int) -> OperationPage:
    items = [operation_of(r) for r in rows]
    more = len(items) > limit
    items = items[:limit]
    return OperationPage(items, keyset.encode(items[-1].at, items[-1].id) if more else None)


def check_ops(ops: Any, field: str = "op") -> list[str] | None:
    """None (every op), or a non-empty list of ops of the vocabulary, repeats dropped."""
    if ops is None:
        return None
    if isinstance(ops, (str, bytes)) or not isinstance(ops, Sequence):
        raise InvalidInput(field, "must be a list of operation names or null")
    if not ops:
        raise InvalidInput(field, "must name at least one operation, or be null for every one")
    return list(dict.fromkeys(check_choice(op, f"{field}[{i}]", AUDIT_OPS) for i, op in enumerate(ops)))


class AuditService:
    def __init__(self, runner: GraphRunner) -> None:
        self.runner = runner

    async def query(self, agent: str, *, ops: Sequence[str] | None = None, actor: str | None = None,
                    memory_id: str | None = None, after: datetime | None = None, before: datetime | None = None,
                    limit: int = DEFAULT_AUDIT_PAGE, cursor: str | None = None) -> OperationPage:
        """The tenant's audit records, newest first: any of `ops`, by `actor`, touching `memory_id`,
        made strictly after `after` and strictly before `before`; `cursor` is the previous page's
        next_cursor. Only this tenant's records, whatever the filters say."""
        check_agent(agent)
        chosen = check_ops(ops)
        if actor is not None:
            check_short_text(actor, "actor", MAX_ACTOR_CHARS)
        memory = check_uuid(memory_id, "memory_id") if memory_id is not None else None
        since, until = check_instant(after, "after"), check_instant(before, "before")
        if since is not None and until is not None and since >= until:
            raise InvalidInput("before", "must be later than after")
        check_limit(limit, "limit", 1, MAX_AUDIT_PAGE)
        cursor_at, cursor_id = keyset.decode(cursor) if cursor is not None else (None, None)
        rows = await self.runner.read("audit/query", agent=agent, ops=chosen, actor=actor, memory_id=memory,
                                      after=iso(since), before=iso(until), cursor_at=cursor_at, cursor_id=cursor_id,
                                      limit=limit + 1)
        return _page(rows, limit)

    async def trail(self, agent: str, memory_id: str, *, limit: int = DEFAULT_TRAIL_PAGE,
                    cursor: str | None = None) -> OperationPage:
        """The audit records that touched one memory, oldest first; empty for a memory with none
        (the caller tells an unknown memory apart)."""
        check_agent(agent)
        memory = check_uuid(memory_id, "memory_id")
        check_limit(limit, "limit", 1, MAX_AUDIT_PAGE)
        after_at, after_id = keyset.decode(cursor) if cursor is not None else (None, None)
        rows = await self.runner.read("audit/history", agent=agent, id=memory, after_at=after_at,
                                      after_id=after_id, limit=limit + 1)
        return _page(rows, limit)

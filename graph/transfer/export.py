"""A tenant's export as a stream of lines, read page by page.

Consistency: each page is one read transaction, and the export is bounded by the moment it
starts (`until`): memories, edges to them, conflicts and audit records created later are left out,
so every reference in the file points at a line before it. It is not a point-in-time snapshot of
properties: a memory changed while the export runs may be exported before or after the change.
For an exact snapshot, stop writes to the tenant while it runs (docs/transfer.md)."""
from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from graph.core.tenancy import check_agent
from graph.core.timeutil import iso, utcnow
from graph.store.gateway import GraphRunner
from graph.transfer import format as fmt

PAGE_SIZE = 500  # memories per read: bounded memory whatever the tenant's size


class ExportService:
    def __init__(self, runner: GraphRunner, model: str, dimensions: int, page_size: int | None = None) -> None:
        self.runner, self.model, self.dimensions = runner, model, dimensions
        self.page_size = page_size or PAGE_SIZE

    async def lines(self, agent: str, *, embeddings: bool = False) -> AsyncIterator[list[dict[str, Any]]]:
        """The export, one list of lines per page read: header first, end (with counts) last."""
        check_agent(agent, "agent")
        started = utcnow()
        until = iso(started)
        counts = {"predicate": 0, "memory": 0, "edge": 0, "conflict": 0, "operation": 0}
        yield [fmt.header(agent, started, self.model, self.dimensions, embeddings)]

        after = None
        while True:
            rows = await self.runner.read("transfer/export/predicates", agent=agent, after=after, limit=self.page_size)
            if not rows:
                break
            counts["predicate"] += len(rows)
            yield [fmt.predicate_line(r["predicate"]) for r in rows]
            after = rows[-1]["predicate"]["predicate"]

        async for rows in self._keyset("transfer/export/memories", agent, until, "memory", embeddings=embeddings):
            counts["memory"] += len(rows)
            yield [fmt.memory_line(r["memory"], r["claim"], r["about"], r["sources"]) for r in rows]

        async for rows in self._keyset("transfer/export/edges", agent, until, None):
            lines = [line for r in rows for line in fmt.edge_lines(r["id"], r["edges"] or [])]
            counts["edge"] += len(lines)
            if lines:
                yield lines

        async for rows in self._keyset("transfer/export/conflicts", agent, until, "conflict"):
            counts["conflict"] += len(rows)
            yield [fmt.conflict_line(r["conflict"], r["involves"] or []) for r in rows]

        async for rows in self._keyset("transfer/export/operations", agent, until, "operation", time_key="at"):
            counts["operation"] += len(rows)
            yield [fmt.operation_line(r["operation"], r["memory_ids"] or []) for r in rows]

        yield [fmt.end(counts)]

    async def _keyset(self, query: str, agent: str, until: str, record: str | None, *, time_key: str = "created_at",
                      **params: Any) -> AsyncIterator[list[dict[str, Any]]]:
        """Pages of `query` ordered by (time, id), each read in its own transaction."""
        after_time = after_id = None
        while True:
            cursor = {"after_at": after_time} if time_key == "at" else {"after_created": after_time}
            rows = await self.runner.read(query, agent=agent, until=until, after_id=after_id, limit=self.page_size,
                                          **cursor, **params)
            if not rows:
                return
            yield rows
            last = rows[-1][record] if record else rows[-1]
            after_time, after_id = fmt.time_text(last[time_key]), last["id"]
            if len(rows) < self.page_size:
                return

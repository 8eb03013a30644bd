"""The expiry job: archives a tenant's memories whose `expires_at` has passed (retrieval hides them
from that instant on: cypher/retrieval/visibility.fragment; this makes it their status). Each batch
is archived, audited (op `expire`, with the job's id) and checkpointed in one transaction; a memory
archived is no longer expired-and-active, so a job resumed after a crash picks up where it stopped."""
from __future__ import annotations

from typing import Any

from graph import audit
from graph.audit import Entry
from graph.core.errors import InvalidInput
from graph.core.timeutil import from_graph, iso, utcnow
from graph.core.vocab import ARCHIVED, OP_EXPIRE
from graph.jobs import SYSTEM_AGENT
from graph.maintenance.context import Checkpoint, JobContext
from graph.maintenance.fanout import fan_out
from graph.store.gateway import Tx


def check_params(params: dict[str, Any]) -> None:
    """Only the scheduler's `period` (the cron fire time it ran for: informative)."""
    for name, value in params.items():
        if name != "period" or not isinstance(value, str):
            raise InvalidInput(f"params.{name}", "the expiry job takes no parameters but the scheduler's period")


class Expiry:
    def __init__(self, batch: int) -> None:
        self.batch = batch

    async def __call__(self, ctx: JobContext, params: dict[str, Any]) -> dict[str, Any]:
        if ctx.agent == SYSTEM_AGENT:
            async def tenants() -> list[str]:
                rows = await ctx.runner.read("maintenance/across/expired_tenants", now=iso(utcnow()))
                return [r["agent"] for r in rows]
            return await fan_out(ctx, tenants, params)
        return await self.expire(ctx)

    async def expire(self, ctx: JobContext) -> dict[str, Any]:
        archived = int(ctx.state.get("archived", 0))
        left = (await ctx.runner.read("maintenance/expired_count", agent=ctx.agent, now=iso(utcnow())))[0]["expired"]
        total = archived + left
        while True:
            async def step(tx: Tx, archived: int = archived) -> Checkpoint:
                now = utcnow()
                rows = await tx.many("maintenance/expire_batch", agent=ctx.agent, now=iso(now), limit=self.batch)
                await audit.record_all(tx, ctx.agent, [
                    Entry(OP_EXPIRE, ctx.actor, [r["id"]], before={"status": r["previous"]},
                          after={"status": ARCHIVED, "reason": "expired",
                                 "expires_at": iso(from_graph(r["expires_at"]))},
                          job_id=ctx.job_id) for r in rows])
                done = archived + len(rows)
                return Checkpoint(done, max(total, done), {"archived": done, "last_batch": len(rows)})

            checkpoint = await ctx.write(step)
            archived = checkpoint.done
            if checkpoint.state["last_batch"] < self.batch:
                return {"archived": archived}

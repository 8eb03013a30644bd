"""A scheduled job on the system tenant fans out to one job of the same kind per tenant that has
work (docs/maintenance.md, "Jobs across tenants"). The tenant list is the one cross-tenant read
(agent ids only); each tenant's job then filters every query by its tenant, and shows in that
tenant's job list, so the audit records it writes name a job the tenant can read."""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from graph.jobs import NewJob
from graph.maintenance.context import Checkpoint, JobContext
from graph.store.gateway import Tx

ENQUEUE_BATCH = 100  # tenant jobs enqueued per transaction (each commits with the checkpoint)

Tenants = Callable[[], Awaitable[list[str]]]


async def fan_out(ctx: JobContext, tenants: Tenants, params: dict[str, Any]) -> dict[str, Any]:
    """Enqueues one job of ctx's kind per tenant, `params` each, keyed by this job: a second run of
    this job (after a crash) finds them enqueued and adds none."""
    agents = await tenants()
    for first in range(0, len(agents), ENQUEUE_BATCH):
        batch = agents[first:first + ENQUEUE_BATCH]

        async def step(tx: Tx, batch: list[str] = batch, first: int = first) -> Checkpoint:
            for agent in batch:
                await ctx.queue.enqueue_in(tx, NewJob(agent=agent, kind=ctx.job.kind, params=params,
                                                      key=f"{ctx.job.kind} of job {ctx.job_id}",
                                                      parent_id=ctx.job_id), ctx.actor)
            done = first + len(batch)
            return Checkpoint(done, len(agents), {"enqueued": done})

        await ctx.write(step)
    if not agents:
        await ctx.progress(0, 0, {"enqueued": 0})
    return {"tenants": len(agents)}

"""The stem job: gives a tenant's memories without stems theirs, so keyword search finds them.

Start-up gives stems to the memories stored before them, once, and marks it done; but in a rolling
upgrade a process from before stems keeps writing memories without them after that mark. This job,
scheduled hourly, heals those without a restart: the system job fans out to the tenants that have
any, and each tenant's job stems them a batch per transaction with its checkpoint, by the same
function start-up uses (graph/store/unstemmed.py). Stems are derived from the text and change no
belief, so it writes no audit record and leaves versions alone. Idempotent: each batch reads only
memories still without stems, so a job resumed after a crash, or run twice, stems each once."""
from __future__ import annotations

from typing import Any

from graph.jobs import SYSTEM_AGENT
from graph.maintenance.context import Checkpoint, JobContext
from graph.maintenance.expiry import check_params
from graph.maintenance.fanout import fan_out
from graph.store import unstemmed
from graph.store.gateway import Tx

__all__ = ["Stemming", "check_params"]
MAX_TENANTS = 10_000  # tenants one run fans out to; any more are the next run's


class Stemming:
    def __init__(self, batch: int) -> None:
        self.batch = batch

    async def __call__(self, ctx: JobContext, params: dict[str, Any]) -> dict[str, Any]:
        if ctx.agent == SYSTEM_AGENT:
            async def tenants() -> list[str]:
                return await unstemmed.tenants(ctx.runner, limit=MAX_TENANTS)
            return await fan_out(ctx, tenants, params)
        return await self.stem(ctx)

    async def stem(self, ctx: JobContext) -> dict[str, Any]:
        stemmed = int(ctx.state.get("stemmed", 0))
        total = stemmed + await unstemmed.count(ctx.runner, ctx.agent)
        while True:
            async def step(tx: Tx, stemmed: int = stemmed) -> Checkpoint:
                batch = await unstemmed.stem_batch(tx, ctx.agent, self.batch)
                done = stemmed + batch.stemmed
                return Checkpoint(done, max(total, done), {"stemmed": done, "last_batch": batch.read})

            checkpoint = await ctx.write(step)
            stemmed = checkpoint.done
            if checkpoint.state["last_batch"] < self.batch:
                return {"stemmed": stemmed}

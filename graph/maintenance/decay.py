"""The decay job: archives a tenant's memories whose importance decayed below the floor without use
(graph/maintenance/decay_rules.py has the formula). It pages through the memories the formula may
archive (active, below the exemption, idle for the minimum), weighs each page in pure code, and
archives those below the floor with their audit records (op `decay`, the job's id, the decayed
importance and the policy) and the job's checkpoint (the page's keyset) in one transaction. A memory
used or changed between the read and the write keeps its status (decay_archive compares versions)."""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from graph import audit
from graph.audit import Entry
from graph.core.timeutil import from_graph, from_graph_required, iso, utcnow
from graph.core.vocab import ARCHIVED, OP_DECAY
from graph.jobs import SYSTEM_AGENT
from graph.maintenance.context import Checkpoint, JobContext
from graph.maintenance.decay_rules import DecayPolicy, Weighed, last_active, weigh
from graph.maintenance.expiry import check_params
from graph.maintenance.fanout import fan_out
from graph.store.gateway import Tx

__all__ = ["Decay", "check_params"]


class Decay:
    def __init__(self, policy: DecayPolicy, batch: int) -> None:
        self.policy, self.batch = policy, batch

    async def __call__(self, ctx: JobContext, params: dict[str, Any]) -> dict[str, Any]:
        cutoff = iso(utcnow() - timedelta(days=self.policy.min_idle_days))
        if ctx.agent == SYSTEM_AGENT:
            async def tenants() -> list[str]:
                rows = await ctx.runner.read("maintenance/across/decay_tenants", cutoff=cutoff,
                                             exempt=self.policy.exempt_importance)
                return [r["agent"] for r in rows]
            return await fan_out(ctx, tenants, params)
        return await self.decay(ctx, cutoff)

    async def decay(self, ctx: JobContext, cutoff: str) -> dict[str, Any]:
        state = {"weighed": 0, "archived": 0, "after_created": None, "after_id": None, **ctx.state}
        if "total" not in state:
            rows = await ctx.runner.read("maintenance/decay_count", agent=ctx.agent, cutoff=cutoff,
                                         exempt=self.policy.exempt_importance)
            state["total"] = rows[0]["candidates"]
        while True:
            page = await ctx.runner.read("maintenance/decay_candidates", agent=ctx.agent, cutoff=cutoff,
                                         exempt=self.policy.exempt_importance, after_created=state["after_created"],
                                         after_id=state["after_id"], limit=self.batch)
            if not page:
                await ctx.progress(state["weighed"], max(state["total"], state["weighed"]), state)
                return {"weighed": state["weighed"], "archived": state["archived"]}
            now = utcnow()
            chosen: dict[str, tuple[dict[str, Any], Weighed]] = {}
            for row in page:
                weighed = weigh(self.policy, row["importance"], last_active(
                    from_graph_required(row["created_at"]), from_graph(row["updated_at"]),
                    from_graph(row["last_accessed_at"])), now, row["access_count"], row["reinforcements"])
                if weighed.archive:
                    chosen[row["id"]] = (row, weighed)
            last = page[-1]
            after = {"after_created": iso(from_graph_required(last["created_at"])), "after_id": last["id"]}

            state = dict((await ctx.write(self._step(ctx, chosen, {**state, **after}, len(page)))).state)

    def _step(self, ctx: JobContext, chosen: dict[str, tuple[dict[str, Any], Weighed]], moved: dict[str, Any],
              page_size: int) -> Callable[[Tx], Awaitable[Checkpoint]]:
        """One page's transaction: archive what the formula chose, audit it, and checkpoint past the page."""
        async def step(tx: Tx) -> Checkpoint:
            rows = await tx.many("maintenance/decay_archive", agent=ctx.agent, now=iso(utcnow()), rows=[
                {"id": i, "version": r["version"], "access_count": r["access_count"]} for i, (r, _) in chosen.items()])
            await audit.record_all(tx, ctx.agent, [self._entry(ctx, r, *chosen[r["id"]]) for r in rows])
            state = {**moved, "weighed": moved["weighed"] + page_size, "archived": moved["archived"] + len(rows)}
            return Checkpoint(state["weighed"], max(state["total"], state["weighed"]), state)
        return step

    def _entry(self, ctx: JobContext, archived: dict[str, Any], row: dict[str, Any], weighed: Weighed) -> Entry:
        return Entry(OP_DECAY, ctx.actor, [archived["id"]],
                     before={"status": archived["previous"], "importance": row["importance"]},
                     after={"status": ARCHIVED, "reason": "decayed", "decayed_importance": round(weighed.decayed, 6),
                            "idle_days": round(weighed.idle_days, 3),
                            "half_life_days": round(weighed.half_life_days, 3), "floor": self.policy.floor},
                     job_id=ctx.job_id)

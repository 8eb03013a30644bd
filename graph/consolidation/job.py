"""Consolidation as a job kind: the handler shape the durable job queue runs,
`async def handler(ctx, params) -> dict`, where ctx carries the job's id, agent and actor and an
`async progress(done, total)`. The job's params are the API's body less the agent (the job's own)."""
from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import asdict
from typing import Any, Protocol

from graph.consolidation.model import Report, Request
from graph.consolidation.service import ConsolidationService
from graph.core.errors import InvalidInput

KIND = "consolidate"


class JobContext(Protocol):
    job_id: str
    agent: str
    actor: str

    async def progress(self, done: int, total: int) -> None: ...


Handler = Callable[[JobContext, Mapping[str, Any]], Awaitable[dict[str, Any]]]


def report_dict(report: Report) -> dict[str, Any]:
    """The report as plain JSON values (a job's result)."""
    return asdict(report)


def handler(service: ConsolidationService) -> Handler:
    async def run(ctx: JobContext, params: Mapping[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(params) - {"dry_run", "steps", "thresholds"})
        if unknown:
            raise InvalidInput(f"params.{unknown[0]}", "is no consolidation parameter (dry_run, steps, thresholds)")
        request = Request(agent=ctx.agent, dry_run=params.get("dry_run", False), steps=params.get("steps"),
                          thresholds=params.get("thresholds"))
        return report_dict(await service.consolidate(request, ctx.actor, job_id=ctx.job_id, progress=ctx.progress))
    return run

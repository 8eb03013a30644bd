"""Consolidation as a job kind of the durable queue (graph/maintenance): its handler, and the check of
its params at enqueue. The job's params are the API's body less the agent (the job's own). Its
changes are not written through `ctx.write`: each re-checks its premise under the locks a writer
takes, so a worker that lost its lease and the one that took the job over cannot apply one change
twice; progress checkpoints through `ctx.progress`, which also stops a cancelled run."""
from __future__ import annotations

from dataclasses import asdict
from typing import Any

from graph.consolidation.model import Report, Request
from graph.consolidation.service import ConsolidationService
from graph.core.errors import InvalidInput
from graph.core.vocab import KIND_CONSOLIDATE
from graph.maintenance import Handler, JobContext

KIND = KIND_CONSOLIDATE  # the job kind the durable queue runs it under


def report_dict(report: Report) -> dict[str, Any]:
    """The report as plain JSON values (a job's result)."""
    return asdict(report)


def check_params(params: dict[str, Any]) -> None:
    """A consolidation job's params, checked when it is enqueued (and again when it runs)."""
    unknown = sorted(set(params) - {"dry_run", "steps", "thresholds"})
    if unknown:
        raise InvalidInput(f"params.{unknown[0]}", "is no consolidation parameter (dry_run, steps, thresholds)")


def handler(service: ConsolidationService) -> Handler:
    async def run(ctx: JobContext, params: dict[str, Any]) -> dict[str, Any]:
        check_params(params)
        request = Request(agent=ctx.agent, dry_run=params.get("dry_run", False), steps=params.get("steps"),
                          thresholds=params.get("thresholds"))
        return report_dict(await service.consolidate(request, ctx.actor, job_id=ctx.job_id, progress=ctx.progress))
    return run

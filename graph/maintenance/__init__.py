"""Maintenance that runs itself (docs/maintenance.md): job workers, the handler registry and the
schedules over the durable queue of graph/jobs, the expiry and decay jobs, and the restore of an
archived memory. A handler is `async def handler(ctx: JobContext, params: dict) -> dict`."""
from graph.maintenance.context import Checkpoint, JobContext
from graph.maintenance.registry import Handler, Handlers, ParamsCheck, no_params
from graph.maintenance.service import Maintenance
from graph.maintenance.worker import Worker, WorkerPolicy

__all__ = ["Checkpoint", "Handler", "Handlers", "JobContext", "Maintenance", "ParamsCheck", "Worker",
           "WorkerPolicy", "no_params"]

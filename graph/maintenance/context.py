"""What a job handler is given: its job, and the one way to write (docs/maintenance.md, "Handlers").

A handler is `async def handler(ctx: JobContext, params: dict) -> dict`. Every write it makes goes
through `ctx.write(work)`: one transaction that first checks this worker still holds the job's
lease and that the job was not cancelled, then runs `work`, then records the Checkpoint that `work`
returns (progress and the state a later attempt resumes from). The effects and the checkpoint land
together or not at all, so a job killed at any point resumes from its last checkpoint and does
nothing twice; a worker whose lease ran out (another one took the job) can no longer write.
`ctx.progress(done, total)` is a checkpoint without effects. Both raise JobCancelled once the job
was cancelled, before that step's effects."""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from graph.jobs import Claimed, Job, JobQueue
from graph.store.gateway import GraphRunner, Tx


@dataclass(frozen=True)
class Checkpoint:
    """How far a job got (`done` of `total`, None when unknown) and what it resumes from."""
    done: int
    total: int | None = None
    state: dict[str, Any] = field(default_factory=dict)


class JobContext:
    def __init__(self, claimed: Claimed, queue: JobQueue, runner: GraphRunner, worker: str,
                 lease_seconds: float) -> None:
        self.job: Job = claimed.job
        self.queue, self.runner, self.worker, self.lease_seconds = queue, runner, worker, lease_seconds
        self.state: dict[str, Any] = dict(claimed.state)  # the last checkpoint's state; {} on a first run
        self.done, self.total = claimed.job.done, claimed.job.total

    @property
    def job_id(self) -> str:
        return self.job.id

    @property
    def agent(self) -> str:
        """The job's tenant (graph.jobs.SYSTEM_AGENT for a scheduled fan-out): every query names it."""
        return self.job.agent

    @property
    def actor(self) -> str:
        """Who asked for the job (the API's X-Credence-Actor, or `scheduler`): the actor of its audit records."""
        return self.job.actor

    @property
    def attempt(self) -> int:
        return self.job.attempts

    async def write(self, work: Callable[[Tx], Awaitable[Checkpoint]]) -> Checkpoint:
        """Runs `work` in one transaction with the job's checkpoint, fenced by the lease."""
        async def unit(tx: Tx) -> Checkpoint:
            await JobQueue.fence(tx, self.job, self.worker)
            checkpoint = await work(tx)
            await JobQueue.checkpoint(tx, self.job, self.worker, checkpoint.done, checkpoint.total, checkpoint.state,
                                      self.lease_seconds)
            return checkpoint

        checkpoint = await self.runner.write_tx(unit)
        self.done, self.total, self.state = checkpoint.done, checkpoint.total, dict(checkpoint.state)
        return checkpoint

    async def progress(self, done: int, total: int | None = None, state: dict[str, Any] | None = None) -> None:
        """Records progress (and, given, the state to resume from); raises JobCancelled when cancelled."""
        checkpoint = Checkpoint(done, total, self.state if state is None else state)

        async def nothing(_: Tx) -> Checkpoint:
            return checkpoint

        await self.write(nothing)

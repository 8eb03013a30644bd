"""Schedules: cron expressions (settings) whose periods each enqueue one job, once, however many
processes run a scheduler on one database (docs/maintenance.md, "Schedules").

At each tick a scheduler takes, for each schedule, the latest period that has begun (the cron's
previous fire time) and enqueues its job unless some process already did: the Schedule node of
that name, unique and write-locked, remembers the last period enqueued, and the job is written in
the same transaction (its idempotency key names schedule and period as well). A service that was
down across several periods runs the latest one when it is back, not each missed one; a schedule
seen for the first time (a new database, a new schedule) starts from its next period, as cron does."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from croniter import croniter

from graph.core.errors import CredenceError
from graph.core.tasks import cancel_and_wait
from graph.core.timeutil import iso, utcnow
from graph.jobs import SYSTEM_AGENT, Job, JobQueue, NewJob
from graph.store.gateway import GraphRunner, Tx

log = logging.getLogger(__name__)
SCHEDULER_ACTOR = "scheduler"
MAX_TICK_SECONDS = 30.0  # a scheduler looks at least this often, whatever the poll interval


@dataclass(frozen=True)
class Schedule:
    """`kind` runs on the system tenant (it fans out to tenants) at each fire time of `cron` (UTC)."""
    name: str
    cron: str
    kind: str
    params: dict[str, Any] = field(default_factory=dict)


def latest_period(cron: str, now: datetime) -> datetime:
    """The latest fire time of `cron` at or before `now` (UTC)."""
    return croniter(cron, now).get_prev(datetime)


class Scheduler:
    def __init__(self, runner: GraphRunner, queue: JobQueue, schedules: list[Schedule], interval: float,
                 on_enqueued: Callable[[], None] | None = None) -> None:
        self.runner, self.queue, self.schedules = runner, queue, schedules
        self.interval = min(interval, MAX_TICK_SECONDS)
        self.on_enqueued = on_enqueued or (lambda: None)
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        if self._task is None and self.schedules:
            self._task = asyncio.create_task(self._run(), name="job-scheduler")

    async def stop(self) -> None:
        await cancel_and_wait(self._task)
        self._task = None

    async def tick(self, now: datetime | None = None) -> list[Job]:
        """Enqueues each schedule's latest period's job where no process has yet; answers those it did."""
        now = now or utcnow()
        enqueued = []
        for schedule in self.schedules:
            period = latest_period(schedule.cron, now)

            async def work(tx: Tx, schedule: Schedule = schedule, period: datetime = period) -> Job | None:
                if not await self.queue.schedule_due(tx, schedule.name, period):
                    return None
                new = NewJob(agent=SYSTEM_AGENT, kind=schedule.kind, params={**schedule.params, "period": iso(period)},
                             key=f"schedule {schedule.name} {iso(period)}")
                return (await self.queue.enqueue_in(tx, new, SCHEDULER_ACTOR)).job

            job = await self.runner.write_tx(work, kind="background")
            if job is not None:
                log.info("scheduled %s for period %s: job %s", schedule.name, iso(period), job.id)
                enqueued.append(job)
        if enqueued:
            self.on_enqueued()
        return enqueued

    async def _run(self) -> None:
        while True:
            try:
                await self.tick()
            except CredenceError as exc:
                log.warning("the scheduler could not reach the queue: %s", exc)
            except Exception:  # a bug must not stop every later period
                log.exception("the scheduler's tick failed")
            await asyncio.sleep(self.interval)

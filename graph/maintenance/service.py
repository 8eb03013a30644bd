"""Maintenance, wired once per process: the queue, the handlers of the built-in kinds, this process's
worker and scheduler (each on or off by settings), and the restore of archived memories."""
from __future__ import annotations

import logging

from graph.core.vocab import JOB_STATUSES, KIND_DECAY, KIND_EXPIRE, KIND_STEM
from graph.jobs import Enqueued, JobQueue, NewJob
from graph.maintenance import decay, expiry, stemming
from graph.maintenance.decay import Decay
from graph.maintenance.decay_rules import DecayPolicy
from graph.maintenance.expiry import Expiry
from graph.maintenance.registry import Handler, Handlers, ParamsCheck
from graph.maintenance.restore import RestoreService
from graph.maintenance.scheduler import Schedule, Scheduler
from graph.maintenance.stemming import Stemming
from graph.maintenance.worker import Worker, WorkerPolicy
from graph.observability.metrics import JOBS
from graph.settings import Settings
from graph.store.gateway import GraphRunner

log = logging.getLogger(__name__)


def decay_policy(settings: Settings) -> DecayPolicy:
    return DecayPolicy(half_life_days=settings.decay_half_life_days, floor=settings.decay_floor,
                       min_idle_days=settings.decay_min_idle_days, exempt_importance=settings.decay_exempt_importance)


def worker_policy(settings: Settings) -> WorkerPolicy:
    return WorkerPolicy(concurrency=settings.jobs_concurrency, poll_interval=settings.jobs_poll_interval,
                        lease_seconds=settings.jobs_lease_seconds, backoff_seconds=settings.jobs_backoff_seconds,
                        backoff_max_seconds=settings.jobs_backoff_max_seconds)


def schedules(settings: Settings) -> list[Schedule]:
    """The schedules whose cron is set (an empty one is off)."""
    return [Schedule(kind, cron, kind) for kind, cron in ((KIND_EXPIRE, settings.schedule_expire),
                                                          (KIND_DECAY, settings.schedule_decay),
                                                          (KIND_STEM, settings.schedule_stem)) if cron]


class Maintenance:
    def __init__(self, runner: GraphRunner, settings: Settings) -> None:
        self.settings = settings
        self.queue = JobQueue(runner, default_max_attempts=settings.jobs_max_attempts)
        self.handlers = Handlers(self.queue)
        self.register(KIND_EXPIRE, Expiry(settings.maintenance_batch), expiry.check_params)
        self.register(KIND_DECAY, Decay(decay_policy(settings), settings.maintenance_batch), decay.check_params)
        self.register(KIND_STEM, Stemming(settings.maintenance_batch), stemming.check_params)
        self.worker = Worker(runner, self.queue, self.handlers, worker_policy(settings))
        self.scheduler = Scheduler(runner, self.queue, schedules(settings), settings.jobs_poll_interval,
                                   on_enqueued=self.worker.wake)
        self.restore = RestoreService(runner)

    def register(self, kind: str, handler: Handler, check: ParamsCheck) -> None:
        """Serve another kind of job (a package above the queue registers its own, e.g. consolidation)."""
        self.handlers.register(kind, handler, check)

    def start(self) -> None:
        """This process's worker and scheduler, as the settings say."""
        if self.settings.jobs_worker:
            self.worker.start()
            log.info("job worker %s started (%d at a time; kinds %s)", self.worker.name,
                     self.settings.jobs_concurrency, ", ".join(self.handlers.kinds()))
        if self.settings.jobs_scheduler:
            self.scheduler.start()

    async def stop(self) -> None:
        await self.scheduler.stop()
        await self.worker.stop()

    async def enqueue(self, new: NewJob, actor: str) -> Enqueued:
        enqueued = await self.queue.enqueue(new, actor)
        self.worker.wake()
        return enqueued

    async def publish_depth(self) -> None:
        """credence_jobs from the queue itself, for this scrape: every status of every served kind, zeros included."""
        rows = await self.queue.depth()
        JOBS.clear()
        for kind in self.handlers.kinds():
            for status in JOB_STATUSES:
                JOBS.labels(status, kind).set(0)
        for row in rows:
            JOBS.labels(row["status"], row["kind"]).set(row["jobs"])

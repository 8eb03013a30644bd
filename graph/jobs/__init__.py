"""Durable jobs: Job nodes in the graph, enqueued in the transaction of the request that asks for
them, claimed by workers under a lease, retried with backoff, dead-lettered, cancelled, and visible
(docs/maintenance.md). Workers, handlers and schedules live in graph/maintenance, above."""
from graph.jobs.model import (
    DEFAULT_JOB_PAGE,
    DEFAULT_PRIORITY,
    MAX_JOB_PAGE,
    PRIORITY_HIGHEST,
    PRIORITY_LOWEST,
    SYSTEM_AGENT,
    Claimed,
    Enqueued,
    Job,
    JobPage,
    NewJob,
)
from graph.jobs.queue import JobCancelled, JobQueue, LeaseLost
from graph.jobs.rules import MAX_ATTEMPTS_LIMIT, retry_at

__all__ = ["DEFAULT_JOB_PAGE", "DEFAULT_PRIORITY", "MAX_ATTEMPTS_LIMIT", "MAX_JOB_PAGE", "PRIORITY_HIGHEST",
           "PRIORITY_LOWEST", "SYSTEM_AGENT", "Claimed", "Enqueued", "Job", "JobCancelled", "JobPage", "JobQueue",
           "LeaseLost", "NewJob", "retry_at"]

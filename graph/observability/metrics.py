"""The process's Prometheus metrics, all in one registry (docs/operations.md, "Metrics").

Each metric is reported at one chokepoint: HTTP requests by the ASGI middleware in api/observe.py,
database statements and retries by the gateway (graph/store/gateway.py), embeddings by the encoder
(graph/embedding/encoder.py), the access-count queue by graph/memories/access.py. Labels carry names
the code chose (route templates, statement names from the Cypher registry, kinds of work), never a
tenant, an id or a raw path, so the number of series stays bounded whatever the traffic.

The values belong to this process: several service processes are scraped one by one (each has its
own port), and nothing here is shared between them."""
from __future__ import annotations

from collections.abc import Callable

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
)
from prometheus_client.exposition import choose_encoder
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector

# Counters and histograms would each add a `_created` series (the time they were first used):
# noise for a scrape that already has process_start_time_seconds.
disable_created_metrics()

REGISTRY = CollectorRegistry(auto_describe=True)
# The library's own collectors, registered on this registry (the library's global one is not served).
ProcessCollector(registry=REGISTRY)  # process_resident_memory_bytes, cpu seconds, open fds, start time
PlatformCollector(registry=REGISTRY)  # python_info
GCCollector(registry=REGISTRY)  # python_gc_*

# The same for the database process this service runs (the embedded ArcadeDB's or the local Neo4j's
# JVM, usually the larger of the two), as credence_backend_process_*; nothing when there is none
# (a server at NEO4J_URI): the collector finds no /proc/none/ and reports nothing.
_backend: list[Callable[[], int | None]] = []


def watch_backend_process(pid: Callable[[], int | None]) -> None:
    """Report the process `pid()` names as credence_backend_process_*: the latest watched one."""
    _backend.append(pid)


def unwatch_backend_process(pid: Callable[[], int | None]) -> None:
    """Stop reporting the process `pid` named, and only that one: a process that ran several services
    (tests, benchmarks) keeps reporting the database of those still running."""
    if pid in _backend:
        _backend.remove(pid)


ProcessCollector(namespace="credence_backend", pid=lambda: (_backend[-1]() if _backend else None) or "none",
                 registry=REGISTRY)

# Seconds. A search is tens of milliseconds, a 1,000-memory batch tens of seconds (mostly embedding).
REQUEST_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
STATEMENT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
EMBEDDING_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)

HTTP_REQUEST_SECONDS = Histogram(
    "credence_http_request_duration_seconds",
    "HTTP requests, from reaching the application to their last byte sent, by route template (the path as "
    "declared, e.g. /v1/memories/{memory_id}; 'unmatched' for paths no route serves), method and status.",
    ["method", "route", "status"], buckets=REQUEST_BUCKETS, registry=REGISTRY)

DB_STATEMENT_SECONDS = Histogram(
    "credence_db_statement_duration_seconds",
    "One Cypher statement, from sending it to its last row received, by its name in the registry "
    "(cypher/<name>.cypher) and outcome (ok, or error when the database or the shape check refused it).",
    ["statement", "outcome"], buckets=STATEMENT_BUCKETS, registry=REGISTRY)
DB_UNIT_SECONDS = Histogram(
    "credence_db_unit_duration_seconds",
    "One unit of work (a read, a write transaction, background bookkeeping), retries and waits included, "
    "by kind and outcome (ok or error).",
    ["kind", "outcome"], buckets=STATEMENT_BUCKETS, registry=REGISTRY)
DB_RETRIES = Counter(
    "credence_db_retries",
    "Units of work attempted again by the gateway, by the unit's first statement and why: collision "
    "(a transient conflict with a concurrent transaction), duplicate_key (ArcadeDB's MERGE race), "
    "vanished_record (a read met a record a rolled-back write left in an index) or connection (lost).",
    ["unit", "reason"], registry=REGISTRY)
DB_COLLISIONS = Counter(
    "credence_db_collisions",
    "Collisions with concurrent transactions, by unit of work (its first statement), the statement that "
    "failed ('commit' when the commit did) and the record or page it was on, as the database names it; "
    "the counts the gateway logs at shutdown (Collisions).",
    ["unit", "statement", "where"], registry=REGISTRY)
DB_SESSIONS_IN_USE = Gauge(
    "credence_db_sessions_in_use",
    "Driver sessions the gateway has open now, each running one unit of work on one pooled connection or "
    "waiting for one; near credence_db_pool_max_size the pool is the bottleneck. (The driver publishes no "
    "pool statistics of its own.)",
    registry=REGISTRY)
DB_POOL_MAX_SIZE = Gauge(
    "credence_db_pool_max_size",
    "The driver's configured connection pool size (NEO4J_MAX_POOL_SIZE).", registry=REGISTRY)

EMBEDDING_SECONDS = Histogram(
    "credence_embedding_duration_seconds",
    "One call of the embedding model, without the wait for its lane: lane 'single' (one or two texts, a "
    "search query or a patched text; ONNX Runtime when exported) or 'batch' (torch), and the runtime.",
    ["lane", "runtime"], buckets=EMBEDDING_BUCKETS, registry=REGISTRY)
EMBEDDING_WAIT_SECONDS = Histogram(
    "credence_embedding_wait_seconds",
    "Time a call waited for its lane (one encode at a time per lane) before the model ran.",
    ["lane"], buckets=EMBEDDING_BUCKETS, registry=REGISTRY)
EMBEDDING_TEXTS = Counter(
    "credence_embedding_texts", "Texts embedded, by lane.", ["lane"], registry=REGISTRY)

ACCESS_PENDING = Gauge(
    "credence_access_pending_memories",
    "Memories whose access counts wait in this process for the next batched write (CREDENCE_ACCESS_FLUSH_INTERVAL).",
    registry=REGISTRY)
ACCESS_DROPPED = Counter(
    "credence_access_dropped_memories",
    "Memories whose access counts were dropped because their write failed (logged as well).",
    registry=REGISTRY)

# Durable jobs (graph/jobs, graph/maintenance). The queue lives in the database, shared by every
# process: credence_jobs is counted from it at each scrape, so any process reports the whole queue;
# the outcomes and durations are those of the jobs this process's workers ran.
JOB_BUCKETS = (0.1, 0.5, 1.0, 5.0, 15.0, 60.0, 300.0, 900.0, 3600.0, 14_400.0)
JOBS = Gauge(
    "credence_jobs",
    "Jobs in the queue (the database, all processes) by status (queued, running, succeeded, cancelled, dead) "
    "and kind, as counted at this scrape.",
    ["status", "kind"], registry=REGISTRY)
JOBS_RUNNING = Gauge(
    "credence_jobs_running", "Jobs this process's workers are running now, by kind.", ["kind"], registry=REGISTRY)
JOB_OUTCOMES = Counter(
    "credence_job_outcomes",
    "Job attempts this process's workers ended, by kind and outcome: succeeded, retried (failed, queued again "
    "after its backoff), dead (failed its last attempt), cancelled, lost (its lease ran out first), released "
    "(handed back at shutdown).",
    ["kind", "outcome"], registry=REGISTRY)
JOB_SECONDS = Histogram(
    "credence_job_duration_seconds", "One attempt of a job in this process, by kind and outcome.",
    ["kind", "outcome"], buckets=JOB_BUCKETS, registry=REGISTRY)



def exposition(accept: str | None) -> tuple[bytes, str]:
    """The registry in the format the scraper asks for (Prometheus' text format unless it accepts
    OpenMetrics), and its content type."""
    encode, content_type = choose_encoder(accept or "")
    return encode(REGISTRY), content_type

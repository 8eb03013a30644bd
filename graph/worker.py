"""`python -m graph.worker` (or `credence-worker`): job workers in a process of their own, for
deployments that scale workers apart from the API (docs/maintenance.md, "Workers").

It connects to the database server at NEO4J_URI that the service processes share (a local backend
belongs to one service process: there, workers run inside the service), checks the schema a service
applied, and runs CREDENCE_JOBS_CONCURRENCY jobs at a time, plus the scheduler unless
CREDENCE_JOBS_SCHEDULER=false, until SIGTERM or SIGINT; then it hands its running jobs back to the
queue and exits."""
from __future__ import annotations

import asyncio
import logging
import signal
import sys

from graph.core.errors import StartupError
from graph.observability import logs
from graph.services import Services
from graph.settings import Settings

log = logging.getLogger("credence.worker")


async def serve(settings: Settings) -> None:
    services = await Services.start(settings, schema=False)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    log.info("worker process ready: %s", services.maintenance.worker.name)
    try:
        await stop.wait()
    finally:
        log.info("worker process stopping: running jobs go back to the queue")
        await services.close()


def main() -> int:
    try:
        settings = Settings.from_env()
    except ValueError as exc:
        print(f"cannot start: {exc}", file=sys.stderr)
        return 2
    logs.configure(settings.log_level, settings.log_format)
    if not settings.neo4j_uri:
        log.error("cannot start: a worker process needs the database server the services share (NEO4J_URI); "
                  "with a local backend, workers run inside the service (CREDENCE_JOBS_WORKER)")
        return 2
    try:
        asyncio.run(serve(settings.model_copy(update={"jobs_worker": True})))
    except StartupError as exc:
        log.error("cannot start: %s", exc)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`python -m api`: run the service with the host, port and log level from the settings."""
from __future__ import annotations

import logging
import sys

import uvicorn

from graph.core.errors import StartupError
from graph.observability import logs
from graph.settings import Settings


def main() -> int:
    try:
        settings = Settings.from_env()
    except ValueError as exc:
        print(f"cannot start: {exc}", file=sys.stderr)
        return 2
    logs.configure(settings.log_level, settings.log_format)
    from api.app import create_app

    try:
        # uvicorn's loggers write through the root handler above (log_config=None), in the same
        # format; its access line is replaced by the service's own (credence.access, api/observe.py),
        # which names the route template and carries the request id.
        uvicorn.run(create_app(settings=settings), host=settings.host, port=settings.port,
                    log_level=settings.log_level, lifespan="on", log_config=None, access_log=False)
    except StartupError as exc:
        logging.getLogger("credence").error("cannot start: %s", exc)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`python -m api`: run the service with the host, port and log level from the settings."""
from __future__ import annotations

import logging
import sys

import uvicorn

from graph.core.errors import StartupError
from graph.settings import Settings


def main() -> int:
    try:
        settings = Settings.from_env()
    except ValueError as exc:
        print(f"cannot start: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from api.app import create_app

    try:
        uvicorn.run(create_app(settings=settings), host=settings.host, port=settings.port,
                    log_level=settings.log_level, lifespan="on")
    except StartupError as exc:
        logging.getLogger("credence").error("cannot start: %s", exc)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

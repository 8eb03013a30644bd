"""Which handler runs which kind of job. A kind with a handler is one the queue accepts."""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from graph.core.errors import InvalidInput
from graph.jobs import JobQueue
from graph.maintenance.context import JobContext

Handler = Callable[[JobContext, dict[str, Any]], Awaitable[dict[str, Any]]]
ParamsCheck = Callable[[dict[str, Any]], None]  # raises InvalidInput naming the field


def no_params(params: dict[str, Any]) -> None:
    for name in params:
        raise InvalidInput(f"params.{name}", "is not a parameter of this kind of job")


class Handlers:
    def __init__(self, queue: JobQueue) -> None:
        self.queue = queue
        self._handlers: dict[str, Handler] = {}

    def register(self, kind: str, handler: Handler, check: ParamsCheck = no_params) -> None:
        """Serve `kind` with `handler`; `check` refuses bad params when the job is enqueued."""
        self._handlers[kind] = handler
        self.queue.serve(kind, check)

    def __getitem__(self, kind: str) -> Handler:
        return self._handlers[kind]

    def kinds(self) -> list[str]:
        return sorted(self._handlers)

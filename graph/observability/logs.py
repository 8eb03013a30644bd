"""The service's log lines: text (the default) or one JSON object per line (CREDENCE_LOG_FORMAT=json),
for a log shipper that should not parse free text (docs/operations.md, "Logs").

Every JSON line has `time` (UTC, ISO 8601 with milliseconds), `level`, `logger` and `message`; a line
written while a request is served also has its `request_id`; the access line of each request
(logger `credence.access`, written by api/observe.py) adds `method`, `route`, `path`, `status` and
`duration_ms`; a line with an exception has its traceback in `exception`, still on one line."""
from __future__ import annotations

import json
import logging
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import IO, Any

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# What an access line carries besides its message (passed as `extra=`), in this order.
ACCESS_FIELDS = ("method", "route", "path", "status", "duration_ms")

# The id of the request being served, set by the HTTP layer for the request's whole context
# (its tasks and the worker threads they start), so that every line logged for it carries it.
request_id: ContextVar[str | None] = ContextVar("request_id", default=None)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        rid = getattr(record, "request_id", None) or request_id.get()
        if rid is not None:
            line["request_id"] = rid
        for name in ACCESS_FIELDS:
            if (value := getattr(record, name, None)) is not None:
                line[name] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        # One object per line: json.dumps escapes the newlines of a traceback or a message.
        return json.dumps(line, ensure_ascii=False, default=str)


def configure(level: str, log_format: str, stream: IO[str] | None = None) -> logging.Handler:
    """The root logger writes `log_format` ('text' or 'json') lines to `stream` (stderr) from `level`
    up; every other logger (uvicorn's, the driver's) propagates to it. Returns the handler."""
    if log_format not in ("text", "json"):
        raise ValueError(f"log format must be 'text' or 'json', not {log_format!r}")
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    logging.captureWarnings(True)  # a library's warnings.warn becomes a line of this format (py.warnings)
    return handler

"""Small input checks every service uses on what it is given, so a worker or pipeline that calls
the domain directly meets the same rules as the HTTP API: InvalidInput naming the field. Pure."""
from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from graph.core.errors import InvalidInput
from graph.core.values import check_unicode

MAX_REASON_CHARS = 2_000  # a person's reason or details, on a review, a resolution or a quarantine


def check_choice(value: Any, field: str, choices: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise InvalidInput(field, f"must be one of {', '.join(choices)}")
    return value


def check_note(value: Any, field: str, max_chars: int = MAX_REASON_CHARS) -> str | None:
    """An optional free-text note (a reason, details): a string within its limit, or None."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidInput(field, "must be a string or null")
    check_unicode(value, field)
    if len(value) > max_chars:
        raise InvalidInput(field, f"is {len(value)} characters; the limit is {max_chars}")
    return value


def check_limit(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(field, f"must be a whole number from {low} to {high}")
    return value


def check_uuid(value: Any, field: str) -> str:
    """An id the service issued (memories, audit records, ...): a UUID, answered in its canonical
    lower-case form."""
    try:
        if isinstance(value, str):
            return str(uuid.UUID(value))
    except ValueError:
        pass
    raise InvalidInput(field, "must be a UUID")


def check_short_text(value: Any, field: str, max_chars: int) -> str:
    """A short required text (an actor, a job id): a non-blank string within its limit."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(field, "must be a non-empty string")
    check_unicode(value, field)
    if len(value) > max_chars:
        raise InvalidInput(field, f"is {len(value)} characters; the limit is {max_chars}")
    return value

"""Opaque keyset cursors for stable pagination: (created_at, id) of the last item served."""
from __future__ import annotations

import base64
import json
import uuid
from datetime import datetime

from graph.core.errors import InvalidInput
from graph.core.timeutil import iso


def encode(created_at: datetime, memory_id: str) -> str:
    raw = json.dumps([iso(created_at), memory_id], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode(cursor: str) -> tuple[str, str]:
    """The (created_at, id) a cursor holds, re-encoded in the service's own formats: whatever a
    client hand-makes is refused here, never passed on to the database."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        created, memory_id = json.loads(raw)
        if not isinstance(created, str) or not isinstance(memory_id, str):
            raise ValueError
        at = datetime.fromisoformat(created)
        if at.tzinfo is None or "T" not in created:
            raise ValueError
        return iso(at), str(uuid.UUID(memory_id))
    except (ValueError, TypeError, OverflowError, UnicodeError, RecursionError):
        raise InvalidInput("cursor", "is not a cursor this service issued; pass next_cursor unchanged") from None

"""Opaque keyset cursors for stable pagination: (created_at, id) of the last item served."""
from __future__ import annotations

import base64
import json
from datetime import datetime

from graph.core.errors import InvalidInput
from graph.core.timeutil import iso


def encode(created_at: datetime, memory_id: str) -> str:
    raw = json.dumps([iso(created_at), memory_id], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode(cursor: str) -> tuple[str, str]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        created, memory_id = json.loads(raw)
        datetime.fromisoformat(created)
        if not isinstance(memory_id, str):
            raise ValueError
        return created, memory_id
    except (ValueError, TypeError):
        raise InvalidInput("cursor", "is not a cursor this service issued; pass next_cursor unchanged") from None

"""Where the service is and who calls it: shared by both clients, the CLI and the MCP server."""
from __future__ import annotations

import os
from typing import Any

from credence_client.endpoints import set_only

DEFAULT_URL = "http://127.0.0.1:8000"
DEFAULT_TIMEOUT = 30.0
# The service's answer to a write carries it; a later call that sends it back reads that write (docs/scaling.md).
CONSISTENCY_HEADER = "Credence-Consistency-Token"


def from_environment() -> dict[str, Any]:
    """CREDENCE_URL, CREDENCE_API_KEY (the service's key) and CREDENCE_ACTOR (who acts, in the audit trail)."""
    return {"url": os.environ.get("CREDENCE_URL") or DEFAULT_URL,
            "api_key": os.environ.get("CREDENCE_API_KEY") or None,
            "actor": os.environ.get("CREDENCE_ACTOR") or None}


def headers(api_key: str | None, actor: str | None) -> dict[str, str]:
    return set_only(**{"Authorization": f"Bearer {api_key}" if api_key else None, "X-Credence-Actor": actor})

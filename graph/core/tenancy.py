"""What a tenant id is. Every service checks the agent it is given against this one rule."""
from __future__ import annotations

import re
from typing import Any

from graph.core.errors import InvalidInput

# A tenant id: printable, no spaces, so it reads well in Cypher (and keys may join it with a space).
AGENT_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:@/+\-]*$"
MAX_AGENT_CHARS = 128

_AGENT = re.compile(AGENT_PATTERN)


def check_agent(agent: Any, field: str = "agent") -> str:
    if not isinstance(agent, str) or not agent:
        raise InvalidInput(field, "must be a non-empty string")
    if len(agent) > MAX_AGENT_CHARS:
        raise InvalidInput(field, f"is {len(agent)} characters; the limit is {MAX_AGENT_CHARS}")
    if not _AGENT.match(agent):
        raise InvalidInput(field, f"must match {AGENT_PATTERN}")
    return agent

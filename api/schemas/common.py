"""Types shared by request models."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, StringConstraints

from graph.core.vocab import MEMORY_TYPES, STATUSES
from graph.memories.rules import AGENT_PATTERN, MAX_AGENT_CHARS, MAX_TAG_CHARS

# A tenant id: what `agent` names on every node. The rules live in the domain (graph/memories/rules.py).
Agent = Annotated[str, StringConstraints(min_length=1, max_length=MAX_AGENT_CHARS, pattern=AGENT_PATTERN)]
Tag = Annotated[str, StringConstraints(min_length=1, max_length=MAX_TAG_CHARS, strip_whitespace=True)]
MemoryType = Literal[MEMORY_TYPES]  # type: ignore[valid-type]
Status = Literal[STATUSES]  # type: ignore[valid-type]


class Request(BaseModel):
    """Request bodies reject unknown fields. Numbers use Strict* types: "0.5" is not a number."""
    model_config = ConfigDict(extra="forbid")

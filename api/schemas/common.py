"""Types shared by request models."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, StringConstraints

from graph.core.vocab import MEMORY_TYPES, STATUSES

# A tenant id: what `agent` names on every node. Printable, no spaces, so it reads well in Cypher.
Agent = Annotated[str, StringConstraints(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9][A-Za-z0-9._:@/+\-]*$")]
Tag = Annotated[str, StringConstraints(min_length=1, max_length=64, strip_whitespace=True)]
MemoryType = Literal[MEMORY_TYPES]  # type: ignore[valid-type]
Status = Literal[STATUSES]  # type: ignore[valid-type]


class Request(BaseModel):
    """Request bodies reject unknown fields. Numbers use Strict* types: "0.5" is not a number."""
    model_config = ConfigDict(extra="forbid")

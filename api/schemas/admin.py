"""What the administrator's maintenance calls answer."""
from __future__ import annotations

from pydantic import BaseModel, Field

from graph.store.compaction import Compaction


class CompactionStepOut(BaseModel):
    command: str = Field(description="The database command run.")
    seconds: float


class CompactionOut(BaseModel):
    backend: str = Field(description="arcadedb-embedded, neo4j-local or neo4j (a server at NEO4J_URI).")
    complete: bool = Field(description="True when no file of the data directory holds what hard deletes removed "
                                       "any longer; false when this backend cannot be compacted online.")
    steps: list[CompactionStepOut] = Field(description="What was run, in order (none where nothing can be).")
    remains: list[str] = Field(description="Where deleted data may still be on disk, until when, and how to remove it.")
    seconds: float

    @classmethod
    def of(cls, done: Compaction) -> CompactionOut:
        return cls(backend=done.backend, complete=done.complete, seconds=done.seconds, remains=list(done.remains),
                   steps=[CompactionStepOut(command=s.command, seconds=s.seconds) for s in done.steps])

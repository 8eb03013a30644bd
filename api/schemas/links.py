"""Request and response bodies for memory links (typed edges between one tenant's memories)."""
from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from typing import Literal
from uuid import UUID

from pydantic import BaseModel, Field

from api.schemas.common import Agent, Request
from graph.core.vocab import EDGE_KINDS
from graph.links.service import MAX_NOTE_CHARS, Link

# Every kind is accepted here so that the domain can answer an engine-owned one with a 409 saying why.
LinkType = Literal[EDGE_KINDS]  # type: ignore[valid-type]


class LinkCreate(Request):
    agent: Agent
    type: LinkType = Field(description="SUPPORTS: this memory supports `to`; CAUSES: this memory caused `to` (a "
                                       "link that would close a causal cycle is a 409); PROMOTED_FROM: this memory "
                                       "was promoted from `to`; OUTCOME_OF: this memory is what came of the decision "
                                       "`to`; PROGRESS_ON: this memory records progress on the goal `to`. SUPERSEDES, "
                                       "CONTRADICTS and DIGEST_OF belong to the engine: 409.")
    to: UUID = Field(description="Another memory of the same agent: a memory cannot link to itself (422).")
    note: str | None = Field(None, max_length=MAX_NOTE_CHARS)


class LinkOut(BaseModel):
    type: LinkType
    direction: Literal["out", "in"] = Field(description="out: this memory is the edge's start.")
    id: str = Field(description="The memory at the other end.")
    at: datetime | None = Field(description="When the edge was made (its created_at).")
    created_by: str | None = Field(None, description="engine, consolidation, or the actor who linked; null for "
                                                     "edges older than this record.")
    note: str | None = None
    reason: str | None = Field(None, description="SUPERSEDES: why the belief was replaced; CONTRADICTS: why the "
                                                 "conflict arose.")
    conflict_id: str | None = Field(None, description="CONTRADICTS: the pair's latest conflict.")
    resolved_at: datetime | None = Field(None, description="CONTRADICTS: when that conflict was resolved; null "
                                                           "while it is pending.")
    resolution: str | None = Field(None, description="CONTRADICTS: how it was resolved.")

    @classmethod
    def of(cls, link: Link) -> LinkOut:
        return cls(**asdict(link))


class LinksOut(BaseModel):
    id: str
    links: list[LinkOut]

"""Request and response bodies for memory links (SUPPORTS, CAUSES)."""
from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from typing import Literal
from uuid import UUID

from pydantic import BaseModel, Field

from api.schemas.common import Agent, Request
from graph.links.service import Link

LinkType = Literal["SUPPORTS", "CAUSES"]


class LinkCreate(Request):
    agent: Agent
    type: LinkType = Field(description="SUPPORTS: this memory supports `to`; CAUSES: this memory caused `to`.")
    to: UUID = Field(description="Another memory of the same agent: a memory cannot link to itself (422).")
    note: str | None = Field(None, max_length=1_000)


class LinkOut(BaseModel):
    type: str = Field(description="SUPPORTS, CAUSES or SUPERSEDES.")
    direction: Literal["out", "in"] = Field(description="out: this memory is the edge's start.")
    id: str = Field(description="The memory at the other end.")
    at: datetime | None
    note: str | None = None
    reason: str | None = Field(None, description="SUPERSEDES only: why the belief was replaced.")


    @classmethod
    def of(cls, link: Link) -> "LinkOut":
        return cls(**asdict(link))


class LinksOut(BaseModel):
    id: str
    links: list[LinkOut]

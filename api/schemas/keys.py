"""API keys as the administrator issues, lists and revokes them."""
from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from api.schemas.beliefs import SourceType
from api.schemas.common import Agent, Request
from graph.keys.model import AGENT_GLOB, MAX_KEY_AGENTS, MAX_KEY_NAME_CHARS, ApiKey, NewKey, Role


class KeyCreate(Request):
    name: str = Field(min_length=1, max_length=MAX_KEY_NAME_CHARS, pattern=r"\S",
                      description="Who or what the key is for, e.g. `support-bot prod`.")
    role: Literal["read", "write", "admin"] = Field(
        description="read: read and search; write: also store, change, archive, feedback, links, review; "
                    "admin: also hard delete and the predicate registry. Within the key's agents only.")
    agents: list[Agent] = Field([], max_length=MAX_KEY_AGENTS, description="The agents (tenants) the key covers.")
    agent_pattern: str | None = Field(
        None, pattern=AGENT_GLOB, description="Also covers every agent matching this pattern: `*` any run of "
                                              "characters, `?` one character (e.g. `team-a-*`).")

    sources: list[SourceType] | None = Field(
        None, min_length=1, description="The provenance sources this key's writes may claim (trust follows the "
                                        "source): e.g. `[\"inference\", \"tool_output\"]` for an agent's own key, "
                                        "so it cannot pass what it infers off as what the user said. Default: any.")

    def to_domain(self) -> NewKey:
        return NewKey(name=self.name, role=Role.parse(self.role), agents=tuple(self.agents),
                      agent_pattern=self.agent_pattern,
                      sources=tuple(self.sources) if self.sources is not None else None)


class KeyOut(BaseModel):
    id: str
    name: str
    role: str
    agents: list[str]
    agent_pattern: str | None
    sources: list[str] | None = Field(description="The sources its writes may claim; null: any.")
    created_at: datetime
    revoked_at: datetime | None

    @classmethod
    def of(cls, key: ApiKey) -> KeyOut:
        return cls(id=key.id, name=key.name, role=key.role.name.lower(), agents=list(key.agents),
                   agent_pattern=key.agent_pattern, sources=list(key.sources) if key.sources is not None else None,
                   created_at=key.created_at, revoked_at=key.revoked_at)


class IssuedKeyOut(KeyOut):
    key: str = Field(description="The secret, shown this once: send it as `Authorization: Bearer <key>`. "
                                 "Only its SHA-256 digest is stored.")


class KeyListOut(BaseModel):
    count: int
    keys: list[KeyOut]

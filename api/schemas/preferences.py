"""Request and response bodies for /v1/preferences."""
from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, Field, StrictBool, StrictInt, StringConstraints

from api.schemas.common import Agent, MemoryType, Request, Sensitivity
from graph.preferences import Preferences
from graph.preferences.model import MAX_BUDGET, MAX_INSTRUCTIONS_CHARS, MAX_TOPIC_CHARS, MAX_TOPICS

Topic = Annotated[str, StringConstraints(min_length=1, max_length=MAX_TOPIC_CHARS, pattern=r"\S")]


class PreferencesIn(Request):
    """Every preference; what is left out takes its default (a PUT replaces them all)."""
    agent: Agent
    never_store_types: list[MemoryType] = Field([], description="Memory types a write refuses (422).")
    never_store_topics: list[Topic] = Field(
        [], max_length=MAX_TOPICS, description="Words or phrases a write refuses when the text, category or a tag "
                                               "holds them (whole words, any case, a plural too).")
    sensitivity_ceiling: Sensitivity = Field(
        "private", description="The most sensitive memories any read of this agent shows (search, context, ask); "
                               "a request may ask for less, never more.")
    context_max_tokens: StrictInt | None = Field(
        None, ge=1, le=MAX_BUDGET, description="A context's budget when the request gives none (and an about-me "
                                               "summary's).")
    type_quotas: dict[MemoryType, Annotated[StrictInt, Field(ge=1, le=MAX_BUDGET)]] = Field(
        {}, description="Most tokens a context gives one memory type: {\"event\": 200}.")
    retention_days: dict[MemoryType, Annotated[StrictInt, Field(ge=1, le=36_500)]] = Field(
        {}, description="A new memory of the type expires this many days after it is stored, unless it says when.")
    extraction_instructions: str | None = Field(
        None, max_length=MAX_INSTRUCTIONS_CHARS, description="Told to the optional LLM extractor: \"focus on my "
                                                             "fitness goals and ignore casual work chat\".")
    ingest_by_default: StrictBool = Field(False, description="Raw text sent for this agent is ingested unless a "
                                                             "call says otherwise.")

    def to_domain(self) -> Preferences:
        return Preferences(agent=self.agent, never_store_types=tuple(self.never_store_types),
                           never_store_topics=tuple(self.never_store_topics),
                           sensitivity_ceiling=self.sensitivity_ceiling, context_max_tokens=self.context_max_tokens,
                           type_quotas=dict(self.type_quotas), retention_days=dict(self.retention_days),
                           extraction_instructions=self.extraction_instructions,
                           ingest_by_default=self.ingest_by_default)


class PreferencesOut(BaseModel):
    agent: str
    never_store_types: list[str]
    never_store_topics: list[str]
    sensitivity_ceiling: str
    context_max_tokens: int | None
    type_quotas: dict[str, int]
    retention_days: dict[str, int]
    extraction_instructions: str | None
    ingest_by_default: bool
    version: int = Field(description="0: never set, the defaults apply; +1 on every PUT.")
    updated_at: datetime | None

    @classmethod
    def of(cls, p: Preferences) -> PreferencesOut:
        return cls(agent=p.agent, never_store_types=list(p.never_store_types),
                   never_store_topics=list(p.never_store_topics), sensitivity_ceiling=p.sensitivity_ceiling,
                   context_max_tokens=p.context_max_tokens, type_quotas=dict(p.type_quotas),
                   retention_days=dict(p.retention_days), extraction_instructions=p.extraction_instructions,
                   ingest_by_default=p.ingest_by_default, version=p.version, updated_at=p.updated_at)

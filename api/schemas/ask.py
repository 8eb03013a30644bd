"""Request and response bodies for /v1/ask."""
from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field, StrictInt

from api.schemas.common import Agent, AwareInstant, Request, Sensitivity
from api.schemas.entities import AboutOut, PathOut, RelationshipOut
from api.schemas.memories import MemoryOut
from graph.asking import MAX_LIMIT, MAX_QUESTION_CHARS, MAX_SUMMARY_TOKENS, Answer, AskQuery
from graph.core.vocab import ASK_INTENTS, ASK_ROUTERS, DEFAULT_SENSITIVITY_CEILING, SENTIMENT_TRENDS

Intent = Literal[ASK_INTENTS]  # type: ignore[valid-type]


class AskRequest(Request):
    agent: Agent
    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS, pattern=r"\S",
                          description="The question as a person asks it: \"where did I use to live?\".")
    as_of: AwareInstant | None = Field(None, description="The instant the question is asked at (default now): "
                                                         "windows (\"last week\") and what is current are read then.")
    sensitivity_ceiling: Sensitivity = Field(
        DEFAULT_SENSITIVITY_CEILING, description="The most sensitive memories shown; never above the agent's own "
                                                 "(its memory preferences).")
    limit: StrictInt = Field(20, ge=1, le=MAX_LIMIT, description="Most memories behind the answer.")
    max_tokens: StrictInt | None = Field(None, ge=1, le=MAX_SUMMARY_TOKENS,
                                         description="About-me: the summary's budget (default: the agent's context "
                                                     "budget, else 400).")
    router: Literal[ASK_ROUTERS] | None = Field(  # type: ignore[valid-type]
        None, description="rules (deterministic) or llm (CREDENCE_LLM_ASK); default: llm when configured.")
    intent: Intent | None = Field(None, description="Run this handler instead of the routed one.")

    def to_domain(self) -> AskQuery:
        return AskQuery(agent=self.agent, question=self.question, as_of=self.as_of,
                        sensitivity_ceiling=self.sensitivity_ceiling, limit=self.limit, max_tokens=self.max_tokens,
                        router=self.router, intent=self.intent)


class SlotsOut(BaseModel):
    subject: Literal["user", "entity"] | None
    predicate: str | None = Field(description="The slot whose past value is asked (historical).")
    entity: list[str] = Field(description="Proper names, as written.")
    topic: str | None
    exclude: list[str]
    window: str | None = Field(description="The time phrase, as written.")


class CitedOut(BaseModel):
    memory: MemoryOut
    why: str = Field(description="Why this memory is behind the answer.")


class SectionOut(BaseModel):
    title: str
    lines: list[str]
    memory_ids: list[str]


class StateOut(BaseModel):
    memory_id: str
    value: str
    status: str
    valid_from: datetime | None
    valid_until: datetime | None
    current: bool = Field(description="The value that holds now; it comes last.")
    historical: bool


class ReadingOut(BaseModel):
    memory_id: str
    at: datetime
    score: float = Field(description="The memory's sentiment, -1..1 (VADER's compound score, stored at write time).")


class FeelingOut(BaseModel):
    about: str
    readings: list[ReadingOut]
    trend: Literal[SENTIMENT_TRENDS]  # type: ignore[valid-type]
    earlier_mean: float | None
    recent_mean: float | None
    change: float | None
    split_at: datetime | None


class FollowedUpOut(BaseModel):
    memory_id: str
    status: Literal["decided", "has_outcome", "open", "closed"]
    follow_up_ids: list[str] = Field(description="Decisions: their outcomes (OUTCOME_OF); goals: the progress "
                                                 "recorded on them (PROGRESS_ON); oldest first.")
    last_at: datetime | None


class WindowOut(BaseModel):
    phrase: str
    start: datetime | None
    end: datetime | None
    resolved: bool
    anchor: str | None
    anchor_memory_id: str | None


class AskExplainOut(BaseModel):
    handler: Intent = Field(description="The handler that ran.")
    router: Literal[ASK_ROUTERS]  # type: ignore[valid-type]
    reasons: list[str] = Field(description="Why: the rules that fired, and what the handler did.")


class AskResponse(BaseModel):
    question: str
    intent: Intent
    also: list[Intent] = Field(description="The other intents the question carries, in order.")
    slots: SlotsOut
    found: bool
    summary: str = Field(description="The answer in a few lines, from the memories below.")
    memories: list[CitedOut]
    explain: AskExplainOut
    window: WindowOut | None = None
    sections: list[SectionOut] = Field([], description="about_me: the summary's parts, by memory type.")
    entity: AboutOut | None = Field(None, description="entity: the entity graph's view of it.")
    relationships: list[RelationshipOut] = Field([], description="relationship and entity: with strength and "
                                                                 "validity.")
    path: PathOut | None = Field(None, description="relationship: the chain between two named things.")
    timeline: list[StateOut] = Field([], description="historical: the slot's states, oldest first, current last.")
    feeling: FeelingOut | None = Field(None, description="sentiment: the readings and their trend.")
    decisions: list[FollowedUpOut] = []
    goals: list[FollowedUpOut] = []
    excluded: list[str] = Field([], description="negation: what was filtered out inside the queries.")

    @classmethod
    def of(cls, a: Answer, question: str) -> AskResponse:
        s = a.route.slots
        return cls(
            question=question, intent=a.route.intent, also=list(a.route.also),
            slots=SlotsOut(subject=s.subject, predicate=s.predicate, entity=list(s.entity), topic=s.topic,
                           exclude=list(s.exclude), window=s.window),
            found=a.found, summary=a.summary,
            memories=[CitedOut(memory=MemoryOut.of(c.memory), why=c.why) for c in a.memories],
            explain=AskExplainOut(handler=a.handler, router=a.route.router, reasons=list(a.explain)),
            window=WindowOut(**a.window.__dict__) if a.window else None,
            sections=[SectionOut(title=x.title, lines=list(x.lines), memory_ids=list(x.memory_ids))
                      for x in a.sections],
            entity=AboutOut.of(a.entity) if a.entity else None,
            relationships=[RelationshipOut.of(r) for r in a.relationships],
            path=PathOut.of(a.path) if a.path else None,
            timeline=[StateOut(memory_id=t.memory_id, value=t.value, status=t.status, valid_from=t.valid_from,
                               valid_until=t.valid_until, current=t.current, historical=t.historical)
                      for t in a.timeline],
            feeling=FeelingOut(about=a.feeling.about, readings=[ReadingOut(**r.__dict__) for r in a.feeling.readings],
                               trend=a.feeling.trend, earlier_mean=a.feeling.earlier_mean,
                               recent_mean=a.feeling.recent_mean, change=a.feeling.change,
                               split_at=a.feeling.split_at) if a.feeling else None,
            decisions=[FollowedUpOut(memory_id=d.memory_id, status=d.status, follow_up_ids=list(d.follow_up_ids),
                                     last_at=d.last_at) for d in a.decisions],
            goals=[FollowedUpOut(memory_id=g.memory_id, status=g.status, follow_up_ids=list(g.follow_up_ids),
                                 last_at=g.last_at) for g in a.goals],
            excluded=list(a.excluded))

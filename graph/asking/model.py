"""Asking: the request, and the answer each handler gives (a structured answer, the memories behind
it, each with why, and how it was reached)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from graph.asking.route import Route
from graph.core.checks import check_choice
from graph.core.errors import InvalidInput
from graph.core.tenancy import check_agent
from graph.core.timeutil import check_instant
from graph.core.values import check_unicode
from graph.core.vocab import ASK_INTENTS, ASK_ROUTERS, DEFAULT_SENSITIVITY_CEILING, SENSITIVITIES
from graph.entities.model import About, EntityPath, Relationship
from graph.memories.model import Memory

MAX_QUESTION_CHARS = 2_000
MAX_LIMIT = 100  # memories behind one answer
DEFAULT_LIMIT = 20
DEFAULT_SUMMARY_TOKENS = 400  # an about-me summary's budget when neither the request nor the agent sets one
MAX_SUMMARY_TOKENS = 20_000


@dataclass(frozen=True)
class AskQuery:
    agent: str
    question: str
    as_of: datetime | None = None  # the instant the question is asked at: windows and "current" are read then
    sensitivity_ceiling: str = DEFAULT_SENSITIVITY_CEILING  # capped by the agent's preferences
    limit: int = DEFAULT_LIMIT
    max_tokens: int | None = None  # an about-me summary's budget (default: the agent's context budget, else 400)
    router: str | None = None  # rules | llm; None: the configured one
    intent: str | None = None  # skip routing and run this handler (the slots are still read from the question)


def check_ask(query: AskQuery) -> AskQuery:
    if not isinstance(query, AskQuery):
        raise InvalidInput("query", "must be an AskQuery")
    check_agent(query.agent, "agent")
    if not isinstance(query.question, str) or not query.question.strip():
        raise InvalidInput("question", "must contain non-whitespace text")
    if len(query.question) > MAX_QUESTION_CHARS:
        raise InvalidInput("question", f"is {len(query.question)} characters; the limit is {MAX_QUESTION_CHARS}")
    check_unicode(query.question, "question")
    check_instant(query.as_of, "as_of")
    check_choice(query.sensitivity_ceiling, "sensitivity_ceiling", SENSITIVITIES)
    if isinstance(query.limit, bool) or not isinstance(query.limit, int) or not 1 <= query.limit <= MAX_LIMIT:
        raise InvalidInput("limit", f"must be a whole number from 1 to {MAX_LIMIT}")
    if query.max_tokens is not None and (isinstance(query.max_tokens, bool) or not isinstance(query.max_tokens, int)
                                         or not 1 <= query.max_tokens <= MAX_SUMMARY_TOKENS):
        raise InvalidInput("max_tokens", f"must be a whole number from 1 to {MAX_SUMMARY_TOKENS}, or null")
    if query.router is not None:
        check_choice(query.router, "router", ASK_ROUTERS)
    if query.intent is not None:
        check_choice(query.intent, "intent", ASK_INTENTS)
    return query


@dataclass(frozen=True)
class Cited:
    """A memory behind an answer, and why it is there."""
    memory: Memory
    why: str


@dataclass(frozen=True)
class Section:
    """About-me: one part of the summary (preferences, facts, goals, relationships, ...)."""
    title: str
    lines: tuple[str, ...]
    memory_ids: tuple[str, ...]


@dataclass(frozen=True)
class State:
    """Historical: one value a slot held, with its validity window; the current one is marked."""
    memory_id: str
    value: str
    status: str
    valid_from: datetime | None
    valid_until: datetime | None
    current: bool
    historical: bool  # stored as how things were ("I used to ...")
    superseded_by: str | None = None


@dataclass(frozen=True)
class Reading:
    memory_id: str
    at: datetime
    score: float  # the memory's stored sentiment, -1..1


@dataclass(frozen=True)
class Feeling:
    """Sentiment: the readings about one thing in time order, and where they are heading."""
    about: str
    readings: tuple[Reading, ...]
    trend: str  # graph.core.vocab.SENTIMENT_TRENDS
    earlier_mean: float | None
    recent_mean: float | None
    change: float | None  # recent minus earlier
    split_at: datetime | None  # where earlier ends and recent begins


@dataclass(frozen=True)
class FollowedUp:
    """A decision with what came of it (OUTCOME_OF), or a goal with the progress recorded on it
    (PROGRESS_ON)."""
    memory_id: str
    status: str  # decision: decided | has_outcome; goal: open | closed
    follow_up_ids: tuple[str, ...]
    last_at: datetime | None  # the newest follow-up's time


@dataclass(frozen=True)
class Window:
    phrase: str
    start: datetime | None
    end: datetime | None
    resolved: bool  # False: the phrase could not be read as a time, and narrows nothing
    anchor: str | None = None  # an event the window is relative to ("the move")
    anchor_memory_id: str | None = None  # the memory that dated it


@dataclass(frozen=True)
class Answer:
    route: Route
    handler: str  # the handler that ran (an intent)
    found: bool
    summary: str  # the answer in a few lines, from the memories below
    memories: tuple[Cited, ...]
    explain: tuple[str, ...]  # which handler ran and why, and what it did
    window: Window | None = None
    sections: tuple[Section, ...] = ()  # about_me
    entity: About | None = None  # entity
    relationships: tuple[Relationship, ...] = ()  # relationship (and entity: its links to the user)
    path: EntityPath | None = None  # relationship between two named things
    timeline: tuple[State, ...] = ()  # historical
    feeling: Feeling | None = None  # sentiment
    decisions: tuple[FollowedUp, ...] = ()  # decision
    goals: tuple[FollowedUp, ...] = ()  # goal
    excluded: tuple[str, ...] = ()  # negation: the terms (and entity names) filtered out inside the queries

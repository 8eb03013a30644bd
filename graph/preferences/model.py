"""A tenant's memory preferences, and the rules for them. Pure."""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any

from graph.core.checks import check_choice, check_note
from graph.core.errors import InvalidInput
from graph.core.values import check_unicode
from graph.core.vocab import MEMORY_TYPES, SENSITIVITIES

MAX_TOPICS = 100  # topics never to store
MAX_TOPIC_CHARS = 200
MAX_INSTRUCTIONS_CHARS = 4_000  # custom extraction instructions, for the optional LLM extractor
MAX_BUDGET = 1_000_000  # tokens, as context's own bound
MAX_RETENTION_DAYS = 36_500


@dataclass(frozen=True)
class Preferences:
    agent: str
    never_store_types: tuple[str, ...] = ()  # memory types a write refuses
    never_store_topics: tuple[str, ...] = ()  # words or phrases a write refuses (whole words, any case)
    # The most sensitive memories any read of this tenant shows; a request may ask for less, never more.
    sensitivity_ceiling: str = "private"
    context_max_tokens: int | None = None  # the default budget of a context (and of an about-me summary)
    type_quotas: dict[str, int] = field(default_factory=dict)  # most tokens a context gives one memory type
    retention_days: dict[str, int] = field(default_factory=dict)  # a new memory of the type expires after this
    extraction_instructions: str | None = None  # told to the optional LLM extractor ("focus on my fitness goals")
    ingest_by_default: bool = False  # raw text sent for this agent is ingested unless a call says otherwise
    version: int = 0  # 0: never set (the defaults)
    updated_at: datetime | None = None

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("agent", "version",
                                                                                     "updated_at")}


DEFAULT_PREFERENCES = Preferences(agent="")


def _names(values: Any, field_name: str, vocabulary: tuple[str, ...]) -> tuple[str, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, (list, tuple)):
        raise InvalidInput(field_name, "must be a list")
    return tuple(dict.fromkeys(check_choice(v, f"{field_name}[{i}]", vocabulary) for i, v in enumerate(values)))


def _per_type(values: Any, field_name: str, most: int) -> dict[str, int]:
    if not isinstance(values, dict):
        raise InvalidInput(field_name, "must be an object of memory type to number")
    out = {}
    for key, value in values.items():
        check_choice(key, f"{field_name}.{key}", MEMORY_TYPES)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
            raise InvalidInput(f"{field_name}.{key}", f"must be a whole number from 1 to {most}")
        out[key] = value
    return out


def check_preferences(prefs: Preferences) -> Preferences:
    """The rules, whoever calls: InvalidInput naming the field."""
    if not isinstance(prefs, Preferences):
        raise InvalidInput("preferences", "must be Preferences")
    types = _names(prefs.never_store_types, "never_store_types", MEMORY_TYPES)
    topics = prefs.never_store_topics
    if isinstance(topics, (str, bytes)) or not isinstance(topics, (list, tuple)) or len(topics) > MAX_TOPICS:
        raise InvalidInput("never_store_topics", f"must be a list of at most {MAX_TOPICS} topics")
    clean = []
    for i, topic in enumerate(topics):
        if not isinstance(topic, str) or not topic.strip() or len(topic) > MAX_TOPIC_CHARS:
            raise InvalidInput(f"never_store_topics[{i}]", f"must hold 1 to {MAX_TOPIC_CHARS} characters")
        check_unicode(topic, f"never_store_topics[{i}]")
        clean.append(" ".join(topic.split()))
    check_choice(prefs.sensitivity_ceiling, "sensitivity_ceiling", SENSITIVITIES)
    budget = prefs.context_max_tokens
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int)
                               or not 1 <= budget <= MAX_BUDGET):
        raise InvalidInput("context_max_tokens", f"must be a whole number from 1 to {MAX_BUDGET}, or null")
    quotas = _per_type(prefs.type_quotas, "type_quotas", MAX_BUDGET)
    retention = _per_type(prefs.retention_days, "retention_days", MAX_RETENTION_DAYS)
    instructions = check_note(prefs.extraction_instructions, "extraction_instructions", MAX_INSTRUCTIONS_CHARS)
    if not isinstance(prefs.ingest_by_default, bool):
        raise InvalidInput("ingest_by_default", "must be true or false")
    return Preferences(agent=prefs.agent, never_store_types=types, never_store_topics=tuple(dict.fromkeys(clean)),
                       sensitivity_ceiling=prefs.sensitivity_ceiling, context_max_tokens=budget, type_quotas=quotas,
                       retention_days=retention, extraction_instructions=instructions,
                       ingest_by_default=prefs.ingest_by_default, version=prefs.version, updated_at=prefs.updated_at)

"""The two steps of ingestion as interfaces, and their deterministic implementations: an extractor
turns one message (with its conversation and what the tenant knows) into candidates; a decider
turns a message's candidates and the known memories into decisions. The LLM steps (llm.py)
implement the same two."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from graph.ingestion.decide import decide_message
from graph.ingestion.extractor import extract
from graph.ingestion.model import Candidate, Decision, Extraction, Known, Message


class Extractor(Protocol):
    name: str

    async def extract(self, message: Message, context: Sequence[Message], circle: set[str],
                      registered: dict[str, bool]) -> Extraction: ...


class Decider(Protocol):
    name: str

    async def decide(self, candidates: Sequence[Candidate], known_for: Callable[[Candidate], Sequence[Known]],
                     multi: Callable[[str], bool], previous_text: str | None) -> list[Decision]: ...


class RuleExtractor:
    name = "rules"

    async def extract(self, message: Message, context: Sequence[Message], circle: set[str],
                      registered: dict[str, bool]) -> Extraction:
        return extract(message, context, circle=circle, registered=registered)


class RuleDecider:
    name = "rules"

    async def decide(self, candidates: Sequence[Candidate], known_for: Callable[[Candidate], Sequence[Known]],
                     multi: Callable[[str], bool], previous_text: str | None) -> list[Decision]:
        return decide_message(candidates, known_for, multi, previous_text)

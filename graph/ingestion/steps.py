"""The two steps of ingestion as interfaces, and their deterministic implementations: an extractor
turns one message (with its conversation and what the tenant knows) into candidates; a decider
turns a message's candidates and the known memories into decisions. The LLM steps (llm.py)
implement the same two."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import anyio

from graph.ingestion.decide import decide_message
from graph.ingestion.extractor import extract, to_parse
from graph.ingestion.model import Candidate, Decision, Extraction, Known, Message
from graph.language.parser import parse


class Extractor(Protocol):
    name: str

    async def prepare(self, messages: Sequence[Message], instructions: str | None = None) -> Mapping[str, Any]:
        """What extraction of these messages needs computed once for all (the rules: their parses;
        a model: the agent's own extraction instructions, from its memory preferences)."""

    async def extract(self, message: Message, context: Sequence[Message], circle: set[str],
                      registered: dict[str, bool], prepared: Mapping[str, Any] | None = None) -> Extraction: ...


class Decider(Protocol):
    name: str

    async def decide(self, candidates: Sequence[Candidate], known_for: Callable[[Candidate], Sequence[Known]],
                     multi: Callable[[str], bool], previous_text: str | None) -> list[Decision]: ...


class RuleExtractor:
    name = "rules"

    async def prepare(self, messages: Sequence[Message], instructions: str | None = None) -> Mapping[str, Any]:
        """Every sentence of the request parsed in one batch, in a worker thread (the parse is the
        rules' one CPU-heavy step; the event loop keeps serving)."""
        texts = to_parse(messages)
        docs = await anyio.to_thread.run_sync(parse, texts)
        return dict(zip(texts, docs, strict=True))

    async def extract(self, message: Message, context: Sequence[Message], circle: set[str],
                      registered: dict[str, bool], prepared: Mapping[str, Any] | None = None) -> Extraction:
        return extract(message, context, circle=circle, registered=registered, docs=prepared)


class RuleDecider:
    name = "rules"

    async def decide(self, candidates: Sequence[Candidate], known_for: Callable[[Candidate], Sequence[Known]],
                     multi: Callable[[str], bool], previous_text: str | None) -> list[Decision]:
        return decide_message(candidates, known_for, multi, previous_text)

"""The two steps of ingestion as interfaces, and their deterministic implementations: an extractor
turns one message (with its conversation and what the tenant knows) into candidates; a decider
turns a message's candidates and the known memories into decisions. The LLM steps (llm.py)
implement the same two."""
from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol

import anyio

from graph.ingestion.decide import decide_message
from graph.ingestion.extractor import extract, to_parse
from graph.ingestion.kind_classifier import second_opinion
from graph.ingestion.model import Candidate, Decision, Extraction, Known, Message
from graph.ingestion.slot_classifier import SlotOf, slot_opinion
from graph.language.classifier import Classifier
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
    """The rules; with a way to embed text, the classifier of claimless kinds (kind_classifier.py):
    its kind for a sentence with no claim where no rule gives it one, and the slot classifier
    (slot_classifier.py): its slot for a stating sentence no rule read a claim from."""
    name = "rules"

    def __init__(self, kinds: Classifier | None = None,
                 embed: Callable[[str], Awaitable[Sequence[float]]] | None = None,
                 slots: Classifier | None = None) -> None:
        self.kinds = kinds if embed is not None else None
        self.slots = slots if embed is not None else None
        self.embed = embed

    async def prepare(self, messages: Sequence[Message], instructions: str | None = None) -> Mapping[str, Any]:
        """Every sentence of the request parsed in one batch, in a worker thread (the parse is the
        rules' one CPU-heavy step; the event loop keeps serving)."""
        texts = to_parse(messages)
        docs = await anyio.to_thread.run_sync(parse, texts)
        return dict(zip(texts, docs, strict=True))

    async def extract(self, message: Message, context: Sequence[Message], circle: set[str],
                      registered: dict[str, bool], prepared: Mapping[str, Any] | None = None) -> Extraction:
        unsure: list[str] = []
        found = extract(message, context, circle=circle, registered=registered, docs=prepared,
                        kind_of=None if self.kinds is None else _noting(unsure),
                        slot_of=None if self.slots is None else _noting_slots(unsure))
        if self.embed is None or not unsure:
            return found
        # Only the sentences the rules left unsure are embedded (one each, for both classifiers),
        # then the message is read again with the classifiers' answers: extraction is pure, so the
        # rest comes out the same.
        vectors = {s: await self.embed(s) for s in dict.fromkeys(unsure)}
        return extract(message, context, circle=circle, registered=registered, docs=prepared,
                       kind_of=None if self.kinds is None else second_opinion(self.kinds, vectors.__getitem__),
                       slot_of=None if self.slots is None else _asked(slot_opinion(self.slots, vectors.__getitem__),
                                                                      vectors))


def _noting(unsure: list[str]) -> Callable[[str, str | None], str | None]:
    def kind_of(sentence: str, ruled: str | None) -> str | None:
        if ruled is None:
            unsure.append(sentence)
        return ruled
    return kind_of


def _noting_slots(unsure: list[str]) -> SlotOf:
    def slot_of(sentence: str) -> str | None:
        unsure.append(sentence)
        return None
    return slot_of


def _asked(slot_of: SlotOf, vectors: Mapping[str, Any]) -> SlotOf:
    """`slot_of` for the sentences the first reading noted and embedded; None for any other."""
    return lambda sentence: slot_of(sentence) if sentence in vectors else None


class RuleDecider:
    name = "rules"

    async def decide(self, candidates: Sequence[Candidate], known_for: Callable[[Candidate], Sequence[Known]],
                     multi: Callable[[str], bool], previous_text: str | None) -> list[Decision]:
        return decide_message(candidates, known_for, multi, previous_text)

"""A digest's text. Extractive by default: its events' own first sentences, in time order, the most
central first when they do not all fit; no model. Optionally an LLM behind the same interface: the
OpenAI-compatible chat model the operator configures (graph/llm, CREDENCE_LLM_*, switched on for
digests by CREDENCE_LLM_DIGESTS); it is asked once per digest, and when it fails the digest falls
back to the extractive text. Its quality is not measured by this project."""
from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from graph.llm import ChatClient, LlmError

log = logging.getLogger(__name__)
MAX_DIGEST_CHARS = 1_500
MAX_SENTENCE_CHARS = 200
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


@dataclass(frozen=True)
class Event:
    text: str
    when: datetime
    centrality: float  # cosine to its cluster's centroid


class Summariser(Protocol):
    name: str

    async def summarise(self, events: Sequence[Event]) -> str: ...


def first_sentence(text: str) -> str:
    sentence = _SENTENCE_END.split(text.strip(), maxsplit=1)[0].strip()
    if len(sentence) > MAX_SENTENCE_CHARS:
        sentence = sentence[:MAX_SENTENCE_CHARS - 1].rstrip() + "…"
    return sentence.rstrip(".")


def heading(events: Sequence[Event]) -> str:
    first, last = min(e.when for e in events), max(e.when for e in events)
    span = f"{first:%Y-%m-%d}" if first.date() == last.date() else f"{first:%Y-%m-%d} to {last:%Y-%m-%d}"
    return f"Digest of {len(events)} events, {span}: "


def extractive_text(events: Sequence[Event]) -> str:
    """The events' first sentences in time order, within MAX_DIGEST_CHARS: when they do not all fit,
    the most central ones are kept."""
    head = heading(events)
    ordered = sorted(range(len(events)), key=lambda i: (-events[i].centrality, i))
    kept: set[int] = set()
    used = len(head)
    for i in ordered:
        cost = len(first_sentence(events[i].text)) + 2
        if used + cost > MAX_DIGEST_CHARS:
            continue
        kept.add(i)
        used += cost
    chosen = [first_sentence(events[i].text) for i in sorted(kept, key=lambda i: (events[i].when, i))]
    left = len(events) - len(kept)
    return head + "; ".join(chosen) + (f"; and {left} more" if left else "") + "."


class Extractive:
    name = "extractive"

    async def summarise(self, events: Sequence[Event]) -> str:
        return extractive_text(events)


PROMPT = ("Summarise these related events from one person's memory in one or two plain sentences. Keep names, "
          "places, dates and numbers; add nothing that is not in them.")


class LlmSummariser:
    """The chat model writes the digest's sentences (temperature 0); the extractive text when it cannot."""
    name = "llm"

    def __init__(self, chat: ChatClient) -> None:
        self.chat = chat

    async def summarise(self, events: Sequence[Event]) -> str:
        lines = "\n".join(f"- {e.when:%Y-%m-%d %H:%M}: {e.text}" for e in sorted(events, key=lambda e: e.when))
        try:
            text = await self.chat.text(PROMPT, lines)
        except LlmError as exc:
            log.warning("the LLM summariser failed (%s); the digest is extractive", exc.reason)
            return extractive_text(events)
        if not text:
            return extractive_text(events)
        text = heading(events) + text
        return text if len(text) <= MAX_DIGEST_CHARS else text[:MAX_DIGEST_CHARS - 1].rstrip() + "…"

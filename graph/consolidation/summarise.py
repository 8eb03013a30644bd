"""A digest's text. Extractive by default: its events' own first sentences, in time order, the most
central first when they do not all fit; no model. Optionally an LLM behind the same interface: any
OpenAI-compatible chat-completions API the operator configures (CREDENCE_LLM_*); it is asked once
per digest, and when it fails the digest falls back to the extractive text. Its quality is not
measured by this project."""
from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

import httpx

from graph.settings import Settings

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


class ChatCompletions:
    """An OpenAI-compatible chat-completions API (`POST <base>/chat/completions`)."""
    name = "llm"

    def __init__(self, base_url: str, model: str, api_key: str | None, timeout: float,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model, self.timeout, self.transport = model, timeout, transport
        self.headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}

    async def summarise(self, events: Sequence[Event]) -> str:
        lines = "\n".join(f"- {e.when:%Y-%m-%d %H:%M}: {e.text}" for e in sorted(events, key=lambda e: e.when))
        body = {"model": self.model, "temperature": 0, "messages": [
            {"role": "system", "content": PROMPT}, {"role": "user", "content": lines}]}
        try:
            async with httpx.AsyncClient(timeout=self.timeout, transport=self.transport) as client:
                response = await client.post(self.url, json=body, headers=self.headers)
                response.raise_for_status()
                text = str(response.json()["choices"][0]["message"]["content"]).strip()
        except (httpx.HTTPError, KeyError, IndexError, TypeError, ValueError) as exc:
            log.warning("the LLM summariser failed (%s); the digest is extractive", exc)
            return extractive_text(events)
        if not text:
            return extractive_text(events)
        text = heading(events) + text
        return text if len(text) <= MAX_DIGEST_CHARS else text[:MAX_DIGEST_CHARS - 1].rstrip() + "…"


def summariser_for(settings: Settings) -> Summariser:
    if settings.consolidation_summariser == "llm":
        assert settings.llm_base_url and settings.llm_model  # Settings refuses llm without them
        key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
        return ChatCompletions(settings.llm_base_url, settings.llm_model, key, settings.llm_timeout)
    return Extractive()

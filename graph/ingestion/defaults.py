"""Whether an agent's plain stores (POST /v1/memories, batch items: text without a claim) go
through ingestion when the request does not say: the seam a per-agent preference plugs into.

IngestService asks `IngestDefault.ingests(agent)` for every item whose `ingest` flag is absent: the
agent's memory preferences (`ingest_by_default`, graph/preferences) once the agent has set them,
else the deployment-wide `CREDENCE_INGEST_BY_DEFAULT`."""
from __future__ import annotations

from typing import Protocol

from graph.preferences import PreferenceService


class IngestDefault(Protocol):
    async def ingests(self, agent: str) -> bool:
        """True: this agent's plain text is read by the ingestion pipeline unless a request says no."""


class FixedDefault:
    """One answer for every agent."""

    def __init__(self, ingests: bool) -> None:
        self.value = ingests

    async def ingests(self, agent: str) -> bool:
        return self.value


class PreferredDefault:
    """The agent's memory preferences decide; an agent that never set them takes the deployment's."""

    def __init__(self, preferences: PreferenceService, fallback: bool) -> None:
        self.preferences, self.fallback = preferences, fallback

    async def ingests(self, agent: str) -> bool:
        prefs = await self.preferences.get(agent)
        return prefs.ingest_by_default if prefs.version else self.fallback

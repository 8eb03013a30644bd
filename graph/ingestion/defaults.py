"""Whether an agent's plain stores (POST /v1/memories, batch items: text without a claim) go
through ingestion when the request does not say: the seam a per-agent preference plugs into.

IngestService asks `IngestDefault.ingests(agent)` for every item whose `ingest` flag is absent. The
deployment-wide default is `CREDENCE_INGEST_BY_DEFAULT` (FixedDefault); a per-agent store of memory
preferences implements the same protocol and replaces it where the services are wired."""
from __future__ import annotations

from typing import Protocol


class IngestDefault(Protocol):
    async def ingests(self, agent: str) -> bool:
        """True: this agent's plain text is read by the ingestion pipeline unless a request says no."""


class FixedDefault:
    """One answer for every agent."""

    def __init__(self, ingests: bool) -> None:
        self.value = ingests

    async def ingests(self, agent: str) -> bool:
        return self.value

"""Reading and setting a tenant's memory preferences.

Every search, context, ask and write reads them, so reads are cached in the process for
`cache_seconds` (default 5): one read per tenant per interval instead of a round trip per request.
A PUT through this process is seen by it at once; another process sharing the graph sees it within
the interval, the same bound API key revocation has (CREDENCE_API_KEY_CACHE_SECONDS). The cache
holds at most `max_entries` tenants, the oldest entry going first."""
from __future__ import annotations

import json
import time
from dataclasses import replace
from typing import Any

from graph import audit
from graph.core.tenancy import check_agent
from graph.core.timeutil import from_graph, iso, utcnow
from graph.core.vocab import OP_PREFERENCES
from graph.preferences.model import Preferences, check_preferences
from graph.store.gateway import GraphRunner, Tx

MAX_CACHED = 10_000


def _from_map(agent: str, m: dict[str, Any] | None) -> Preferences:
    if not m:
        return Preferences(agent=agent)
    return Preferences(agent=agent, never_store_types=tuple(m.get("never_store_types") or ()),
                       never_store_topics=tuple(m.get("never_store_topics") or ()),
                       sensitivity_ceiling=m.get("sensitivity_ceiling") or "private",
                       context_max_tokens=m.get("context_max_tokens"),
                       type_quotas=json.loads(m.get("type_quotas") or "{}"),
                       retention_days=json.loads(m.get("retention_days") or "{}"),
                       extraction_instructions=m.get("extraction_instructions"),
                       ingest_by_default=bool(m.get("ingest_by_default")), version=int(m.get("version") or 0),
                       updated_at=from_graph(m.get("updated_at")))


def _props(prefs: Preferences) -> dict[str, Any]:
    return {"never_store_types": list(prefs.never_store_types), "never_store_topics": list(prefs.never_store_topics),
            "sensitivity_ceiling": prefs.sensitivity_ceiling, "context_max_tokens": prefs.context_max_tokens,
            "type_quotas": json.dumps(prefs.type_quotas, sort_keys=True),
            "retention_days": json.dumps(prefs.retention_days, sort_keys=True),
            "extraction_instructions": prefs.extraction_instructions, "ingest_by_default": prefs.ingest_by_default}


class PreferenceService:
    def __init__(self, runner: GraphRunner, cache_seconds: float = 5.0, max_entries: int = MAX_CACHED) -> None:
        self.runner, self.cache_seconds, self.max_entries = runner, cache_seconds, max_entries
        self._cache: dict[str, tuple[float, Preferences]] = {}
        self.reads = 0  # database reads, for tests and operators

    async def get(self, agent: str) -> Preferences:
        """The tenant's preferences (the defaults when none were set), from the cache when fresh."""
        check_agent(agent)
        hit = self._cache.get(agent)
        if hit is not None and hit[0] > time.monotonic():
            return hit[1]
        # One statement in auto-commit: a search waits for it (a managed transaction cost two more round trips).
        rows = await self.runner.read("preferences/get", agent=agent)
        self.reads += 1
        prefs = _from_map(agent, rows[0]["preferences"] if rows else None)
        self._remember(prefs)
        return prefs

    async def put(self, prefs: Preferences, actor: str = audit.DEFAULT_ACTOR) -> Preferences:
        """Sets every preference of the tenant (what is left out takes its default), in one
        transaction with its audit record."""
        check_agent(prefs.agent)
        prefs = check_preferences(prefs)
        props = _props(prefs)

        async def work(tx: Tx) -> Preferences:
            row = await tx.one("preferences/put", agent=prefs.agent, props=props, now=iso(utcnow()))
            before = {k: v for k, v in (row["before"] or {}).items() if k in props} or None
            await audit.record(tx, prefs.agent, OP_PREFERENCES, actor, [], before=before, after=props)
            return _from_map(prefs.agent, row["preferences"])

        stored = await self.runner.write_tx(work)
        self._remember(stored)
        return stored

    def _remember(self, prefs: Preferences) -> None:
        if self.cache_seconds <= 0:
            return
        self._cache.pop(prefs.agent, None)
        while len(self._cache) >= self.max_entries:
            self._cache.pop(next(iter(self._cache)))
        self._cache[prefs.agent] = (time.monotonic() + self.cache_seconds, replace(prefs))

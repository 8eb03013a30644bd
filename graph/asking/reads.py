"""The reads every asking handler shares, for one request: each goes through the request's one
filter (retrieval's `Visibility`: tenant, status, validity and time, sensitivity ceiling capped by
the agent's preferences, and the excluded terms, all inside Cypher), and through retrieval's and
the entity graph's public surfaces for what they own."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from graph.core.timeutil import from_graph_required, iso
from graph.core.vocab import ACTIVE, sensitivities_up_to
from graph.entities.model import Entity
from graph.entities.service import EntityService
from graph.language import stems
from graph.memories.model import Memory
from graph.memories.records import memory_from_map
from graph.retrieval import RetrievalService, SearchHit, SearchQuery, Visibility
from graph.retrieval.exclusion import exclusion_params
from graph.store.gateway import GraphRunner

MAX_SCAN = 200  # memories one graph read hands a handler


@dataclass(frozen=True)
class Found:
    memory: Memory
    at: datetime  # its time: event_at, else valid_from, else created_at


def mention_stems(names: list[str]) -> list[list[str]]:
    """Each name's (or alias's) word stems, as the memories store them: a memory mentions the name
    when it holds them all, so "Hiking" finds "went on a hike", as keyword search does
    (docs/asking.md). A request's exclusions stay whole words (graph/retrieval/exclusion.py)."""
    found = [list(dict.fromkeys(stems.needle(s) for s in stems.stem(stems.words(name)))) for name in names]
    return [name for name in found if name]


class Reads:
    def __init__(self, runner: GraphRunner, retrieval: RetrievalService, entities: EntityService,
                 visibility: Visibility, time_travel: bool = False) -> None:
        self.runner, self.retrieval, self.entities, self.visibility = runner, retrieval, entities, visibility
        # Asked at a past instant: the entity graph answers as it held then (else with its history too).
        self.time_travel = time_travel

    @property
    def entity_as_of(self) -> datetime | None:
        return self.now if self.time_travel else None

    @property
    def agent(self) -> str:
        return self.visibility.agent

    @property
    def now(self) -> datetime:
        return self.visibility.as_of

    def shown(self, **changes: Any) -> Visibility:
        return replace(self.visibility, **changes)

    async def recent(self, *, start: datetime | None = None, end: datetime | None = None, past: bool | None = None,
                     mentions: list[str] | None = None, limit: int = MAX_SCAN,
                     visibility: Visibility | None = None) -> list[Found]:
        """The newest memories the filter shows, optionally in [start, end), mentioning a name, only
        current (past=False) or only historical (past=True) ones; returned oldest first."""
        rows = await self._recent(start, end, past, mentions, limit, visibility, light=False)
        found = [Found(memory_from_map(r["memory"], r["claim"]), from_graph_required(r["at"])) for r in rows]
        return sorted(found, key=lambda f: (f.at, f.memory.id))

    async def recent_ids(self, *, start: datetime | None = None, end: datetime | None = None, limit: int = MAX_SCAN,
                         visibility: Visibility | None = None) -> list[str]:
        """The same read, ids only: for a caller that loads the memories another way (hydrate)."""
        return [r["id"] for r in await self._recent(start, end, None, None, limit, visibility, light=True)]

    async def _recent(self, start: datetime | None, end: datetime | None, past: bool | None,
                      mentions: list[str] | None, limit: int, visibility: Visibility | None,
                      light: bool) -> list[dict[str, Any]]:
        return await self.runner.read(
            "asking/recent", light=light, time_from=iso(start), time_to=iso(end), past=past, limit=limit,
            mentions=mention_stems(mentions or []), **(visibility or self.visibility).params(explain=False))

    async def profile(self, limit: int = MAX_SCAN) -> list[Memory]:
        rows = await self.runner.read("asking/profile", limit=limit, **self.visibility.params(explain=False))
        return [memory_from_map(r["memory"], r["claim"]) for r in rows]

    async def slot_history(self, subjects: list[str], predicates: list[str]) -> list[dict[str, Any]]:
        rows = await self.runner.read(
            "asking/slot_history", agent=self.agent, subjects=subjects, predicates=predicates,
            sensitivities=list(sensitivities_up_to(self.visibility.sensitivity_ceiling)), as_of=iso(self.now),
            **exclusion_params(self.visibility.exclude))
        return [{"memory": memory_from_map(r["memory"], r["claim"]), "superseded_by": r["superseded_by"]}
                for r in rows]

    async def followups(self, ids: list[str], kind: str) -> dict[str, list[Memory]]:
        if not ids:
            return {}
        rows = await self.runner.read(
            "asking/followups", agent=self.agent, ids=ids, kind=kind,
            sensitivities=list(sensitivities_up_to(self.visibility.sensitivity_ceiling)),
            **exclusion_params(self.visibility.exclude))
        out: dict[str, list[Memory]] = {}
        for r in rows:
            out.setdefault(r["target"], []).append(memory_from_map(r["memory"], r["claim"]))
        return out

    async def search(self, text: str, *, limit: int, memory_types: tuple[str, ...] | None = None,
                     statuses: tuple[str, ...] = (ACTIVE,), created_after: datetime | None = None,
                     created_before: datetime | None = None) -> list[SearchHit]:
        """Retrieval's hybrid search, through the same filter (time travel, ceiling, exclusions)."""
        v = self.visibility
        query = SearchQuery(agent=v.agent, text=text, limit=limit, memory_types=memory_types, statuses=statuses,
                            as_of=v.as_of, sensitivity_ceiling=v.sensitivity_ceiling, exclude=v.exclude,
                            created_after=created_after, created_before=created_before)
        return (await self.retrieval.search(query)).hits

    async def entity_named(self, name: str) -> Entity | None:
        """The entity a name (or an alias) names in this tenant, if the graph has one."""
        clean = " ".join(re.sub(r"[?!.,;:]+$", "", name).split())
        if not clean:
            return None
        found = await self.entities.list(self.agent, name=clean, limit=1)
        return found[0] if found else None

"""What one search shows: the parameters of the visibility block (cypher/retrieval/visibility.fragment)
as a typed, frozen record. Built once per request from the domain query (`Visibility.of`) and
passed to every candidate query, the hydration and the link expansion of that request, so all of
them filter at the same instant and by the same rules. Pure."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from graph.core.timeutil import iso, to_utc, utcnow
from graph.core.vocab import ACTIVE, DEFAULT_SENSITIVITY_CEILING, SUPERSEDED, sensitivities_up_to
from graph.retrieval.exclusion import exclusion_params

if TYPE_CHECKING:
    from graph.retrieval.model import SearchQuery


@dataclass(frozen=True)
class Visibility:
    agent: str
    statuses: tuple[str, ...]  # the statuses shown; with `history`, 'superseded' too
    as_of: datetime  # the instant validity windows are checked at: as_of, else known_at, else now
    known_at: datetime | None = None  # record time: memories recorded later are hidden
    history: bool = False  # time travel over active beliefs: past states count in their own window
    session_id: str | None = None
    memory_types: tuple[str, ...] | None = None  # None: every type
    tags: tuple[str, ...] = ()  # a memory must carry every one
    created_after: datetime | None = None
    created_before: datetime | None = None
    event_after: datetime | None = None
    event_before: datetime | None = None
    explain: bool = False  # candidate queries also return the rows the block hid, with their reason
    sensitivity_ceiling: str = DEFAULT_SENSITIVITY_CEILING  # the most sensitive memories shown
    exclude: tuple[str, ...] = ()  # a memory whose text holds one of these (whole words, any case) is hidden

    @classmethod
    def of(cls, query: SearchQuery, *, explain: bool | None = None) -> Visibility:
        """Time travel (as_of or known_at given) over active beliefs also reads superseded ones, and
        the block shows those that were the belief of that time: past states of their slot in their
        own window, and beliefs still held at known_at (docs/beliefs.md, Time). `explain` defaults to
        the query's."""
        history = ((query.as_of is not None or query.known_at is not None) and ACTIVE in query.statuses
                   and SUPERSEDED not in query.statuses)
        statuses = (*query.statuses, SUPERSEDED) if history else tuple(query.statuses)
        return cls(agent=query.agent, statuses=statuses, as_of=to_utc(query.as_of or query.known_at or utcnow()),
                   known_at=query.known_at, history=history, session_id=query.session_id,
                   memory_types=tuple(query.memory_types) if query.memory_types else None, tags=tuple(query.tags),
                   created_after=query.created_after, created_before=query.created_before,
                   event_after=query.event_after, event_before=query.event_before,
                   explain=query.explain if explain is None else explain,
                   sensitivity_ceiling=query.sensitivity_ceiling, exclude=tuple(query.exclude))

    @property
    def key(self) -> tuple[str, tuple[str, ...]]:
        """The tenant and what it shows: what the tenant size hints are kept by."""
        return self.agent, self.statuses

    def params(self, *, explain: bool | None = None) -> dict[str, Any]:
        """The Cypher parameters of the block (and `explain`, which the candidate queries take);
        `explain` overrides the record's (hydration never wants the hidden rows)."""
        return {"agent": self.agent, "statuses": list(self.statuses),
                "sensitivities": list(sensitivities_up_to(self.sensitivity_ceiling)), "session_id": self.session_id,
                "as_of": iso(self.as_of), "known_at": iso(self.known_at), "history": self.history,
                "tags": list(self.tags), "memory_types": list(self.memory_types) if self.memory_types else None,
                "created_after": iso(self.created_after), "created_before": iso(self.created_before),
                "event_after": iso(self.event_after), "event_before": iso(self.event_before),
                "explain": self.explain if explain is None else explain, **exclusion_params(self.exclude)}

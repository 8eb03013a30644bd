"""Digests: clusters of related events, each summarised into one memory. Pure.

The rule. Candidates are active `event` memories, not digests themselves and not yet in a digest,
that happened (their `event_at`, else when they were recorded) at least `digest_min_age_days` ago.
Taken in time order, per sensitivity (a digest never mixes a private event into a normal one), each
event joins the open cluster whose centroid it is most similar to, if that cosine is at least
`digest_similarity` and the cluster's first event is at most `digest_window_hours` earlier; otherwise
it opens a new cluster. A cluster of at least `digest_min_members` events (at most MAX_MEMBERS)
becomes a digest; smaller ones are left as they are. Deterministic: the same events give the same
clusters, and a digest's id follows from its members (graph/core/keys.py seeds it)."""
from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import numpy as np

from graph.consolidation.records import Item
from graph.core.keys import scoped

MAX_MEMBERS = 50  # a cluster this large closes: one digest stays readable
DIGEST_IDS = uuid.UUID("6f1d2c9e-3b7a-4c55-9e0b-2a8d41c7f0d3")  # the namespace of digest ids


@dataclass
class Cluster:
    members: list[Item]
    vectors: list[np.ndarray]
    centroid: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.centroid = _unit(np.mean(self.vectors, axis=0))

    def add(self, item: Item, vector: np.ndarray) -> None:
        self.members.append(item)
        self.vectors.append(vector)
        self.centroid = _unit(np.mean(self.vectors, axis=0))

    def cohesion(self) -> float:
        """The lowest cosine of a member to the centroid."""
        return float(min(float(v @ self.centroid) for v in self.vectors))


def _unit(v: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(v))
    return v / norm if norm else v


def candidates(items: Collection[Item], now: datetime, min_age_days: float) -> list[Item]:
    cutoff = now - timedelta(days=min_age_days)
    return sorted((i for i in items if i.memory_type == "event" and i.category != "digest" and not i.digested
                   and i.embedded and i.when <= cutoff), key=lambda i: (i.when, i.id))


def clusters(events: list[Item], vectors: Mapping[str, list[float]], *, similarity: float, window_hours: float,
             min_members: int) -> list[Cluster]:
    window = timedelta(hours=window_hours)
    by_sensitivity: dict[str, list[Item]] = defaultdict(list)
    for e in events:
        if e.id in vectors:
            by_sensitivity[e.sensitivity].append(e)
    done: list[Cluster] = []
    for sensitivity in sorted(by_sensitivity):
        open_: list[Cluster] = []
        for event in by_sensitivity[sensitivity]:
            v = _unit(np.asarray(vectors[event.id], dtype=np.float64))
            still = [c for c in open_ if event.when - c.members[0].when <= window and len(c.members) < MAX_MEMBERS]
            done += [c for c in open_ if c not in still]
            open_ = still
            best = max(open_, key=lambda c: float(v @ c.centroid), default=None)
            if best is not None and float(v @ best.centroid) >= similarity:
                best.add(event, v)
            else:
                open_.append(Cluster([event], [v]))
        done += open_
    kept = [c for c in done if len(c.members) >= min_members]
    return sorted(kept, key=lambda c: (c.members[0].when, c.members[0].id))


def digest_id(agent: str, member_ids: Collection[str]) -> str:
    """A digest's id follows from its tenant and members, so a run that is repeated makes the same one."""
    return str(uuid.uuid5(DIGEST_IDS, scoped(agent, "digest", *sorted(member_ids))))

"""A hit brings the conversation turns around it. Pure.

A single turn rarely says what it answers ("Yes! It was amazing, we went there twice"); the turns
beside it in its thread do. After ranking, the best `TOP` hits that belong to a thread bring in the
turns up to `STEPS` steps away along NEXT (cypher/retrieval/neighbours.cypher), and each such turn
ranks with a relevance of at least `lift` ** steps times that of the hit beside it: one step away
0.9 of it, two steps 0.81 with the default lift. A turn that is relevant on its own keeps its own
relevance when that is higher. The lift and the reach were chosen on the tuning halves of the
conversation benchmarks (bench/recall_lab.py; docs/retrieval.md, "Neighbour turns")."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

TOP = 5  # the best hits that bring their neighbours
STEPS = 2  # how far along NEXT, either way (the pattern's bound in cypher/retrieval/neighbours.cypher)
DEFAULT_LIFT = 0.9


class Reached(NamedTuple):
    """A turn reached from a hit: the hit, the turn and how many NEXT steps apart they are."""
    from_id: str
    id: str
    steps: int


class Lift(NamedTuple):
    relevance: float  # the least relevance the turn ranks with
    beside: str  # the hit that lifted it


def lifts(reached: Iterable[Reached], relevance: Mapping[str, float], lift: float) -> dict[str, Lift]:
    """Per reached turn, the highest lift any hit gives it (`relevance`: the hits' own, by id);
    a hit that reaches another hit lifts it too."""
    out: dict[str, Lift] = {}
    for r in reached:
        if r.steps < 1 or r.from_id not in relevance:
            continue
        value = relevance[r.from_id] * lift ** r.steps
        if r.id not in out or value > out[r.id].relevance:
            out[r.id] = Lift(value, r.from_id)
    return out

"""Near-duplicates: which active memories say the same thing, and which of them stays. Pure.

Two memories are near-duplicates when their cosine is at least the threshold (the vector index
finds the candidates, cypher/consolidation/neighbours.cypher) and nothing else tells them apart:
the same memory type, sensitivity, `historical` flag and `effective_from`; event times, when both
have one, within an hour; and their claims agree. A claim is never archived into a plain memory, two
claims must be the same belief (subject, predicate, normalised value, scope, session and window: a
near-identical text with another value is a contradiction, not a duplicate), and a predicate whose
dedup policy is `store` keeps its memories apart (corroboration raises their trust instead).
Digests are never merged.

Groups are built greedily in priority order (a claimed memory first, then the higher trust, then the
older, then the id): each memory not yet in a group gathers its compatible neighbours not yet in a
group, so every merged memory is directly similar to the one it merges into (no chains)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta

from graph.beliefs.trust import SOURCE_WEIGHTS, UNKNOWN_SOURCE_WEIGHT
from graph.consolidation.records import Item
from graph.memories.model import Claim
from graph.memories.rules import MAX_TAGS

EVENT_TOLERANCE = timedelta(hours=1)  # events further apart than this are different events
DIGEST_CATEGORY = "digest"


@dataclass(frozen=True)
class Group:
    survivor: str
    members: tuple[tuple[str, float], ...]  # (id, cosine to the survivor), most similar first


def _belief(c: Claim) -> tuple:
    return (c.subject, c.predicate, c.normalized_value, c.scope, c.session_id if c.scope == "session" else None,
            c.valid_from, c.valid_until)


def why_apart(survivor: Item, other: Item, dedup_policy: Callable[[str], str]) -> str | None:
    """None when `other` may merge into `survivor`; otherwise what tells them apart."""
    for name in ("memory_type", "sensitivity", "historical", "effective_from"):
        if getattr(survivor, name) != getattr(other, name):
            return name
    if DIGEST_CATEGORY in (survivor.category, other.category):
        return "digest"
    if survivor.event_at and other.event_at and abs(survivor.event_at - other.event_at) > EVENT_TOLERANCE:
        return "event_at"
    if other.claim is not None:
        if survivor.claim is None:
            return "claim"
        if _belief(survivor.claim) != _belief(other.claim):
            return "claim"
        if dedup_policy(other.claim.predicate) == "store":
            return "dedup_policy"
    return None


def priority(item: Item) -> tuple:
    return (item.claim is None, -item.trust, item.created_at, item.id)


def groups(items: Mapping[str, Item], neighbours: Mapping[str, Mapping[str, float]], threshold: float,
           dedup_policy: Callable[[str], str]) -> list[Group]:
    """`neighbours`: each memory's near neighbours by cosine, symmetric (either side's probe found it)."""
    assigned: set[str] = set()
    found: list[Group] = []
    for item in sorted((items[i] for i in neighbours if i in items), key=priority):
        if item.id in assigned:
            continue
        members = [(other, cos) for other, cos in sorted(neighbours[item.id].items(), key=lambda p: (-p[1], p[0]))
                   if cos >= threshold and other in items and other not in assigned and other != item.id
                   and why_apart(item, items[other], dedup_policy) is None]
        if members:
            assigned.add(item.id)
            assigned.update(other for other, _ in members)
            found.append(Group(item.id, tuple((other, round(cos, 4)) for other, cos in members)))
    return found


def best_source(types: list[str]) -> str:
    """The most trusted source type among them (graph/beliefs/trust.py's weights)."""
    return max(types, key=lambda t: (SOURCE_WEIGHTS.get(t, UNKNOWN_SOURCE_WEIGHT), t))


def merged_tags(tag_lists: list[tuple[str, ...]]) -> tuple[str, ...]:
    """The union, the survivor's first, in order, within the memory's limit."""
    return tuple(dict.fromkeys(t for tags in tag_lists for t in tags))[:MAX_TAGS]

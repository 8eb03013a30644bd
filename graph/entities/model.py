"""The entity graph's records, as they cross into api/."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Entity:
    id: str
    name: str
    kind: str
    aliases: tuple[str, ...]
    mentions: int  # claims about it (as subject or value)
    created_at: datetime | None


@dataclass(frozen=True)
class EntityRef:
    id: str
    name: str
    kind: str


@dataclass(frozen=True)
class Relationship:
    id: str
    type: str
    source: EntityRef
    target: EntityRef
    strength: float
    mentions: int
    trust: float
    first_seen: datetime | None
    last_seen: datetime | None
    valid_from: datetime | None
    valid_until: datetime | None
    current: bool  # holds at the instant asked about (now, or as_of)
    memory_ids: tuple[str, ...]


@dataclass(frozen=True)
class EntityDetail:
    entity: Entity
    relationships: tuple[Relationship, ...]


@dataclass(frozen=True)
class GraphNode:
    entity: Entity
    hops: int  # relations between it and the entity asked about


@dataclass(frozen=True)
class Neighbourhood:
    root: str
    nodes: tuple[GraphNode, ...]
    edges: tuple[Relationship, ...]


@dataclass(frozen=True)
class EntityPath:
    entities: tuple[EntityRef, ...]  # from the first entity to the second
    relationships: tuple[Relationship, ...]  # relationships[i] joins entities[i] and entities[i + 1]


@dataclass(frozen=True)
class Mention:
    memory_id: str
    text: str
    status: str
    role: str  # subject or value: which end of the claim the entity is
    subject: str
    predicate: str
    value: str
    created_at: datetime | None


@dataclass(frozen=True)
class PredicateGroup:
    predicate: str
    memories: tuple[Mention, ...]


@dataclass(frozen=True)
class RelationshipGroup:
    type: str
    relationships: tuple[Relationship, ...]


@dataclass(frozen=True)
class About:
    entity: Entity
    relationships: tuple[RelationshipGroup, ...]
    memories: tuple[PredicateGroup, ...]

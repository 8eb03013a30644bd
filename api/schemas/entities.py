"""Request and response bodies for the entity graph (/v1/entities)."""
from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from typing import Literal
from uuid import UUID

from pydantic import BaseModel, Field

from api.schemas.common import Agent, Request
from graph.entities import model
from graph.entities.names import KINDS

Kind = Literal[KINDS]  # type: ignore[valid-type]


class EntityOut(BaseModel):
    id: str
    name: str = Field(description="The name it was first seen under.")
    kind: Kind = Field(description="person, place, organisation, product or other.")
    aliases: list[str] = Field(description="Other names that resolve to this entity (merged names included).")
    mentions: int = Field(description="Claims whose subject or value it is.")
    created_at: datetime | None

    @classmethod
    def of(cls, e: model.Entity) -> EntityOut:
        return cls(id=e.id, name=e.name, kind=e.kind, aliases=list(e.aliases), mentions=e.mentions,
                   created_at=e.created_at)


class EntityRefOut(BaseModel):
    id: str
    name: str
    kind: Kind

    @classmethod
    def of(cls, e: model.EntityRef) -> EntityRefOut:
        return cls(**asdict(e))


class RelationshipOut(BaseModel):
    id: str
    type: str = Field(description="works_at, lives_in, knows, manages, member_of, uses, born_in, located_in.")
    source: EntityRefOut = Field(description="The entity the relationship goes from.")
    target: EntityRefOut = Field(description="The entity it goes to.")
    strength: float = Field(description="trust x (1 - 0.5^mentions) x 0.5^(days since last mention / 180), "
                                        "at now or as_of (docs/entities.md).")
    mentions: int = Field(description="Memories evidencing it (quarantined ones do not count).")
    trust: float = Field(description="Mean trust of those memories.")
    first_seen: datetime | None
    last_seen: datetime | None
    valid_from: datetime | None
    valid_until: datetime | None = Field(description="Null while a memory still asserts it; else when it ended.")
    current: bool = Field(description="It holds at the instant asked about (now, or as_of); false: historical.")
    memory_ids: list[str] = Field(description="The memories that evidence it.")

    @classmethod
    def of(cls, r: model.Relationship) -> RelationshipOut:
        return cls(id=r.id, type=r.type, source=EntityRefOut.of(r.source), target=EntityRefOut.of(r.target),
                   strength=r.strength, mentions=r.mentions, trust=r.trust, first_seen=r.first_seen,
                   last_seen=r.last_seen, valid_from=r.valid_from, valid_until=r.valid_until, current=r.current,
                   memory_ids=list(r.memory_ids))


class EntitiesOut(BaseModel):
    entities: list[EntityOut]
    next_after: str | None = Field(description="Pass as `after` for the next page; null on the last one.")


class EntityDetailOut(BaseModel):
    entity: EntityOut
    relationships: list[RelationshipOut]

    @classmethod
    def of(cls, d: model.EntityDetail) -> EntityDetailOut:
        return cls(entity=EntityOut.of(d.entity), relationships=[RelationshipOut.of(r) for r in d.relationships])


class GraphNodeOut(BaseModel):
    entity: EntityOut
    hops: int = Field(description="Relationships between it and the entity asked about.")


class NeighbourhoodOut(BaseModel):
    root: str
    nodes: list[GraphNodeOut]
    edges: list[RelationshipOut]

    @classmethod
    def of(cls, n: model.Neighbourhood) -> NeighbourhoodOut:
        return cls(root=n.root, nodes=[GraphNodeOut(entity=EntityOut.of(x.entity), hops=x.hops) for x in n.nodes],
                   edges=[RelationshipOut.of(e) for e in n.edges])


class PathOut(BaseModel):
    entities: list[EntityRefOut] = Field(description="From `from` to `to`.")
    relationships: list[RelationshipOut] = Field(description="relationships[i] joins entities[i] and entities[i+1].")

    @classmethod
    def of(cls, p: model.EntityPath) -> PathOut:
        return cls(entities=[EntityRefOut.of(e) for e in p.entities],
                   relationships=[RelationshipOut.of(r) for r in p.relationships])


class MentionOut(BaseModel):
    memory_id: str
    text: str
    status: str
    role: Literal["subject", "value"]
    subject: str
    predicate: str
    value: str
    created_at: datetime | None


class PredicateGroupOut(BaseModel):
    predicate: str
    memories: list[MentionOut]


class RelationshipGroupOut(BaseModel):
    type: str
    relationships: list[RelationshipOut]


class AboutOut(BaseModel):
    entity: EntityOut
    relationships: list[RelationshipGroupOut] = Field(description="Grouped by relationship type.")
    memories: list[PredicateGroupOut] = Field(description="Memories whose claims name it, grouped by predicate.")

    @classmethod
    def of(cls, a: model.About) -> AboutOut:
        return cls(entity=EntityOut.of(a.entity),
                   relationships=[RelationshipGroupOut(type=g.type, relationships=[RelationshipOut.of(r)
                                                                                    for r in g.relationships])
                                  for g in a.relationships],
                   memories=[PredicateGroupOut(predicate=g.predicate, memories=[MentionOut(**asdict(m))
                                                                                for m in g.memories])
                             for g in a.memories])


class EntityPatch(Request):
    agent: Agent
    kind: Kind | None = None
    add_aliases: list[str] = Field(default_factory=list, max_length=50,
                                   description="Other names of this entity; one that names another entity is 409.")


class EntityMerge(Request):
    agent: Agent
    keep: UUID = Field(description="The entity that stays.")
    merge: UUID = Field(description="The entity folded into it: its claims, relationships and evidence move; "
                                    "its names become aliases.")


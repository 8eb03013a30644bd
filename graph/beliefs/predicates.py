"""The predicate schema registry (docs/beliefs.md): cardinality, conflict policy,
normaliser and dedup policy per predicate and tenant, with the vocabulary's defaults (graph/core/vocab.py)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime

from graph.core.checks import check_choice
from graph.core.errors import InvalidInput, NotFound
from graph.core.keys import predicate_key
from graph.core.tenancy import check_agent
from graph.core.timeutil import from_graph, iso, utcnow
from graph.core.vocab import CARDINALITIES, CONFLICT_POLICIES, DEDUP_POLICIES, NORMALIZER_NAMES
from graph.memories.claims import MAX_PREDICATE
from graph.store.gateway import GraphRunner, Tx


@dataclass(frozen=True)
class PredicateSchema:
    predicate: str
    cardinality: str = CARDINALITIES[0]
    conflict_policy: str = CONFLICT_POLICIES[0]
    normalize: str = NORMALIZER_NAMES[0]
    dedup_policy: str = DEDUP_POLICIES[0]
    registered: bool = False
    updated_at: datetime | None = None

    def as_row(self, agent: str) -> dict:
        row = {k: v for k, v in asdict(self).items() if k not in ("registered", "updated_at")}
        return {**row, "key": predicate_key(agent, self.predicate)}


def schema_from_map(m: dict) -> PredicateSchema:
    return PredicateSchema(predicate=m["predicate"], cardinality=m["cardinality"],
                           conflict_policy=m["conflict_policy"], normalize=m["normalize"],
                           dedup_policy=m["dedup_policy"], registered=True, updated_at=from_graph(m.get("updated_at")))


async def schema_in(tx: Tx, agent: str, predicate: str) -> PredicateSchema:
    """The registered schema, or the defaults (single, supersede, none, corroborate)."""
    row = await tx.optional("beliefs/predicates/get", agent=agent, predicate=predicate)
    return schema_from_map(row["schema"]) if row else PredicateSchema(predicate=predicate)


def check_predicate(name: object, field: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise InvalidInput(field, "must be a non-empty predicate name")
    if len(name) > MAX_PREDICATE:
        raise InvalidInput(field, f"is {len(name)} characters; the limit is {MAX_PREDICATE}")
    return name


def check_schema(schema: PredicateSchema, field: str) -> None:
    """A schema holds a predicate name and a value from each of its vocabularies."""
    check_predicate(schema.predicate, f"{field}.predicate")
    check_choice(schema.cardinality, f"{field}.cardinality", CARDINALITIES)
    check_choice(schema.conflict_policy, f"{field}.conflict_policy", CONFLICT_POLICIES)
    check_choice(schema.normalize, f"{field}.normalize", NORMALIZER_NAMES)
    check_choice(schema.dedup_policy, f"{field}.dedup_policy", DEDUP_POLICIES)


class PredicateService:
    def __init__(self, runner: GraphRunner) -> None:
        self.runner = runner

    async def get(self, agent: str, predicate: str, *, default: bool = False) -> PredicateSchema:
        check_agent(agent)
        check_predicate(predicate, "predicate")
        schema = await self.runner.read_tx(lambda tx: schema_in(tx, agent, predicate))
        if not schema.registered and not default:
            raise NotFound("predicate schema", predicate)
        return schema

    async def put(self, agent: str, schemas: Sequence[PredicateSchema]) -> list[PredicateSchema]:
        check_agent(agent)
        if not schemas:
            raise InvalidInput("predicates", "must hold at least one predicate schema")
        for i, schema in enumerate(schemas):
            check_schema(schema, f"predicates[{i}]")
        names = [s.predicate for s in schemas]
        if len(set(names)) != len(names):
            raise InvalidInput("predicates", "names each predicate at most once")
        rows = await self.runner.write("beliefs/predicates/upsert", agent=agent,
                                       rows=[s.as_row(agent) for s in schemas],
                                       now=iso(utcnow()))
        return [schema_from_map(r["schema"]) for r in rows]

    async def list(self, agent: str) -> list[PredicateSchema]:
        check_agent(agent)
        return [schema_from_map(r["schema"]) for r in await self.runner.read("beliefs/predicates/list", agent=agent)]

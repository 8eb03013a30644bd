"""The predicate schema registry (PRD v0.8.1 feature 7): cardinality, conflict policy,
normaliser and dedup policy per predicate and tenant, with the PRD's defaults."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime

from graph.core.errors import InvalidInput, NotFound
from graph.core.timeutil import from_graph, iso, utcnow
from graph.store.gateway import GraphRunner, Tx

CARDINALITIES = ("single", "multi")
CONFLICT_POLICIES = ("supersede", "require_review", "keep_both")
DEDUP_POLICIES = ("corroborate", "store")


@dataclass(frozen=True)
class PredicateSchema:
    predicate: str
    cardinality: str = "single"
    conflict_policy: str = "supersede"
    normalize: str = "none"
    dedup_policy: str = "corroborate"
    registered: bool = False
    updated_at: datetime | None = None

    def as_row(self, agent: str) -> dict:
        row = {k: v for k, v in asdict(self).items() if k not in ("registered", "updated_at")}
        return {**row, "key": f"{agent}\x1f{self.predicate}"}


def _from_map(m: dict) -> PredicateSchema:
    return PredicateSchema(predicate=m["predicate"], cardinality=m["cardinality"],
                           conflict_policy=m["conflict_policy"], normalize=m["normalize"],
                           dedup_policy=m["dedup_policy"], registered=True, updated_at=from_graph(m.get("updated_at")))


async def schema_in(tx: Tx, agent: str, predicate: str) -> PredicateSchema:
    """The registered schema, or the PRD defaults (single, supersede, none, corroborate)."""
    row = await tx.optional("beliefs/predicates/get", agent=agent, predicate=predicate)
    return _from_map(row["schema"]) if row else PredicateSchema(predicate=predicate)


class PredicateService:
    def __init__(self, runner: GraphRunner) -> None:
        self.runner = runner

    async def get(self, agent: str, predicate: str, *, default: bool = False) -> PredicateSchema:
        schema = await self.runner.read_tx(lambda tx: schema_in(tx, agent, predicate))
        if not schema.registered and not default:
            raise NotFound("predicate schema", predicate)
        return schema

    async def put(self, agent: str, schemas: Sequence[PredicateSchema]) -> list[PredicateSchema]:
        names = [s.predicate for s in schemas]
        if len(set(names)) != len(names):
            raise InvalidInput("predicates", "names each predicate at most once")
        rows = await self.runner.write("beliefs/predicates/upsert", agent=agent,
                                       rows=[s.as_row(agent) for s in schemas], now=iso(utcnow()))
        return [_from_map(r["schema"]) for r in rows]

    async def list(self, agent: str) -> list[PredicateSchema]:
        return [_from_map(r["schema"]) for r in await self.runner.read("beliefs/predicates/list", agent=agent)]

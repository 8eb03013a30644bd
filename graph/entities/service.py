"""Reading the entity graph (list, get, neighbourhood, path, what we know about X) and the two
operator writes (kind and aliases; merge). Each public write is one transaction."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime

from graph import audit
from graph.core.errors import InvalidInput, NotFound, StateConflict
from graph.core.keys import entity_key, name_key, relation_key
from graph.core.tenancy import check_agent
from graph.core.timeutil import from_graph, from_graph_required, iso, utcnow
from graph.core.vocab import OP_ENTITY_MERGE, OP_ENTITY_UPDATE
from graph.entities.model import (
    About,
    Entity,
    EntityDetail,
    EntityPath,
    GraphNode,
    Mention,
    Neighbourhood,
    PredicateGroup,
    Relationship,
    RelationshipGroup,
)
from graph.entities.names import check_kind, check_name
from graph.entities.records import entity_from_map, ref_from_map, relationship_from_map
from graph.entities.strength import Evidence, holds
from graph.store.gateway import GraphRunner, Tx

MAX_DEPTH = 3
MAX_PATH_HOPS = 6
MAX_LIST = 500


class EntityService:
    def __init__(self, runner: GraphRunner) -> None:
        self.runner = runner

    # -- reads ------------------------------------------------------------------------------------
    async def list(self, agent: str, *, kind: str | None = None, name: str | None = None, after: str | None = None,
                   limit: int = 100) -> list[Entity]:
        check_agent(agent)
        if kind is not None:
            check_kind(kind, "kind")
        if not 1 <= limit <= MAX_LIST:
            raise InvalidInput("limit", f"must be between 1 and {MAX_LIST}")
        named = check_name(name, "name") if name is not None else None
        rows = await self.runner.read("entities/list", agent=agent, kind=kind, after=after, limit=limit,
                                      name_key=name_key(named) if named else None,
                                      alias_key=entity_key(agent, named) if named else None)
        return [entity_from_map(r["entity"]) for r in rows]

    async def get(self, agent: str, entity_id: str, as_of: datetime | None = None) -> EntityDetail:
        """Every relationship it takes part in, current and historical; with `as_of`, those that held then."""
        check_agent(agent)
        row = await self.runner.read_tx(lambda tx: tx.optional("entities/get", agent=agent, id=entity_id))
        if row is None:
            raise NotFound("entity", entity_id)
        at = as_of or utcnow()
        relationships = [relationship_from_map(r, at) for r in row["relations"]]
        if as_of is not None:
            relationships = [r for r in relationships if r.current]
        return EntityDetail(entity_from_map(row["entity"]), tuple(_by_strength(relationships)))

    async def neighbourhood(self, agent: str, entity_id: str, depth: int = 1,
                            as_of: datetime | None = None) -> Neighbourhood:
        check_agent(agent)
        if not 1 <= depth <= MAX_DEPTH:
            raise InvalidInput("depth", f"must be between 1 and {MAX_DEPTH}")
        at = as_of or utcnow()
        row = await self.runner.read_tx(lambda tx: tx.optional("entities/neighbourhood", agent=agent, id=entity_id,
                                                                depth=depth, as_of=iso(at)))
        if row is None:
            raise NotFound("entity", entity_id)
        root = entity_from_map(row["entity"])
        edges = _by_strength([relationship_from_map(r, at) for r in row["relations"]])
        hops = _hops(root.id, edges)
        names = {root.id: root}
        for edge in edges:
            for end in (edge.source, edge.target):
                names.setdefault(end.id, Entity(end.id, end.name, end.kind, (), 0, None))
        nodes = sorted((GraphNode(names[i], h) for i, h in hops.items()), key=lambda n: (n.hops, n.entity.name))
        return Neighbourhood(root=root.id, nodes=tuple(nodes), edges=tuple(edges))

    async def path(self, agent: str, from_id: str, to_id: str, max_hops: int = 4,
                   as_of: datetime | None = None) -> EntityPath:
        check_agent(agent)
        if not 1 <= max_hops <= MAX_PATH_HOPS:
            raise InvalidInput("max_hops", f"must be between 1 and {MAX_PATH_HOPS}")
        if from_id == to_id:
            raise InvalidInput("to", "must be another entity than `from`")
        at = as_of or utcnow()

        async def work(tx: Tx) -> EntityPath:
            row = await tx.optional("entities/path", agent=agent, from_id=from_id, to_id=to_id, max_hops=max_hops,
                                    as_of=iso(at))
            if row is None:
                for ident in (from_id, to_id):
                    if await tx.optional("entities/get", agent=agent, id=ident) is None:
                        raise NotFound("entity", ident)
                raise NotFound("path", f"{from_id} -> {to_id} within {max_hops} relationships")
            return EntityPath(entities=tuple(ref_from_map(e) for e in row["entities"]),
                              relationships=tuple(relationship_from_map(r, at) for r in row["relations"]))

        return await self.runner.read_tx(work)

    async def about(self, agent: str, entity_id: str, as_of: datetime | None = None) -> About:
        """What we know about X: its relationships grouped by type, and the memories whose claims
        name it grouped by predicate. With `as_of`, only what held then."""
        check_agent(agent)
        detail = await self.get(agent, entity_id, as_of)
        row = await self.runner.read_tx(lambda tx: tx.optional("entities/about", agent=agent, id=entity_id))
        if row is None:
            raise NotFound("entity", entity_id)
        groups: dict[str, list[Relationship]] = defaultdict(list)
        for rel in detail.relationships:
            groups[rel.type].append(rel)
        by_predicate: dict[str, list[Mention]] = defaultdict(list)
        for m in row["memories"]:
            window = Evidence(m["memory_id"], m["status"], 0.0, from_graph_required(m["created_at"]),
                              from_graph_required(m["start"]), from_graph(m.get("end")))
            if as_of is not None and not holds(window, as_of):
                continue
            by_predicate[m["predicate"]].append(Mention(
                memory_id=m["memory_id"], text=m["text"], status=m["status"], role=m["role"], subject=m["subject"],
                predicate=m["predicate"], value=m["value"], created_at=from_graph(m["created_at"])))
        return About(entity=detail.entity,
                     relationships=tuple(RelationshipGroup(t, tuple(rs)) for t, rs in sorted(groups.items())),
                     memories=tuple(PredicateGroup(p, tuple(ms)) for p, ms in sorted(by_predicate.items())))

    # -- operator writes --------------------------------------------------------------------------
    async def update(self, agent: str, entity_id: str, *, kind: str | None, aliases: Sequence[str],
                     actor: str) -> Entity:
        """Sets the kind and adds known aliases. An alias that already names another entity (or is
        its alias) is refused: merge the two instead."""
        check_agent(agent)
        if kind is not None:
            check_kind(kind, "kind")
        rows = _alias_rows(agent, [check_name(a, f"aliases[{i}]") for i, a in enumerate(aliases)])

        async def work(tx: Tx) -> Entity:
            taken = await tx.many("entities/names_taken", agent=agent, keys=[r["key"] for r in rows])
            clash = next((t for t in taken if t["id"] != entity_id), None)
            if clash is not None:
                name = next(r["name"] for r in rows if r["key"] == clash["key"])
                raise StateConflict(f"the alias {name_key(name)!r} already names entity {clash['id']}: "
                                    "merge the two entities instead (POST /v1/entities:merge)")
            own = {t["key"] for t in taken}  # its own name or an alias it has: nothing to add
            row = await tx.optional("entities/update", agent=agent, id=entity_id, kind=kind,
                                    aliases=[r for r in rows if r["key"] not in own])
            if row is None:
                raise NotFound("entity", entity_id)
            await audit.record(tx, agent, OP_ENTITY_UPDATE, actor, [],
                               after={"entity": entity_id, "kind": kind, "aliases": [r["name"] for r in rows]})
            return entity_from_map(row["entity"])

        return await self.runner.write_tx(work)

    async def merge(self, agent: str, keep_id: str, gone_id: str, actor: str, job_id: str | None = None) -> Entity:
        """Folds `gone` into `keep` in one transaction: claims about it, its relationships and their
        evidence move over (a relationship that exists at both folds into one; one that would join
        `keep` to itself goes, its memories stay), its names become aliases of `keep`. `job_id`: the
        maintenance job that merges (consolidation), for the audit record."""
        check_agent(agent)
        if keep_id == gone_id:
            raise InvalidInput("merge", "must name another entity than `keep`")

        async def work(tx: Tx) -> Entity:
            row = await tx.optional("entities/merge_read", agent=agent, keep_id=keep_id, gone_id=gone_id)
            if row is None:
                for ident in (keep_id, gone_id):
                    if await tx.optional("entities/get", agent=agent, id=ident) is None:
                        raise NotFound("entity", ident)
                raise AssertionError("entities/merge_read matched nothing although both entities exist")
            keep, gone = row["keep"], row["gone"]
            plans = _rekey(keep["key"], gone["key"], [r for r in row["relations"] if r])
            twins = {t["key"]: t["id"] for t in await tx.many("entities/relations_by_key", agent=agent,
                                                               keys=[p["key"] for p in plans if p["key"]])}
            moves = [p for p in plans if p["key"] and p["key"] not in twins]
            folds = [{"id": p["id"], "twin": twins.get(p["key"]) if p["key"] else None}
                     for p in plans if not p["key"] or p["key"] in twins]
            await tx.scalar("entities/merge_claims", agent=agent, keep_id=keep_id, gone_id=gone_id)
            if moves:
                await tx.scalar("entities/merge_move_relations", agent=agent, keep_id=keep_id, gone_id=gone_id,
                                rows=[{"id": p["id"], "key": p["key"]} for p in moves])
            if folds:
                await tx.scalar("entities/merge_fold_relations", agent=agent, rows=folds)
            names = [gone["name"], *(gone.get("aliases") or [])]
            kind = keep.get("kind") if keep.get("kind") not in (None, "other") else gone.get("kind") or "other"
            done = await tx.one("entities/merge_finish", agent=agent, keep_id=keep_id, gone_id=gone_id,
                                aliases=_alias_rows(agent, names), kind=kind)
            await audit.record(tx, agent, OP_ENTITY_MERGE, actor, [], before={"keep": keep_id, "gone": gone_id},
                               after={"entity": keep_id, "aliases": names, "relations_moved": len(moves),
                                      "relations_folded": len(folds)}, job_id=job_id)
            return entity_from_map(done["entity"])

        return await self.runner.write_tx(work)


def _alias_rows(agent: str, names: Sequence[str]) -> list[dict[str, str]]:
    """Each distinct name once, with the key it takes as an alias (or names an entity by)."""
    rows: dict[str, dict[str, str]] = {}
    for name in names:
        rows.setdefault(entity_key(agent, name), {"key": entity_key(agent, name), "name": " ".join(name.split())})
    return list(rows.values())


def _rekey(keep_key: str, gone_key: str, relations: Sequence[dict]) -> list[dict]:
    """Each relation of `gone` with its key once it ends at `keep`; None when it would join `keep`
    to itself."""
    plans = []
    for r in relations:
        other = keep_key if r["other_key"] == gone_key else r["other_key"]
        if other == keep_key:
            plans.append({"id": r["id"], "key": None})
            continue
        source, target = (keep_key, other) if r["end"] == "FROM" else (other, keep_key)
        plans.append({"id": r["id"], "key": relation_key(r["type"], source, target)})
    return plans


def _by_strength(relationships: Sequence[Relationship]) -> list[Relationship]:
    return sorted(relationships, key=lambda r: (not r.current, -r.strength, r.type, r.target.name))


def _hops(root: str, edges: Sequence[Relationship]) -> dict[str, int]:
    """Breadth-first hop counts from the root over the edges the graph returned."""
    adjacent: dict[str, set[str]] = defaultdict(set)
    for e in edges:
        adjacent[e.source.id].add(e.target.id)
        adjacent[e.target.id].add(e.source.id)
    hops, frontier = {root: 0}, [root]
    while frontier:
        nxt = []
        for node in frontier:
            for other in adjacent[node]:
                if other not in hops:
                    hops[other] = hops[node] + 1
                    nxt.append(other)
        frontier = nxt
    return hops

"""Recall with relationships (docs/graph.md): from a set of memories, the memories their typed edges
reach within `depth` hops, each with the nearest path to it. One bounded variable-length Cypher
query per request (cypher/links/expand/depth_N), never a round trip per hop; the memories on the
way are screened by the same visibility filter as search, so a hidden (say superseded) memory is
neither returned nor walked through unless the caller shows it. Each result lists at most
`expand.limit` memories, the nearest first, and says when its list was cut."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graph.core.errors import InvalidInput
from graph.core.vocab import EDGE_KINDS
from graph.links.kinds import DEFAULT_RELATED, DIRECTIONS, MAX_DEPTH, MAX_RELATED
from graph.store.gateway import GraphRunner


@dataclass(frozen=True)
class Expand:
    depth: int = 0  # 0: no expansion
    kinds: tuple[str, ...] = EDGE_KINDS
    direction: str = "both"  # out: along the edges; in: against them; both
    limit: int = DEFAULT_RELATED  # related memories listed per result, the nearest first


def check_expand(expand: Expand) -> Expand:
    if isinstance(expand.depth, bool) or not isinstance(expand.depth, int) or not 0 <= expand.depth <= MAX_DEPTH:
        raise InvalidInput("expand.depth", f"must be an integer from 0 to {MAX_DEPTH}")
    if not expand.kinds:
        raise InvalidInput("expand.kinds", "must name at least one edge kind")
    for i, kind in enumerate(expand.kinds):
        if kind not in EDGE_KINDS:
            raise InvalidInput(f"expand.kinds[{i}]", f"must be one of {', '.join(EDGE_KINDS)}")
    if expand.direction not in DIRECTIONS:
        raise InvalidInput("expand.direction", f"must be one of {', '.join(DIRECTIONS)}")
    if isinstance(expand.limit, bool) or not isinstance(expand.limit, int) or not 1 <= expand.limit <= MAX_RELATED:
        raise InvalidInput("expand.limit", f"must be an integer from 1 to {MAX_RELATED}")
    return expand


@dataclass(frozen=True)
class Related:
    """A memory reached from a result, by its nearest path (fewest hops, then smallest ids)."""
    id: str
    text: str
    memory_type: str
    status: str
    kind: str  # the kind of the edge that reached it (the path's last hop)
    direction: str  # that edge's direction, walking from the result: out = along it
    hops: int
    path: tuple[str, ...]  # memory ids, from the result to this memory
    kinds: tuple[str, ...]  # each hop's edge kind
    directions: tuple[str, ...]  # each hop's direction


@dataclass(frozen=True)
class Reached:
    """What an expansion reached: each start's related memories, nearest first, and the starts
    whose list was cut at expand.limit (they reached more; nothing is dropped silently)."""
    related: dict[str, tuple[Related, ...]]
    cut: frozenset[str] = frozenset()

    def of(self, start: str) -> tuple[Related, ...]:
        return self.related.get(start, ())


NOTHING = Reached({})


def nearest(rows: list[dict[str, Any]], limit: int = MAX_RELATED) -> Reached:
    """expand rows (one per start, with every path from it) as each start's related memories: one
    per memory reached, by its nearest path (fewest hops, then smallest ids, kinds and directions),
    ordered by hops, then kind and id, and the first `limit` of them."""
    best: dict[tuple[str, str], tuple[tuple, dict[str, Any]]] = {}
    for row in rows:
        for path in row["paths"]:
            key = (row["from_id"], path["ids"][-1])
            # A hop runs along its edge (out) when the edge starts where the hop does.
            # A path has one node more than it has edges: the zip stops at the last edge.
            directions = ["out" if start == at else "in"
                          for start, at in zip(path["starts"], path["ids"], strict=False)]
            rank = (len(path["kinds"]), path["ids"], path["kinds"], directions)
            if key not in best or rank < best[key][0]:
                best[key] = (rank, path)
    out: dict[str, list[Related]] = {}
    for (start, _), ((hops, path, kinds, directions), m) in best.items():
        out.setdefault(start, []).append(Related(
            id=m["id"], text=m["text"], memory_type=m["memory_type"], status=m["status"], kind=kinds[-1],
            direction=directions[-1], hops=hops, path=tuple(path), kinds=tuple(kinds), directions=tuple(directions)))
    ordered = {k: sorted(v, key=lambda r: (r.hops, r.kind, r.id)) for k, v in out.items()}
    return Reached({k: tuple(v[:limit]) for k, v in ordered.items()},
                   frozenset(k for k, v in ordered.items() if len(v) > limit))


async def related(runner: GraphRunner, ids: list[str], expand: Expand, filters: dict[str, Any]) -> Reached:
    """The memories reached from `ids`; `filters` are the search's visibility parameters."""
    if expand.depth == 0 or not ids:
        return NOTHING
    visibility = {k: v for k, v in filters.items() if k != "explain"}
    rows = await runner.read(f"links/expand/depth_{expand.depth}", ids=ids, kinds=list(expand.kinds),
                             direction=expand.direction, **visibility)
    return nearest(rows, expand.limit)

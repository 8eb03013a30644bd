"""Recall with relationships (seed 003): from a set of memories, the memories their typed edges
reach within `depth` hops, each with the nearest path to it. One bounded variable-length Cypher
query per request (cypher/links/expand/depth_N), never a round trip per hop; the memories on the
way are screened by the same visibility filter as search, so a hidden (say superseded) memory is
neither returned nor walked through unless the caller shows it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graph.core.errors import InvalidInput
from graph.links.kinds import DIRECTIONS, EDGE_KINDS, MAX_DEPTH
from graph.store.gateway import GraphRunner


@dataclass(frozen=True)
class Expand:
    depth: int = 0  # 0: no expansion
    kinds: tuple[str, ...] = EDGE_KINDS
    direction: str = "both"  # out: along the edges; in: against them; both


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


def nearest(rows: list[dict[str, Any]]) -> dict[str, tuple[Related, ...]]:
    """expand rows (one per path) as each start's related memories: one per memory reached, by its
    nearest path, ordered by hops, then kind and id."""
    best: dict[tuple[str, str], dict[str, Any]] = {}
    for row in rows:
        key = (row["from_id"], row["path"][-1])
        rank = (len(row["kinds"]), row["path"], row["kinds"])
        if key not in best or rank < (len(best[key]["kinds"]), best[key]["path"], best[key]["kinds"]):
            best[key] = row
    out: dict[str, list[Related]] = {}
    for (start, _), row in best.items():
        m = row["memory"]
        out.setdefault(start, []).append(Related(
            id=m["id"], text=m["text"], memory_type=m["memory_type"], status=m["status"], kind=row["kinds"][-1],
            direction=row["directions"][-1], hops=len(row["kinds"]), path=tuple(row["path"]),
            kinds=tuple(row["kinds"]), directions=tuple(row["directions"])))
    return {k: tuple(sorted(v, key=lambda r: (r.hops, r.kind, r.id))) for k, v in out.items()}


async def related(runner: GraphRunner, ids: list[str], expand: Expand, filters: dict[str, Any]
                  ) -> dict[str, tuple[Related, ...]]:
    """The memories reached from `ids`; `filters` are the search's visibility parameters."""
    if expand.depth == 0 or not ids:
        return {}
    visibility = {k: v for k, v in filters.items() if k != "explain"}
    rows = await runner.read(f"links/expand/depth_{expand.depth}", ids=ids, kinds=list(expand.kinds),
                             direction=expand.direction, **visibility)
    return nearest(rows)

"""Recall with relationships: the `expand` option of search and context, and each result's `related`."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, StrictInt

from api.schemas.common import Request
from api.schemas.links import LinkType
from graph.core.vocab import EDGE_KINDS
from graph.links.expansion import Expand, Related
from graph.links.kinds import DEFAULT_RELATED, MAX_DEPTH, MAX_RELATED


class ExpandOptions(Request):
    depth: StrictInt = Field(description=f"Hops to follow from each result, 0 to {MAX_DEPTH} (0: none).",
                             ge=0, le=MAX_DEPTH)
    kinds: list[LinkType] | None = Field(None, min_length=1,
                                         description="Edge kinds to follow; default every kind.")
    direction: Literal["out", "in", "both"] = Field(
        "both", description="out: along the edges (a result's causes' effects...); in: against them; both.")
    limit: StrictInt = Field(DEFAULT_RELATED, ge=1, le=MAX_RELATED,
                             description="Related memories listed per result, nearest first (fewest hops, then "
                                         "kind and id); a result that reached more says so in related_truncated.")

    def to_domain(self) -> Expand:
        return Expand(depth=self.depth, kinds=tuple(dict.fromkeys(self.kinds)) if self.kinds else EDGE_KINDS,
                      direction=self.direction, limit=self.limit)


class RelatedOut(BaseModel):
    id: str
    text: str
    memory_type: str
    status: str
    kind: LinkType = Field(description="The kind of the edge that reached this memory (the path's last hop).")
    direction: Literal["out", "in"] = Field(description="That edge's direction, walking from the result: out = "
                                                        "along the edge.")
    hops: int = Field(description="Edges between the result and this memory (its nearest path).")
    path: list[str] = Field(description="Memory ids from the result to this memory.")
    kinds: list[LinkType] = Field(description="Each hop's edge kind.")
    directions: list[Literal["out", "in"]] = Field(description="Each hop's direction.")

    @classmethod
    def of(cls, r: Related) -> RelatedOut:
        return cls(id=r.id, text=r.text, memory_type=r.memory_type, status=r.status, kind=r.kind,
                   direction=r.direction, hops=r.hops, path=list(r.path), kinds=list(r.kinds),
                   directions=list(r.directions))

"""Reading a tenant for a consolidation: bounded statements, each filtered by the tenant inside its
Cypher (cypher/consolidation/). Near-duplicate candidates come from the vector index, a batch of
memories per statement (`neighbours`); where an operator opts in, a tenant up to a size is joined
exactly from its embeddings read in pages (`exact_neighbours`)."""
from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Collection, Sequence
from datetime import datetime

import numpy as np

from graph.beliefs.predicates import PredicateSchema, schema_from_map
from graph.consolidation.records import EntityRow, Item, Prunable
from graph.consolidation.similar_pairs import similar_pairs
from graph.core.timeutil import iso
from graph.retrieval.cosine_scale import CosineScale, index_score_to_cosine
from graph.store.gateway import GraphRunner

PAGE = 20_000  # memories read per statement
PROBES = 250  # memories whose neighbours one statement asks the index for
FIRST_K = 16  # neighbours asked for first; a page full of near-duplicates asks again, four times as many
PARALLEL = 2  # neighbour statements in flight at once: the database answers each on its own thread
VECTOR_PAGE = 1_000  # embeddings read per statement for the exact join (about 3 MB over Bolt)


async def counts(runner: GraphRunner, agent: str) -> tuple[int, int]:
    row = await runner.read_one("consolidation/counts", agent=agent)
    return int(row["total"]), int(row["active"])


async def active(runner: GraphRunner, agent: str, now: datetime) -> dict[str, Item]:
    items: dict[str, Item] = {}
    after = ""
    while True:
        rows = await runner.read("consolidation/active_page", agent=agent, now=iso(now), after=after, limit=PAGE)
        for row in rows:
            items[row["id"]] = Item.of(row)
        if len(rows) < PAGE:
            return items
        after = rows[-1]["id"]


async def neighbours(runner: GraphRunner, agent: str, ids: Sequence[str], threshold: float, max_k: int,
                     scale: CosineScale) -> dict[str, dict[str, float]]:
    """Each memory's active neighbours of the tenant with a cosine of at least `threshold`, both ways.

    The index answers its global top k: a page that is full and still at the threshold at its end may
    hide more, so those memories ask again with four times k, up to `max_k`, past which one memory is
    ranked exactly against the tenant (correctness first, as retrieval does)."""
    min_score = (1.0 + threshold) / 2.0  # the index's score for that cosine
    found: dict[str, dict[str, float]] = defaultdict(dict)

    def note(a: str, b: str, cosine: float) -> None:
        if cosine >= threshold:
            found[a][b] = max(found[a].get(b, cosine), cosine)
            found[b][a] = found[a][b]

    gate = asyncio.Semaphore(PARALLEL)

    async def probe(batch: list[str], k: int) -> list[dict]:
        async with gate:
            return await runner.read("consolidation/neighbours", agent=agent, ids=batch, k=k, min_score=min_score)

    pending, k = list(ids), FIRST_K
    while pending:
        again: list[str] = []
        pages = await asyncio.gather(*(probe(pending[i:i + PROBES], k) for i in range(0, len(pending), PROBES)))
        for rows in pages:
            for row in rows:
                for hit in row["hits"]:
                    note(row["id"], hit["id"], index_score_to_cosine(hit["score"]))
                if row["scanned"] >= k and row["lowest"] is not None and row["lowest"] >= min_score:
                    again.append(row["id"])
        if again and k * 4 > max_k:
            for memory_id in again:
                for row in await runner.read("consolidation/neighbours_exact", agent=agent, id=memory_id):
                    if row["similarity"] is not None:
                        note(memory_id, row["id"], scale.to_cosine(row["similarity"]))
            break
        pending, k = again, k * 4
    return found


async def exact_neighbours(runner: GraphRunner, agent: str, ids: Sequence[str], threshold: float
                           ) -> dict[str, dict[str, float]]:
    """What `neighbours` answers, exactly: every pair of `ids` with a cosine of at least `threshold`,
    from their embeddings read in pages into one float32 matrix (1.5 KB per memory) and joined block by
    block (graph/consolidation/similar_pairs.py)."""
    ordered = sorted(ids)
    matrix = np.zeros((len(ordered), 0), dtype=np.float32)
    row_of = {memory_id: n for n, memory_id in enumerate(ordered)}
    present = np.zeros(len(ordered), dtype=bool)
    for start in range(0, len(ordered), VECTOR_PAGE):
        for row in await runner.read("consolidation/vectors", agent=agent, ids=ordered[start:start + VECTOR_PAGE]):
            if row["embedding"] is None:
                continue
            vector = np.asarray(row["embedding"], dtype=np.float32)
            if matrix.shape[1] == 0:
                matrix = np.zeros((len(ordered), len(vector)), dtype=np.float32)
            if len(vector) == matrix.shape[1]:  # the schema guard keeps one dimension; a stray one matches nothing
                matrix[row_of[row["id"]]] = vector
                present[row_of[row["id"]]] = True
    if not present.all():
        ordered, matrix = [ordered[n] for n in np.flatnonzero(present)], matrix[present]
    found: dict[str, dict[str, float]] = defaultdict(dict)
    for a, b, cosine in similar_pairs(ordered, matrix, threshold):
        found[a][b] = found[b][a] = min(cosine, 1.0)
    return found


async def vectors(runner: GraphRunner, agent: str, ids: Collection[str]) -> dict[str, tuple[str, list[float]]]:
    """Text and embedding by id."""
    out: dict[str, tuple[str, list[float]]] = {}
    ordered = sorted(ids)
    for start in range(0, len(ordered), PROBES):
        for row in await runner.read("consolidation/vectors", agent=agent, ids=ordered[start:start + PROBES]):
            if row["embedding"] is not None:
                out[row["id"]] = (row["text"], list(row["embedding"]))
    return out


async def contradicted(runner: GraphRunner, agent: str) -> set[frozenset[str]]:
    return {frozenset((r["a"], r["b"])) for r in await runner.read("consolidation/contradicted", agent=agent, ids=None)}


async def schemas(runner: GraphRunner, agent: str) -> dict[str, PredicateSchema]:
    rows = await runner.read("beliefs/predicates/list", agent=agent)
    return {r["schema"]["predicate"]: schema_from_map(r["schema"]) for r in rows}


async def entities(runner: GraphRunner, agent: str) -> list[EntityRow]:
    return [EntityRow.of(r) for r in await runner.read("consolidation/entities", agent=agent)]


async def prunable(runner: GraphRunner, agent: str, cutoff: datetime) -> list[Prunable]:
    return [Prunable.of(r) for r in await runner.read("consolidation/prunable", agent=agent, cutoff=iso(cutoff),
                                                      ids=None)]

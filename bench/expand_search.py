"""What recall with relationships costs (issue 11 item 2): search with expand depth 0 vs depth 2 in
one tenant of N memories (10k by default) whose memories are tied by typed edges, on the embedded
ArcadeDB (or a local Neo4j), through the service layer (no HTTP), query embedding included.

Edges: each memory gets EDGES_PER_MEMORY outgoing edges (CAUSES, SUPPORTS, PROMOTED_FROM, picked at
random) to random memories of the tenant, so depth 2 walks a real neighbourhood (about 4 edges
per memory, both directions: ~20 memories within two hops of each hit, of which each result lists
the nearest expand.limit, 10 by default). The two variants run
interleaved query by query, so drift affects both alike. Prints a table; with --record, writes it
into docs/benchmarks.md.

    .venv/bin/python bench/expand_search.py                  # 10k memories, embedded ArcadeDB
    .venv/bin/python bench/expand_search.py --backend neo4j
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.corpus import memory_texts, queries
from bench.record import record
from graph.embedding import encoder as embedder
from graph.links.expansion import Expand
from graph.memories.model import NewMemory
from graph.retrieval.model import SearchQuery
from graph.services import Services
from graph.settings import Settings

AGENT = "bench-graph"
EDGES_PER_MEMORY = 2
KINDS = ("CAUSES", "SUPPORTS", "PROMOTED_FROM")
# Bench set-up only (the service never runs this): many edges at once, as links/create would make them.
CREATE_EDGES = """
UNWIND $rows AS row
MATCH (a:Memory {agent: $agent, id: row.from})
MATCH (b:Memory {agent: $agent, id: row.to})
FOREACH (_ IN CASE WHEN row.kind = 'CAUSES' THEN [1] ELSE [] END |
  CREATE (a)-[:CAUSES {created_at: datetime(), created_by: 'bench'}]->(b))
FOREACH (_ IN CASE WHEN row.kind = 'SUPPORTS' THEN [1] ELSE [] END |
  CREATE (a)-[:SUPPORTS {created_at: datetime(), created_by: 'bench'}]->(b))
FOREACH (_ IN CASE WHEN row.kind = 'PROMOTED_FROM' THEN [1] ELSE [] END |
  CREATE (a)-[:PROMOTED_FROM {created_at: datetime(), created_by: 'bench'}]->(b))
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


async def run(args: argparse.Namespace) -> list[tuple[str, ...]]:
    rng = random.Random(3)
    with tempfile.TemporaryDirectory(prefix="credence-bench-") as tmp:
        model = embedder.load_embedder(None, Path(tmp) / "models")
        settings = Settings(data_dir=Path(tmp), backend=args.backend, neo4j_uri=None, embedded_heap=args.heap,
                            local_neo4j_heap=args.heap)
        services = await Services.start(settings, model)
        try:
            texts = memory_texts(args.n)
            ids: list[str] = []
            for offset in range(0, len(texts), 1000):
                stored = await services.writes.store_many(
                    [NewMemory(agent=AGENT, text=t) for t in texts[offset:offset + 1000]])
                ids += [s.memory.id for s in stored]
            rows = [{"from": a, "to": rng.choice(ids), "kind": rng.choice(KINDS)}
                    for a in ids for _ in range(EDGES_PER_MEMORY)]
            rows = [r for r in rows if r["from"] != r["to"]]
            driver, database = services.backend.driver, services.backend.database
            for offset in range(0, len(rows), 5000):
                await driver.execute_query(CREATE_EDGES, {"agent": AGENT, "rows": rows[offset:offset + 5000]},
                                           database_=database)
            await services.retrieval.warm_up()
            qs = queries(args.searches + args.warmup)
            variants = {"depth 0": Expand(depth=0), "depth 2": Expand(depth=2)}
            timings: dict[str, list[float]] = {v: [] for v in variants}
            related: list[int] = []
            cut: list[int] = []  # results per search whose related list stopped at expand.limit
            for i, q in enumerate(qs):
                for name, expand in variants.items():
                    t0 = time.perf_counter()
                    result = await services.retrieval.search(SearchQuery(agent=AGENT, text=q, limit=10,
                                                                         expand=expand, track_access=False))
                    elapsed = (time.perf_counter() - t0) * 1000
                    if i >= args.warmup:
                        timings[name].append(elapsed)
                        if expand.depth:
                            related.append(sum(len(h.related) for h in result.hits))
                            cut.append(sum(h.related_truncated for h in result.hits))
        finally:
            await services.close()
    base95 = percentile(timings["depth 0"], 95)
    table = [("search, limit 10", "p50 ms", "p95 ms", "added p95 ms")]
    for name, values in timings.items():
        p50, p95 = percentile(values, 50), percentile(values, 95)
        table.append((f"expand {name}", f"{p50:.1f}", f"{p95:.1f}",
                      "" if name == "depth 0" else f"{p95 - base95:+.1f}"))
    table.append(("related memories per search at depth 2 (mean)", f"{sum(related) / len(related):.0f}", "", ""))
    table.append((f"results cut at expand.limit {Expand().limit} per search (mean)", f"{sum(cut) / len(cut):.1f}", "",
                  ""))
    return table


def markdown(table: list[tuple[str, ...]], args: argparse.Namespace) -> str:
    lines = ["| " + " | ".join(table[0]) + " |", "|" + "---|" * len(table[0])]
    lines += ["| " + " | ".join(row) + " |" for row in table[1:]]
    return (f"Run {date.today().isoformat()}: `bench/expand_search.py --n {args.n} --backend {args.backend}`, "
            f"{args.n} memories in one tenant, {EDGES_PER_MEMORY} random edges out of each ({', '.join(KINDS)}), "
            f"{args.searches} searches per variant after {args.warmup} warm-up, interleaved; "
            f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end (other work on the cores "
            f"makes the figures noisy).\n\n" + "\n".join(lines) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--backend", choices=("embedded", "neo4j"), default="embedded")
    parser.add_argument("--searches", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--heap", default="2g")
    parser.add_argument("--record", action="store_true", help="write the table into docs/benchmarks.md")
    args = parser.parse_args()
    table = asyncio.run(run(args))
    text = markdown(table, args)
    print(text)
    if args.record:
        record(f"expand-{args.backend}", text)


if __name__ == "__main__":
    main()

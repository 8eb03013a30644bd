"""What the database does for one search: each statement's PROFILE (db hits, rows, the costliest
operators) and its time alone, on either backend's graph of N memories.

    .venv/bin/python bench/search_profile.py --data-dir /tmp/profile --backend neo4j [--n 10000] [--searches 50]

Loads the benchmark corpus over ten tenants (or reuses a --data-dir that holds it), runs the default
search (hybrid + rerank, limit 10) for corpus queries while recording every statement it sends with
its parameters, then replays each recorded statement alone: its time (median of three) and, on Neo4j,
its PROFILE plan summed by operator. Prints, per statement: calls per search, median ms, db hits and
rows per call, and the three operators with the most db hits. The replay prefixes the registry's
own text with PROFILE: the statements measured are the service's."""
from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.corpus import memory_texts, queries
from graph.embedding.encoder import load_embedder
from graph.memories.model import NewMemory
from graph.retrieval.model import SearchQuery
from graph.services import Services
from graph.settings import Settings
from graph.store import gateway

AGENTS = [f"bench-{i}" for i in range(10)]


def plan_hits(plan: Any) -> tuple[int, Counter]:
    """Total db hits of a profiled plan, and db hits by operator."""
    by_operator: Counter = Counter()

    def walk(node: Any) -> None:
        by_operator[node["operatorType"].split("@")[0]] += node.get("dbHits", 0)
        for child in node.get("children", []):
            walk(child)

    walk(plan)
    return sum(by_operator.values()), by_operator


async def main(args: argparse.Namespace) -> None:
    settings = Settings(data_dir=Path(args.data_dir) / args.backend, backend=args.backend, neo4j_uri=None,
                        embedded_heap=args.heap, local_neo4j_heap=args.heap)
    services = await Services.start(settings, load_embedder(None, Path(args.data_dir) / "models"))
    try:
        if not (await services.memories.list(AGENTS[0], limit=1)).items:
            texts = memory_texts(args.n)
            for i in range(0, args.n, 250):
                await services.writes.store_many([NewMemory(agent=AGENTS[(i + j) % len(AGENTS)], text=t)
                                                  for j, t in enumerate(texts[i:i + 250])])
            print(f"stored {args.n:,} memories", file=sys.stderr)
        rng = random.Random(3)
        qs = queries(args.searches + 20)
        for q in qs[:20]:  # warm-up
            await services.retrieval.search(SearchQuery(agent=rng.choice(AGENTS), text=q, limit=10))

        recorded: list[tuple[str, dict[str, Any]]] = []
        shaped = gateway.Tx._shaped

        async def recording(self, name, expected, params):
            recorded.append((name, dict(params)))
            return await shaped(self, name, expected, params)

        gateway.Tx._shaped = recording  # type: ignore[method-assign]
        started = time.perf_counter()
        for q in qs[20:]:
            await services.retrieval.search(SearchQuery(agent=rng.choice(AGENTS), text=q, limit=10))
        whole = (time.perf_counter() - started) * 1000 / args.searches
        gateway.Tx._shaped = shaped  # type: ignore[method-assign]
        await services.access.flush()

        driver, database, registry = services.backend.driver, services.backend.database, services.runner.registry
        times: dict[str, list[float]] = defaultdict(list)
        hits: dict[str, list[int]] = defaultdict(list)
        rows: dict[str, list[int]] = defaultdict(list)
        operators: dict[str, Counter] = defaultdict(Counter)
        for name, params in recorded:
            if not name.startswith("retrieval/"):
                continue
            query = registry[name]
            bound = query.bind(params)
            runs = []
            for _ in range(3):
                t0 = time.perf_counter()
                records, _, _ = await driver.execute_query(query.text, bound, database_=database, routing_="r")
                runs.append((time.perf_counter() - t0) * 1000)
            times[name].append(statistics.median(runs))
            rows[name].append(len(records))
            if services.backend.is_neo4j:
                _, summary, _ = await driver.execute_query("PROFILE " + query.text, bound, database_=database,
                                                           routing_="r")
                total, by_operator = plan_hits(summary.profile)
                hits[name].append(total)
                operators[name].update(by_operator)
    finally:
        await services.close()

    print(f"### search_profile, {args.backend}, {args.n:,} memories over {len(AGENTS)} tenants, "
          f"{args.searches} default searches (hybrid + rerank, limit 10): {whole:.1f} ms per search in the run\n")
    print("| statement | calls per search | ms alone, median | db hits per call | costliest operators (db hits "
          "per call) |")
    print("| --- | --- | --- | --- | --- |")
    for name in sorted(times):
        n = len(times[name])
        top = ", ".join(f"{op} {v / n:,.0f}" for op, v in operators[name].most_common(3)) or "-"
        per_call = f"{statistics.median(hits[name]):,.0f}" if hits[name] else "-"
        print(f"| {name} | {n / args.searches:.2f} | {statistics.median(times[name]):.1f} | {per_call} | {top} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--backend", choices=["embedded", "neo4j"], default="neo4j")
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--searches", type=int, default=50)
    parser.add_argument("--heap", default="1g")
    asyncio.run(main(parser.parse_args()))

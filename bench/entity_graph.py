"""The entity graph's read cost: neighbourhood at depth 1..3 and the shortest path, on a tenant of
synthetic people, companies and cities (every relationship from a claim, written through the
belief write path). One backend per run; the machine's other load makes the figures noisy.

    PYTHONPATH=. python -m bench.entity_graph --backend embedded --people 300
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import tempfile
import time
from pathlib import Path

from graph.embedding import encoder as embedder
from graph.memories.model import Claim, NewMemory
from graph.services import Services
from graph.settings import Settings


def claims(people: int, rng: random.Random) -> list[Claim]:
    """Each person works at one of people/10 companies, lives in one of people/15 cities and knows
    three others; each company has headquarters in a city."""
    # Names without digits: a value with a digit is not taken for a thing (graph/entities/names.py).
    words = [a + b for a in ("Ka", "Lo", "Mi", "Ta", "Ve", "Ru", "So", "Ni", "Pe", "Da", "Jo", "Ze")
             for b in ("ra", "mo", "li", "den", "vik", "sa", "no", "ter", "bel", "gan")]
    names = [f"{a} {b}" for a in words for b in words if a != b][:people]
    companies = [f"{w} Corp" for w in words[:max(people // 10, 2)]]
    cities = [f"{w}ville" for w in words[:max(people // 15, 2)]]
    out = [Claim(c, "headquarters", rng.choice(cities)) for c in companies]
    for name in names:
        out.append(Claim(name, "employer", rng.choice(companies)))
        out.append(Claim(name, "lives_in", rng.choice(cities)))
        for k, other in enumerate(rng.sample(names, 3)):
            if other != name:
                out.append(Claim(name, ("friend", "colleague", "knows")[k], other))
    return out


def pct(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))]


async def run(args: argparse.Namespace) -> None:
    rng = random.Random(7)
    data_dir = Path(tempfile.mkdtemp(prefix="credence-entity-bench-"))
    model = embedder.load_embedder(None, data_dir / "models")
    services = await Services.start(Settings(data_dir=data_dir, backend=args.backend, neo4j_uri=None), model)
    agent = "bench-entities"
    try:
        items = [NewMemory(agent=agent, text=f"{c.subject} {c.predicate} {c.value}", claim=c)
                 for c in claims(args.people, rng)]
        t0 = time.perf_counter()
        for start in range(0, len(items), 50):
            await services.writes.store_many(items[start:start + 50])
        print(f"{args.backend}: {len(items)} claims written in {time.perf_counter() - t0:.1f} s")
        people = await services.entities.list(agent, kind="person", limit=500)
        ids = [p.id for p in people]
        for depth in (1, 2, 3):
            times, sizes = [], []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                hood = await services.entities.neighbourhood(agent, rng.choice(ids), depth)
                times.append((time.perf_counter() - t0) * 1000)
                sizes.append(len(hood.edges))
            print(f"neighbourhood depth {depth}: p50 {statistics.median(times):.1f} ms, p95 {pct(times, .95):.1f} ms, "
                  f"median {statistics.median(sizes):.0f} edges")
        times = []
        for _ in range(args.repeat):
            a, b = rng.sample(ids, 2)
            t0 = time.perf_counter()
            with contextlib.suppress(Exception):  # no path within 6 hops also costs a search
                await services.entities.path(agent, a, b, 6)
            times.append((time.perf_counter() - t0) * 1000)
        print(f"path (max 6 hops): p50 {statistics.median(times):.1f} ms, p95 {pct(times, .95):.1f} ms")
    finally:
        await services.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--backend", choices=("embedded", "neo4j"), default="embedded")
    parser.add_argument("--people", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=30)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()

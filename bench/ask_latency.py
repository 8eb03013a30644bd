"""How long each asking handler takes against a plain search, at 10k memories (the target: each
handler within 2x the p95 of a plain search).

Loads N memories over ten tenants (or reuses a --data-dir that holds them): the synthetic corpus of
bench/corpus.py with its memory types, event times spread over two years, sentiments, and per
tenant a lived-in history (claims that supersede each other), relationships, decisions with
outcomes and goals with progress. Then, in one process and alternating, it runs the default search
(hybrid + rerank, limit 10) and one question per intent through `AskService.ask`, each in a random
tenant, and prints p50/p95 per kind and each handler's p95 over the search's.

    .venv/bin/python bench/ask_latency.py --data-dir /tmp/ask-latency             # 10k, embedded
    .venv/bin/python bench/ask_latency.py --data-dir /tmp/ask-latency --backend neo4j
    .venv/bin/python bench/ask_latency.py --data-dir /tmp/ask-latency --record    # into docs/benchmarks.md

Timings on a shared machine are noisy: compare the kinds within one run, not runs across hosts."""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.corpus import memory_texts, queries
from bench.record import record
from graph.asking import AskQuery
from graph.embedding import encoder as embedder
from graph.links.service import LinkService
from graph.memories.model import Claim, NewMemory
from graph.retrieval import SearchQuery
from graph.services import Services
from graph.settings import Settings

QUESTIONS = {
    "about_me": "what do you know about me?",
    "entity": "tell me about Marcus",
    "relationship": "who is Marcus to me",
    "temporal": "what happened last month?",
    "historical": "where did I use to live?",
    "negation": "what happened last month except the budget",
    "sentiment": "how do I feel about the marathon training plan lately?",
    "decision": "what did I decide about the kitchen renovation?",
    "goal": "what are my goals?",
    "search": "where do I work",
}
TYPES = ("fact", "fact", "fact", "event", "event", "preference", "decision", "goal")
CITIES = ("Leeds", "Porto", "Lisbon", "Berlin", "Oslo")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


async def load(services: Services, agents: list[str], n: int) -> None:
    rng = random.Random(5)
    now = datetime.now(UTC)
    texts = memory_texts(n)
    for offset in range(0, len(texts), 256):
        chunk = []
        for j, text in enumerate(texts[offset:offset + 256]):
            kind = TYPES[(offset + j) % len(TYPES)]
            chunk.append(NewMemory(agent=agents[(offset + j) % len(agents)], text=text, memory_type=kind,
                                   event_at=now - timedelta(days=rng.uniform(0, 730))))
        await services.writes.store_many(chunk)
    links = LinkService(services.runner)
    for agent in agents:
        for year, city in enumerate(CITIES):
            await services.writes.store(NewMemory(agent=agent, text=f"I live in {city}", claim=Claim(
                "user", "lives_in", city, valid_from=datetime(2018 + year, 1, 1, tzinfo=UTC))))
        await services.writes.store(NewMemory(agent=agent, text="Marcus is my brother",
                                              claim=Claim("user", "knows", "Marcus")))
        await services.writes.store(NewMemory(agent=agent, text="Marcus works at Kestrel Labs",
                                              claim=Claim("Marcus", "works_at", "Kestrel Labs")))
        decision = await services.writes.store(NewMemory(agent=agent, text="Decided to renovate the kitchen",
                                                         memory_type="decision"))
        outcome = await services.writes.store(NewMemory(agent=agent, text="The kitchen renovation went well"))
        await links.link(agent, outcome.memory.id, decision.memory.id, "OUTCOME_OF", None, "bench")
        goal = await services.writes.store(NewMemory(agent=agent, text="Goal: run a marathon", memory_type="goal"))
        note = await services.writes.store(NewMemory(agent=agent, text="Ran 20 km, marathon training on track"))
        await links.link(agent, note.memory.id, goal.memory.id, "PROGRESS_ON", None, "bench")


async def main(args: argparse.Namespace) -> None:
    data_dir = Path(args.data_dir)
    model = embedder.load_embedder(None, data_dir / "models")
    settings = Settings(data_dir=data_dir / args.backend, backend=args.backend, neo4j_uri=None,
                        embedded_heap=args.heap, local_neo4j_heap=args.heap)
    services = await Services.start(settings, model)
    agents = [f"bench-{i}" for i in range(args.agents)]
    try:
        marker = data_dir / f"{args.backend}.ask-loaded"
        if not marker.exists():
            await load(services, agents, args.n)
            marker.write_text(str(args.n))
        services.access.enabled = False
        rng = random.Random(3)
        searches = queries(args.rounds + args.warmup)
        times: dict[str, list[float]] = {"search": [], **{f"ask: {k}": [] for k in QUESTIONS}}
        for i in range(args.warmup + args.rounds):
            agent = rng.choice(agents)
            kinds = [("search", searches[i]), *((f"ask: {k}", q) for k, q in QUESTIONS.items())]
            for name, text in (kinds if i % 2 == 0 else kinds[::-1]):
                t0 = time.perf_counter()
                if name == "search":
                    await services.retrieval.search(SearchQuery(agent=agent, text=text, limit=10))
                else:
                    answer = await services.ask.ask(AskQuery(agent=agent, question=text))
                    assert answer.handler in name or name.endswith("negation"), (name, answer.handler)
                if i >= args.warmup:
                    times[name].append((time.perf_counter() - t0) * 1000)
        base = pct(times["search"], 95)
        lines = [(f"{args.rounds} rounds, {args.n:,} memories over {args.agents} tenants, {args.backend}; "
                  f"run {datetime.now(UTC).date().isoformat()}, load average {os.getloadavg()[0]:.1f} at the end."), "",
                 "| kind | p50 ms | p95 ms | p95 / search p95 |", "|---|---:|---:|---:|"]
        for name, values in times.items():
            lines.append(f"| {name} | {statistics.median(values):.1f} | {pct(values, 95):.1f} | "
                         f"{pct(values, 95) / base:.2f}x |")
        text = "\n".join(lines) + "\n"
        print(text)
        if args.record:
            record(f"ask-latency-{args.backend}", text)
    finally:
        await services.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", required=True, help="kept between runs: the corpus loads once")
    parser.add_argument("--backend", default="embedded", choices=("embedded", "neo4j"))
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--agents", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--heap", default="2g")
    parser.add_argument("--record", action="store_true")
    asyncio.run(main(parser.parse_args()))

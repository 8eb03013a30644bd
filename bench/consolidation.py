"""Consolidating one large tenant: how long a dry run and a forced run take, where the time goes (per
step, planning and applying), and how many of the planted near-duplicates are merged.

The tenant (bench/corpus.py's memories, seeded) holds, besides its plain memories: 5% planted
near-duplicates (a memory again, with a lower-case first letter and a full stop), rival beliefs
stored while their predicate was multi-valued and then made single-valued (1% of the memories in
pairs), one claim from two sources under a `store` predicate (1%), old events in trips of four days
(8%), people named twice with a one-letter difference (1%), and archived and expired memories (1%,
pruned with a retention of 0 days). The service's own settings otherwise; pruning allowed.

    PYTHONPATH=. python -m bench.consolidation --backend embedded --memories 10000 [--record]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import tempfile
import time
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from bench.corpus import memory_texts
from bench.record import record
from graph.beliefs.predicates import PredicateSchema
from graph.consolidation import Report, Request, snapshot
from graph.embedding.encoder import load_embedder
from graph.memories.model import Claim, NewMemory, Provenance
from graph.services import Services
from graph.settings import Settings

AGENT = "bench-consolidation"
FIRST = ["Jonathan", "Katherine", "Michael", "Stephen", "Rebecca", "Matthew", "Elisabeth", "Phillip", "Geoffrey",
         "Catherine", "Jeffrey", "Nicholas", "Christopher", "Alexandra", "Theodore", "Frederick"]
LAST = ["Almeida", "Brennan", "Castillo", "Dubois", "Eriksen", "Fontaine", "Gallagher", "Halvorsen", "Ivanova",
        "Jablonski", "Kowalczyk", "Lindqvist", "Moreau", "Nakamura", "Okonkwo", "Petrov"]
CITIES = ["Lisbon", "Porto", "Madrid", "Seville", "Lyon", "Turin", "Krakow", "Ghent", "Bergen", "Tartu"]
ACTIVITIES = ["visited the old town", "walked along the river", "ate at a small tavern", "took the cable car",
              "saw a concert", "went to the market", "hiked the hills", "toured a museum"]


def name(i: int) -> str:
    return f"{FIRST[i % len(FIRST)]} {LAST[(i // len(FIRST)) % len(LAST)]} {chr(65 + (i // 256) % 26)}."


def misspelt(full: str, rng: random.Random) -> str:
    """One letter of the first name dropped: Jonathan -> Jonthan."""
    first, rest = full.split(" ", 1)
    cut = rng.randrange(1, len(first) - 1)
    return f"{first[:cut]}{first[cut + 1:]} {rest}"


def corpus(n: int, seed: int) -> tuple[list[NewMemory], list[tuple[int, int]], set[frozenset[str]], int, int]:
    """The memories in write order; the planted duplicate pairs (positions); the planted pairs of names
    of one person; how many to archive, and where the archived ones start."""
    rng = random.Random(seed)
    now = datetime.now(UTC)
    dups, rivals, agree, events, people, stale = (int(n * f) for f in (0.05, 0.01, 0.01, 0.08, 0.01, 0.01))
    plain_n = n - dups - rivals - agree - events - people - stale
    texts = memory_texts(plain_n, seed)
    items = [NewMemory(agent=AGENT, text=t, provenance=Provenance(rng.choice(("inference", "document", "tool_output"))))
             for t in texts]
    pairs = []
    for i in rng.sample(range(plain_n), dups):
        pairs.append((i, len(items)))
        items.append(replace(items[i], text=texts[i][0].lower() + texts[i][1:] + ".",
                             provenance=Provenance("user_implicit", f"chat-{i}")))
    for j in range(rivals // 2):
        a, b = rng.sample(CITIES, 2)
        who = f"Client {name(j + 1_000)}"
        items += [NewMemory(agent=AGENT, text=f"{who} lives in {city}", claim=Claim(who, "home_city", city),
                            provenance=Provenance("document", f"crm-{j}-{k}")) for k, city in enumerate((a, b))]
    for j in range(agree // 2):
        who = f"Guest {name(j + 2_000)}"
        items += [NewMemory(agent=AGENT, text=f"{who} is vegetarian", claim=Claim(who, "diet", "vegetarian"),
                            provenance=Provenance("user_implicit", f"chat-{j}")),
                  NewMemory(agent=AGENT, text=f"Booking note: {who} asked for a vegetarian menu",
                            claim=Claim(who, "diet", "vegetarian"), provenance=Provenance("document", f"booking-{j}"))]
    for trip in range(events // 4):
        city, start = rng.choice(CITIES), now - timedelta(days=40 + 5 * trip)
        for day in range(4):
            items.append(NewMemory(agent=AGENT, memory_type="event", text=f"Trip to {city}, day {day + 1}: "
                                   f"{rng.choice(ACTIVITIES)}", event_at=start + timedelta(days=day)))
    names: set[frozenset[str]] = set()
    for j in range(people // 2):
        full, other = name(j), misspelt(name(j), rng)
        names.add(frozenset((full, other)))
        items += [NewMemory(agent=AGENT, text=f"{full} works at {LAST[j % len(LAST)]} Consulting",
                            claim=Claim(full, "employer", f"{LAST[j % len(LAST)]} Consulting")),
                  NewMemory(agent=AGENT, text=f"{other} lives in {rng.choice(CITIES)}",
                            claim=Claim(other, "lives_in", rng.choice(CITIES)))]
    archive_from = len(items)
    for j in range(stale):
        expired = j % 2 == 0
        items.append(NewMemory(agent=AGENT, text=f"Parking permit {j} for the old office",
                               expires_at=datetime(2020, 1, 1, tzinfo=UTC) if expired else None))
    return items, pairs, names, stale, archive_from


async def run(args: argparse.Namespace) -> tuple[Report, Report, dict]:
    data = Path(tempfile.mkdtemp(prefix="credence-consolidation-bench-"))
    settings = Settings(data_dir=data, backend=args.backend, neo4j_uri=None, consolidation_prune=True)
    services = await Services.start(settings, load_embedder(None, data / "models"))
    try:
        await services.predicates.put(AGENT, [PredicateSchema("home_city", cardinality="multi"),
                                              PredicateSchema("diet", dedup_policy="store")])
        items, pairs, names, stale, archive_from = corpus(args.memories, args.seed)
        t0 = time.perf_counter()
        ids: list[str] = []
        for start in range(0, len(items), 100):  # a claimed batch waits for its vectors inside its transaction
            ids += [r.memory.id for r in await services.writes.store_many(items[start:start + 100])]
        for i in range(archive_from, archive_from + stale, 2):
            await services.memories.archive(AGENT, ids[i + 1])
        await services.predicates.put(AGENT, [PredicateSchema("home_city")])
        written = time.perf_counter() - t0
        t0 = time.perf_counter()
        await services.retrieval.warm_up()  # a bulk load leaves the vector index to rebuild on its first query
        print(f"{args.backend}: {len(items):,} memories written in {written:.0f} s, index warmed in "
              f"{time.perf_counter() - t0:.0f} s", flush=True)
        request = Request(agent=AGENT, thresholds={"retention_days": 0})
        entities_before = await snapshot.entities(services.runner, AGENT)
        preview = await services.consolidation.consolidate(replace(request, dry_run=True))
        print(f"dry run: {preview.duration_ms / 1000:.1f} s, {len(preview.changes):,} changes", flush=True)
        done = await services.consolidation.consolidate(request)
        print(f"forced run: {done.duration_ms / 1000:.1f} s, {len(done.changes):,} changes", flush=True)
        group = {o: c.target for c in done.changes if c.kind == "merge" for o in c.others}
        found = sum(1 for a, b in pairs if group.get(ids[a], ids[a]) == group.get(ids[b], ids[b]))
        named = {e.id: e.name for e in entities_before}
        merges = [frozenset((named[c.target], named[c.others[0]])) for c in done.changes if c.kind == "entity_merge"]
        return preview, done, {"written": written, "planted": len(pairs), "found": found, "names": len(names),
                               "names_found": sum(1 for m in merges if m in names),
                               "names_extra": sum(1 for m in merges if m not in names)}
    finally:
        await services.close()


def section(args: argparse.Namespace, preview: Report, done: Report, facts: dict) -> str:
    machine = (f"{date.today()}, {platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
               f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f} at the end")
    counts = (f"{done.deduplicated:,} near-duplicates archived (planted pairs merged: {facts['found']:,} of "
              f"{facts['planted']:,}; the rest are the corpus's own near-identical texts), "
              f"{done.contradictions_pending:,} contradictions made pending, "
              f"{done.corroborated:,} memories corroborated, {done.digests:,} digests of "
              f"{done.digested_memories:,} events, {done.entities_merged:,} entities merged (planted pairs "
              f"{facts['names_found']} of {facts['names']}, other pairs {facts['names_extra']}), "
              f"{done.pruned_archived + done.pruned_expired:,} memories pruned; {done.skipped} skipped")
    parts = dict(done.timings)
    rows = "\n".join(f"| {k} | {preview_s:.2f} | {parts.get(k, 0.0):.2f} |" for k, preview_s in preview.timings)
    rows += "\n" + "\n".join(f"| {k} | | {v:.2f} |" for k, v in done.timings if k.startswith("apply"))
    return (f"### {args.memories:,} memories, {args.backend}\n\n{machine}\n\n"
            f"Dry run {preview.duration_ms / 1000:.1f} s, forced run {done.duration_ms / 1000:.1f} s "
            f"({done.before.total:,} memories before, {done.after.total:,} after). {counts}.\n\n"
            f"| part | dry run (s) | forced run (s) |\n|---|---:|---:|\n{rows}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=("embedded", "neo4j"), default="embedded")
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--record", action="store_true", help="write the section into docs/benchmarks.md")
    args = parser.parse_args()
    preview, done, facts = asyncio.run(run(args))
    text = section(args, preview, done, facts)
    print(text)
    if args.record:
        record(f"consolidation-{args.backend}-{args.memories}", text)


if __name__ == "__main__":
    main()

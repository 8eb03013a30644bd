"""Claimed writes against plain writes (issue 22): what the belief write path costs, over HTTP and in
statements, on each local backend.

A seeded corpus of N claimed memories in one tenant: N/10 subjects (200 at 2,000) x 5 predicates,
each registered single-valued with `PUT /v1/predicates/{p}` (supersede, corroborate), so every slot
holds at most one active value. Each slot's first write is a new belief; the later ones, from mixed
sources (graph/beliefs/trust.py), are chosen by the domain's own precedence rule to supersede (a
source that beats the slot's belief), to conflict (a less trusted source with another value:
quarantined, with a pending conflict) or to corroborate (the same value again from another source:
deduplicated). The outcomes the service reports are counted, so the mix is seen to be real.

Over loopback HTTP, against `python -m api` on a fresh data directory (CREDENCE_BACKEND=embedded or
neo4j): the claimed memories in batches (`POST /v1/memories:batch`), and the same texts without a
claim into a fresh tenant, batch by batch alternately (the order flips each batch, so drift hits
both alike) -> claimed and plain memories/s and their ratio; then single writes (`POST
/v1/memories`), claimed and plain alternately -> p50 / p95 / p99 ms.

Statements: the same calls again in this process (graph.services.Services on a fresh data
directory, the same corpus in the same order), with every statement the process sends through the
Neo4j driver counted (a transaction's or an auto-commit session's `run`), whatever sends it, named
by its file in cypher/, and the transactions they ran in (retried attempts included). Nothing in
the count knows the write path. Reported per claimed memory for the batches and per single write by
the outcome the service reported; statements that tasks started by a write send after it returned
(off the request path) are counted apart.

    .venv/bin/python bench/claim_writes.py                         # 2,000 claimed memories, both backends
    .venv/bin/python bench/claim_writes.py --n 400 --backends embedded
    .venv/bin/python bench/claim_writes.py --record                # into docs/benchmarks.md
"""
from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.ingest_search import percentile  # noqa: E402
from bench.load_test import collisions, free_port, start_service, stop, wait_ready  # noqa: E402
from bench.record import record  # noqa: E402
from graph.beliefs.precedence import Contender, wins  # noqa: E402
from graph.beliefs.trust import compute_trust  # noqa: E402
from graph.core.vocab import SOURCE_TYPES  # noqa: E402

T = TypeVar("T")
LABELS = {"embedded": "embedded ArcadeDB", "neo4j": "local Neo4j 5.26"}
# The warm-up tenant's name is as long as the others' (11 to 100 characters): Neo4j keys a cached plan
# on a string parameter's length, rounded up to a power of ten (docs/backends.md 2.23), so a 10-character
# name warmed plans the measured tenants never used.
CLAIMED, PLAIN, WARM = "bench-claims", "bench-plain", "bench-warmup"
STATEMENT_TARGET, RATIO_TARGET = 4, 0.75

# Five single-valued predicates (three with an entity rule, graph/entities/rules.py), each with its
# values and the ways a memory may say it.
PREDICATES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "lives_in": (("Lisbon", "Porto", "Berlin", "Tokyo", "Oslo", "Lima", "Nairobi", "Toronto", "Seoul", "Madrid"),
                 ("{s} lives in {v}.", "{s} has moved to {v}.", "{s} is based in {v} these days.")),
    "works_at": (("Northwind", "Globex", "Initech", "Hooli", "Vandelay Industries", "Wayne Enterprises",
                  "Soylent", "Cyberdyne", "Tyrell", "Aperture Labs"),
                 ("{s} works at {v}.", "{s} took a job at {v}.", "{s} is employed by {v}.")),
    "uses": (("Vim", "Emacs", "VS Code", "Helix", "Zed", "Sublime Text", "IntelliJ", "Neovim"),
             ("{s} writes code in {v}.", "{s} uses {v} as their editor.", "{s} switched to {v} for coding.")),
    "drinks": (("green tea", "espresso", "oat latte", "sparkling water", "black coffee", "chai", "mint tea"),
               ("{s} usually drinks {v}.", "{s}'s go-to drink is {v}.", "{s} orders {v} at meetings.")),
    "diet": (("vegetarian", "vegan", "pescatarian", "keto", "omnivore", "gluten-free"),
             ("{s} follows a {v} diet.", "{s} eats {v} now.", "{s} said their diet is {v}.")),
}
FIRST_NAMES = ("Ada", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro", "Ines", "Jonas",
               "Kemi", "Luca", "Mara", "Nikhil", "Olga", "Pedro", "Quinn", "Rosa", "Sven", "Tariq")
LAST_NAMES = ("Novak", "Silva", "Okafor", "Lindqvist", "Moreau", "Tanaka", "Haddad", "Kowalski", "Reyes", "Berg")
WHEN = ("", "", " (said on a call on Monday)", " (from last week's chat)", " (noted in the onboarding form)",
        " (mentioned during the review)")
# Who says a slot's first value, and what the later writes try (trust.py's SOURCE_TYPES).
FIRST_SOURCES = {"user_explicit": 1, "system": 1, "tool_output": 3, "user_implicit": 3, "document": 2, "inference": 1}
FOLLOW_UPS = {"supersede": 4, "conflict": 3, "corroborate": 3}
OUTCOMES = ("new", "superseded", "quarantined", "deduplicated")
OUTCOME_OF = {"first": "new", "supersede": "superseded", "conflict": "quarantined", "corroborate": "deduplicated"}


# -- the corpus (pure) ------------------------------------------------------------------------------
@dataclass(frozen=True)
class ClaimWrite:
    subject: str
    predicate: str
    value: str
    source: str
    ref: str
    text: str
    intent: str  # first | supersede | conflict | corroborate: what the corpus meant it to do


def subject_names(n: int) -> list[str]:
    names = [f"{first} {last}" for last in LAST_NAMES for first in FIRST_NAMES]
    return [names[i % len(names)] + (f" {i // len(names) + 1}" if i >= len(names) else "") for i in range(n)]


def beats(source: str, held_source: str, held_trust: float) -> bool:
    """Whether an undated claim from `source`, written later, wins over the slot's active belief:
    the domain's own rule (graph/beliefs/precedence.py), so the corpus's intent is the service's."""
    then = datetime(2026, 1, 1, tzinfo=UTC)
    new = Contender("new", source, compute_trust(source).trust, then + timedelta(seconds=1))
    return wins(new, Contender("held", held_source, held_trust, then))[0]


def plan(n: int, subjects: int, seed: int = 22) -> list[ClaimWrite]:
    """N claimed writes over subjects x PREDICATES slots, in a seeded order. Every slot is visited
    once (if N allows) and the rest of N falls on slots at random; a slot's first visit is a new
    belief, a later one a supersession, a conflict or a corroboration, as the slot's state allows
    (nothing can lose to an inference-only belief, so a conflict is not always possible)."""
    rng = random.Random(seed)
    slots = [(s, p) for s in subject_names(subjects) for p in PREDICATES]
    visits = rng.sample(slots, n) if n <= len(slots) else slots + [rng.choice(slots) for _ in range(n - len(slots))]
    rng.shuffle(visits)
    held: dict[tuple[str, str], tuple[str, str, int]] = {}  # slot -> (value, source, distinct sources)
    writes = []
    for i, (subject, predicate) in enumerate(visits):
        values, templates = PREDICATES[predicate]
        state = held.get((subject, predicate))
        if state is None:
            intent, value = "first", rng.choice(values)
            source = rng.choices(list(FIRST_SOURCES), weights=list(FIRST_SOURCES.values()))[0]
        else:
            value_held, source_held, sources = state
            trust = compute_trust(source_held, sources).trust
            winners = [s for s in SOURCE_TYPES if beats(s, source_held, trust)]
            losers = [s for s in SOURCE_TYPES if s not in winners]
            kinds = {k: w for k, w in FOLLOW_UPS.items() if k != "conflict" or losers}
            intent = rng.choices(list(kinds), weights=list(kinds.values()))[0]
            if intent == "corroborate":
                value, source = value_held, rng.choice(SOURCE_TYPES)
            else:
                value = rng.choice([v for v in values if v != value_held])
                source = rng.choice(winners if intent == "supersede" else losers)
        if intent == "first" or intent == "supersede":
            held[(subject, predicate)] = (value, source, 1)
        elif intent == "corroborate":
            held[(subject, predicate)] = (value, state[1], state[2] + 1)  # type: ignore[index]
        text = rng.choice(templates).format(s=subject, v=value) + rng.choice(WHEN)
        writes.append(ClaimWrite(subject, predicate, value, source, f"bench-{i}", text, intent))
    return writes


def intended(writes: Sequence[ClaimWrite]) -> Counter[str]:
    """The outcomes the corpus means to cause, by the service's names for them."""
    return Counter(OUTCOME_OF[w.intent] for w in writes)


def outcome(stored: dict[str, Any]) -> str:
    """What the service reported for one claimed write (a StoreOut)."""
    if stored["deduplicated"]:
        return "deduplicated"
    if stored["quarantined"]:
        return "quarantined"
    if stored["superseded"]:
        return "superseded"
    return "new"


def body(write: ClaimWrite, agent: str, claimed: bool) -> dict[str, Any]:
    item: dict[str, Any] = {"agent": agent, "text": write.text,
                            "provenance": {"source": write.source, "ref": write.ref}}
    if claimed:
        item["claim"] = {"subject": write.subject, "predicate": write.predicate, "value": write.value}
    return item


def mix(counts: Counter[str]) -> str:
    return ", ".join(f"{counts.get(o, 0):,} {o}" for o in OUTCOMES)


def ms(values: Sequence[float]) -> str:
    ordered = list(values)
    return " / ".join(f"{percentile(ordered, q):.1f}" for q in (50, 95, 99)) + " ms"


# -- counting statements ----------------------------------------------------------------------------
@dataclass
class Count:
    """The statements one call sent to the database, by name, the transactions they ran in (each
    attempt of a retried one counts), and those that tasks it started sent after it returned."""
    statements: Counter[str] = field(default_factory=Counter)
    transactions: int = 0
    after: Counter[str] = field(default_factory=Counter)
    open: bool = True
    _seen: dict[int, Any] = field(default_factory=dict, repr=False)  # the transactions, kept so ids stay theirs

    @property
    def total(self) -> int:
        return sum(self.statements.values())

    def note(self, name: str, transaction: Any) -> None:
        if not self.open:
            self.after[name] += 1
            return
        self.statements[name] += 1
        if id(transaction) not in self._seen:
            self._seen[id(transaction)] = transaction
            self.transactions += 1


_counting: ContextVar[Count | None] = ContextVar("bench_counting", default=None)


def driver_classes() -> tuple[type, ...]:
    """Where the driver sends a statement: a transaction's run (managed or explicit), and a
    session's run (auto-commit, as the gateway runs a single read)."""
    from neo4j import AsyncSession
    from neo4j._async.work.transaction import AsyncTransactionBase
    return AsyncTransactionBase, AsyncSession


def install_counter(classes: Sequence[type] | None = None, registry: Any = None) -> Callable[[], None]:
    """Counts every statement this process sends through the driver (whatever sends it: the
    gateway's Tx or anything else) into the Count of the context it runs in, named as its file in
    cypher/ when it is one. Returns the undo."""
    from graph.store.registry import QueryRegistry
    registry = registry if registry is not None else QueryRegistry()
    names = {registry[name].text: name for name in registry.names()}
    undo = []
    for cls in classes if classes is not None else driver_classes():
        original = cls.__dict__.get("run") or cls.run  # type: ignore[attr-defined]

        def wrap(original: Any) -> Any:
            async def run(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
                count = _counting.get()
                if count is not None:
                    text = getattr(query, "text", query)  # a neo4j.Query carries its text
                    count.note(names.get(text) or f"(unregistered) {' '.join(str(text).split())[:60]}", self)
                return await original(self, query, *args, **kwargs)
            return run

        had = "run" in cls.__dict__
        cls.run = wrap(original)  # type: ignore[attr-defined]
        undo.append(lambda cls=cls, original=original, had=had: setattr(cls, "run", original) if had
                    else delattr(cls, "run"))

    def undo_all() -> None:
        for u in undo:
            u()
    return undo_all


async def counted(call: Callable[[], Awaitable[T]], counts: list[Count]) -> T:
    count = Count()
    counts.append(count)
    token = _counting.set(count)
    try:
        return await call()
    finally:
        count.open = False
        _counting.reset(token)


# -- over HTTP --------------------------------------------------------------------------------------
def _post(http: httpx.Client, path: str, payload: dict[str, Any], params: dict[str, str] | None = None,
          method: str = "POST") -> tuple[float, Any]:
    t0 = time.perf_counter()
    response = http.request(method, path, json=payload, params=params)
    seconds = time.perf_counter() - t0
    if response.status_code >= 300:
        raise SystemExit(f"{method} {path} answered {response.status_code}: {response.text[:2000]}")
    return seconds, response.json()


def register(http: httpx.Client, agent: str) -> None:
    for predicate in PREDICATES:
        _post(http, f"/v1/predicates/{predicate}", {"cardinality": "single", "conflict_policy": "supersede",
                                                    "dedup_policy": "corroborate"}, {"agent": agent}, "PUT")


def over_http(kind: str, writes: list[ClaimWrite], singles: list[ClaimWrite], args: argparse.Namespace,
              data: Path) -> dict[str, Any]:
    data.mkdir(parents=True, exist_ok=True)
    log, port = data / "service.log", free_port()
    base = f"http://127.0.0.1:{port}"
    started = time.perf_counter()
    service = start_service(kind, data / "data", port, log,
                            {"CREDENCE_BACKEND_TIMEOUT": str(args.backend_timeout)})
    print(f"{kind}: service log {log}", file=sys.stderr)
    found: dict[str, Any] = {}
    try:
        wait_ready(base, service, log)
        found["start-up"] = time.perf_counter() - started
        with httpx.Client(base_url=base, timeout=600) as http:
            for agent in (CLAIMED, WARM):
                register(http, agent)
            # Warm-up in a tenant of its own: the model's first batches, the JVM's first plans.
            warm = plan(args.warmup, max(1, args.warmup // 10), seed=args.seed + 1)
            for claimed in (True, False):
                _post(http, "/v1/memories:batch", {"memories": [body(w, WARM, claimed) for w in warm]})
                for w in warm[:20]:
                    _post(http, "/v1/memories", body(w, WARM, claimed))

            seconds = {True: 0.0, False: 0.0}
            reported: Counter[str] = Counter()
            for i in range(0, len(writes), args.batch):
                chunk = writes[i:i + args.batch]
                for claimed in ((True, False) if (i // args.batch) % 2 == 0 else (False, True)):
                    took, answer = _post(http, "/v1/memories:batch", {
                        "memories": [body(w, CLAIMED if claimed else PLAIN, claimed) for w in chunk]})
                    seconds[claimed] += took
                    if claimed:
                        reported.update(outcome(m) for m in answer["memories"])
            found.update(claimed_s=seconds[True], plain_s=seconds[False], batch_outcomes=reported)
            print(f"{kind}: batches done, {len(writes) / seconds[True]:,.0f} claimed/s, "
                  f"{len(writes) / seconds[False]:,.0f} plain/s", file=sys.stderr)

            latency: dict[bool, list[float]] = {True: [], False: []}
            single_outcomes: Counter[str] = Counter()
            for j, w in enumerate(singles):
                for claimed in ((True, False) if j % 2 == 0 else (False, True)):
                    took, answer = _post(http, "/v1/memories", body(w, CLAIMED if claimed else PLAIN, claimed))
                    latency[claimed].append(took * 1000)
                    if claimed:
                        single_outcomes[outcome(answer)] += 1
            found.update(single_claimed=latency[True], single_plain=latency[False], single_outcomes=single_outcomes)
        stop(service)
        found["collisions"] = collisions(log)
    finally:
        if service.poll() is None:
            stop(service)
    return found


# -- in process: statements -------------------------------------------------------------------------
async def in_process(kind: str, writes: list[ClaimWrite], singles: list[ClaimWrite], args: argparse.Namespace,
                     data: Path, model: Any) -> dict[str, Any]:
    """The same writes through the domain services, with every statement counted."""
    from graph.beliefs.predicates import PredicateSchema
    from graph.memories.model import Claim, NewMemory, Provenance
    from graph.services import Services
    from graph.settings import Settings

    def new(w: ClaimWrite, agent: str, claimed: bool) -> NewMemory:
        claim = Claim(subject=w.subject, predicate=w.predicate, value=w.value) if claimed else None
        return NewMemory(agent=agent, text=w.text, claim=claim, provenance=Provenance(source=w.source, ref=w.ref))

    services = await Services.start(Settings(data_dir=data, backend=kind, neo4j_uri=None,
                                             backend_timeout=args.backend_timeout), model)
    undo = install_counter()
    found: dict[str, Any] = {}
    try:
        await services.predicates.put(CLAIMED, [PredicateSchema(p, cardinality="single", conflict_policy="supersede",
                                                                dedup_policy="corroborate") for p in PREDICATES])
        batches: dict[bool, list[Count]] = {True: [], False: []}
        for i in range(0, len(writes), args.batch):
            chunk = writes[i:i + args.batch]
            for claimed in (True, False):
                items = [new(w, CLAIMED if claimed else PLAIN, claimed) for w in chunk]
                await counted(partial(services.writes.store_many, items), batches[claimed])
        by_outcome: dict[str, list[Count]] = {o: [] for o in OUTCOMES}
        plain: list[Count] = []
        for w in singles:
            counts: list[Count] = []
            result = await counted(partial(services.writes.store, new(w, CLAIMED, True)), counts)
            by_outcome[_outcome_of(result)].append(counts[0])
            await counted(partial(services.writes.store, new(w, PLAIN, False)), plain)
        await asyncio.sleep(1.0)  # let what the writes started finish, to count it apart
        found.update(batches=batches, by_outcome=by_outcome, single_plain=plain)
    finally:
        undo()
        await services.close()
    return found


def _outcome_of(result: Any) -> str:
    """A StoreResult's outcome, as `outcome` names a StoreOut's."""
    return outcome({"deduplicated": result.deduplicated, "quarantined": result.memory.status == "quarantined",
                    "superseded": result.superseded})


# -- the table --------------------------------------------------------------------------------------
def per_write(counts: Sequence[Count]) -> str:
    """Statements per write of one kind: the mean, the range, the transactions."""
    if not counts:
        return "none in this run"
    totals = [c.total for c in counts]
    low, high, mean = min(totals), max(totals), sum(totals) / len(totals)
    spread = f"{mean:.1f}" if low == high else f"{mean:.1f} (from {low} to {high})"
    transactions = sum(c.transactions for c in counts) / len(counts)
    return f"{spread} in {transactions:.2g} transaction(s); {len(counts)} writes"


def verdict(value: float, target: float, at_most: bool) -> str:
    return "met" if (value <= target if at_most else value >= target) else "missed"


def rows_for(n: int, web: dict[str, Any], counted_: dict[str, Any], batch: int) -> dict[str, str]:
    claimed_rate, plain_rate = n / web["claimed_s"], n / web["plain_s"]
    ratio = claimed_rate / plain_rate
    batches = counted_["batches"]
    batch_statements = sum(c.total for c in batches[True])
    per_claimed = batch_statements / n
    common = {o: counted_["by_outcome"][o] for o in ("new", "superseded")}
    rows = {
        "service start-up (python -m api, fresh data directory)": f"{web['start-up']:.1f} s",
        f"claimed writes, batches of {batch} over HTTP": f"{claimed_rate:,.0f} memories/s ({n:,} in "
                                                           f"{web['claimed_s']:.1f} s)",
        "plain writes: the same texts, no claim, a fresh tenant": f"{plain_rate:,.0f} memories/s ({n:,} in "
                                                                    f"{web['plain_s']:.1f} s)",
        f"claimed / plain (target >= {RATIO_TARGET}x)": f"{ratio:.2f}x ({verdict(ratio, RATIO_TARGET, False)})",
        "outcomes the service reported, batches": mix(web["batch_outcomes"]),
        "single claimed write over HTTP, p50 / p95 / p99": ms(web["single_claimed"]),
        "single plain write over HTTP (same texts), p50 / p95 / p99": ms(web["single_plain"]),
        "outcomes the service reported, single writes": mix(web["single_outcomes"]),
        f"statements per claimed memory, batches of {batch} (target <= {STATEMENT_TARGET})":
            f"{per_claimed:.2f} ({verdict(per_claimed, STATEMENT_TARGET, True)}; {batch_statements:,} statements in "
            f"{sum(c.transactions for c in batches[True])} transaction(s))",
        "statements per plain memory, batches": f"{sum(c.total for c in batches[False]) / n:.3f} "
                                                 f"({sum(c.total for c in batches[False]):,} statements in "
                                                 f"{len(batches[False])} batch(es))",
    }
    for name, label in (("new", "a new belief on its slot"), ("superseded", "superseding the slot's belief")):
        counts = common[name]
        # "In the common case": the typical write, not a mean that an occasional read outside the
        # write's transaction (an agent's preferences, cached per process) lifts above it.
        typical = statistics.median(c.total for c in counts) if counts else float("nan")
        note = f" (median {typical:g}: {verdict(typical, STATEMENT_TARGET, True)})" if counts else ""
        rows[f"statements per single claimed write, {label} (target <= {STATEMENT_TARGET})"] = per_write(counts) + note
    rows["statements per single claimed write, losing a conflict (quarantined)"] = per_write(
        counted_["by_outcome"]["quarantined"])
    rows["statements per single claimed write, corroborating (deduplicated)"] = per_write(
        counted_["by_outcome"]["deduplicated"])
    rows["statements per single plain write"] = per_write(counted_["single_plain"])
    groups = (*batches.values(), *counted_["by_outcome"].values(), counted_["single_plain"])
    after: Counter[str] = sum((c.after for group in groups for c in group), Counter())
    rows["statements run after the writes returned, by tasks they started"] = (
        ", ".join(f"{name} x{k}" for name, k in after.most_common()) or "none")
    rows["write collisions retried by the service"] = (
        "; ".join(f"{where} {k}" for where, k in web["collisions"]) or "none")
    return rows


def breakdown(counted_: dict[str, Any], n: int) -> dict[str, str]:
    """Statement by statement: per claimed memory in the batches / per single new belief / per
    single supersession."""
    batch: Counter[str] = sum((c.statements for c in counted_["batches"][True]), Counter())
    singles = {o: counted_["by_outcome"][o] for o in ("new", "superseded")}
    names = list(dict.fromkeys([*batch, *(name for o in singles.values() for c in o for name in c.statements)]))

    def mean(counts: list[Count], name: str) -> str:
        return f"{sum(c.statements[name] for c in counts) / len(counts):.2f}" if counts else "-"

    return {name: f"{batch[name] / n:.2f} / {mean(singles['new'], name)} / {mean(singles['superseded'], name)}"
            for name in names}


def table(first: str, columns: list[str], rows: dict[str, dict[str, str]], kinds: list[str]) -> str:
    measures = list(dict.fromkeys(m for k in kinds for m in rows[k]))
    lines = [f"| {first} | {' | '.join(columns)} |", "| --- |" + " --- |" * len(columns)]
    lines += [f"| {m} | {' | '.join(rows[k].get(m, '-') for k in kinds)} |" for m in measures]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=2_000, help="claimed memories in the batches")
    parser.add_argument("--subjects", type=int, help="default: n / 10 (200 at 2,000), x 5 predicates")
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--singles", type=int, default=300, help="single claimed (and plain) writes after the batches")
    parser.add_argument("--warmup", type=int, default=100, help="memories of each kind in a warm-up tenant first")
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--backend-timeout", type=float, default=300,
                        help="CREDENCE_BACKEND_TIMEOUT of the service and of the in-process run (default 300 s, "
                             "not the shipped 30 s: a batch of claims on a busy machine then runs slow, not out)")
    parser.add_argument("--backends", default="embedded,neo4j", type=lambda s: s.split(","),
                        help="comma-separated: embedded, neo4j")
    parser.add_argument("--data-dir", help="default: a new temporary directory")
    parser.add_argument("--record", action="store_true", help="write the table into docs/benchmarks.md")
    args = parser.parse_args()
    if unknown := [k for k in args.backends if k not in LABELS]:
        parser.error(f"unknown backend(s): {', '.join(unknown)}")
    subjects = args.subjects or max(1, args.n // 10)
    everything = plan(args.n + args.singles, subjects, args.seed)
    writes, singles = everything[:args.n], everything[args.n:]
    data = Path(args.data_dir or tempfile.mkdtemp(prefix="credence-claims-"))

    web = {kind: over_http(kind, writes, singles, args, data / kind / "http") for kind in args.backends}
    from graph.embedding.encoder import load_embedder
    model = load_embedder(None, data / "models")
    inproc = {kind: asyncio.run(in_process(kind, writes, singles, args, data / kind / "in-process", model))
              for kind in args.backends}

    kinds, columns = args.backends, [LABELS[k] for k in args.backends]
    rows = {k: rows_for(args.n, web[k], inproc[k], min(args.batch, args.n)) for k in kinds}
    steps = {k: breakdown(inproc[k], args.n) for k in kinds}
    title = f"claim_writes, {args.n:,} claimed memories"
    machine = (f"{date.today()}, {platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
               f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f} at the end")
    corpus = (f"One tenant, {subjects:,} subjects x {len(PREDICATES)} single-valued predicates "
              f"({', '.join(PREDICATES)}), seed {args.seed}; the corpus means the batches to give "
              f"{mix(intended(writes))}, and the {len(singles)} single writes {mix(intended(singles))}.")
    section = (f"### {title}\n\n{machine}\n\n{corpus}\n\n{table('measure', columns, rows, kinds)}\n\n"
               f"Statements by name: per claimed memory in the batches / per single new belief / per single "
               f"supersession (in process, the same corpus).\n\n{table('statement', columns, steps, kinds)}\n")
    print(section)
    if args.record:
        record(f"claim_writes-{args.n}", section)


if __name__ == "__main__":
    main()

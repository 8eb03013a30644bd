"""Import: one batch of export lines (or mem0 memories) into one tenant, in one transaction.

Idempotent: every node is keyed by its exported id (or key) under a uniqueness constraint and
created only when absent; what the tenant already holds is left as it is, so re-sending a batch
changes nothing. Resumable: batches are independent transactions, so a client resumes at the
first line of the batch that did not commit. Memories keep their ids (an export restores into a
graph exactly); an id another tenant holds rolls the batch back with StateConflict, and that
tenant's node is never changed."""
from __future__ import annotations

import logging
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from graph.audit import DEFAULT_ACTOR
from graph.core.errors import InvalidInput, StateConflict
from graph.core.keys import source_key, thread_key
from graph.core.tenancy import check_agent
from graph.core.timeutil import iso, utcnow
from graph.core.vocab import DEFAULT_SECRET_MODE
from graph.embedding.encoder import AsyncEncoder
from graph.entities.claims import about_rows
from graph.memories.model import SecretSpan
from graph.memories.secrets import check_mode
from graph.store.gateway import GraphRunner, Tx
from graph.transfer import lines as parse_lines
from graph.transfer.lines import Batch

log = logging.getLogger(__name__)
KINDS = ("predicate", "memory", "edge", "conflict", "operation")


@dataclass(frozen=True)
class ImportResult:
    lines: int
    created: dict[str, int]
    existing: dict[str, int]
    redacted: tuple[SecretSpan, ...] = ()  # secrets replaced by [REDACTED:<kind>] (secrets="redact")


class ImportService:
    def __init__(self, runner: GraphRunner, encoder: AsyncEncoder, *, max_text_chars: int, max_lines: int,
                 on_vectors_written: Callable[[Iterable[str]], None] = lambda agents: None) -> None:
        self.runner, self.encoder = runner, encoder
        self.max_text_chars, self.max_lines = max_text_chars, max_lines
        self.on_vectors_written = on_vectors_written

    async def import_body(self, agent: str, body: bytes, *, first_line: int = 1,
                          actor: str = DEFAULT_ACTOR, secrets: str = DEFAULT_SECRET_MODE) -> ImportResult:
        """`body`: JSON Lines, a JSON array of lines, or mem0's get_all answer; `first_line` is the
        number of its first line in the client's file, so errors name the file's line. `secrets`:
        refuse (a line holding a secret refuses the request) or redact (graph/memories/secrets.py)."""
        check_agent(agent, "agent")
        mode = check_mode(secrets)
        if isinstance(first_line, bool) or not isinstance(first_line, int) or first_line < 1:
            raise InvalidInput("first_line", "must be a positive integer")
        items = parse_lines.decode(body, first_line)
        if not items:
            raise InvalidInput("body", "holds no lines")
        if len(items) > self.max_lines:
            raise InvalidInput("body", f"holds {len(items)} lines; the limit is {self.max_lines} per request "
                                       "(send the file in batches)")
        items, redacted = parse_lines.screen(items, mode)
        batch = parse_lines.parse(items, agent, max_text_chars=self.max_text_chars, actor=actor, now=utcnow())
        result = await self.import_batch(agent, batch)
        log.info("import into %s: %d lines, created %s, %d secrets redacted", agent, result.lines, result.created,
                 len(redacted))
        return replace(result, redacted=tuple(redacted))

    async def import_batch(self, agent: str, batch: Batch) -> ImportResult:
        _no_repeats(batch)
        # Only memories the tenant does not hold yet need a vector: a re-sent batch embeds nothing.
        held = await self._held(agent, [m["id"] for m in batch.memories])
        fresh = [m for m in batch.memories if m["id"] not in held]
        if fresh:
            vectors = await self.encoder.encode([m["props"]["text"] for m in fresh])
            for m, vector in zip(fresh, vectors, strict=True):
                m["props"]["embedding"] = vector.tolist()
        created: Counter[str] = Counter()

        async def work(tx: Tx) -> None:
            created.clear()
            token = str(uuid.uuid4())
            if batch.predicates:
                rows = await tx.many("transfer/import/predicates", agent=agent, token=token,
                                    rows=[_cypher_row(p) for p in batch.predicates])
                created["predicate"] = sum(r["created"] for r in rows)
            if batch.memories:
                made = await self._keyed(tx, "transfer/import/memories", "memory", agent, token, batch.memories)
                missing_vector = [m["id"] for m in batch.memories if m["id"] in made and "embedding" not in m["props"]]
                if missing_vector:
                    # Deleted between the look-up and this transaction: the retry embeds it.
                    raise StateConflict(f"memory {missing_vector[0]} was deleted while this batch was being "
                                        "imported; send the batch again")
                new = [m for m in batch.memories if m["id"] in made]
                claims = [{"memory_id": m["id"], "claim": m["claim"],
                           "about": about_rows(agent, m["claim"], m["about"])} for m in new if m["claim"]]
                if claims:
                    await tx.scalar("transfer/import/claims", agent=agent, rows=claims)
                sources = [{"memory_id": m["id"], "key": source_key(agent, s["type"], s["ref"]), **s}
                           for m in new for s in m["sources"]]
                if sources:
                    await tx.scalar("transfer/import/sources", agent=agent, rows=sources)
                created["memory"] = len(made)
            await self._check_references(tx, agent, batch)
            if batch.edges:
                await tx.scalar("transfer/import/edges", agent=agent, rows=[_cypher_row(e) for e in batch.edges])
            threads = sorted({m["props"]["thread"] for m in batch.memories if m["props"].get("thread")})
            if threads:
                # After the NEXT edges: each thread's tail and count of turns, for the turns written next.
                await tx.scalar("memories/threads/rebuild", agent=agent, now=iso(utcnow()),
                                threads=[{"key": thread_key(agent, t), "id": t} for t in threads])
            if batch.conflicts:
                made = await self._keyed(tx, "transfer/import/conflicts", "conflict", agent, token, batch.conflicts)
                rows = [{"conflict_id": c["id"], **i} for c in batch.conflicts if c["id"] in made
                        for i in c["involves"]]
                if rows:
                    await tx.scalar("transfer/import/involves", agent=agent, rows=rows)
                created["conflict"] = len(made)
            if batch.operations:
                made = await self._keyed(tx, "transfer/import/operations", "audit record", agent, token,
                                         batch.operations)
                rows = [{"operation_id": o["id"], "memory_id": m} for o in batch.operations if o["id"] in made
                        for m in o["memory_ids"]]
                if rows:
                    await tx.scalar("transfer/import/touched", agent=agent, rows=rows)
                created["operation"] = len(made)

        await self.runner.write_tx(work)
        if created["memory"]:
            self.on_vectors_written([agent])
        counts = {"predicate": len(batch.predicates), "memory": len(batch.memories), "edge": len(batch.edges),
                  "conflict": len(batch.conflicts), "operation": len(batch.operations)}
        # Edges are merged, not counted: an edge line either adds its edge or finds it there.
        return ImportResult(lines=batch.lines, created={k: created[k] for k in KINDS if k != "edge"},
                            existing={k: counts[k] - created[k] for k in KINDS if k != "edge"})

    async def _held(self, agent: str, ids: list[str]) -> set[str]:
        if not ids:
            return set()
        return {r["id"] for r in await self.runner.read("transfer/import/known_memories", agent=agent, ids=ids)}

    @staticmethod
    async def _keyed(tx: Tx, query: str, what: str, agent: str, token: str, items: list[dict[str, Any]]) -> set[str]:
        """Runs an import statement that merges by id; returns the ids it created. An id of another
        tenant rolls the batch back."""
        rows = await tx.many(query, agent=agent, token=token, rows=[_cypher_row(i) for i in items])
        foreign = {r["id"] for r in rows if not r["own"]}
        if foreign:
            item = next(i for i in items if i["id"] in foreign)
            raise StateConflict(f"line {item['line']}: {what} {item['id']} belongs to another tenant (ids are unique "
                                f"across the graph); nothing of this batch was imported")
        return {r["id"] for r in rows if r["created"]}

    async def _check_references(self, tx: Tx, agent: str, batch: Batch) -> None:
        """Edges, conflicts and audit records may point only at memories the tenant holds (imported
        by this batch or an earlier one): a dangling reference names its line."""
        wanted: dict[str, int] = {}
        for e in batch.edges:
            wanted.setdefault(e["from"], e["line"])
            wanted.setdefault(e["to"], e["line"])
        for c in batch.conflicts:
            for i in c["involves"]:
                wanted.setdefault(i["memory_id"], c["line"])
        for o in batch.operations:
            for m in o["memory_ids"]:
                wanted.setdefault(m, o["line"])
        if not wanted:
            return
        found = {r["id"] for r in await tx.many("transfer/import/known_memories", agent=agent, ids=list(wanted))}
        missing = sorted((line, ident) for ident, line in wanted.items() if ident not in found)
        if missing:
            line, ident = missing[0]
            raise InvalidInput(f"line {line}", f"points at memory {ident}, which is neither in this batch nor in "
                                               f"tenant {agent}; import the memory lines first")


def _cypher_row(item: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in item.items() if k != "line"}


def _no_repeats(batch: Batch) -> None:
    """One id twice in one batch would MERGE onto itself; the second line is a mistake to name."""
    for items, what in ((batch.memories, "memory"), (batch.conflicts, "conflict"), (batch.operations, "operation"),
                        (batch.predicates, "predicate")):
        seen: set[str] = set()
        for item in items:
            key = item.get("id") or item["key"]  # a predicate line has a key, every other line an id
            if key in seen:
                raise InvalidInput(f"line {item['line']}", f"repeats {what} {key.split(chr(31))[-1]} of an earlier "
                                                           "line of this batch")
            seen.add(key)

"""Writing new memories: one item or a batch, plain or with a claim, in one transaction.

The statements of one tenant's share of a write, however many items it holds:
  1. beliefs/slots/open (only when some item carries a claim): lock every slot and read its state;
  2. memories/create: every new memory, with its claim, entities and relation; then
     memories/threads/append when items name a thread (each turn's place and the NEXT edge from the
     one before, graph/memories/threads.py);
  3. beliefs/settle (only when a decision changed stored beliefs or recorded a conflict);
  4. audit/record: every audit record of the write.
A duplicate claim adds memories/get_many, to answer with the memory it corroborated. Between 1 and
2, every claim is decided in order against the slots' state (graph/beliefs/engine.py), so claims
in one batch see each other as if written one by one."""
from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from graph import audit
from graph.audit import DEFAULT_ACTOR, Entry
from graph.beliefs.engine import Book, open_slots, pending_rows, settle
from graph.beliefs.precedence import Contender, Verdict, decide
from graph.beliefs.predicates import PredicateSchema
from graph.beliefs.rivalry import may_have_rivals
from graph.beliefs.slot_queue import SlotQueue
from graph.beliefs.slots import Belief, SlotState
from graph.beliefs.trust import compute_trust
from graph.core.checks import check_uuid
from graph.core.errors import InvalidInput
from graph.core.keys import slot_key, thread_key
from graph.core.timeutil import iso, utcnow
from graph.core.vocab import (
    ACTIVE,
    OP_DEDUP_CORROBORATE,
    OP_QUARANTINE,
    OP_STORE,
    OP_SUPERSEDE,
    QUARANTINED,
    SUPERSEDED,
)
from graph.embedding.encoder import AsyncEncoder
from graph.memories.model import NewMemory, SecretSpan, StoreResult
from graph.memories.records import memory_from_map
from graph.memories.rules import check_new
from graph.memories.secrets import screen_many
from graph.memories.threads import appends
from graph.preferences import PreferenceService, never_store_reason, retention_expiry
from graph.store.gateway import GraphRunner, Tx
from graph.writes.rows import claim_props, memory_row, source_of


@dataclass
class _Claimed:
    """What the engine decided for one claimed item, until the write answers."""
    memory_id: str  # the new memory, or the one a duplicate corroborated
    deduplicated: bool = False
    superseded: tuple[str, ...] = ()
    conflicts: tuple[dict[str, Any], ...] = ()
    corroboration: int = 1
    trust: float = 0.0


# A claimed write of at most this many memories opens its transaction while its texts are embedded,
# holding its slot locks, and the transaction's time budget (CREDENCE_BACKEND_TIMEOUT), for the wait:
# milliseconds for a few texts. A larger write embeds first: on a busy machine a batch's model call
# can take longer than the budget, and its locks would keep the slots' other writers waiting meanwhile.
OVERLAP_MAX = 16


class WriteService:
    def __init__(self, runner: GraphRunner, encoder: AsyncEncoder, *, max_text_chars: int, max_batch: int,
                 on_vectors_written: Callable[[Iterable[str]], None] = lambda agents: None,
                 preferences: PreferenceService | None = None) -> None:
        self.runner, self.encoder = runner, encoder
        self.preferences = preferences  # what each agent never stores, and how long it keeps each type
        self.max_text_chars, self.max_batch = max_text_chars, max_batch
        self.slots = SlotQueue()  # claims on one belief slot take turns in this process
        # Told after every commit that adds vectors, with the tenants written, so retrieval can fold
        # them into its index and plan its searches against the grown graph.
        self.on_vectors_written = on_vectors_written

    async def store(self, new: NewMemory, actor: str = DEFAULT_ACTOR) -> StoreResult:
        return (await self.store_many([new], field_prefix="", actor=actor))[0]

    async def store_many(self, items: Sequence[NewMemory], field_prefix: str = "memories",
                         actor: str = DEFAULT_ACTOR) -> list[StoreResult]:
        """All or nothing: one bad item rejects the whole batch, naming the item. Claims are
        decided in order, so claims in one batch see each other."""
        prepared = await self.prepare(items, field_prefix)
        try:
            if not prepared.overlaps:
                await prepared.vectors()  # open the transaction once the vectors exist
            async with self.slots.hold(prepared.slot_keys()):
                stored = await self.runner.write_tx(lambda tx: self.write(tx, prepared, actor))
        finally:
            prepared.discard()
        self.on_vectors_written({item.agent for item in prepared.items})
        return stored

    async def prepare(self, items: Sequence[NewMemory], field_prefix: str = "memories",
                      ids: Sequence[str] | None = None) -> Prepared:
        """Everything a write does before the database: secrets screened, every item checked, the
        texts' embedding started (one model call). A pipeline that writes more than memories in one
        transaction (ingestion, consolidation) prepares, holds `self.slots` for `slot_keys()`, calls
        `write` inside its own transaction, and `discard`s what it did not write. `ids`: the new
        memories' ids, when the caller fixes them; otherwise each gets a fresh UUID."""
        if not items:
            raise InvalidInput(field_prefix or "memories", "must hold at least one memory")
        if len(items) > self.max_batch:
            raise InvalidInput(field_prefix or "memories",
                               f"holds {len(items)} memories; the limit is {self.max_batch}")
        if ids is not None and len(ids) != len(items):
            raise InvalidInput("ids", "must give one id per memory")
        # Secrets first (graph/memories/secrets.py): refused, or redacted, before anything is embedded,
        # indexed, logged or audited. Then the domain's own rules (graph/memories/rules.py), whoever the caller is.
        items, redacted = screen_many(list(items), field_prefix)
        checked = [check_new(item, f"{field_prefix}[{i}]." if field_prefix else "", self.max_text_chars)
                   for i, item in enumerate(items)]
        items = await self._honour_preferences(items, field_prefix)
        now = iso(utcnow())
        rows = [memory_row(item, values, now) for item, values in zip(items, checked, strict=True)]
        for row, ident in zip(rows, ids or (), strict=False):
            row["props"]["id"] = check_uuid(ident, "ids")
        # A small claimed write decides its claims while its texts are embedded (Prepared.overlaps):
        # the slots' read and the engine's decisions need no vector, so `write` waits for the vectors
        # only before memories/create.
        embedding = asyncio.ensure_future(self.encoder.encode([item.text for item in items]))
        return Prepared(list(items), rows, list(redacted), embedding)

    async def write(self, tx: Tx, prepared: Prepared, actor: str = DEFAULT_ACTOR,
                    job_id: str | None = None) -> list[StoreResult]:
        """The prepared memories, written in the caller's transaction (retried whole by it). `job_id`
        marks the audit records as a maintenance job's."""
        items, rows = prepared.items, prepared.rows
        tenants: dict[str, list[int]] = {}
        for i, item in enumerate(items):
            tenants.setdefault(item.agent, []).append(i)
        results: dict[int, StoreResult] = {}
        # One tenant at a time keeps $agent inside every statement; one transaction keeps it atomic.
        for agent, positions in tenants.items():
            # A retried transaction starts again from fresh rows.
            fresh = [(i, items[i], {**rows[i], "props": dict(rows[i]["props"])}) for i in positions]
            results.update(await _write_tenant(tx, agent, fresh, actor, prepared, job_id))
        return [replace(results[i], redacted=spans) if spans else results[i]
                for i, spans in enumerate(prepared.redacted)]

    async def _honour_preferences(self, items: list[NewMemory], field_prefix: str) -> list[NewMemory]:
        """The agents' memory preferences, on items the domain's rules have checked: a memory of a
        type or about a topic never to be stored refuses the write (naming the item, like any bad
        item); a type with a retention expires after it unless the memory says when it expires."""
        if self.preferences is None:
            return items
        now, out = utcnow(), []
        for i, item in enumerate(items):
            prefs = await self.preferences.get(item.agent)
            refused = never_store_reason(prefs, item.memory_type, item.text, tuple(item.tags), item.category)
            if refused is not None:
                raise InvalidInput((f"{field_prefix}[{i}]." if field_prefix else "") + refused[0], refused[1])
            expires = retention_expiry(prefs, item.memory_type, now, item.expires_at)
            out.append(item if expires is item.expires_at else replace(item, expires_at=expires))
        return out


@dataclass
class Prepared:
    """New memories screened, checked and being embedded, ready for `WriteService.write`."""
    items: list[NewMemory]
    rows: list[dict[str, Any]]
    redacted: list[tuple[SecretSpan, ...]]  # the secrets redacted from each item, by position
    embedding: asyncio.Future[np.ndarray]  # the items' vectors, in their order

    @property
    def overlaps(self) -> bool:
        """Whether `write` should decide this write's claims while its texts are embedded (a small
        claimed write); otherwise the caller waits for `vectors()` before opening the transaction."""
        return len(self.items) <= OVERLAP_MAX and any(item.claim for item in self.items)

    def slot_keys(self) -> list[str]:
        """The belief slots and conversation threads the write touches, for the process's slot queue
        (appends to one thread take turns too)."""
        return [slot_key(item.agent, item.claim.subject, item.claim.predicate) for item in self.items if item.claim] \
            + [thread_key(item.agent, item.thread) for item in self.items if item.thread is not None]

    async def vectors(self) -> np.ndarray:
        return await self.embedding

    def discard(self) -> None:
        """Stops an embedding nobody will wait for (the write failed before it needed the vectors)."""
        if not self.embedding.done():
            self.embedding.cancel()


async def _write_tenant(tx: Tx, agent: str, entries: list[tuple[int, NewMemory, dict[str, Any]]],
                        actor: str, prepared: Prepared, job_id: str | None) -> dict[int, StoreResult]:
    plain = [(i, row) for i, item, row in entries if item.claim is None]
    claimed = [(i, item, row) for i, item, row in entries if item.claim is not None]
    log: list[Entry] = []
    if plain:
        log.append(Entry(OP_STORE, actor, [row["props"]["id"] for _, row in plain], after={"memories": len(plain)}))
        log += [Entry(OP_QUARANTINE, actor, [row["props"]["id"]], after={
            "reason": "suspicious_input", "details": row["props"]["quarantine_details"]})
            for _, row in plain if row["props"]["status"] == QUARANTINED]
    decided: list[tuple[int, _Claimed]] = []  # by the item's position in the write
    creates = [row for _, row in plain]
    last = utcnow()
    book = Book(agent, {}, {})
    if claimed:
        book = await open_slots(tx, agent, [item.claim for _, item, _ in claimed if item.claim], last)
        for i, item, row in claimed:
            # Each claim its own instant, in order: the belief is recorded when what it supersedes
            # leaves the present, as known_at reads them, and later claims of the batch are newer.
            last = now = max(utcnow(), last + timedelta(microseconds=1))
            outcome = _decide_claim(book, item, row, now, actor, log)
            decided.append((i, outcome))
            if not outcome.deduplicated:
                creates.append(row)
    successors: dict[int, tuple[str, ...]] = {}
    explicit = sorted({t for _, item, _ in entries for t in item.supersedes})
    if explicit:
        targets = {r["id"]: r for r in await tx.many("beliefs/targets_open", agent=agent, ids=explicit, now=iso(last))}
        done = {i for i, o in decided if o.deduplicated}
        for i, item, row in entries:
            if item.supersedes and i not in done:
                last = now = max(utcnow(), last + timedelta(microseconds=1))
                successors[i] = _succeed(book, targets, item, row, now, actor, log)
    if creates:
        vectors = await prepared.vectors()  # the whole write's, in its items' order
        for i, _, row in entries:
            row["props"]["embedding"] = vectors[i].tolist()
    created = await tx.many("memories/create", agent=agent, write={"rows": creates}) if creates else []
    maps = {r["memory"]["id"]: r for r in created}  # do not rely on row order
    # New turns join their threads in the items' order (a batch's turns are consecutive).
    new = [row["props"] for _, _, row in entries if row["props"]["id"] in maps]
    threads = appends(agent, [p["thread"] for p in new], [p["id"] for p in new])
    if threads:
        for r in await tx.many("memories/threads/append", agent=agent, threads=threads, now=iso(utcnow())):
            maps[r["id"]]["memory"]["turn"] = r["turn"]
    if claimed or explicit:
        await book.write(tx, last)
    await audit.record_all(tx, agent, [replace(e, job_id=job_id) for e in log] if job_id else log)

    results = {i: StoreResult(memory=memory_from_map(maps[row["props"]["id"]]["memory"]),
                              superseded=successors.get(i, ())) for i, row in plain}
    corroborated = {o.memory_id for _, o in decided if o.deduplicated and o.memory_id not in maps}
    if corroborated:
        for r in await tx.many("memories/get_many", agent=agent, ids=sorted(corroborated)):
            maps[r["memory"]["id"]] = r
    for position, o in decided:
        found = maps[o.memory_id]
        memory = memory_from_map(found["memory"], found["claim"])
        if o.deduplicated:
            # As this item left it: a later duplicate in the same batch corroborates it again.
            memory = replace(memory, corroboration=o.corroboration, trust=o.trust, confidence=o.trust)
            results[position] = StoreResult(memory=memory, deduplicated=True)
            continue
        conflicts = o.conflicts + tuple(c for c in book.conflicts if c["new_id"] == o.memory_id
                                        and c not in o.conflicts)
        pending = next((c["id"] for c in conflicts if c["status"] == "pending"), None)
        results[position] = StoreResult(memory=memory, superseded=o.superseded + successors.get(position, ()),
                                         conflicts=tuple(c["id"] for c in conflicts), pending_conflict_id=pending)
    return results


def _succeed(book: Book, targets: dict[str, dict[str, Any]], item: NewMemory, row: dict[str, Any], now: datetime,
             actor: str, log: list[Entry]) -> tuple[str, ...]:
    """The belief engine's decision for a memory that explicitly succeeds others (NewMemory.supersedes):
    each target, wherever its slot, is a rival under the precedence rules (a user correction, then
    trust, then valid time). Beaten, it is superseded by this memory; not beaten, this memory waits
    in quarantine with a pending conflict, as any write that loses on trust does."""
    memory_id = row["props"]["id"]
    trust = compute_trust(item.provenance.source).trust
    me = Contender(memory_id, item.provenance.source, trust, now, item.event_at, None)
    replaced: list[str] = []
    for target in item.supersedes:
        found = book.find(target)
        if found is None:
            if target not in targets:
                continue  # gone, or no longer active: nothing to succeed
            state = SlotState(f"explicit:{target}", PredicateSchema(predicate=""), [Belief.of(targets[target])])
            book.states[state.key] = state
            found = (state, state.beliefs[0])
        state, belief = found
        if belief.status != ACTIVE or row["props"]["status"] != ACTIVE:
            continue
        verdict = decide(me, [belief.contender(now)], policy="supersede", on_conflict=item.on_conflict)
        clash = verdict.clashes[0]
        if verdict.status == QUARANTINED:
            row["props"].update(status=QUARANTINED, quarantine_reason=verdict.quarantine_reason,
                                quarantine_details=f"conflicts with {target} (trust {clash.existing.trust:.2f} vs "
                                                   f"{trust:.2f}, {clash.rule})")
            book.record_conflicts(memory_id, pending_rows(verdict, trust))
            log.append(Entry(OP_QUARANTINE, actor, [memory_id], after={
                "reason": verdict.quarantine_reason, "details": row["props"]["quarantine_details"]}))
            continue
        if not clash.new_wins:
            continue  # an older state than the target: it takes nothing from the present
        state.supersede(target, clash.rule,
                        {"new_id": memory_id, "new_trust": trust, "old_trust": clash.existing.trust})
        replaced.append(target)
    if replaced:
        log.append(Entry(OP_SUPERSEDE, actor, [memory_id, *replaced],
                         before={"status": dict.fromkeys(replaced, ACTIVE)},
                         after={"status": dict.fromkeys(replaced, SUPERSEDED), "by": memory_id}))
    return tuple(replaced)


def _decide_claim(book: Book, item: NewMemory, row: dict[str, Any], now: datetime, actor: str,
                  log: list[Entry]) -> _Claimed:
    """The belief engine's decision for one claimed item, applied to the book and to `row`: dedup
    (corroborate), or rivals -> decide -> succession, with the conflicts and audit records it owes."""
    assert item.claim is not None
    claim = book.normalized(item.claim)
    state = book.state_of(claim)
    schema = state.schema
    memory_id = row["props"]["id"]

    if schema.dedup_policy == "corroborate" and item.suspicious is None:
        duplicate = state.duplicate(claim)
        if duplicate is not None:
            # The same belief again: add the new source to the existing memory instead of a new node.
            b = state.corroborate(duplicate.id, source_of(item))
            trust = b.trust(now)
            log.append(Entry(OP_DEDUP_CORROBORATE, actor, [b.id], after={
                "source": item.provenance.source, "ref": item.provenance.ref, "corroboration": b.corroboration,
                "trust": trust}))
            return _Claimed(b.id, deduplicated=True, corroboration=b.corroboration, trust=trust)

    # Which active beliefs it may supersede or conflict with: the one rule set (rivalry.py).
    contenders = [b.contender(now) for b in state.rivals(claim)] if may_have_rivals(claim, schema) else []
    new_trust = compute_trust(item.provenance.source).trust
    me = Contender(memory_id, item.provenance.source, new_trust, now, claim.valid_from or item.event_at,
                   claim.valid_until)
    verdict = decide(me, contenders, policy=schema.conflict_policy, on_conflict=item.on_conflict)
    details = None
    if item.suspicious is not None:
        # Flagged input never replaces anything: it waits in quarantine, with any conflicts pending.
        verdict = Verdict(QUARANTINED, (), verdict.clashes, "pending", None, "suspicious_input")
        details = item.suspicious or None
    elif verdict.quarantine_reason:
        lost = [c for c in verdict.clashes if not c.new_wins] or list(verdict.clashes)
        details = "; ".join(f"conflicts with {c.existing.memory_id} (trust {c.existing.trust:.2f} vs "
                            f"{new_trust:.2f}, {c.rule})" for c in lost)
    belief = Belief(id=memory_id, status=verdict.status, succeeded=False, source_type=item.provenance.source,
                    corroboration=1, reinforcements=0, disputes=0, created_at=now, event_at=item.event_at,
                    normalized_value=claim.normalized_value or "", exclusive=claim.exclusive, scope=claim.scope,
                    session_id=claim.session_id, valid_from=claim.valid_from, valid_until=claim.valid_until,
                    sources={source_of(item)["key"]})
    state.add(belief)
    # Its place in valid time: a late, older state is history, its window closed at the next state's start.
    plan = settle(state, claim, me, verdict, now, reasons={c.existing.memory_id: c.rule for c in verdict.clashes})
    # Created as the plan leaves it; only what later claims of the batch change is an update.
    belief.status, belief.valid_until = plan.status, plan.valid_until
    belief.bumps, belief.closed, belief.left_reason = 0, False, None
    claim = replace(claim, valid_until=plan.valid_until)

    row["props"].update(status=plan.status, trust=new_trust, confidence=new_trust,
                        superseded_reason="newer_valid_time" if plan.status == SUPERSEDED else None,
                        quarantine_reason=verdict.quarantine_reason, quarantine_details=details,
                        # Denormalised for retrieval: session visibility and session-over-global override.
                        claim_key=slot_key(item.agent, claim.subject, claim.predicate),
                        session_id=claim.session_id if claim.scope == "session" else None)
    row.update(created_at=iso(now), valid_from=iso(claim.valid_from), valid_until=iso(claim.valid_until),
               claim={"props": claim_props(claim), **book.entities(claim)})
    conflicts = book.record_conflicts(memory_id, pending_rows(verdict, new_trust))
    superseded = plan.replaced()
    log.append(Entry(OP_STORE, actor, [memory_id, *superseded], after={
        "id": memory_id, "status": plan.status, "trust": new_trust, "claim": claim_props(claim),
        "source": item.provenance.source, SUPERSEDED: list(superseded), "asserted_valid_until":
        iso(item.claim.valid_until), "closed": {c.memory_id: iso(c.valid_until) for c in plan.closures},
        "conflicts": [c["id"] for c in conflicts], "quarantine_reason": verdict.quarantine_reason}))
    if superseded:
        log.append(Entry(OP_SUPERSEDE, actor, [memory_id, *superseded],
                         before={"status": dict.fromkeys(superseded, ACTIVE)},
                         after={"status": dict.fromkeys(superseded, SUPERSEDED), "by": memory_id}))
    if verdict.status == QUARANTINED:
        log.append(Entry(OP_QUARANTINE, actor, [memory_id],
                         after={"reason": verdict.quarantine_reason, "details": details}))
    return _Claimed(memory_id, superseded=superseded, conflicts=tuple(conflicts))

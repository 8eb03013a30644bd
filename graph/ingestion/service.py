"""Remembering from messages: extract candidates, decide each against what the tenant knows, and
apply the decisions through the write path and the belief engine, in one transaction.

For each message, in order (earlier messages of the request, and `context`, are its conversation):
  1. read the memories about the people and things it names (the entity graph), for the circle;
  2. extract candidates (rules, or the configured LLM);
  3. read what can matter to each: its claim's slot (ingestion/slot_memories), and, for a candidate
     with no claim, an end, a forget or an open slot nothing fills yet, the nearest memories by
     embedding (retrieval's search);
     add what earlier messages of the request planned, drop what they replaced or deleted;
  4. decide (rules, or the LLM).
Then, unless `dry_run`, one transaction applies every message's decisions: new memories through
the write path (WriteService.prepare / write: secrets, rules, the belief engine's dedup,
precedence, quarantine and conflicts, SUPERSEDES edges, audit), archives and hard deletes, and one
`ingest` audit record per decision, NOOPs included. A request lands whole or not at all."""
from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, time
from typing import Any

from graph import audit
from graph.audit import DEFAULT_ACTOR, Entry
from graph.core.errors import InvalidInput
from graph.core.keys import entity_key
from graph.core.tenancy import check_agent
from graph.core.timeutil import check_instant, from_graph, iso, utcnow
from graph.core.values import check_unicode
from graph.core.vocab import (
    DEFAULT_INGEST_SOURCE,
    INGEST_ROLES,
    OP_INGEST,
    QUARANTINED,
    SENSITIVITIES,
    SOURCE_TYPES,
)
from graph.ingestion.decide import forget_slots, is_open
from graph.ingestion.defaults import FixedDefault, IngestDefault
from graph.ingestion.extractor import mentioned_names
from graph.ingestion.known import circle_of, is_multi
from graph.ingestion.model import (
    ADD,
    DELETE,
    END,
    FORGET,
    HARD,
    NOOP,
    REPLACE,
    SOFT,
    SUPERSEDE,
    UPDATE,
    Applied,
    Candidate,
    Decision,
    Draft,
    Extraction,
    IngestResult,
    Known,
    Message,
    MessageResult,
)
from graph.ingestion.steps import Decider, Extractor, RuleDecider, RuleExtractor
from graph.ingestion.vocabulary import SUCCESSORS
from graph.memories.model import Claim, NewMemory, Provenance, StoreResult
from graph.memories.secrets import screen_many
from graph.memories.service import archive_in, hard_delete_in
from graph.preferences import PreferenceService, never_store_reason
from graph.retrieval import RetrievalService, SearchQuery
from graph.store.gateway import GraphRunner, Tx
from graph.writes.service import WriteService

NEIGHBOURS = 8  # nearest memories by embedding weighed for a candidate without a claim
INGEST_TAG = "ingested"


@dataclass(frozen=True)
class IngestRequest:
    agent: str
    messages: tuple[Message, ...]
    context: tuple[Message, ...] = ()  # earlier messages: read for reference, never stored
    dry_run: bool = False
    source: str = DEFAULT_INGEST_SOURCE
    ref: str | None = None  # the conversation, for provenance; a message's own ref wins


@dataclass
class _Plan:
    index: int
    message: Message
    extraction: Extraction
    decisions: list[Decision]
    ids: dict[int, str] = field(default_factory=dict)  # decision position -> the new memory's id


class IngestService:
    def __init__(self, runner: GraphRunner, writes: WriteService, retrieval: RetrievalService, *,
                 max_messages: int, max_text_chars: int, extractor: Extractor | None = None,
                 decider: Decider | None = None, default: IngestDefault | None = None,
                 preferences: PreferenceService | None = None) -> None:
        self.runner, self.writes, self.retrieval = runner, writes, retrieval
        # The agents' memory preferences: what never to store, and instructions for an LLM extractor.
        self.preferences = preferences
        self.max_messages, self.max_text_chars = max_messages, max_text_chars
        self.extractor: Extractor = extractor or RuleExtractor()
        self.decider: Decider = decider or RuleDecider()
        # Whether an agent's plain stores go through this pipeline when the request does not say.
        self.default: IngestDefault = default or FixedDefault(False)

    # -- input ---------------------------------------------------------------------------------
    def check(self, request: IngestRequest) -> IngestRequest:
        check_agent(request.agent)
        if not request.messages:
            raise InvalidInput("messages", "must hold at least one message")
        if len(request.messages) > self.max_messages:
            raise InvalidInput("messages", f"holds {len(request.messages)} messages; the limit is {self.max_messages}")
        if len(request.context) > self.max_messages:
            raise InvalidInput("context", f"holds {len(request.context)} messages; the limit is {self.max_messages}")
        if request.source not in SOURCE_TYPES:
            raise InvalidInput("source", f"must be one of {', '.join(SOURCE_TYPES)}")
        for name, messages in (("messages", request.messages), ("context", request.context)):
            for i, m in enumerate(messages):
                _check_message(m, f"{name}[{i}]", self.max_text_chars)
        return request

    # -- the pipeline --------------------------------------------------------------------------
    async def ingest(self, request: IngestRequest, actor: str = DEFAULT_ACTOR, *,
                     hard_delete: bool = True) -> IngestResult:
        """`hard_delete`: whether the caller may erase ("forget that"); without it a hard delete is
        applied as an archive, and the answer says so."""
        request = self.check(request)
        plans = await self._plan(request)
        if request.dry_run:
            return IngestResult(tuple(_planned_result(p) for p in plans), True, self.extractor.name,
                                self.decider.name)
        results, _ = await self._apply([(request, plans)], [], actor, hard_delete)
        return IngestResult(tuple(results[0]), False, self.extractor.name, self.decider.name)

    async def store(self, items: Sequence[NewMemory], ingest: Sequence[bool | None], actor: str = DEFAULT_ACTOR, *,
                    field_prefix: str = "memories", hard_delete: bool = False) -> Sequence[StoreResult | MessageResult]:
        """A plain store (POST /v1/memories, a batch) where items may opt into this pipeline: an item
        whose `ingest` is true, or None and the agent's default (self.default) says so, and that has
        no claim, is read as one user message (its text, its event_at or now, its provenance); the
        others are written as they are. One transaction for all: the answer is each item's write
        (StoreResult) or operations (MessageResult), in the items' order. Without an ingested item
        it is exactly WriteService.store_many."""
        if len(ingest) != len(items):
            raise InvalidInput(f"{field_prefix}.ingest", "must give one flag (or None) per item")
        where = (lambda i: f"{field_prefix}[{i}].") if field_prefix else (lambda i: "")
        flags = []
        defaults: dict[str, bool] = {}  # asked once per agent
        for i, (item, flag) in enumerate(zip(items, ingest, strict=True)):
            if flag and item.claim is not None:
                raise InvalidInput(f"{where(i)}ingest", "a memory with a claim is stored as it is: "
                                                       "ingest reads text without one")
            if flag is None and item.claim is None and item.agent not in defaults:
                defaults[item.agent] = await self.default.ingests(check_agent(item.agent))
            flags.append(item.claim is None and (flag if flag is not None else defaults[item.agent]))
        if not any(flags):
            return await self.writes.store_many(items, field_prefix, actor)
        # Secrets as a plain store treats them: refused (the default) or redacted before anything reads the text.
        screened, _ = screen_many(list(items), field_prefix)
        requests: dict[str, list[int]] = {}
        for i, (item, flag) in enumerate(zip(screened, flags, strict=True)):
            if flag:
                requests.setdefault(item.agent, []).append(i)
        groups = []
        for agent, positions in requests.items():
            messages = tuple(message_of("user", screened[i].text, screened[i].event_at, screened[i].provenance.source,
                                        screened[i].provenance.ref) for i in positions)
            request = self.check(IngestRequest(agent, messages, source=DEFAULT_INGEST_SOURCE))
            groups.append((request, await self._plan(request)))
        plain = [i for i, flag in enumerate(flags) if not flag]
        results, stored = await self._apply(groups, [items[i] for i in plain], actor, hard_delete)
        out: dict[int, StoreResult | MessageResult] = dict(zip(plain, stored, strict=True))
        for positions, found in zip(requests.values(), results, strict=True):
            out.update((i, replace(r, index=i)) for i, r in zip(positions, found, strict=True))
        return [out[i] for i in range(len(items))]

    async def _plan(self, request: IngestRequest) -> list[_Plan]:
        """Every message's decisions, read against the tenant and the request's earlier messages."""
        agent = request.agent
        registered = {r["schema"]["predicate"]: r["schema"]["cardinality"] == "multi"
                      for r in await self.runner.read("beliefs/predicates/list", agent=agent)}
        prefs = await self.preferences.get(agent) if self.preferences is not None else None
        prepared = await self.extractor.prepare(request.messages, prefs.extraction_instructions if prefs else None)
        plans: list[_Plan] = []
        planned: list[Known] = []
        gone: set[str] = set()
        for i, message in enumerate(request.messages):
            context = [*request.context, *request.messages[:i]]
            names = {n for m in [message, *context] for n in mentioned_names(m.text)}
            about = await self._read("ingestion/entity_memories", agent,
                                     name_keys=sorted({entity_key(agent, n) for n in names}))
            circle = circle_of([*about, *planned])
            extraction = await self.extractor.extract(message, context, circle, registered, prepared)
            candidates = [_canonical(c, circle) for c in extraction.candidates]
            # What the agent's preferences never store is not a candidate: the answer says it was left out.
            withheld = [why for c in candidates if prefs is not None
                        and (why := never_store_reason(prefs, c.memory_type, c.text)) is not None]
            if withheld:
                candidates = [c for c in candidates if prefs is None or never_store_reason(
                    prefs, c.memory_type, c.text) is None]
                extraction = replace(extraction, skipped=(*extraction.skipped, *dict.fromkeys(w[1] for w in withheld)))
            slots = {(c.claim.subject, p) for c in candidates if c.claim and c.claim.predicate
                     for p in (c.claim.predicate, *c.replaces, *SUCCESSORS.get(c.claim.predicate, ()))}
            slots |= {("user", p) for c in candidates if c.replaces for p in c.replaces}
            # A request to forget that names a slot ("forget my address"): the user's memories in it.
            slots |= {("user", p) for c in candidates for p in forget_slots(c)}
            in_slots = await self._read("ingestion/slot_memories", agent, slots=[
                {"subject": s, "predicate": p} for s, p in sorted(slots)])
            base = _merge(about, in_slots)
            near: dict[int, list[Known]] = {}
            filled = {(k.subject.lower(), k.predicate) for k in in_slots if k.subject is not None}
            for j, c in enumerate(candidates):
                if c.claim is None or c.claim.predicate is None or c.action in (END, FORGET) or (
                        is_open(c.claim.predicate) and (c.claim.subject.lower(), c.claim.predicate) not in filled):
                    # An open slot nothing fills yet may be one known under other words
                    # ("broadband" for broadband_provider: decide.open_alias): the nearest memories say.
                    near[j] = await self._nearest(agent, c.text)
            positions = {id(c): j for j, c in enumerate(candidates)}

            def known_for(c: Candidate, base: list[Known] = base, near: dict[int, list[Known]] = near,
                          positions: dict[int, int] = positions) -> list[Known]:
                found = _merge(base, near.get(positions.get(id(c), -1), []))
                return [k for k in [*found, *planned] if k.id not in gone]

            previous = next((m.text for m in reversed(context) if m.role == "user"), None)
            decisions = await self.decider.decide(candidates, known_for, lambda p: is_multi(p, registered), previous)
            plan = _Plan(i, message, replace(extraction, candidates=tuple(candidates)), decisions)
            plans.append(plan)
            for j, d in enumerate(decisions):
                if d.target is not None and (d.op == DELETE or d.mode in (SUPERSEDE, REPLACE)):
                    gone.add(d.target.id)
                if d.op in (ADD, UPDATE):
                    plan.ids[j] = f"planned-{uuid.uuid4()}"
                    planned.append(_known_of_plan(plan.ids[j], d, len(planned), lambda p: is_multi(p, registered)))
        return plans

    async def _read(self, query: str, agent: str, **params: Any) -> list[Known]:
        values = next(iter(params.values()))
        if not values:
            return []
        rows = await self.runner.read(query, agent=agent, now=iso(utcnow()), **params)
        return [_known_of_row(r["memory"], r["claim"], i) for i, r in enumerate(rows)]

    async def _nearest(self, agent: str, text: str) -> list[Known]:
        result = await self.retrieval.search(SearchQuery(agent=agent, text=text, limit=NEIGHBOURS, track_access=False,
                                                         sensitivity_ceiling=SENSITIVITIES[-1]))
        out = []
        for i, hit in enumerate(result.hits):
            m = hit.memory
            claim = m.claim
            out.append(Known(id=m.id, text=m.text, memory_type=m.memory_type, subject=claim.subject if claim else None,
                             predicate=claim.predicate if claim else None, value=claim.value if claim else None,
                             exclusive=claim.exclusive if claim else True, historical=m.historical,
                             sensitivity=m.sensitivity, recurrence=m.recurrence, similarity=hit.similarity,
                             order=int(m.created_at.timestamp() * 1e6) if m.created_at else i,
                             valid_start=m.valid_from or m.event_at))
        return out

    # -- applying ------------------------------------------------------------------------------
    async def _apply(self, groups: list[tuple[IngestRequest, list[_Plan]]], plain: list[NewMemory], actor: str,
                     hard_delete: bool) -> tuple[list[list[MessageResult]], list[StoreResult]]:
        """One transaction: every group's decisions (a request's plans) and the `plain` memories
        written beside them. Answers each group's message results and the plain memories' writes."""
        # Each planned memory gets its id now, so a later decision of the request can name it.
        real = {planned: str(uuid.uuid4()) for _, plans in groups for p in plans for planned in p.ids.values()}
        news: list[NewMemory] = list(plain)
        ids: list[str] = [str(uuid.uuid4()) for _ in plain]
        owners: list[tuple[int, int, int]] = []  # (group, plan, decision) of each new memory after the plain ones
        for g, (request, plans) in enumerate(groups):
            for p in plans:
                for j, d in enumerate(p.decisions):
                    if d.op in (ADD, UPDATE) or (d.op == NOOP and d.claim is not None):
                        news.append(_new_memory(request.agent, p.message, d, request, real))
                        ids.append(real[p.ids[j]] if j in p.ids else str(uuid.uuid4()))
                        owners.append((g, p.index, j))
        prepared = await self.writes.prepare(news, "memories", ids=ids) if news else None

        async def work(tx: Tx) -> tuple[list[list[MessageResult]], list[StoreResult]]:
            stored = await self.writes.write(tx, prepared, actor) if prepared is not None else []
            by_owner = dict(zip(owners, stored[len(plain):], strict=True))
            out = []
            for g, (request, plans) in enumerate(groups):
                log: list[Entry] = []
                answers = []
                for p in plans:
                    applied = []
                    for j, d in enumerate(p.decisions):
                        result = by_owner.get((g, p.index, j))
                        applied.append(await _apply_one(tx, request.agent, p, j, d, result, real, actor, hard_delete,
                                                        log))
                    answers.append(MessageResult(p.index, tuple(applied), p.extraction.secrets, p.extraction.skipped))
                await audit.record_all(tx, request.agent, log)
                out.append(answers)
            return out, stored[:len(plain)]

        if prepared is None:
            results = await self.runner.write_tx(work)
        else:
            try:
                if not prepared.overlaps:
                    await prepared.vectors()  # open the transaction once the vectors exist
                async with self.writes.slots.hold(prepared.slot_keys()):
                    results = await self.runner.write_tx(work)
            finally:
                prepared.discard()
            self.writes.on_vectors_written({item.agent for item in news})
        return results


async def _apply_one(tx: Tx, agent: str, p: _Plan, j: int, d: Decision, result: Any, real: dict[str, str],
                     actor: str, hard_delete: bool, log: list[Entry]) -> Applied:
    c = d.candidate
    target = real.get(d.target.id, d.target.id) if d.target is not None else None
    base = Applied(op=d.op, mode=d.mode, reason=d.reason, memory_id=None, target_id=None,
                   claim=d.claim if d.op != DELETE else None, memory_type=c.memory_type, text=None,
                   sensitivity=c.sensitivity, historical=c.historical, effective_from=c.effective_from,
                   expires_at=c.expires_at, recurrence=c.recurrence)
    if d.op == DELETE and target is not None:
        mode, reason = d.mode, d.reason
        if d.mode == HARD and hard_delete:
            found: object = await hard_delete_in(tx, agent, target, actor)
        else:
            if d.mode == HARD:
                mode, reason = SOFT, "asked to forget it, but erasing needs an admin key: archived instead"
            found = await archive_in(tx, agent, target, actor)
        if found is None:
            return replace(base, op=NOOP, mode=None, reason="the memory to delete is gone already")
        # A hard delete's record names neither the memory nor what it said.
        log.append(Entry(OP_INGEST, actor, [] if mode == HARD else [target], after={
            "message": p.index, "op": DELETE, "mode": mode, "reason": reason}))
        return replace(base, mode=mode, reason=reason, memory_id=target if mode != HARD else None,
                       target_id=target)
    if d.op == NOOP and result is None:
        log.append(Entry(OP_INGEST, actor, [target] if target else [], after={
            "message": p.index, "op": NOOP, "reason": d.reason, "text": c.text}))
        return replace(base, memory_id=target, target_id=target, text=c.text)
    memory = result.memory
    op, mode, reason = d.op, d.mode, d.reason
    if result.deduplicated:
        op, mode, reason = NOOP, None, "already known and current: corroborated"
    elif memory.status == QUARANTINED:
        reason = f"{reason}; the belief engine quarantined it ({memory.quarantine.reason if memory.quarantine else ''})"
    claim = d.claim
    log.append(Entry(OP_INGEST, actor, [memory.id, *([target] if target and target != memory.id else [])], after={
        "message": p.index, "op": op, "mode": mode, "reason": reason, "target": target,
        "claim": {"subject": claim.subject, "predicate": claim.predicate, "value": claim.value} if claim else None}))
    return replace(base, op=op, mode=mode, reason=reason, memory_id=memory.id,
                   target_id=target if op != NOOP else memory.id, text=memory.text, status=memory.status,
                   superseded=result.superseded, pending_conflict_id=result.pending_conflict_id)


def _new_memory(agent: str, message: Message, d: Decision, request: IngestRequest, real: dict[str, str]) -> NewMemory:
    c = d.candidate
    claim = None
    # A message stamped ahead of the server's clock (a client's clock runs fast) happened by now: a
    # change dated in the future would leave what it replaces active beside it until that instant.
    event_at = min(message.at, utcnow())
    if d.claim is not None and d.claim.predicate is not None:
        # History and further values of a multi-valued predicate never rival the current value.
        exclusive = d.exclusive and not c.historical
        valid_from = _instant(c.effective_from)
        claim = Claim(d.claim.subject, d.claim.predicate, d.claim.value, exclusive=exclusive, valid_from=valid_from)
    supersedes: tuple[str, ...] = ()
    if d.op == UPDATE and d.mode in (SUPERSEDE, REPLACE) and d.target is not None:
        same_slot = (claim is not None and d.target.subject is not None and d.target.predicate == claim.predicate
                     and d.target.subject.lower() == claim.subject.lower())
        if not same_slot:
            supersedes = (real.get(d.target.id, d.target.id),)
        if d.mode == REPLACE:
            # A correction restates the same period: it replaces the wrong value outright, not as history.
            event_at = d.target.valid_start  # type: ignore[assignment]
    return NewMemory(agent=agent, text=c.text, memory_type=c.memory_type, tags=(INGEST_TAG,), event_at=event_at,
                     claim=claim, provenance=Provenance(message.source or request.source, message.ref or request.ref),
                     sensitivity=c.sensitivity, effective_from=_instant(c.effective_from),
                     expires_at=_instant(c.expires_at, end=True), recurrence=c.recurrence, historical=c.historical,
                     supersedes=supersedes)


def _instant(day: Any, end: bool = False) -> datetime | None:
    """A date as the instant it starts (effective_from) or, for an end, as its last instant (expires_at)."""
    if day is None:
        return None
    return datetime.combine(day, time.max if end else time.min, tzinfo=UTC)


def _check_message(m: Message, field_name: str, max_chars: int) -> None:
    if not isinstance(m, Message):
        raise InvalidInput(field_name, "must be a message")
    if m.role not in INGEST_ROLES:
        raise InvalidInput(f"{field_name}.role", f"must be one of {', '.join(INGEST_ROLES)}")
    if not isinstance(m.text, str) or not m.text.strip():
        raise InvalidInput(f"{field_name}.text", "must contain non-whitespace text")
    if len(m.text) > max_chars:
        raise InvalidInput(f"{field_name}.text", f"is {len(m.text)} characters; the limit is {max_chars}")
    check_unicode(m.text, f"{field_name}.text")
    check_instant(m.at, f"{field_name}.at")
    if m.source is not None and m.source not in SOURCE_TYPES:
        raise InvalidInput(f"{field_name}.source", f"must be one of {', '.join(SOURCE_TYPES)}")


def message_of(role: str, text: str, at: datetime | None = None, source: str | None = None,
               ref: str | None = None) -> Message:
    return Message(role, text, at or utcnow(), source, ref)


def _known_of_row(memory: dict[str, Any], claim: dict[str, Any] | None, order: int) -> Known:
    created = from_graph(memory.get("created_at"))
    return Known(id=memory["id"], text=memory["text"], memory_type=memory.get("memory_type") or "fact",
                 subject=claim["subject"] if claim else None, predicate=claim["predicate"] if claim else None,
                 value=claim["value"] if claim else None,
                 exclusive=bool(claim.get("exclusive", True)) if claim else True,
                 historical=bool(memory.get("historical")), sensitivity=memory.get("sensitivity") or "normal",
                 recurrence=memory.get("recurrence"),
                 order=int(created.timestamp() * 1e6) if created else order,
                 valid_start=from_graph(claim.get("valid_from")) if claim and claim.get("valid_from") else
                 from_graph(memory.get("event_at")))


def _known_of_plan(planned_id: str, d: Decision, order: int, multi: Callable[[str], bool]) -> Known:
    c = d.candidate
    claim = d.claim
    return Known(id=planned_id, text=c.text, memory_type=c.memory_type, subject=claim.subject if claim else None,
                 predicate=claim.predicate if claim else None, value=claim.value if claim else None,
                 exclusive=not multi(claim.predicate) if claim and claim.predicate else True, historical=c.historical,
                 sensitivity=c.sensitivity, recurrence=c.recurrence, order=2**62 + order, planned=True)


def _merge(*groups: Sequence[Known]) -> list[Known]:
    seen: dict[str, Known] = {}
    for group in groups:
        for k in group:
            if k.id not in seen or (k.similarity is not None and seen[k.id].similarity is None):
                seen[k.id] = k
    return sorted(seen.values(), key=lambda k: k.order)


def _canonical(c: Candidate, circle: set[str]) -> Candidate:
    """A subject as the tenant's memories spell it ("ana" -> "Ana"), so it meets its slot."""
    if c.claim is None:
        return c
    names = {n.lower(): n for n in circle}
    subject = names.get(c.claim.subject.lower(), c.claim.subject)
    return c if subject == c.claim.subject else replace(c, claim=Draft(subject, c.claim.predicate, c.claim.value))


def _planned_result(p: _Plan) -> MessageResult:
    ops = tuple(Applied(op=d.op, mode=d.mode, reason=d.reason, memory_id=p.ids.get(j) or (
                        d.target.id if d.target is not None and d.op in (NOOP, DELETE) else None),
                        target_id=d.target.id if d.target is not None else None,
                        claim=d.claim if d.op != DELETE else None, memory_type=d.candidate.memory_type,
                        text=d.candidate.text if d.op != DELETE else None, sensitivity=d.candidate.sensitivity,
                        historical=d.candidate.historical, effective_from=d.candidate.effective_from,
                        expires_at=d.candidate.expires_at, recurrence=d.candidate.recurrence)
                for j, d in enumerate(p.decisions))
    return MessageResult(p.index, ops, p.extraction.secrets, p.extraction.skipped)


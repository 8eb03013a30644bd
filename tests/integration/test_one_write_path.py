"""The one write path (graph/writes) and the one belief orchestration (graph/beliefs/engine.py):
how many statements a claimed write costs, claims of one batch seeing each other as if written one
by one, a manual resolution that keeps valid time, and the belief services' own input guards."""
from __future__ import annotations

import asyncio
from collections import Counter
from datetime import UTC, datetime

import pytest

from graph.beliefs.predicates import PredicateSchema
from graph.core.errors import InvalidInput
from graph.memories.model import Claim, NewMemory, Provenance
from graph.store.gateway import Tx
from graph.writes.service import OVERLAP_MAX

# The target for the common case: a new belief, or one that supersedes another.
MAX_STATEMENTS_PER_CLAIM = 4
# The write path's statements, whose lists arrive inside a map: a list parameter's size keys Neo4j's
# plan cache (docs/backends.md 2.23), so each new size bucket would plan them again.
WRITE_PATH = {"beliefs/slots/open", "memories/create", "beliefs/settle", "audit/record"}
NO_ID, OTHER_ID = "00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000001"


class Seen(list):
    """(attempt, name) pairs, and `listed`: the names of statements given a list as a parameter of its own."""

    def __init__(self) -> None:
        super().__init__()
        self.listed: set[str] = set()


@pytest.fixture
def statements(monkeypatch):
    """The statements each transaction attempt ran, by name, in order (a spy on the real gateway):
    a list of (attempt, name). Retrieval's reads and the access-count flush are left out: they are
    the service's own background work (index warm-up after a commit, counts every 0.2 s here)."""
    seen = Seen()
    real = Tx._shaped

    async def counting(self, name, expected, params):
        if not name.startswith("retrieval/") and name != "memories/record_access":
            seen.append((id(self), name))
            if any(isinstance(value, list) for value in params.values()):
                seen.listed.add(name)
        return await real(self, name, expected, params)

    monkeypatch.setattr(Tx, "_shaped", counting)
    return seen


def last_write(seen: list[tuple[int, str]], start: int = 0) -> Counter[str]:
    """The statements of the attempt that committed: the last one that opened slots (a collision
    on ArcadeDB retries the whole transaction, and each attempt is a new Tx)."""
    attempt = next(a for a, name in reversed(seen[start:]) if name == "beliefs/slots/open")
    return Counter(name for a, name in seen[start:] if a == attempt)


def claimed(agent, value, *, source="user_explicit", subject="user", predicate="lives_in", **claim):
    return NewMemory(agent=agent, text=f"The {subject} {predicate} {value}", provenance=Provenance(source=source),
                     claim=Claim(subject=subject, predicate=predicate, value=value, **claim))


def test_a_claimed_write_takes_at_most_four_statements(services, run, agent, statements):
    async def go():
        first = await services.writes.store(claimed(agent, "Berlin", source="user_implicit"))
        new_belief = last_write(statements)
        mark = len(statements)
        second = await services.writes.store(claimed(agent, "Lisbon"))  # supersedes the first
        return first, second, new_belief, last_write(statements, mark)

    first, second, new_belief, superseding = run(go)
    assert second.superseded == (first.memory.id,)
    assert sum(new_belief.values()) <= MAX_STATEMENTS_PER_CLAIM, new_belief
    assert sum(superseding.values()) <= MAX_STATEMENTS_PER_CLAIM, superseding
    assert superseding["beliefs/settle"] == 1 and new_belief["beliefs/settle"] == 0


def test_a_batch_of_claims_costs_a_fixed_number_of_statements(services, run, agent, statements):
    items = [claimed(agent, f"City {i % 7}", subject=f"person {i % 20}", source=("user_explicit", "document")[i % 2])
             for i in range(200)]
    results = run(lambda: services.writes.store_many(items))
    assert len(results) == 200
    batch = last_write(statements)
    assert sum(batch.values()) <= 5, batch  # open, create, settle, audit, and a read of duplicates
    assert set(batch) >= WRITE_PATH and not statements.listed & WRITE_PATH, statements.listed


def _outcome(services, run, agent, items, *, one_by_one):
    async def go():
        if one_by_one:
            for item in items:
                await services.writes.store(item)
        else:
            await services.writes.store_many(items)
        page = await services.memories.list(agent, statuses=("active", "superseded", "quarantined"), limit=100)
        return sorted((m.text, m.status, m.corroboration, m.valid_until, m.version) for m in page.items)
    return run(go)


def test_claims_in_one_batch_see_each_other_as_if_written_one_by_one(services, run, agent):
    """Out-of-order dated states, a duplicate, a correction and a low-trust contradiction: the
    batch leaves the slot as the same claims stored one at a time do."""
    def items(tenant):
        when = lambda year: datetime(year, 1, 1, tzinfo=UTC)  # noqa: E731
        return [claimed(tenant, "Paris", source="user_implicit", valid_from=when(2020)),
                claimed(tenant, "Lisbon", source="user_implicit", valid_from=when(2024)),
                claimed(tenant, "Berlin", source="user_implicit", valid_from=when(2022)),
                claimed(tenant, "Berlin", source="document", valid_from=when(2022)),
                claimed(tenant, "Rome", source="inference"),
                claimed(tenant, "Oslo", source="user_explicit", predicate="works_in"),
                claimed(tenant, "Bergen", source="user_explicit", predicate="works_in")]

    batch = _outcome(services, run, agent, items(agent), one_by_one=False)
    single = _outcome(services, run, agent + "-single", items(agent + "-single"), one_by_one=True)
    assert batch == single
    statuses = {text: status for text, status, *_ in batch}
    assert statuses["The user lives_in Lisbon"] == "active"
    assert statuses["The user lives_in Paris"] == statuses["The user lives_in Berlin"] == "superseded"
    assert statuses["The user lives_in Rome"] == "quarantined"
    assert statuses["The user works_in Bergen"] == "active" and statuses["The user works_in Oslo"] == "superseded"


def test_a_batch_is_embedded_outside_its_transactions_time_budget(services, run, agent, monkeypatch):
    """A model call slower than CREDENCE_BACKEND_TIMEOUT (a large batch on a busy machine) must not
    count against the transaction: a claimed batch above OVERLAP_MAX embeds first, then writes."""
    encoder = services.writes.encoder
    real = encoder.encode

    async def slow(texts):
        if len(texts) > OVERLAP_MAX:
            await asyncio.sleep(6.0)
        return await real(texts)

    monkeypatch.setattr(encoder, "encode", slow)
    monkeypatch.setattr(services.runner, "timeout", 5.0)
    items = [NewMemory(agent=agent, text=f"Subject {i} lives in Porto.", provenance=Provenance("user_explicit"),
                       claim=Claim(f"subject {i}", "lives_in", "Porto")) for i in range(OVERLAP_MAX + 1)]
    stored = run(services.writes.store_many, items)
    assert [r.memory.status for r in stored] == ["active"] * len(items)


def test_a_manual_supersede_keeps_valid_time(client, agent):
    """Under require_review, an older state that waits for review and is then preferred by a person
    becomes history, closed where the present state starts; it does not replace the present. (Before
    the one orchestration, resolution superseded every rival and left the older state current.)"""
    client.put("/v1/predicates/lives_in", params={"agent": agent}, json={"conflict_policy": "require_review"})

    def store(value, valid_from):
        response = client.post("/v1/memories", json={
            "agent": agent, "text": f"The user lives in {value}", "provenance": {"source": "user_implicit"},
            "claim": {"subject": "user", "predicate": "lives_in", "value": value, "valid_from": valid_from}})
        assert response.status_code == 201, response.text
        return response.json()

    present = store("Lisbon", "2023-01-01T00:00:00Z")
    older = store("Berlin", "2020-01-01T00:00:00Z")
    assert older["status"] == "quarantined" and older["pending_conflict_id"]
    resolved = client.post(f"/v1/conflicts/{older['pending_conflict_id']}/resolve", params={"agent": agent},
                           json={"action": "supersede"})
    assert resolved.status_code == 200, resolved.text
    get = lambda m: client.get(f"/v1/memories/{m['id']}", params={"agent": agent}).json()  # noqa: E731
    now_present, now_older = get(present), get(older)
    assert now_present["status"] == "active"
    assert now_older["status"] == "superseded"
    assert now_older["valid_until"].startswith("2023-01-01")
    view = client.get(f"/v1/memories/{older['id']}/explain/supersession", params={"agent": agent}).json()
    assert [(b["id"], b["reason"]) for b in view["superseded_by"]] == [(present["id"], "newer_valid_time")]


@pytest.mark.parametrize("call, field", [
    (lambda s, a: s.quarantine.review(a, "00000000-0000-0000-0000-000000000000", "approve", None, "t"), "action"),
    (lambda s, a: s.quarantine.review(a, "00000000-0000-0000-0000-000000000000", "reject", "x" * 2_001, "t"),
     "reason"),
    (lambda s, a: s.quarantine.quarantine(a, "00000000-0000-0000-0000-000000000000", "because", None, "t"),
     "reason"),
    (lambda s, a: s.quarantine.review("not an agent", "00000000-0000-0000-0000-000000000000", "reject", None, "t"),
     "agent"),
    (lambda s, a: s.conflicts.resolve(a, "00000000-0000-0000-0000-000000000000", "merge", "t", None), "action"),
    (lambda s, a: s.conflicts.list(a, limit=0), "limit"),
    (lambda s, a: s.predicates.put(a, [PredicateSchema("lives_in", cardinality="several")]),
     "predicates[0].cardinality"),
    (lambda s, a: s.predicates.put(a, [PredicateSchema("lives_in", normalize="upper")]), "predicates[0].normalize"),
    (lambda s, a: s.predicates.put(a, [PredicateSchema(" ")]), "predicates[0].predicate"),
    (lambda s, a: s.predicates.put(a, []), "predicates"),
    (lambda s, a: s.predicates.get(a, ""), "predicate"),
    (lambda s, a: s.feedback.dispute(a, NO_ID, "t", "x" * 2_001), "reason"),
    (lambda s, a: s.feedback.corroborate(a, NO_ID, "t", Provenance(source="rumour")), "source.source"),
    (lambda s, a: s.feedback.reinforce("", NO_ID, "t"), "agent"),
    (lambda s, a: s.links.link(a, NO_ID, OTHER_ID, "SUPPORTS", "x" * 1_001, "t"), "note"),
    (lambda s, a: s.memories.list(a, limit=0), "limit"),
    (lambda s, a: s.memories.list(a, statuses=("forgotten",)), "status[0]"),
    (lambda s, a: s.memories.list(a, memory_types=("fact", "gossip")), "memory_type[1]"),
    (lambda s, a: s.memories.get("two words", NO_ID), "agent"),
    (lambda s, a: s.explain.memory("two words", NO_ID), "agent"),
    (lambda s, a: s.entities.list("two words"), "agent"),
])
def test_services_refuse_bad_input_themselves(services, run, agent, call, field):
    with pytest.raises(InvalidInput) as refused:
        run(lambda: call(services, agent))
    assert refused.value.field == field

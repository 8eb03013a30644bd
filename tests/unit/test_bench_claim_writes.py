"""bench/claim_writes.py: its corpus means what the precedence rules will do, and its statement
counter counts what a call runs."""
import asyncio
import math
from collections import Counter
from typing import ClassVar

from bench.claim_writes import (
    CLAIMED,
    PLAIN,
    PREDICATES,
    WARM,
    Count,
    beats,
    body,
    counted,
    install_counter,
    intended,
    outcome,
    plan,
    subject_names,
)
from graph.store.registry import Query


def test_the_warm_up_tenant_warms_the_plans_the_measured_tenants_use():
    # Neo4j keys a cached plan on a string parameter's length rounded up to a power of ten.
    assert len({math.ceil(math.log10(len(agent))) for agent in (WARM, CLAIMED, PLAIN)}) == 1


def test_the_corpus_is_seeded_and_of_the_size_asked():
    assert plan(300, 20) == plan(300, 20)
    assert plan(300, 20) != plan(300, 20, seed=5)
    assert len(plan(300, 20)) == 300
    assert len(set(subject_names(250))) == 250


def test_every_slot_starts_with_a_new_belief_and_then_holds_one_value():
    held: dict[tuple[str, str], str] = {}
    for w in plan(2_000, 200):
        slot = (w.subject, w.predicate)
        assert (w.intent == "first") == (slot not in held)
        assert w.predicate in PREDICATES and w.value in PREDICATES[w.predicate][0]
        if w.intent == "corroborate":
            assert w.value == held[slot]
        elif w.intent in ("supersede", "conflict"):
            assert w.value != held[slot]
        if w.intent in ("first", "supersede"):
            held[slot] = w.value
    assert len(held) == 1_000  # 200 subjects x 5 predicates, each visited


def test_the_mix_holds_every_outcome_in_a_real_share():
    counts = intended(plan(2_000, 200))
    assert sum(counts.values()) == 2_000
    assert all(counts[o] >= 200 for o in ("new", "superseded", "quarantined", "deduplicated")), counts


def test_a_small_corpus_visits_each_slot_at_most_once():
    assert intended(plan(50, 20)) == Counter(new=50)


def test_beats_is_the_precedence_rule():
    assert beats("user_explicit", "tool_output", 0.95)  # a user correction wins over any non-user source
    assert beats("system", "tool_output", 0.85)  # higher trust
    assert beats("document", "document", 0.6)  # equal trust, undated: the newer record
    assert not beats("document", "tool_output", 0.85)
    assert not beats("tool_output", "user_implicit", 0.9)  # corroborated past the newcomer


def test_outcomes_and_bodies():
    store = {"deduplicated": False, "quarantined": False, "superseded": []}
    assert outcome(store) == "new"
    assert outcome({**store, "superseded": ["x"]}) == "superseded"
    assert outcome({**store, "quarantined": True}) == "quarantined"
    assert outcome({**store, "deduplicated": True}) == "deduplicated"
    w = plan(1, 1)[0]
    assert body(w, "a", True)["claim"] == {"subject": w.subject, "predicate": w.predicate, "value": w.value}
    assert "claim" not in body(w, "a", False) and body(w, "a", False)["text"] == w.text


class _Transaction:
    """Stands in for the driver's transaction: `run(text, parameters)`."""
    sent: ClassVar[list[str]] = []

    async def run(self, query, parameters=None):
        self.sent.append(query)
        return "rows"


class _Registry:
    TEXTS: ClassVar[dict[str, str]] = {"memories/create": "CREATE (m)", "beliefs/lock_slot": "MERGE (s)"}

    def names(self):
        return list(self.TEXTS)

    def __getitem__(self, name):
        return Query(name, self.TEXTS[name], frozenset(), "write", "")


def test_the_counter_counts_each_call_its_transactions_and_what_it_left_running():
    async def scenario() -> list[Count]:
        undo = install_counter([_Transaction], _Registry())
        later: list[asyncio.Task] = []
        try:
            async def write() -> None:
                first, second = _Transaction(), _Transaction()
                assert await first.run("MERGE (s)", {}) == "rows"
                await first.run("CREATE (m)", {})
                await second.run("MERGE (s)")
                later.append(asyncio.create_task(_Transaction().run("RETURN 1")))

            counts: list[Count] = []
            await counted(write, counts)
            await counted(write, counts)
            await _Transaction().run("CREATE (m)")  # outside any counted call
            await asyncio.gather(*later)
            return counts
        finally:
            undo()

    counts = asyncio.run(scenario())
    assert [c.statements for c in counts] == [Counter({"beliefs/lock_slot": 2, "memories/create": 1})] * 2
    assert [c.total for c in counts] == [3, 3] and [c.transactions for c in counts] == [2, 2]
    assert [c.after for c in counts] == [Counter({"(unregistered) RETURN 1": 1})] * 2
    assert _Transaction.run.__qualname__ == "_Transaction.run"  # undone
    assert len(_Transaction.sent) == 9  # every statement still went through


def test_an_inherited_run_is_restored_as_inherited():
    class Session(_Transaction):
        pass

    undo = install_counter([Session], _Registry())
    assert "run" in Session.__dict__
    undo()
    assert "run" not in Session.__dict__ and Session.run is _Transaction.run

"""Type-aware context (graph/context): one section per memory type in a fixed priority, the past in
its own last section, the present packed before the past, per-type quotas, and the budget guarantee
with all of it (a property)."""
from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from graph.context.format import ContextItem, format_context
from graph.context.packing import pack, top


def chars_per_four(text: str) -> int:
    return math.ceil(len(text) / 4)


def item(i, text, value, memory_type="fact", **extra) -> ContextItem:
    return ContextItem(id=f"m{i}", text=text, memory_type=memory_type, value=value, **extra)


def test_sections_follow_the_types_priority_and_the_past_comes_last():
    items = [item(1, "Lived in Leeds", 0.99, past=True), item(2, "Marcus is the user's brother", 0.5, "entity"),
             item(3, "Works at Globex", 0.7), item(4, "Prefers tea", 0.2, "preference"),
             item(5, "Worked at Acme", 0.95, historical=True)]
    assert format_context(items) == (
        "## Relevant Memory Context\n### Preferences\n- Prefers tea\n### Facts\n- Works at Globex\n"
        "### People and things\n- Marcus is the user's brother\n"
        "### Historical\n- Lived in Leeds (historical)\n- Worked at Acme (historical, superseded)\n")


def test_the_present_is_packed_before_the_past_and_quotas_hold():
    items = [item(1, "Lived in Leeds for years", 0.99, past=True), item(2, "Lives in Porto", 0.3),
             item(3, "Goal: run a marathon in May", 0.9, "goal"), item(4, "Goal: learn Portuguese", 0.8, "goal")]
    # Room for every present line: the historical one, worth the most, waits for room they leave.
    packed = pack(items, max_tokens=chars_per_four(format_context(items[1:])))
    assert {i.id for i in packed.included} == {"m2", "m3", "m4"} and [e.id for e in packed.excluded] == ["m1"]
    # A goal quota of 8 tokens takes one goal line, the best that fits.
    quota = pack(items, max_tokens=1_000, quotas={"goal": 8})
    assert [i.id for i in quota.included if i.memory_type == "goal"] == ["m3"]
    assert {e.id for e in quota.excluded} == {"m4"}
    assert [i.id for i in top(items, max_memories=2).included] == ["m3", "m4"]


@settings(max_examples=300, deadline=None)
@given(lengths=st.lists(st.integers(1, 2_000), max_size=30), values=st.lists(st.floats(0, 1), min_size=30, max_size=30),
       budget=st.integers(0, 5_000),
       kinds=st.lists(st.sampled_from(["fact", "goal", "preference", "event", "entity", "decision", "procedure"]),
                      min_size=30, max_size=30),
       pasts=st.lists(st.sampled_from(["now", "superseded", "historical"]), min_size=30, max_size=30),
       quotas=st.dictionaries(st.sampled_from(["fact", "goal", "preference", "entity"]), st.integers(1, 2_000)))
def test_the_budget_and_the_quotas_hold_for_any_memories(lengths, values, budget, kinds, pasts, quotas):
    items = [item(i, "x" * n, values[i], kinds[i], historical=pasts[i] == "superseded", past=pasts[i] == "historical")
             for i, n in enumerate(lengths)]
    packed = pack(items, budget, quotas=quotas)
    assert packed.token_estimate == chars_per_four(packed.context) <= budget
    for kind, quota in quotas.items():
        assert sum(chars_per_four(i.text) for i in packed.included if i.memory_type == kind) <= quota
    assert sorted([i.id for i in packed.included] + [e.id for e in packed.excluded]) == sorted(i.id for i in items)

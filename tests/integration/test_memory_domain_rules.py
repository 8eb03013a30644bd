"""The domain validates its own input: a caller of graph/ (an MCP server, a job) gets the same rules
as the HTTP API, as InvalidInput naming the field, and a refused call writes nothing."""
from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest

from graph.core.errors import InvalidInput
from graph.memories.model import Claim, MemoryPatch, NewMemory, Provenance


@pytest.fixture
def stored(services, run, agent):
    async def go():
        return (await services.writes.store(NewMemory(agent=agent, text="The user prefers tea",
                                                         tags=("drinks",)))).memory
    return run(go)


def node(cypher, memory_id):
    [row] = cypher("MATCH (m:Memory {id: $id}) RETURN m {.*, embedding: null} AS m", id=memory_id)
    return row["m"]


@pytest.mark.parametrize("changes, field", [
    ({"agent": "other"}, "agent"),
    ({"trust": 1.0}, "trust"),
    ({"confidence": 1.0}, "confidence"),
    ({"status": "active"}, "status"),
    ({"id": "00000000-0000-0000-0000-000000000000"}, "id"),
    ({"version": 99}, "version"),
    ({"embedding": [0.0] * 384}, "embedding"),
    ({"source_type": "user_explicit"}, "source_type"),
    ({"disputes": 0}, "disputes"),
    ({"text": "fine", "quarantine_reason": None}, "quarantine_reason"),
    ({}, "changes"),
    ({"text": "   "}, "text"),
    ({"text": None}, "text"),
    ({"text": 42}, "text"),
    ({"memory_type": "gossip"}, "memory_type"),
    ({"memory_type": None}, "memory_type"),
    ({"importance": 1.5}, "importance"),
    ({"importance": -0.1}, "importance"),
    ({"importance": math.nan}, "importance"),
    ({"importance": "0.5"}, "importance"),
    ({"importance": True}, "importance"),
    ({"category": "c" * 101}, "category"),
    ({"category": 7}, "category"),
    ({"tags": "drinks"}, "tags"),
    ({"tags": [""]}, "tags[0]"),
    ({"tags": ["t" * 65]}, "tags[0]"),
    ({"tags": [3]}, "tags[0]"),
    ({"tags": [f"t{i}" for i in range(65)]}, "tags"),
    ({"tags": None}, "tags"),
    ({"metadata": ["not", "an", "object"]}, "metadata"),
    ({"metadata": {"blob": "y" * 20_000}}, "metadata"),
    ({"metadata": {"when": datetime.now(UTC)}}, "metadata.when"),
    ({"event_at": "yesterday"}, "event_at"),
])
def test_update_refuses_fields_and_values_outside_the_rules_and_changes_nothing(
        services, run, cypher, agent, stored, changes, field):
    before = node(cypher, stored.id)

    async def go():
        await services.memories.update(agent, stored.id, MemoryPatch(changes=changes))

    with pytest.raises(InvalidInput) as refused:
        run(go)
    assert refused.value.field == field
    assert node(cypher, stored.id) == before
    assert cypher("MATCH (m:Memory {agent: 'other'}) WHERE m.id = $id RETURN m.id AS id", id=stored.id) == []


def test_update_refuses_a_bad_expected_version(services, run, agent, stored):
    async def go():
        await services.memories.update(agent, stored.id, MemoryPatch(changes={"importance": 0.9}, expected_version=0))

    with pytest.raises(InvalidInput) as refused:
        run(go)
    assert refused.value.field == "expected_version"


def test_update_still_applies_every_allowed_field(services, run, agent, stored):
    when = datetime(2026, 3, 1, 8, 30, tzinfo=UTC)

    async def go():
        return await services.memories.update(agent, stored.id, MemoryPatch(changes={
            "text": "The user prefers green tea", "memory_type": "preference", "category": "drinks",
            "importance": 1, "tags": [" tea ", "tea", "green"], "event_at": when, "metadata": {"k": 1}}))

    patched = run(go)
    assert (patched.text, patched.memory_type, patched.category, patched.importance, patched.tags,
            patched.event_at, patched.metadata, patched.version, patched.agent) == \
        ("The user prefers green tea", "preference", "drinks", 1.0, ("tea", "green"), when, {"k": 1}, 2, agent)


@pytest.mark.parametrize("fields, field", [
    ({"agent": ""}, "agent"),
    ({"agent": "has space"}, "agent"),
    ({"text": ""}, "text"),
    ({"memory_type": "gossip"}, "memory_type"),
    ({"importance": 2.0}, "importance"),
    ({"category": "c" * 101}, "category"),
    ({"tags": ("",)}, "tags[0]"),
    ({"tags": "abc"}, "tags"),
    ({"metadata": {"blob": "y" * 20_000}}, "metadata"),
    ({"metadata": "{}"}, "metadata"),
    ({"event_at": "2026-01-01"}, "event_at"),
    ({"on_conflict": "ignore"}, "on_conflict"),
    ({"provenance": Provenance(source="oracle")}, "provenance.source"),
    ({"provenance": Provenance(ref="r" * 501)}, "provenance.ref"),
    ({"suspicious": "d" * 2001}, "quarantine.details"),
    ({"claim": Claim(subject="user", predicate="likes", value="tea", exclusive="yes")}, "claim.exclusive"),
])
def test_store_refuses_values_outside_the_rules_and_writes_nothing(services, run, cypher, agent, fields, field):
    items = [NewMemory(agent=agent, text="fine"), NewMemory(**{"agent": agent, "text": "also fine", **fields})]

    async def go():
        await services.writes.store_many(items)

    with pytest.raises(InvalidInput) as refused:
        run(go)
    assert refused.value.field == f"memories[1].{field}"
    assert cypher("MATCH (m:Memory {agent: $a}) RETURN count(m) AS n", a=agent) == [{"n": 0}]

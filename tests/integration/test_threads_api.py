"""Conversation threads through the API: turns keep the order they arrive in, joined by NEXT
edges; concurrent writers append to one chain; hard delete joins the turns either side; export and
import carry threads; one tenant's thread never touches another's."""
from __future__ import annotations

import asyncio
import json

from graph.memories.model import NewMemory
from graph.memories.service import hard_delete_many_in
from graph.writes.service import WriteService


def store(client, agent, text, thread=None, **extra):
    response = client.post("/v1/memories", json={"agent": agent, "text": text, "thread": thread, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def batch(client, agent, items):
    response = client.post("/v1/memories:batch", json={"memories": [{"agent": agent, **i} for i in items]})
    assert response.status_code == 201, response.text
    return response.json()["memories"]


def next_of(client, agent, memory_id) -> list[str]:
    links = client.get(f"/v1/memories/{memory_id}/links", params={"agent": agent}).json()["links"]
    return sorted(link["id"] for link in links if link["type"] == "NEXT" and link["direction"] == "out")


def chain(client, agent, first_id) -> list[str]:
    """The thread from its first turn, along NEXT."""
    out, at = [first_id], first_id
    while nxt := next_of(client, agent, at):
        assert len(nxt) == 1, f"{at} has {len(nxt)} NEXT edges"
        at = nxt[0]
        assert at not in out, "a NEXT cycle"
        out.append(at)
    return out


def test_turns_join_their_thread_in_order_across_writes_and_tenants_stay_apart(client, agent):
    first = store(client, agent, "Alice: are you coming to Lisbon?", thread="chat-1")
    rest = batch(client, agent, [{"text": "Bob: yes, on Friday", "thread": "chat-1"},
                                 {"text": "Elsewhere: an unrelated note"},
                                 {"text": "Carol: a second conversation", "thread": "chat-2"},
                                 {"text": "Alice: great, the aquarium then", "thread": "chat-1"}])
    last = store(client, agent, "Bob: it was amazing, we went twice", thread="chat-1")
    ids = [first["id"], rest[0]["id"], rest[3]["id"], last["id"]]
    assert [first["turn"], rest[0]["turn"], rest[3]["turn"], last["turn"]] == [0, 1, 2, 3]
    assert (rest[1]["thread"], rest[1]["turn"], rest[2]["thread"], rest[2]["turn"]) == (None, None, "chat-2", 0)
    assert chain(client, agent, first["id"]) == ids
    got = client.get(f"/v1/memories/{rest[3]['id']}", params={"agent": agent}).json()
    assert (got["thread"], got["turn"], got["text"]) == ("chat-1", 2, "Alice: great, the aquarium then")
    # NEXT is the engine's: listed both ways, never removable by hand.
    links = client.get(f"/v1/memories/{rest[0]['id']}/links", params={"agent": agent}).json()["links"]
    assert sorted((link["type"], link["direction"], link["id"]) for link in links) == \
        [("NEXT", "in", first["id"]), ("NEXT", "out", rest[3]["id"])]
    refused = client.delete(f"/v1/memories/{first['id']}/links/NEXT/{rest[0]['id']}", params={"agent": agent})
    assert refused.status_code == 409 and "thread" in refused.text, refused.text
    # Another tenant's thread of the same id is its own chain, from turn 0.
    other = f"{agent}-other"
    theirs = store(client, other, "Mallory: hello", thread="chat-1")
    assert theirs["turn"] == 0 and next_of(client, agent, last["id"]) == []
    assert chain(client, other, theirs["id"]) == [theirs["id"]]
    assert client.get(f"/v1/memories/{theirs['id']}/links", params={"agent": agent}).status_code == 404


def test_a_bad_thread_is_refused_naming_the_field(client, agent, services, run):
    for bad in ("", "   ", "x" * 201, 7):
        response = client.post("/v1/memories", json={"agent": agent, "text": "hi", "thread": bad})
        assert response.status_code == 422, (bad, response.text)
        assert "thread" in json.dumps(response.json())
    response = client.post("/v1/memories:batch", json={"memories": [{"agent": agent, "text": "ok"},
                                                                     {"agent": agent, "text": "x", "thread": ""}]})
    assert response.status_code == 422 and "memories[1]" in response.text
    # The domain holds the rule too, for pipelines that call it directly.
    from graph.core.errors import InvalidInput
    try:
        run(services.writes.store, NewMemory(agent=agent, text="hi", thread=" "))
    except InvalidInput as exc:
        assert exc.field == "thread"
    else:
        raise AssertionError("a blank thread was stored")


def test_concurrent_writers_append_to_one_chain(client, agent, services, run):
    """Twelve writers, each its own WriteService (as separate processes would be), append to one
    new thread at once: every turn gets its own place, and the NEXT edges make one chain."""
    async def burst():
        writers = [WriteService(services.runner, services.encoder, max_text_chars=1_000, max_batch=10)
                   for _ in range(12)]
        return await asyncio.gather(*(w.store_many([NewMemory(agent=agent, text=f"turn {i} a", thread="busy"),
                                                    NewMemory(agent=agent, text=f"turn {i} b", thread="busy")])
                                      for i, w in enumerate(writers)))
    results = [r for pair in run(burst) for r in pair]
    turns = sorted(r.memory.turn for r in results)
    assert turns == list(range(24))
    by_turn = {r.memory.turn: r.memory for r in results}
    ordered = chain(client, agent, by_turn[0].id)
    assert ordered == [by_turn[t].id for t in range(24)]
    # A batch's two turns stay next to each other.
    for r in results:
        if r.memory.text.endswith(" a"):
            twin = next(x.memory for x in results if x.memory.text == r.memory.text[:-1] + "b")
            assert twin.turn == r.memory.turn + 1


def test_hard_delete_joins_the_turns_either_side_and_the_thread_goes_with_its_last_turn(client, agent, cypher):
    turns = batch(client, agent, [{"text": f"line {i}", "thread": "t"} for i in range(4)])
    ids = [t["id"] for t in turns]

    def delete(memory_id):
        client.delete(f"/v1/memories/{memory_id}", params={"agent": agent, "hard": True}).raise_for_status()

    delete(ids[1])  # a middle turn: its neighbours are joined
    assert chain(client, agent, ids[0]) == [ids[0], ids[2], ids[3]]
    delete(ids[3])  # the last turn: the next one joins the one before it
    after = store(client, agent, "line 4", thread="t")
    assert after["turn"] == 4 and chain(client, agent, ids[0]) == [ids[0], ids[2], after["id"]]
    delete(ids[0])  # the first: the chain starts at the next
    assert chain(client, agent, ids[2]) == [ids[2], after["id"]]
    assert cypher("MATCH (t:Thread {agent: $agent})-[:LAST]->(m) RETURN t.id AS id, m.id AS last", agent=agent) == \
        [{"id": "t", "last": after["id"]}]
    delete(ids[2])
    delete(after["id"])
    assert cypher("MATCH (t:Thread {agent: $agent}) RETURN count(t) AS n", agent=agent) == [{"n": 0}]
    again = store(client, agent, "a new start", thread="t")
    assert again["turn"] == 0 and next_of(client, agent, again["id"]) == []


def test_hard_deletes_of_several_turns_at_once_keep_the_thread_joined(client, agent, services, run, cypher):
    """A maintenance job deletes a batch (memories.service.hard_delete_many_in): two neighbouring
    turns and the last go in one transaction; the rest stay one chain, and the Thread's LAST moves
    back."""
    ids = [t["id"] for t in batch(client, agent, [{"text": f"turn number {i}", "thread": "t"} for i in range(6)])]
    gone = [ids[1], ids[2], ids[5]]

    async def prune():
        return await services.runner.write_tx(lambda tx: hard_delete_many_in(tx, agent, gone, "test"))
    found, _ = run(prune)
    assert found == set(gone)
    assert chain(client, agent, ids[0]) == [ids[0], ids[3], ids[4]]
    assert cypher("MATCH (t:Thread {agent: $agent})-[:LAST]->(m) RETURN m.id AS last", agent=agent) == \
        [{"last": ids[4]}]

    async def prune_rest():
        return await services.runner.write_tx(lambda tx: hard_delete_many_in(tx, agent, [ids[0], ids[3], ids[4]],
                                                                             "test"))
    run(prune_rest)
    assert cypher("MATCH (t:Thread {agent: $agent}) RETURN count(t) AS n", agent=agent) == [{"n": 0}]


def test_export_and_import_carry_threads(client, agent, cypher):
    turns = batch(client, agent, [{"text": f"said {i}", "thread": "s1"} for i in range(3)])
    lines = client.get("/v1/export", params={"agent": agent}).text.splitlines()
    parsed = [json.loads(line) for line in lines]
    memories = {m["id"]: m for m in parsed if m["kind"] == "memory"}
    assert [(memories[t["id"]]["thread"], memories[t["id"]]["turn"]) for t in turns] == \
        [("s1", 0), ("s1", 1), ("s1", 2)]
    edges = sorted((e["from"], e["to"]) for e in parsed if e["kind"] == "edge" and e["type"] == "NEXT")
    assert edges == sorted([(turns[0]["id"], turns[1]["id"]), (turns[1]["id"], turns[2]["id"])])

    for t in turns:  # wiped: the thread goes with its last turn
        client.delete(f"/v1/memories/{t['id']}", params={"agent": agent, "hard": True}).raise_for_status()
    assert cypher("MATCH (t:Thread {agent: $agent}) RETURN count(t) AS n", agent=agent) == [{"n": 0}]
    # Restored in two batches that split the thread: the chain, the places and the tail come back.
    body = [line for line in lines if json.loads(line)["kind"] != "operation"]
    for part in (body[:3], body[3:]):
        answer = client.post("/v1/import", params={"agent": agent}, content="\n".join(part).encode(),
                             headers={"content-type": "application/x-ndjson"})
        assert answer.status_code == 200, answer.text
    ids = [t["id"] for t in turns]
    assert chain(client, agent, ids[0]) == ids
    assert [client.get(f"/v1/memories/{i}", params={"agent": agent}).json()["turn"] for i in ids] == [0, 1, 2]
    # The next turn continues the restored thread.
    more = store(client, agent, "said 3", thread="s1")
    assert more["turn"] == 3 and chain(client, agent, ids[0]) == [*ids, more["id"]]

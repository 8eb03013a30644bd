"""Batch writes: one transaction, all or nothing."""
from __future__ import annotations

from tests.helpers import assert_problem, list_all


def test_batch_of_1000_lands_in_one_call(client, agent):
    memories = [{"agent": agent, "text": f"observation {i}", "importance": (i % 10) / 10} for i in range(1000)]
    response = client.post("/v1/memories:batch", json={"memories": memories})
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["count"] == 1000 and len({m["id"] for m in body["memories"]}) == 1000
    assert [m["text"] for m in body["memories"]][:3] == ["observation 0", "observation 1", "observation 2"]
    assert len(list_all(client, agent)) == 1000


def test_batch_with_one_bad_item_writes_nothing_and_names_the_item(client, agent):
    good = {"agent": agent, "text": "fine"}
    for bad, field in [({"agent": agent, "text": "   "}, "memories[2].text"),
                       ({"agent": agent, "text": "x", "importance": 1.5}, "memories[2].importance"),
                       ({"agent": agent, "text": "x", "colour": "red"}, "memories[2].colour"),
                       ({"agent": "", "text": "x"}, "memories[2].agent")]:
        response = client.post("/v1/memories:batch", json={"memories": [good, good, bad, good]})
        assert_problem(response, 422, field)
    assert list_all(client, agent) == []


def test_batch_over_the_limit_or_empty_is_rejected(client, agent, services):
    limit = services.settings.max_batch
    over = [{"agent": agent, "text": f"m{i}"} for i in range(limit + 1)]
    assert_problem(client.post("/v1/memories:batch", json={"memories": over}), 422, "memories")
    assert_problem(client.post("/v1/memories:batch", json={"memories": []}), 422, "memories")
    assert list_all(client, agent) == []


def test_a_batch_write_warms_the_vector_index_in_the_background(client, agent, services):
    """The index folds new vectors in after the commit, off the request path, so a user's first
    search after a bulk load does not pay for ArcadeDB's lazy HNSW build."""
    import time

    before = services.retrieval.warm_ups
    texts = [f"Warm-up probe note {i} about harbour logistics" for i in range(50)]
    response = client.post("/v1/memories:batch", json={"memories": [{"agent": agent, "text": t} for t in texts]})
    assert response.status_code == 201, response.text
    deadline = time.monotonic() + 30
    while services.retrieval.warm_ups == before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert services.retrieval.warm_ups > before
    results = client.post("/v1/search", json={"agent": agent, "query": "harbour logistics", "limit": 5}).json()
    assert len(results["results"]) == 5


def test_a_write_plans_the_written_tenants_search_in_the_background(client, agent, services, run, monkeypatch):
    """After a commit, one search in a tenant just written runs off the request path, so that the
    first search after a bulk load finds its statements planned for the grown graph (Neo4j plans
    again once counts have moved). It is that tenant's own read, and it counts no access."""
    import time

    retrieval = services.retrieval
    probed = []
    real = retrieval._search

    async def spy(query, embedding):
        probed.append(query)
        return await real(query, embedding)

    monkeypatch.setattr(retrieval, "_search", spy)
    before = retrieval.plan_probes
    texts = [f"Planning probe note {i}: what the user cooks for dinner on weekdays" for i in range(30)]
    response = client.post("/v1/memories:batch", json={"memories": [{"agent": agent, "text": t} for t in texts]})
    assert response.status_code == 201, response.text
    deadline = time.monotonic() + 30
    while (agent not in [q.agent for q in probed] or retrieval.plan_probes == before) \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    assert retrieval.plan_probes > before
    # Earlier tests' tenants may be probed in the same round; each probe is one tenant's own search.
    assert agent in [q.agent for q in probed] and not any(q.track_access for q in probed)
    run(services.access.flush)
    assert {m["access_count"] for m in list_all(client, agent)} == {0}

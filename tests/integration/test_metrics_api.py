"""/metrics on both backends, after real calls: the routes' latency histograms by template and
status, the statements those calls ran by their registry names, the embedding model's calls by
lane, and what is said of the process and the driver's pool; the JSON access line of a real write."""
from __future__ import annotations

import io
import json
import logging
import uuid

from graph.observability.logs import JsonFormatter
from tests.helpers import sample, scrape, search, store

REQUESTS = "credence_http_request_duration_seconds_count"
STATEMENTS = "credence_db_statement_duration_seconds_count"
EMBEDDINGS = "credence_embedding_duration_seconds_count"


def test_metrics_after_a_store_a_batch_and_a_search(client, services, agent):
    before = scrape(client)
    memory = store(client, agent, "The Lisbon trip budget is 2,000 euros")
    batch = client.post("/v1/memories:batch", json={"memories": [
        {"agent": agent, "text": f"Packing list item {i} for the Lisbon trip"} for i in range(3)]})
    assert batch.status_code == 201, batch.text
    assert search(client, agent, "Lisbon trip budget")[0]["id"] == memory["id"]
    assert client.get(f"/v1/memories/{memory['id']}", params={"agent": agent}).status_code == 200
    unknown = str(uuid.uuid4())
    assert client.get(f"/v1/memories/{unknown}", params={"agent": agent}).status_code == 404
    after = scrape(client)

    def grew(name: str, **labels: str) -> float:
        return sample(after, name, **labels) - sample(before, name, **labels)

    # One series per route template, method and status; never the raw path.
    assert grew(REQUESTS, method="POST", route="/v1/memories", status="201") == 1
    assert grew(REQUESTS, method="POST", route="/v1/memories:batch", status="201") == 1
    assert grew(REQUESTS, method="POST", route="/v1/search", status="200") == 1
    assert grew(REQUESTS, method="GET", route="/v1/memories/{memory_id}", status="200") == 1
    assert grew(REQUESTS, method="GET", route="/v1/memories/{memory_id}", status="404") == 1
    assert grew("credence_http_request_duration_seconds_bucket", method="POST", route="/v1/search", status="200",
                le="+Inf") == 1
    assert not [labels for (_, labels) in after
                if any(memory["id"] in str(v) or unknown in str(v) or agent in str(v) for _, v in labels)]

    # The statements those calls ran, by their names in cypher/ (a small tenant: exact ranking).
    for statement, runs in [("memories/create", 2), ("audit/record", 2), ("retrieval/exact", 1),
                            ("retrieval/keyword_exact", 1), ("retrieval/hydrate", 1), ("memories/get", 2)]:
        assert grew(STATEMENTS, statement=statement, outcome="ok") >= runs, statement
    assert sample(after, "credence_db_statement_duration_seconds_sum", statement="retrieval/hydrate") > 0
    assert grew("credence_db_unit_duration_seconds_count", kind="write", outcome="ok") >= 2

    # The model: the stored text and the query alone (lane single), the three texts together (batch).
    # Each write also starts a background index warm-up that embeds its probe text in the single lane,
    # which may or may not have run by the scrape: at least two single calls, exactly one batch.
    assert services.encoder.runtime == "onnx"  # the service's embedder: no torch in the process
    assert grew(EMBEDDINGS, lane="single", runtime="onnx") >= 2
    assert grew("credence_embedding_wait_seconds_count", lane="single") >= 2
    assert grew(EMBEDDINGS, lane="batch", runtime="onnx") == 1
    assert grew("credence_embedding_texts_total", lane="batch") == 3
    assert grew("credence_embedding_wait_seconds_count", lane="batch") == 1

    # The process and the driver's pool, as far as the driver lets anyone see it.
    assert sample(after, "process_resident_memory_bytes") > 0
    assert sample(after, "credence_backend_process_resident_memory_bytes") > 0  # the database's JVM, a child
    assert sample(after, "credence_db_pool_max_size") == services.settings.neo4j_max_pool_size
    assert ("credence_db_sessions_in_use", frozenset()) in after
    assert ("credence_access_pending_memories", frozenset()) in after


def test_the_access_count_queue_depth_is_reported(client, services, run, agent):
    tracker = services.access
    run(tracker.stop)  # flushes what is pending and stops the background flush, so nothing empties the queue
    try:
        async def searched() -> None:
            tracker.record(agent, ["m-a", "m-b", "m-a"])  # what searches returning these memories queue

        run(searched)
        assert sample(scrape(client), "credence_access_pending_memories") == 2
        run(tracker.flush)
        assert sample(scrape(client), "credence_access_pending_memories") == 0
    finally:
        async def restart() -> None:
            tracker.start()

        run(restart)


def test_access_lines_are_json_with_the_request_id_route_and_status(client, agent):
    stream, access = io.StringIO(), logging.getLogger("credence.access")
    handler, level = logging.StreamHandler(stream), access.level
    handler.setFormatter(JsonFormatter())
    access.addHandler(handler)
    access.setLevel(logging.INFO)
    try:
        stored = client.post("/v1/memories", json={"agent": agent, "text": "JSON logs please"},
                             headers={"X-Request-Id": "req-json-1"})
        unknown = str(uuid.uuid4())
        missing = client.get(f"/v1/memories/{unknown}", params={"agent": agent})
    finally:
        access.removeHandler(handler)
        access.setLevel(level)
    assert stored.status_code == 201 and stored.headers["x-request-id"] == "req-json-1"
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [(line["request_id"], line["method"], line["route"], line["status"]) for line in lines] == [
        ("req-json-1", "POST", "/v1/memories", 201),
        (missing.headers["x-request-id"], "GET", "/v1/memories/{memory_id}", 404)]
    assert lines[1]["path"] == f"/v1/memories/{unknown}"
    assert all(line["logger"] == "credence.access" and line["level"] == "info" and line["duration_ms"] > 0
               for line in lines)

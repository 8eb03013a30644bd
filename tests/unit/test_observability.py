"""/metrics, request ids and the log format, through the real app without a database: the routes
used here (a refusal by the gate, a path no route serves, /metrics itself) never reach one. What
the database statements and the model report is tested on both backends in
tests/integration/test_metrics_api.py."""
from __future__ import annotations

import io
import json
import logging
import warnings
from types import SimpleNamespace

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from api.app import create_app
from graph.observability import logs
from graph.settings import Settings
from tests.helpers import sample, scrape

REQUESTS = "credence_http_request_duration_seconds_count"


def healthy() -> dict[str, str]:
    return {"kind": "none", "state": "external"}


async def no_queue() -> None:
    """/metrics counts the job queue in the database at each scrape; here there is none."""


def app_client(backend_health=healthy, **settings) -> TestClient:
    """The real app over services that hold only settings and answer /health (nothing here needs more)."""
    services = SimpleNamespace(settings=Settings(neo4j_uri=None, **settings), backend_health=backend_health,
                               maintenance=SimpleNamespace(publish_depth=no_queue))
    return TestClient(create_app(services=services))  # type: ignore[arg-type]


def test_requests_are_counted_by_route_template_and_status():
    client = app_client(require_api_key=True)
    before = scrape(client)
    refused = client.get("/v1/memories/m-7f3a9c")  # the gate's 401: answered before any route ran
    assert refused.status_code == 401
    assert client.get("/v1/no/such/route/m-7f3a9c").status_code == 401
    assert client.get("/nowhere/m-7f3a9c").status_code == 404
    after = scrape(client)

    def delta(**labels: str) -> float:
        return sample(after, REQUESTS, **labels) - sample(before, REQUESTS, **labels)

    assert delta(method="GET", route="/v1/memories/{memory_id}", status="401") == 1
    assert delta(method="GET", route="unmatched", status="401") == 1
    assert delta(method="GET", route="unmatched", status="404") == 1
    assert delta(method="GET", route="/metrics", status="200") == 1  # the first scrape
    assert not [labels for (_, labels) in after if any("m-7f3a9c" in str(v) for _, v in labels)]
    assert sample(after, "process_resident_memory_bytes") > 0


def test_the_metrics_token_guards_metrics_only():
    client = app_client(metrics_token="s3cret-metrics-token")
    wrong = ({}, {"Authorization": "Bearer wrong-token-of-some-length"}, {"Authorization": "s3cret-metrics-token"})
    for headers in wrong:
        refused = client.get("/metrics", headers=headers)
        assert refused.status_code == 401
        assert refused.headers["content-type"] == "application/problem+json"
        assert refused.headers["www-authenticate"] == "Bearer"
        assert "credence_" not in refused.text
    samples = scrape(client, Authorization="Bearer s3cret-metrics-token")
    assert sample(samples, "process_resident_memory_bytes") > 0
    assert app_client().get("/metrics").status_code == 200  # unset: open, like /health


def test_metrics_speak_openmetrics_to_a_scraper_that_asks():
    response = app_client().get("/metrics", headers={"Accept": "application/openmetrics-text; version=1.0.0"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/openmetrics-text; version=1.0.0")
    assert response.text.rstrip().endswith("# EOF")


def test_each_response_carries_a_request_id():
    client = app_client()
    kept = client.get("/health", headers={"X-Request-Id": "trace-42.a"})
    assert kept.headers["x-request-id"] == "trace-42.a"
    made = client.get("/health").headers["x-request-id"]
    other = client.get("/health").headers["x-request-id"]
    assert len(made) == 32 and made != other
    replaced = client.get("/health", headers={"X-Request-Id": "x" * 129}).headers["x-request-id"]
    assert replaced != "x" * 129 and len(replaced) == 32


def test_an_unexpected_error_is_counted_and_reported_with_its_request_id(root_logging):
    def broken() -> dict[str, str]:
        raise RuntimeError("a bug in the health check")

    stream = io.StringIO()
    logs.configure("info", "json", stream)
    client = app_client(backend_health=broken)
    before = scrape(client)
    failed = client.get("/health", headers={"X-Request-Id": "req-500"})
    assert failed.status_code == 500 and failed.headers["x-request-id"] == "req-500"
    assert sample(scrape(client), REQUESTS, route="/health", status="500") - \
        sample(before, REQUESTS, route="/health", status="500") == 1
    entries = [json.loads(line) for line in stream.getvalue().splitlines()]
    [error] = [e for e in entries if e["level"] == "error"]
    assert error["request_id"] == "req-500" and "RuntimeError: a bug in the health check" in error["exception"]
    [access] = [e for e in entries if e["logger"] == "credence.access" and e["route"] == "/health"]
    assert (access["request_id"], access["status"]) == ("req-500", 500)


@pytest.fixture
def root_logging():
    """Leave the root logger as the test found it."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.captureWarnings(False)


def test_json_logs_are_one_object_per_line(root_logging):
    stream = io.StringIO()
    logs.configure("info", "json", stream)
    app_client().get("/health", headers={"X-Request-Id": "req-1"})
    log = logging.getLogger("credence.test")
    log.info("plain %s", "line")
    try:
        raise ValueError("two\nlines")
    except ValueError:
        log.exception("it failed")
    log.debug("below the level")
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.warn("a library's warning", UserWarning, stacklevel=1)
    lines = stream.getvalue().splitlines()
    entries = [json.loads(line) for line in lines]  # every line parses on its own
    assert all({"time", "level", "logger", "message"} <= set(e) for e in entries)
    [access] = [e for e in entries if e["logger"] == "credence.access"]
    assert (access["request_id"], access["method"], access["route"], access["path"], access["status"]) == \
        ("req-1", "GET", "/health", "/health", 200)
    assert access["level"] == "info" and isinstance(access["duration_ms"], float)
    assert access["time"].endswith("+00:00")
    plain, failed, warned = entries[-3:]
    assert (plain["logger"], plain["message"], "request_id" in plain) == ("credence.test", "plain line", False)
    assert failed["level"] == "error" and "ValueError: two\nlines" in failed["exception"]
    assert not [e for e in entries if e["message"] == "below the level"]
    assert warned["logger"] == "py.warnings" and "UserWarning: a library's warning" in warned["message"]


def test_text_logs_stay_the_default(root_logging):
    stream = io.StringIO()
    logs.configure(Settings().log_level, Settings().log_format, stream)
    logging.getLogger("credence.test").warning("as %s", "before")
    assert stream.getvalue().rstrip().endswith("WARNING credence.test: as before")
    with pytest.raises(ValueError, match="log format"):
        logs.configure("info", "xml")


def test_observability_settings_refuse_mistakes():
    with pytest.raises(ValidationError, match="log_format"):
        Settings(log_format="xml")
    with pytest.raises(ValidationError, match="metrics_token"):
        Settings(metrics_token="short")

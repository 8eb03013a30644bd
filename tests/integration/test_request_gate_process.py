"""Authentication before the body, and the body limit (issue 13, item 6), against the service as a
user runs it (`python -m api` under uvicorn), over raw sockets so nothing buffers for us."""
from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from tests.integration.test_service_process import free_port, launch, wait_ready

pytestmark = pytest.mark.slow
ADMIN_KEY = "gate-admin-key"
LIMIT, BATCH_LIMIT = 65_536, 131_072
HUNDRED_MB = 100 * 1024 * 1024


@pytest.fixture(scope="module", params=["embedded", "neo4j"])
def service(request, tmp_path_factory, exported_models):
    if request.param == "neo4j":
        from tests.conftest import local_neo4j_available
        local_neo4j_available()
    port = free_port()
    proc = launch(request.param, tmp_path_factory.mktemp(f"gate-{request.param}"), port,
                  CREDENCE_REQUIRE_API_KEY="true", CREDENCE_ADMIN_API_KEY=ADMIN_KEY,
                  CREDENCE_MAX_BODY_BYTES=str(LIMIT), CREDENCE_MAX_BATCH_BODY_BYTES=str(BATCH_LIMIT),
                  models=exported_models)
    try:
        wait_ready(proc, port)
        yield proc, port
    finally:
        proc.terminate()
        proc.wait(60)


def exchange(port: int, head: str, body_chunks=(), *, chunked: bool = False) -> tuple[int, dict]:
    """Send a request head, then as much of the body as the server takes; the status and problem."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(head.encode())
        try:
            for chunk in body_chunks:
                sock.sendall(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n" if chunked else chunk)
            if chunked:
                sock.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed without reading the rest: what we want
        raw = b""
        try:
            while b"\r\n\r\n" not in raw or len(raw.split(b"\r\n\r\n", 1)[1]) < _length(raw):
                data = sock.recv(65_536)
                if not data:
                    break
                raw += data
        except ConnectionResetError:
            pass
    head_bytes, _, payload = raw.partition(b"\r\n\r\n")
    status = int(head_bytes.split(b" ", 2)[1])
    assert b"application/problem+json" in head_bytes.lower(), head_bytes
    return status, json.loads(payload[:_length(raw)])


def _length(raw: bytes) -> int:
    for line in raw.split(b"\r\n\r\n", 1)[0].split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return int(line.split(b":", 1)[1])
    return 1 << 30


def post_head(path: str, length: int | None, key: str | None = None) -> str:
    lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json"]
    lines.append(f"Content-Length: {length}" if length is not None else "Transfer-Encoding: chunked")
    if key:
        lines.append(f"Authorization: Bearer {key}")
    return "\r\n".join(lines) + "\r\n\r\n"


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_an_unauthenticated_body_is_refused_from_the_headers(service):
    _, port = service
    # Only the head of a 100 MB request is sent: the 401 cannot have waited for the body.
    status, problem = exchange(port, post_head("/v1/memories:batch", HUNDRED_MB))
    assert status == 401 and problem["status"] == 401
    # Malformed JSON without a key is a 401 too, not a 422 about the JSON.
    status, _ = exchange(port, post_head("/v1/memories", 9), [b"{not json"])
    assert status == 401


def test_five_unauthenticated_100_mb_bodies_leave_the_server_s_memory_alone(service):
    proc, port = service
    before = rss_kb(proc.pid)
    chunk = b"x" * (1024 * 1024)
    for _ in range(5):
        status, _ = exchange(port, post_head("/v1/memories:batch", HUNDRED_MB), [chunk] * 100)
        assert status == 401
    grown_mb = (rss_kb(proc.pid) - before) / 1024
    assert grown_mb < 50, f"the service grew by {grown_mb:.0f} MB"


def test_a_body_over_the_limit_is_413_by_length_or_as_it_streams(service):
    _, port = service
    status, problem = exchange(port, post_head("/v1/memories", LIMIT + 1, ADMIN_KEY))
    assert status == 413 and problem["max_bytes"] == LIMIT
    # The batch route has its own, larger limit.
    status, problem = exchange(port, post_head("/v1/memories:batch", BATCH_LIMIT + 1, ADMIN_KEY))
    assert status == 413 and problem["max_bytes"] == BATCH_LIMIT
    # Without a Content-Length the bytes are counted as they arrive.
    status, problem = exchange(port, post_head("/v1/memories", None, ADMIN_KEY), [b" " * 16_384] * 8, chunked=True)
    assert status == 413 and problem["max_bytes"] == LIMIT and problem["type"].endswith("body-too-large")
    # Under the limits the request goes through to validation.
    status, problem = exchange(port, post_head("/v1/memories", 2, ADMIN_KEY), [b"{}"])
    assert status == 422

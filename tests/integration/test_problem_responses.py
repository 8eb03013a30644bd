"""Every error is a problem+json and leaves the client's keep-alive connection open (issue 13,
item 2): behind uvicorn, an unhandled 500 used to close the connection after its response (Starlette
raises the error again after answering; uvicorn then drops the socket), 539 client resets in one
load run. The app here is a real uvicorn process serving routes that fail on purpose, wired with the
service's own `api.problems.install`; no database is involved, none is faked."""
from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FAULTY_APP = textwrap.dedent('''
    from fastapi import FastAPI
    from api import problems
    from graph.core.errors import CredenceError

    app = FastAPI()
    problems.install(app)

    @app.get("/boom")
    async def boom():
        raise RuntimeError("an unexpected bug")

    @app.get("/domain-boom")
    async def domain_boom():
        raise CredenceError("a domain error nobody mapped")

    @app.get("/fine")
    async def fine():
        return {"ok": True}

    @app.post("/fine")
    async def fine_post():
        return {"ok": True}
''')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("faulty")
    (folder / "faulty_app.py").write_text(FAULTY_APP)
    port = free_port()
    env = {"PYTHONPATH": f"{folder}:{ROOT}", "PATH": "/usr/bin:/bin"}
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "faulty_app:app", "--host", "127.0.0.1",
                             "--port", str(port), "--log-level", "warning"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None, proc.stdout.read()
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.2)
    yield port
    proc.terminate()
    proc.wait(timeout=30)


def test_an_unhandled_error_is_a_500_problem_and_the_connection_survives(server):
    # http.client never reconnects on its own: a closed socket fails the next request.
    connection = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
    seen = []
    for path in ["/fine", "/boom", "/fine", "/domain-boom", "/boom", "/fine"]:
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        seen.append((path, response.status))
        if path.endswith("boom"):
            assert response.status == 500
            assert response.getheader("content-type").startswith("application/problem+json")
            problem = json.loads(body)
            assert problem["status"] == 500 and problem["type"] == "urn:credence:problem:internal"
            assert "bug" not in problem["detail"]  # the detail never leaks the error itself
        else:
            assert response.status == 200
        assert (response.getheader("connection") or "").lower() != "close"
        socket_in_use = connection.sock
        assert socket_in_use is not None, f"the server closed the connection after {seen}"
    connection.close()


def test_405_names_every_method_of_the_path(server):
    connection = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
    connection.request("DELETE", "/fine")
    response = connection.getresponse()
    response.read()
    assert response.status == 405
    assert response.getheader("content-type").startswith("application/problem+json")
    assert set(response.getheader("allow").split(", ")) >= {"GET", "POST"}
    connection.close()

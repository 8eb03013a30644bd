"""`credence-mcp` as an agent's MCP host runs it: a subprocess over stdio (and one over streamable
HTTP), driven by the MCP SDK's own client, against a Credence service running in its own process
(`python -m api`), on each local backend. What the MCP tools did is checked again through the
service's plain HTTP API."""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from tests.conftest import local_neo4j_available
from tests.integration.test_service_process import BACKENDS, free_port, launch, wait_ready

pytestmark = pytest.mark.slow
CREDENCE_MCP = shutil.which("credence-mcp", path=str(Path(sys.executable).parent))
TOOLS = {"remember", "search", "context", "reinforce", "dispute", "corroborate", "conflicts", "resolve_conflict",
         "quarantined", "review", "forget", "about", "entity_path", "ask", "job_status",
         "consolidation_preview"}


@pytest.fixture(scope="module", params=sorted(BACKENDS))
def service(request, tmp_path_factory, exported_models) -> Iterator[str]:
    """One Credence service process per backend for this module; tests isolate by agent."""
    if request.param == "neo4j":
        local_neo4j_available()
    port = free_port()
    process = launch(request.param, tmp_path_factory.mktemp(f"mcp-{request.param}") / "data", port,
                     models=exported_models)
    try:
        wait_ready(process, port, timeout=300)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()


def new_agent() -> str:
    return f"mcp-{uuid.uuid4().hex[:12]}"


@asynccontextmanager
async def stdio_session(url: str, agent: str, *args: str) -> AsyncIterator[Client]:
    """`credence-mcp` over stdio, configured as a desktop MCP host would (env and flags only)."""
    assert CREDENCE_MCP, "the credence-mcp entry point is not installed (pip install -e './client[mcp]')"
    # PYTHONPATH passes through (the SDK hands a server only a few safe variables), so a worktree's
    # checkout of the client is the one run, not the editable install's.
    passed = {"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {}
    params = StdioServerParameters(command=CREDENCE_MCP, args=list(args),
                                   env={"CREDENCE_URL": url, "CREDENCE_AGENT": agent, **passed})
    async with Client(params, read_timeout_seconds=120) as client:
        yield client


async def call(client: Client, tool: str, **arguments: Any) -> Any:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content[0].text
    out = result.structured_content
    return out["result"] if set(out) == {"result"} else out  # lists and strings come wrapped


async def failure(client: Client, tool: str, **arguments: Any) -> str:
    result = await client.call_tool(tool, arguments)
    assert result.is_error
    return result.content[0].text


def budget(value: str) -> dict[str, str]:
    return {"subject": "project", "predicate": "budget_is", "value": value}


def test_an_mcp_session_stores_searches_and_resolves_a_conflict(service):
    agent = new_agent()

    async def session() -> dict[str, Any]:
        async with stdio_session(service, agent) as mcp:
            assert {t.name for t in (await mcp.list_tools()).tools} == TOOLS
            real = await call(mcp, "remember", text="The project budget is $750", claim=budget("$750"),
                              source="user_explicit", ref="msg-17")
            assert (real["status"], real["source_type"], real["claim"]["value"]) == ("active", "user_explicit", "$750")
            # A less trusted source contradicts the belief: quarantined, with a pending conflict.
            draft = await call(mcp, "remember", text="The project budget is $1,200", claim=budget("$1,200"),
                               source="document", ref="draft-plan.pdf")
            assert draft["status"] == "quarantined" and draft["pending_conflict_id"]

            found = await call(mcp, "search", query="what is the project budget?")
            assert [hit["id"] for hit in found["results"]] == [real["id"]]
            [conflict] = await call(mcp, "conflicts")
            assert (conflict["id"], conflict["new_id"], conflict["existing_id"]) == \
                (draft["pending_conflict_id"], draft["id"], real["id"])
            assert [m["id"] for m in await call(mcp, "quarantined")] == [draft["id"]]

            resolved = await call(mcp, "resolve_conflict", conflict_id=conflict["id"], action="supersede",
                                  reason="the owner approved the new plan")
            assert (resolved["memory"]["id"], resolved["memory"]["status"]) == (draft["id"], "active")
            assert resolved["superseded"] == [real["id"]]
            assert await call(mcp, "conflicts") == [] and await call(mcp, "quarantined") == []
            found = await call(mcp, "search", query="what is the project budget?")
            assert [hit["id"] for hit in found["results"]] == [draft["id"]]
            assert "- The project budget is $1,200" in await call(mcp, "context", query="project budget")

            # Resources: a memory and its explanation, as JSON.
            old = (await mcp.read_resource(f"credence://memories/{real['id']}")).contents[0]
            assert (old.mime_type, json.loads(old.text)["status"]) == ("application/json", "superseded")
            why = json.loads((await mcp.read_resource(f"credence://memories/{draft['id']}/explanation")).contents[0].text)
            assert (why["memory"]["id"], why["claim"]["value"]) == (draft["id"], "$1,200")
            assert [s["id"] for s in why["supersedes"]] == [real["id"]]
            return {"real": real, "draft": draft, "conflict": conflict}

    done = anyio.run(session)
    # The service itself, over plain HTTP, holds what the session did, under the configured agent.
    real = httpx.get(f"{service}/v1/memories/{done['real']['id']}", params={"agent": agent}).json()
    assert real["status"] == "superseded"
    settled = httpx.get(f"{service}/v1/conflicts", params={"agent": agent, "include_resolved": True}).json()
    assert [(c["id"], c["resolution"]) for c in settled["conflicts"]] == [(done["conflict"]["id"], "supersede")]
    actors = {op["actor"] for op in httpx.get(f"{service}/v1/memories/{done['draft']['id']}/history",
                                              params={"agent": agent}).json()["operations"]}
    assert actors == {"credence-mcp"}  # the audit trail names the MCP server as the actor


def test_feedback_review_and_forget_through_mcp(service):
    agent = new_agent()

    async def session() -> None:
        async with stdio_session(service, agent) as mcp:
            jazz = await call(mcp, "remember", text="The user likes jazz", memory_type="preference", tags=["music"])
            assert (await call(mcp, "reinforce", memory_id=jazz["id"]))["reinforcements"] == 1
            assert (await call(mcp, "corroborate", memory_id=jazz["id"], source="tool_output"))["corroboration"] == 2
            assert (await call(mcp, "dispute", memory_id=jazz["id"], reason="said so once"))["disputes"] == 1

            await call(mcp, "remember", text="The user lives in Lisbon", source="user_explicit",
                       claim={"subject": "user", "predicate": "lives_in", "value": "Lisbon"})
            rumour = await call(mcp, "remember", text="The user lives in Paris", source="inference",
                                claim={"subject": "user", "predicate": "lives_in", "value": "Paris"})
            assert [m["id"] for m in await call(mcp, "quarantined")] == [rumour["id"]]
            reviewed = await call(mcp, "review", memory_id=rumour["id"], action="reject", reason="no source")
            assert reviewed["memory"]["status"] not in ("quarantined", "active")
            assert await call(mcp, "quarantined") == []

            forgotten = await call(mcp, "forget", memory_id=jazz["id"])
            assert forgotten["status"] == "archived"
            found = await call(mcp, "search", query="music the user likes", tags=["music"])
            assert found["results"] == []

            # A maintenance job, enqueued over HTTP, run by the worker inside the service (on by
            # default), followed through the job_status tool; another tenant's job is not found.
            async with httpx.AsyncClient(base_url=service) as http:
                await http.post("/v1/memories", json={"agent": agent, "text": "The gate code changed yesterday",
                                                      "expires_at": "2020-01-01T00:00:00Z"})
                job = (await http.post("/v1/jobs", json={"agent": agent, "kind": "expire"})).json()
                other = (await http.post("/v1/jobs", json={"agent": new_agent(), "kind": "expire"})).json()
            for _ in range(600):
                status = await call(mcp, "job_status", job_id=job["id"])
                if status["status"] == "succeeded":
                    break
                await anyio.sleep(0.1)
            assert (status["status"], status["result"], status["actor"]) == ("succeeded", {"archived": 1}, "api")
            assert "404" in await failure(mcp, "job_status", job_id=other["id"])
            # Plain text, the user's own words, read by the service: a job change supersedes the old job.
            first = await call(mcp, "remember", text="I work at Acme.", ingest=True)
            assert first["ingested"] is True and [o["op"] for o in first["operations"]] == ["ADD"]
            changed = await call(mcp, "remember", text="I left Acme and joined Globex.", ingest=True)
            assert [(o["op"], o["mode"], o["claim"]["value"]) for o in changed["operations"]] == [
                ("UPDATE", "supersede", "Globex")]

    anyio.run(session)
    active = httpx.get(f"{service}/v1/memories", params={"agent": agent, "limit": 100}).json()["items"]
    texts = {m["text"] for m in active}
    assert "I left Acme and joined Globex." in texts and "I work at Acme." not in texts


def test_what_do_we_know_about_x_and_how_two_entities_connect(service):
    agent = new_agent()

    def fact(subject: str, predicate: str, value: str, **when: str) -> dict[str, Any]:
        return {"text": f"{subject} {predicate} {value}", "source": "user_explicit",
                "claim": {"subject": subject, "predicate": predicate, "value": value, **when}}

    async def session() -> dict[str, Any]:
        async with stdio_session(service, agent) as mcp:
            tools = {t.name: t for t in (await mcp.list_tools()).tools}
            assert tools["about"].annotations.read_only_hint and tools["entity_path"].annotations.read_only_hint
            for memory in (fact("user", "employer", "Acme"), fact("Acme", "headquarters", "Seattle"),
                           fact("user", "friend", "Dana"), fact("Dana", "lives_in", "Paris")):
                await call(mcp, "remember", **memory)

            about = await call(mcp, "about", name="ACME")  # by name, case ignored
            assert about["entity"]["name"] == "Acme"
            assert {g["type"]: [(r["source"]["name"], r["target"]["name"]) for r in g["relationships"]]
                    for g in about["relationships"]} == {"located_in": [("Acme", "Seattle")],
                                                         "works_at": [("user", "Acme")]}
            assert {g["predicate"]: [m["role"] for m in g["memories"]] for g in about["memories"]} == {
                "employer": ["value"], "headquarters": ["subject"]}

            path = await call(mcp, "entity_path", source="Seattle", target="Paris")
            assert [e["name"] for e in path["entities"]] == ["Seattle", "Acme", "user", "Dana", "Paris"]
            assert [r["type"] for r in path["relationships"]] == ["located_in", "works_at", "knows", "lives_in"]

            asked = await call(mcp, "ask", question="who is Dana to me")  # routed, answered from the graph
            assert tools["ask"].annotations.read_only_hint
            assert (asked["intent"], asked["explain"]["handler"]) == ("relationship", "relationship")
            assert [e["name"] for e in asked["path"]["entities"]] == ["user", "Dana"]

            far = await failure(mcp, "entity_path", source="Seattle", target="Paris", max_hops=3)
            assert "'Seattle' and 'Paris' are not connected within 3 relationships" in far
            assert "no entity named 'Globex'" in await failure(mcp, "about", name="Globex")
            assert "as_of" in await failure(mcp, "about", name="Acme", as_of="last spring")
            return about

    about = anyio.run(session)
    # The same answer over plain HTTP, for the configured agent.
    plain = httpx.get(f"{service}/v1/entities/{about['entity']['id']}/about", params={"agent": agent}).json()
    assert plain["entity"] == about["entity"]


def test_a_consolidation_preview_says_what_would_change_and_changes_nothing(service):
    agent = new_agent()

    async def session() -> dict[str, Any]:
        async with stdio_session(service, agent) as mcp:
            tools = {t.name: t for t in (await mcp.list_tools()).tools}
            assert tools["consolidation_preview"].annotations.read_only_hint
            for text in ("The user prefers window seats on trains", "The user prefers window seats on the train"):
                await call(mcp, "remember", text=text)
            return await call(mcp, "consolidation_preview")

    preview = anyio.run(session)
    assert preview["dry_run"] and preview["deduplicated"] == 1 and preview["changes"][0]["kind"] == "merge"
    listed = httpx.get(f"{service}/v1/memories", params={"agent": agent}).json()["items"]
    assert [m["status"] for m in listed] == ["active", "active"], "a preview changes nothing"


def test_problems_become_tool_errors_with_the_service_s_own_detail(service):
    agent, missing = new_agent(), str(uuid.uuid4())
    # The service's own answers to the same calls, over plain HTTP.
    not_found = httpx.post(f"{service}/v1/memories/{missing}/reinforce", params={"agent": agent}).json()
    invalid = httpx.post(f"{service}/v1/memories", json={"agent": agent, "text": "x", "memory_type": "rumour"}).json()
    assert (not_found["status"], invalid["status"]) == (404, 422)

    async def session() -> None:
        async with stdio_session(service, agent) as mcp:
            text = await failure(mcp, "reinforce", memory_id=missing)
            assert f"404 Not found: {not_found['detail']}" in text
            text = await failure(mcp, "remember", text="x", memory_type="rumour")
            assert f"422 Invalid input: {invalid['detail']}" in text
            with pytest.raises(MCPError) as unread:
                await mcp.read_resource(f"credence://memories/{missing}")
            assert not_found["detail"] in unread.value.error.message
            # An argument the tool's schema refuses never reaches the service.
            assert "limit" in await failure(mcp, "search", query="x", limit=0)

    anyio.run(session)
    assert httpx.get(f"{service}/v1/memories", params={"agent": agent}).json()["items"] == []  # nothing written


def test_the_agent_comes_from_the_configuration_not_from_the_model(service):
    mine, other = new_agent(), new_agent()

    async def session() -> None:
        async with stdio_session(service, other) as mcp:
            await call(mcp, "remember", text="The other agent's plan is secret")
        async with stdio_session(service, mine) as mcp:
            tools = (await mcp.list_tools()).tools
            assert all("agent" not in t.input_schema["properties"] for t in tools)
            await call(mcp, "remember", text="My own note about plans")
            # A model (or an injected prompt) naming another agent is not obeyed: the argument is ignored.
            found = await call(mcp, "search", query="secret plan", agent=other)
            assert {hit["agent"] for hit in found["results"]} == {mine}
        # Only when the operator allows it do tools take an agent, defaulting to the configured one.
        async with stdio_session(service, mine, "--agent-argument") as mcp:
            search = next(t for t in (await mcp.list_tools()).tools if t.name == "search")
            assert "agent" in search.input_schema["properties"] and "agent" not in search.input_schema["required"]
            found = await call(mcp, "search", query="secret plan", agent=other)
            assert [hit["text"] for hit in found["results"]] == ["The other agent's plan is secret"]
            found = await call(mcp, "search", query="secret plan")
            assert {hit["agent"] for hit in found["results"]} == {mine}

    anyio.run(session)


def test_streamable_http_transport(service, tmp_path):
    agent, port = new_agent(), free_port()
    log = (tmp_path / "credence-mcp.log").open("w")
    process = subprocess.Popen([CREDENCE_MCP, "--transport", "streamable-http", "--port", str(port), "--agent", agent,
                                "--url", service], stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, (tmp_path / "credence-mcp.log").read_text()
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert time.monotonic() < deadline, "credence-mcp did not listen"
            time.sleep(0.2)

        async def session() -> None:
            async with Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=120) as mcp:
                assert {t.name for t in (await mcp.list_tools()).tools} == TOOLS
                stored = await call(mcp, "remember", text="Streamable HTTP works too")
                found = await call(mcp, "search", query="which transport works?")
                assert [hit["id"] for hit in found["results"]] == [stored["id"]]

        anyio.run(session)
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()

"""`credence-mcp`: Credence as MCP tools and resources (the official `mcp` SDK, 2.x), over stdio or
streamable HTTP. It is a client of a running Credence service: every tool is one call through
`AsyncCredence`, so the service's key (CREDENCE_API_KEY), its tenancy and its validation apply
unchanged, and a problem+json answer becomes a tool error carrying the same status and detail.

The agent (the tenant every call acts for) comes from the configuration (CREDENCE_AGENT or
--agent), never from the model: a prompt-injected "agent" argument cannot reach another tenant's
memories. Only with CREDENCE_MCP_AGENT_ARGUMENT=true (or --agent-argument) do the tools take an
optional `agent`, defaulting to the configured one (one MCP server for several agents one operator owns).

    CREDENCE_URL=http://127.0.0.1:8000 CREDENCE_AGENT=assistant credence-mcp
    credence-mcp --agent assistant --transport streamable-http --port 8765
"""
from __future__ import annotations

import argparse
import functools
import inspect
import logging
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from credence_client.aio import AsyncCredence
from credence_client.config import from_environment
from credence_client.endpoints import set_only
from credence_client.errors import CredenceAPIError, CredenceError, NotFound
from credence_client.models import (
    About,
    Answer,
    Conflict,
    Consolidation,
    EntityPath,
    Feedback,
    Ingested,
    Job,
    Memory,
    Resolution,
    Review,
    SearchResults,
    StoredMemory,
)

try:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError
    from mcp_types import ToolAnnotations
except ImportError as exc:  # the light client without its [mcp] extra
    raise ImportError('credence-mcp needs the MCP SDK: pip install "credence-client[mcp]"') from exc

TRUE = {"1", "true", "yes", "on"}
# Where a memory came from; sets its base trust on the service (user_explicit highest, inference lowest).
# A test holds this list equal to the service's (tests/integration/test_client_schema.py).
SourceType = Literal["user_explicit", "system", "tool_output", "user_implicit", "document", "inference"]
INSTRUCTIONS = (
    "Long-term memory with explicit trust. `remember` what is worth keeping (give a claim, subject/predicate/"
    "value, when the memory asserts a fact that can change, and the source it came from; or pass what the user "
    "said with `ingest` and let the service find the facts and updates in it); `context` or "
    "`search` before answering; `reinforce`, `dispute` or `corroborate` when a memory proves right or wrong. "
    "A claim that contradicts a trusted belief is quarantined with a pending conflict: list them with "
    "`conflicts` and settle them with `resolve_conflict`, or review the quarantine with `quarantined` and `review`. "
    "Claims also build a graph of people, places, organisations and products: `about` tells what is known about "
    "one of them, `entity_path` how two of them are connected.")
AsOf = Annotated[str | None, Field(description=(
    "An ISO-8601 instant with a time zone (e.g. `2024-07-01T00:00:00Z`): answer with what held then. "
    "Default: now."))]


class ClaimArg(BaseModel):
    """What a memory asserts, so that a later contradicting memory is detected as a conflict."""
    subject: str = Field(description="Who or what the claim is about, e.g. `user`, `project`.")
    predicate: str = Field(description="The property, e.g. `lives_in`, `budget_is`.")
    value: str = Field(description="Its value, e.g. `Lisbon`.")
    exclusive: bool = Field(True, description="false: several values may hold at once (e.g. `likes`).")


def problem_text(exc: CredenceError) -> str:
    """The problem as the model reads it: status, title and detail, then each bad field."""
    text = str(exc)
    if isinstance(exc, CredenceAPIError):  # the fields the detail does not already name
        text += "".join(f"\n{line}" for e in exc.errors
                        if (line := f"{e.get('field')}: {e.get('message')}") not in text)
    return text


class Tools:
    """The tools, each a function of the agent and the model's arguments; `build` decides where the
    agent comes from."""

    def __init__(self, api: AsyncCredence) -> None:
        self.api = api

    async def remember(
        self, agent: str,
        text: Annotated[str, Field(description="The memory, one self-contained statement.")],
        memory_type: Annotated[str | None, Field(
            description="fact (default), preference, goal, event, decision, ...")] = None,
        claim: Annotated[ClaimArg | None, Field(description="What it asserts; enables conflict detection.")] = None,
        source: Annotated[SourceType | None, Field(
            description="Where it came from (sets its base trust); default inference.")] = None,
        ref: Annotated[str | None, Field(description="Where exactly: message id, document id, tool call id.")] = None,
        tags: Annotated[list[str] | None, Field(description="Labels to filter on later.")] = None,
        importance: Annotated[float | None, Field(ge=0, le=1, description="0..1; default 0.5.")] = None,
        ingest: Annotated[bool | None, Field(description=(
            "true: the text is what the user said, in their words; the service reads it (claims such as where "
            "they live or work, changes, corrections, what to forget) and updates what it knows: the answer "
            "lists each operation. Only without a claim. Default: the agent's setting."))] = None,
    ) -> StoredMemory | Ingested:
        """Store a memory. With a claim, a contradicting belief is superseded, or the new memory is
        quarantined with a pending conflict when it is less trusted than what it contradicts. With
        `ingest`, plain text (the user's own words) is read and each fact in it added, updated,
        deleted or found already known."""
        provenance = set_only(source=source, ref=ref) or None
        return await self.api.remember(agent, text, **set_only(
            memory_type=memory_type, claim=claim.model_dump() if claim else None, provenance=provenance,
            tags=tags, importance=importance, ingest=ingest))

    async def search(
        self, agent: str, query: str,
        limit: Annotated[int, Field(ge=1, le=100)] = 10,
        memory_types: list[str] | None = None,
        tags: Annotated[list[str] | None, Field(description="A memory must carry every one.")] = None,
        include_all: Annotated[bool, Field(
            description="Every status: superseded, disputed, quarantined and archived ones too.")] = False,
    ) -> SearchResults:
        """Hybrid search (meaning and keywords), ranked by relevance, trust, recency and importance."""
        return await self.api.search(agent, query, limit=limit, **set_only(
            memory_types=memory_types, tags=tags or None, include_all=include_all or None))

    async def context(
        self, agent: str, query: str,
        max_tokens: Annotated[int | None, Field(ge=1, description="Budget for the whole text.")] = None,
        max_memories: Annotated[int | None, Field(ge=1, le=50)] = None,
    ) -> str:
        """The memories relevant to `query`, grouped by type and packed into a token budget: ready to
        read before answering."""
        out = await self.api.context(agent, query, **set_only(max_tokens=max_tokens, max_memories=max_memories))
        return out.context or "(no relevant memories)"

    async def reinforce(self, agent: str, memory_id: str) -> Feedback:
        """The memory proved right: its trust rises."""
        return await self.api.reinforce(agent, memory_id)

    async def dispute(self, agent: str, memory_id: str, reason: str | None = None) -> Feedback:
        """The memory looks wrong: its trust falls; below 0.3 it is marked disputed and leaves default retrieval."""
        return await self.api.dispute(agent, memory_id, reason)

    async def corroborate(self, agent: str, memory_id: str, source: SourceType, ref: str | None = None) -> Feedback:
        """Another source confirms the memory (a source it already has adds nothing)."""
        return await self.api.corroborate(agent, memory_id, source, ref)

    async def conflicts(
        self, agent: str, include_resolved: bool = False, subject: str | None = None, predicate: str | None = None,
    ) -> list[Conflict]:
        """Conflicts between claims, pending ones unless include_resolved."""
        return await self.api.conflicts(agent, **set_only(
            include_resolved=include_resolved or None, subject=subject, predicate=predicate))

    async def resolve_conflict(
        self, agent: str, conflict_id: str,
        action: Annotated[Literal["supersede", "reject", "keep_both"], Field(description=(
            "supersede: the conflict's new memory replaces the existing belief; reject: the new memory is "
            "archived; keep_both: both stay active."))],
        reason: str | None = None,
    ) -> Resolution:
        """Settle a pending conflict."""
        return await self.api.resolve_conflict(agent, conflict_id, action, reason)

    async def quarantined(self, agent: str) -> list[Memory]:
        """The memories waiting in quarantine (suspicious input, or claims that lost on trust)."""
        return [m async for m in self.api.quarantined(agent)]

    async def review(
        self, agent: str, memory_id: str, action: Literal["activate", "reject"], reason: str | None = None,
    ) -> Review:
        """Activate (its conflicts are decided again) or reject a quarantined memory."""
        return await self.api.review(agent, memory_id, action, reason)

    async def about(
        self, agent: str,
        name: Annotated[str, Field(description=(
            "The person, place, organisation or product as memories name it (the subject or value of a claim, "
            "e.g. `user`, `Acme Corp`, `Lisbon`); case, spacing and known aliases do not matter."))],
        as_of: AsOf = None,
    ) -> About:
        """What do we know about X: everything remembered about one person, place, organisation or
        product. `relationships`: its ties to other entities, grouped by type (works_at, lives_in, knows,
        manages, member_of, uses, born_in, located_in), each with a `strength` from 0 to 1 (more, more
        trusted and more recent evidence is stronger), `current` (false: it used to hold, e.g. a former
        employer) and the ids of the memories that evidence it. `memories`: the memories whose claims
        name it, grouped by predicate. Fails when nothing remembered names it: use `search` then."""
        return await self.api.about(agent, (await self.api.entity_named(agent, name)).id, as_of=as_of)

    async def entity_path(
        self, agent: str,
        source: Annotated[str, Field(description="One entity's name (or alias), e.g. `Dana`.")],
        target: Annotated[str, Field(description="The other entity's name (or alias), e.g. `Seattle`.")],
        max_hops: Annotated[int, Field(ge=1, le=6, description="The longest chain to look for.")] = 4,
        as_of: AsOf = None,
    ) -> EntityPath:
        """How two entities are connected: the shortest chain of relationships between them that hold
        now (or at `as_of`), e.g. Dana -knows- user -works_at- Acme -located_in- Seattle.
        `relationships[i]` joins `entities[i]` and `entities[i + 1]`; each relationship keeps its own
        direction (`source` -> `target`) and the memories that evidence it. Fails when either name is
        unknown, or when they are not connected within `max_hops` relationships."""
        ends = [(await self.api.entity_named(agent, name)).id for name in (source, target)]
        try:
            return await self.api.entity_path(agent, *ends, max_hops=max_hops, as_of=as_of)
        except NotFound as exc:
            raise ToolError(f"{source!r} and {target!r} are not connected within {max_hops} relationships "
                            f"holding {'at ' + as_of if as_of else 'now'} ({problem_text(exc)})") from exc

    async def ask(
        self, agent: str,
        question: Annotated[str, Field(description=(
            "The question as the user would ask it, e.g. `what do you know about me?`, `where did I use to live?`, "
            "`restaurants I liked but not Italian`, `how do I feel about my job lately?`, `what did I decide about "
            "the move?`."))],
        as_of: AsOf = None,
    ) -> Answer:
        """Ask the memory like a person: the question is routed to the handler that answers it from the
        belief graph (about_me: a summary of the user; entity: one named thing; relationship: how people
        are linked; temporal: what happened in a period; historical: the past values of something, the
        current last; negation: with what it excludes filtered out; sentiment: feelings over time and
        their trend; decision: decisions with their outcomes; goal: open goals with progress; search:
        anything else). `summary` is the answer in a few lines; `memories` are the memories behind it,
        each with `why`; `explain.handler` and `explain.reasons` say which handler ran and why."""
        return await self.api.ask(agent, question, **({"as_of": as_of} if as_of else {}))

    async def job_status(
        self, agent: str,
        job_id: Annotated[str, Field(description="The job's id, as the call that enqueued it answered.")],
    ) -> Job:
        """Where a maintenance job of this agent stands (an expiry or decay run, a consolidation):
        `status` (queued, running, succeeded, cancelled, dead), `progress` (done of total), `result`
        once it succeeded, `last_error` when an attempt failed."""
        return await self.api.job(agent, job_id)

    async def consolidation_preview(self, agent: str) -> Consolidation:
        """What a consolidation of this memory would change, without changing anything: near-duplicates it
        would merge, rival beliefs it would turn into pending conflicts, claims it would corroborate,
        old events it would digest, entities it would merge, and memories past retention it would
        delete, each with its reason, and the counts before and after. Applying it is an operator's
        call (`credence consolidate`)."""
        return await self.api.consolidate(agent, dry_run=True)

    async def forget(self, agent: str, memory_id: str) -> Memory:
        """Archive a memory: it leaves retrieval but stays, with its history, for audit. (Erasing for
        good is not offered to models: an operator does it with `credence forget --hard`.)"""
        return await self.api.archive(agent, memory_id)


READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
TOOLS: dict[str, ToolAnnotations] = {
    "remember": WRITE, "search": READ_ONLY, "context": READ_ONLY, "reinforce": WRITE, "dispute": WRITE,
    "corroborate": WRITE, "conflicts": READ_ONLY, "resolve_conflict": WRITE, "quarantined": READ_ONLY,
    "review": WRITE, "about": READ_ONLY, "entity_path": READ_ONLY, "ask": READ_ONLY, "job_status": READ_ONLY,
    "consolidation_preview": READ_ONLY,
    "forget": ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False),
}


def _as_tool(fn: Callable[..., Awaitable[Any]], default_agent: str, agent_argument: bool) -> Callable[..., Any]:
    """`fn(agent, **arguments)` as the tool the model sees: without an `agent` parameter (the configured
    agent is used), or with an optional one when the setting allows it. Problems become tool errors."""
    signature = inspect.signature(fn, eval_str=True)  # real types: the SDK builds the input schema from them
    rest = [p for name, p in signature.parameters.items() if name != "agent"]
    if agent_argument:
        agent = inspect.Parameter("agent", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Annotated[
            str | None, Field(description=f"The tenant to act for; default {default_agent!r}.")])
        rest = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in rest] + [agent]

    @functools.wraps(fn)
    async def tool(**arguments: Any) -> Any:
        asked = arguments.pop("agent", None)  # never obeyed unless the setting allows it
        agent = (asked if agent_argument else None) or default_agent
        try:
            return await fn(agent, **arguments)
        except CredenceError as exc:
            raise ToolError(problem_text(exc)) from exc

    tool.__signature__ = signature.replace(parameters=rest)  # type: ignore[attr-defined]
    del tool.__wrapped__  # the SDK reads the signature above, not the wrapped function's
    return tool


def build(api: AsyncCredence, agent: str, *, agent_argument: bool = False, name: str = "credence") -> MCPServer:
    """The MCP server for one configured agent, over a client it closes when the server stops."""
    if not agent:
        raise ValueError("no agent: set CREDENCE_AGENT or pass --agent")

    @asynccontextmanager
    async def lifespan(_: MCPServer) -> AsyncIterator[None]:
        try:
            yield None
        finally:
            await api.aclose()

    server = MCPServer(name, instructions=INSTRUCTIONS, lifespan=lifespan)
    tools = Tools(api)
    for tool_name, hints in TOOLS.items():
        server.add_tool(_as_tool(getattr(tools, tool_name), agent, agent_argument), name=tool_name,
                        annotations=hints)

    async def read(call: Awaitable[BaseModel]) -> str:
        try:
            return (await call).model_dump_json(indent=2)
        except NotFound as exc:
            raise ResourceNotFoundError(problem_text(exc)) from exc
        except CredenceError as exc:
            raise ResourceError(problem_text(exc)) from exc

    @server.resource("credence://memories/{memory_id}", name="memory", mime_type="application/json",
                     description="One memory of the configured agent: text, status, trust, claim, provenance.")
    async def memory(memory_id: str) -> str:
        return await read(api.get(agent, memory_id))

    @server.resource("credence://memories/{memory_id}/explanation", name="explanation", mime_type="application/json",
                     description="Why the memory has its trust and status: the trust terms, its sources, "
                                 "its conflicts and what it superseded or was superseded by.")
    async def explanation(memory_id: str) -> str:
        return await read(api.explain(agent, memory_id))

    return server


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="credence-mcp", description="Credence memory as an MCP server.")
    parser.add_argument("--agent", help="the tenant every tool acts for (default: $CREDENCE_AGENT)")
    parser.add_argument("--agent-argument", action="store_true", default=None,
                        help="let tools take an `agent` argument (default: $CREDENCE_MCP_AGENT_ARGUMENT, else off)")
    parser.add_argument("--url", help="the Credence service (default: $CREDENCE_URL or http://127.0.0.1:8000)")
    parser.add_argument("--api-key", help="the service's bearer key (default: $CREDENCE_API_KEY)")
    parser.add_argument("--actor", help="who acts, in the audit trail (default: $CREDENCE_ACTOR, else credence-mcp)")
    parser.add_argument("--transport", choices=("stdio", "streamable-http"), default="stdio")
    parser.add_argument("--host", default="127.0.0.1", help="streamable-http: the address to listen on")
    parser.add_argument("--port", type=int, default=8765, help="streamable-http: the port to listen on")
    parser.add_argument("--path", default="/mcp", help="streamable-http: the endpoint's path")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    agent = args.agent or os.environ.get("CREDENCE_AGENT") or ""
    agent_argument = args.agent_argument or os.environ.get("CREDENCE_MCP_AGENT_ARGUMENT", "").lower() in TRUE
    settings = {**from_environment(), **set_only(url=args.url, api_key=args.api_key, actor=args.actor)}
    settings["actor"] = settings["actor"] or "credence-mcp"
    if not agent:
        print("credence-mcp: no agent: set CREDENCE_AGENT or pass --agent", file=sys.stderr)
        return 2
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per call on stderr otherwise
    server = build(AsyncCredence(**settings), agent, agent_argument=agent_argument)
    if args.transport == "stdio":
        server.run("stdio")
    else:
        server.run("streamable-http", host=args.host, port=args.port, streamable_http_path=args.path)
    return 0


if __name__ == "__main__":
    sys.exit(main())

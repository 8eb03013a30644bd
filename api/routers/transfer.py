"""/v1/export and /v1/import: a tenant as JSON Lines out, and batches of such lines (or mem0
memories) back in. The format and its guarantees: docs/transfer.md."""
from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from api.deps import ActorDep, AgentQuery, GuardDep, ServicesDep
from api.schemas.memories import SECRETS_DESCRIPTION, SecretMode, SecretOut
from graph.core.vocab import DEFAULT_SECRET_MODE

router = APIRouter(prefix="/v1", tags=["transfer"])

MEDIA_TYPE = "application/x-ndjson"


class ImportOut(BaseModel):
    lines: int = Field(description="Lines read from the body (blank lines not counted).")
    created: dict[str, int] = Field(description="New nodes per kind: predicate, memory, conflict, operation.")
    existing: dict[str, int] = Field(description="Lines whose node the tenant already held, left as they were.")
    redacted: list[SecretOut] = Field(default_factory=list, description=
                                      "Secrets replaced by [REDACTED:<kind>] before importing (secrets=redact); "
                                      "each field is named \"line N: kind.field\".")


@router.get("/export", response_class=StreamingResponse,
            responses={200: {"content": {MEDIA_TYPE: {}}, "description": "One JSON object per line."}},
            summary="Stream a tenant as JSON Lines: header, predicates, memories (with claims and sources), "
                    "edges, conflicts, audit records, end")
async def export(agent: AgentQuery, services: ServicesDep,
                 embeddings: Annotated[bool, Query(description="Include each memory's vector (large).")] = False
                 ) -> StreamingResponse:
    pages = services.exports.lines(agent, embeddings=embeddings)
    # The header and the first page are read before the response starts, so an unreachable backend
    # is still a 503 problem rather than a cut stream.
    first = [await anext(pages), await anext(pages)]

    async def body() -> AsyncIterator[str]:
        for page in first:
            yield _jsonl(page)
        async for page in pages:
            yield _jsonl(page)

    return StreamingResponse(body(), media_type=MEDIA_TYPE)


@router.post("/import", response_model=ImportOut,
             summary="Import one batch of export lines (or mem0 memories) in one transaction; idempotent; admin role",
             openapi_extra={"requestBody": {"required": True, "content": {
                 MEDIA_TYPE: {"schema": {"type": "string", "description": "Export lines, one JSON object per line."}},
                 "application/json": {"schema": {"type": "array", "items": {"type": "object"}}}}}})
async def import_lines(
    agent: AgentQuery, request: Request, services: ServicesDep, actor: ActorDep, guard: GuardDep,
    first_line: Annotated[int, Query(ge=1, description="The file line number of the body's first line, so "
                                                       "errors name the line of the file.")] = 1,
    secrets: Annotated[SecretMode, Query(description=SECRETS_DESCRIPTION)] = DEFAULT_SECRET_MODE,
) -> ImportOut:
    # An import restores trust, status, conflicts and audit records as the file says, past the belief
    # rules: the tenant's administrators may do that (as they may register predicates), writers may not.
    await guard.admin(agent)
    guard.any_source("an import restores memories from every source")
    # The request gate (api/gate.py) has bounded the body: CREDENCE_MAX_BATCH_BODY_BYTES for this route.
    result = await services.imports.import_body(agent, await request.body(), first_line=first_line, actor=actor,
                                                secrets=secrets)
    return ImportOut(lines=result.lines, created=result.created, existing=result.existing,
                     redacted=[SecretOut.of(s) for s in result.redacted])


def _jsonl(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n" for line in lines)


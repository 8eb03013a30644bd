"""Request and response bodies for /v1/ingest."""
from __future__ import annotations

from datetime import date
from typing import Literal, Self

from pydantic import BaseModel, Field

from api.schemas.common import Agent, Instant, Request
from graph.core.vocab import DEFAULT_INGEST_SOURCE, INGEST_MODES, INGEST_OPERATIONS, INGEST_ROLES, SOURCE_TYPES
from graph.ingestion.model import Applied, IngestResult, Message, MessageResult
from graph.ingestion.service import IngestRequest, message_of


class MessageIn(Request):
    role: Literal[INGEST_ROLES] = "user"  # type: ignore[valid-type]
    text: str = Field(min_length=1, pattern=r"\S", description="What was said; at most CREDENCE_MAX_TEXT_CHARS.")
    at: Instant | None = Field(None, description="When it was sent (relative dates resolve against it); default now.")
    source: Literal[SOURCE_TYPES] | None = Field(  # type: ignore[valid-type]
        None, description="Provenance source of what it yields; default the request's `source`.")
    ref: str | None = Field(None, max_length=500, description="A reference for provenance, e.g. the message id.")

    def to_domain(self) -> Message:
        return message_of(self.role, self.text, self.at, self.source, self.ref)


class IngestIn(Request):
    agent: Agent
    messages: list[MessageIn] | None = Field(None, description="One agent's messages, oldest first.")
    text: str | None = Field(None, min_length=1, pattern=r"\S", description="Plain text: one user message.")
    context: list[MessageIn] = Field(default_factory=list, description=
                                     "Earlier messages of the conversation: read for reference ('it', 'she', "
                                     "'forget that'), never stored.")
    dry_run: bool = Field(False, description="Answer the plan and write nothing.")
    source: Literal[SOURCE_TYPES] = Field(DEFAULT_INGEST_SOURCE, description=  # type: ignore[valid-type]
                                          "Provenance source of what the messages yield (sets its trust).")
    ref: str | None = Field(None, max_length=500, description="The conversation, for provenance.")

    def to_domain(self) -> IngestRequest:
        messages = [m.to_domain() for m in self.messages or []]
        if self.text is not None:
            messages.append(message_of("user", self.text))
        return IngestRequest(agent=self.agent, messages=tuple(messages),
                             context=tuple(m.to_domain() for m in self.context), dry_run=self.dry_run,
                             source=self.source, ref=self.ref)


class ClaimDerived(BaseModel):
    subject: str
    predicate: str | None
    value: str


class OperationApplied(BaseModel):
    op: Literal[INGEST_OPERATIONS]  # type: ignore[valid-type]
    mode: Literal[INGEST_MODES] | None = Field(description=  # type: ignore[valid-type]
                                                "UPDATE: supersede, replace, append; DELETE: soft, hard.")
    reason: str
    memory_id: str | None = Field(description="The memory written or touched; in a dry run a planned id.")
    target_id: str | None = Field(description="The known memory it updated, repeated or deleted.")
    claim: ClaimDerived | None
    memory_type: str
    text: str | None
    status: str | None = Field(None, description="The written memory's status as the belief engine left it.")
    sensitivity: str
    historical: bool
    effective_from: date | None
    expires_at: date | None
    recurrence: str | None
    superseded: list[str] = Field(default_factory=list)
    pending_conflict_id: str | None = None

    @classmethod
    def of(cls, a: Applied) -> OperationApplied:
        return cls(op=a.op, mode=a.mode, reason=a.reason, memory_id=a.memory_id, target_id=a.target_id,
                   claim=ClaimDerived(subject=a.claim.subject, predicate=a.claim.predicate, value=a.claim.value)
                   if a.claim else None, memory_type=a.memory_type, text=a.text, status=a.status,
                   sensitivity=a.sensitivity, historical=a.historical, effective_from=a.effective_from,
                   expires_at=a.expires_at, recurrence=a.recurrence, superseded=list(a.superseded),
                   pending_conflict_id=a.pending_conflict_id)


class SecretFound(BaseModel):
    kind: str
    start: int
    end: int


class MessageOut(BaseModel):
    index: int
    operations: list[OperationApplied]
    secrets: list[SecretFound] = Field(description="Secrets in the message, by kind and span; never stored.")
    skipped: list[str] = Field(description="Why parts of it yielded nothing.")

    @classmethod
    def of(cls, m: MessageResult) -> Self:
        return cls(index=m.index, operations=[OperationApplied.of(a) for a in m.operations],
                   secrets=[SecretFound(kind=k, start=s, end=e) for k, s, e in m.secrets], skipped=list(m.skipped))


class IngestOut(BaseModel):
    dry_run: bool
    extractor: str
    decider: str
    messages: list[MessageOut]

    @classmethod
    def of(cls, r: IngestResult) -> IngestOut:
        return cls(dry_run=r.dry_run, extractor=r.extractor, decider=r.decider,
                   messages=[MessageOut.of(m) for m in r.messages])

"""Idempotency records: one per (caller, agents, Idempotency-Key), as :IdempotencyRecord nodes.

The record is created by the first statement of the request's write transaction (`claim`, run
through the gateway's write hook), so a write that committed always has its record and one that
rolled back never has. The answer is kept on it just after, in a second short transaction
(`complete`): if the service dies between the two, a retry learns that the write committed
(`KeyInUse`) instead of running it again. A request that writes in several transactions claims
in the first; a failure in a later one leaves the first committed, and its answer is kept as is.
"""
from __future__ import annotations

import asyncio
import hashlib
import time
from dataclasses import dataclass

from graph.store.gateway import GraphRunner, Tx

SWEEP_LIMIT = 100
POLL_SECONDS = 0.05


@dataclass(frozen=True)
class Claim:
    """What one request would record: its identity, its fingerprint and a token naming it."""
    id: str
    agent: str
    fingerprint: str
    token: str


@dataclass(frozen=True)
class Recorded:
    fingerprint: str
    created_at: int
    status: int | None
    body: str | None
    content_type: str | None
    location: str | None
    redacted: bool = False


class IdempotencyError(Exception):
    """Not a CredenceError: the HTTP layer answers these itself (a replay is not an error)."""


class Replay(IdempotencyError):
    def __init__(self, recorded: Recorded) -> None:
        super().__init__("replay")
        self.recorded = recorded


class KeyReused(IdempotencyError):
    """The key was first used for another request (method, path, query or body differ)."""


class KeyInUse(IdempotencyError):
    """The first request with this key is still running, or committed without its answer kept."""


class KeyRedacted(IdempotencyError):
    """The first request committed, but a hard delete has since removed what its answer held."""


class Taken(IdempotencyError):
    """Raised inside a write transaction whose claim lost to a concurrent twin: it rolls back."""


def record_id(principal: str, agent: str, key: str) -> str:
    return hashlib.sha256("\n".join((principal, agent, key)).encode()).hexdigest()


class IdempotencyService:
    def __init__(self, runner: GraphRunner, ttl_seconds: float, wait_seconds: float) -> None:
        self.runner, self.ttl_seconds, self.wait_seconds = runner, ttl_seconds, wait_seconds

    async def check(self, claim: Claim) -> None:
        """Before the request runs: raise Replay / KeyReused / KeyInUse when the key is already
        recorded; an expired record is dropped and the key is free again."""
        recorded = await self._get(claim)
        if recorded is None:
            return
        await self._settle(claim, recorded)

    async def claim(self, tx: Tx, claim: Claim) -> None:
        """The write hook: the record joins the request's write transaction."""
        now = _now_ms()
        ours = await tx.scalar("idempotency/claim", agent=claim.agent, id=claim.id, claim=claim.token,
                               fingerprint=claim.fingerprint, now=now, expires_at=now + int(self.ttl_seconds * 1000))
        if not ours:
            raise Taken(claim.id)

    async def after_taken(self, claim: Claim) -> None:
        """A twin claimed the key first: wait for its answer and replay it (or refuse)."""
        recorded = await self._get(claim)
        if recorded is None:  # the twin rolled back in the meantime: nothing was written
            raise KeyInUse(claim.id)
        await self._settle(claim, recorded)

    async def complete(self, claim: Claim, status: int, body: str, content_type: str | None,
                       location: str | None) -> None:
        async def work(tx: Tx) -> None:
            await tx.execute("idempotency/complete", agent=claim.agent, id=claim.id, claim=claim.token,
                             status=status, body=body, content_type=content_type, location=location)
            await tx.execute("idempotency/sweep", agent=claim.agent, now=_now_ms(), limit=SWEEP_LIMIT)
        await self.runner.write_tx(work)

    async def _get(self, claim: Claim) -> Recorded | None:
        row = await self.runner.read_tx(lambda tx: tx.optional("idempotency/get", agent=claim.agent, id=claim.id))
        if row is None:
            return None
        if row["expires_at"] <= _now_ms():
            now = _now_ms()
            await self.runner.write_tx(lambda tx: tx.execute("idempotency/forget", agent=claim.agent, id=claim.id,
                                                             now=now))
            return None
        return Recorded(fingerprint=row["fingerprint"], created_at=row["created_at"], status=row["status"],
                        body=row["body"], content_type=row["content_type"], location=row["location"],
                        redacted=row["redacted"])

    async def _settle(self, claim: Claim, recorded: Recorded) -> None:
        if recorded.fingerprint != claim.fingerprint:
            raise KeyReused(claim.id)
        deadline = time.monotonic() + self.wait_seconds
        while recorded.status is None and time.monotonic() < deadline:
            await asyncio.sleep(POLL_SECONDS)
            again = await self._get(claim)
            if again is None:
                raise KeyInUse(claim.id)
            recorded = again
        if recorded.status is None:
            raise KeyInUse(claim.id)
        if recorded.redacted:
            raise KeyRedacted(claim.id)
        raise Replay(recorded)


def _now_ms() -> int:
    return int(time.time() * 1000)

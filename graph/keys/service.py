"""Issuing, listing, revoking and recognising scoped API keys, stored as :ApiKey nodes.

A key's secret is 256 random bits from the OS's CSPRNG; the graph keeps only its SHA-256 digest.
A slow password hash (bcrypt, argon2) exists to make guessing a low-entropy secret expensive; a
256-bit random secret cannot be guessed at any speed, and a preimage of SHA-256 is out of reach, so
a leaked digest gives nothing away while every request is recognised with one fast hash and one
indexed look-up."""
from __future__ import annotations

import hashlib
import secrets
import time
import uuid
from typing import Any

from graph.core.errors import NotFound
from graph.core.timeutil import from_epoch_ms
from graph.keys.model import Access, ApiKey, NewKey, Role, check_new_key
from graph.store.gateway import GraphRunner

TOKEN_PREFIX = "crd_"
_TOKEN_CHARS = 43  # token_urlsafe(32)
CACHE_ENTRIES = 1_024


def new_secret() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def looks_like_a_key(token: str) -> bool:
    """Only a token of the issued shape is looked up in the graph."""
    return token.startswith(TOKEN_PREFIX) and len(token) == len(TOKEN_PREFIX) + _TOKEN_CHARS


class KeyService:
    def __init__(self, runner: GraphRunner, cache_seconds: float) -> None:
        self.runner, self.cache_seconds = runner, cache_seconds
        # digest -> (access, when fetched). Only live keys are cached; a revocation here clears it,
        # one in another process sharing the graph is seen within cache_seconds.
        self._cache: dict[str, tuple[Access, float]] = {}

    async def issue(self, new: NewKey) -> ApiKey:
        new = check_new_key(new)
        secret, key_id, now = new_secret(), str(uuid.uuid4()), int(time.time() * 1000)
        await self.runner.write_tx(lambda tx: tx.execute(
            "keys/create", id=key_id, digest=digest(secret), key_name=new.name, role=new.role.name.lower(),
            agents=list(new.agents), agent_pattern=new.agent_pattern,
            sources=list(new.sources) if new.sources is not None else None, now=now))
        return ApiKey(id=key_id, name=new.name, role=new.role, agents=new.agents, agent_pattern=new.agent_pattern,
                      created_at=from_epoch_ms(now), sources=new.sources, secret=secret)

    async def list(self) -> list[ApiKey]:
        return [_key(row) for row in await self.runner.read_tx(lambda tx: tx.many("keys/list"))]

    async def get(self, key_id: str) -> ApiKey:
        row = await self.runner.read_tx(lambda tx: tx.optional("keys/get", id=key_id))
        if row is None:
            raise NotFound("API key", key_id)
        return _key(row)

    async def revoke(self, key_id: str) -> ApiKey:
        now = int(time.time() * 1000)
        row = await self.runner.write_tx(lambda tx: tx.optional("keys/revoke", id=key_id, now=now))
        self._cache.clear()  # before answering: the revoked key is refused from the next request on
        if row is None:
            raise NotFound("API key", key_id)
        return _key(row)

    async def recognise(self, token: str) -> Access | None:
        """The access a presented secret grants, or None when it is no live key."""
        if not looks_like_a_key(token):
            return None
        key_digest = digest(token)
        cached = self._cache.get(key_digest)
        if cached is not None and time.monotonic() - cached[1] < self.cache_seconds:
            return cached[0]
        row = await self.runner.read_tx(lambda tx: tx.optional("keys/by_digest", digest=key_digest))
        if row is None:
            self._cache.pop(key_digest, None)
            return None
        access = _key(row).access
        if self.cache_seconds > 0:
            if len(self._cache) >= CACHE_ENTRIES:
                self._cache.clear()
            self._cache[key_digest] = (access, time.monotonic())
        return access


def _key(row: dict[str, Any]) -> ApiKey:
    return ApiKey(id=row["id"], name=row["name"], role=Role.parse(row["role"]), agents=tuple(row["agents"] or ()),
                  agent_pattern=row["agent_pattern"], created_at=from_epoch_ms(row["created_at"]),
                  sources=tuple(row["sources"]) if row["sources"] is not None else None,
                  revoked_at=from_epoch_ms(row["revoked_at"]) if row["revoked_at"] is not None else None)

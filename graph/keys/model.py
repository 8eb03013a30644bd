"""What a key may do: its role and the agents (tenants) it covers. Pure rules, no I/O."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from enum import IntEnum
from fnmatch import fnmatchcase

from graph.core.errors import InvalidInput
from graph.core.tenancy import check_agent
from graph.core.vocab import SOURCE_TYPES

MAX_KEY_AGENTS = 1_000
MAX_KEY_NAME_CHARS = 200
# An agent pattern is an agent id where `*` stands for any run of characters and `?` for one.
# Agent ids cannot hold `*`, `?` or `[`, so fnmatch's other syntax can never be reached.
AGENT_GLOB = r"^[A-Za-z0-9._:@/+\-*?]{1,128}$"
_AGENT_GLOB = re.compile(AGENT_GLOB)


class Role(IntEnum):
    """Each role includes the ones below it."""
    READ = 1    # read, list, search, context, explain
    WRITE = 2   # store, batch, patch, archive, feedback, links, quarantine, review, resolve
    ADMIN = 3   # hard delete and the predicate registry, within the key's agents

    @classmethod
    def parse(cls, name: str) -> Role:
        try:
            return cls[name.upper()]
        except KeyError:
            raise InvalidInput("role", f"is {name!r}; one of read, write, admin") from None


@dataclass(frozen=True)
class Scope:
    """The agents a key covers: listed ones, those matching a pattern, or every agent."""
    agents: frozenset[str] = frozenset()
    pattern: str | None = None
    every_agent: bool = False

    def covers(self, agent: str) -> bool:
        return self.every_agent or agent in self.agents or (
            self.pattern is not None and fnmatchcase(agent, self.pattern))


EVERY_AGENT = Scope(every_agent=True)


@dataclass(frozen=True)
class Access:
    """Who is calling and what they may do; made once per request from its credentials."""
    principal: str            # a scoped key's id, or "api-key" / "admin-key" / "open"
    role: Role
    scope: Scope
    operator: bool = False    # the configured administrator key: /v1/admin, key management
    # The provenance sources its writes may claim; None: any. Trust follows the claimed source, so a
    # key for an agent's own inferences must not pass them off as what the user said.
    sources: frozenset[str] | None = None

    def refusal(self, role: Role, agents: Iterable[str]) -> str | None:
        """Why this access may not act as `role` on `agents`; None when it may."""
        if self.role < role:
            return f"this key's role is {self.role.name.lower()}; the call needs {role.name.lower()}"
        outside = sorted({a for a in agents if not self.scope.covers(a)})
        if outside:
            return f"this key does not cover agent(s) {', '.join(outside[:5])}"
        return None

    def source_refusal(self, claimed: Iterable[str]) -> str | None:
        """Why this access may not write memories or confirmations from `claimed` sources; None when it may."""
        if self.sources is None:
            return None
        beyond = sorted(set(claimed) - self.sources)
        if beyond:
            return (f"this key may claim the sources {', '.join(sorted(self.sources))} only, "
                    f"not {', '.join(beyond)}")
        return None


@dataclass(frozen=True)
class NewKey:
    """What an administrator asks for when issuing a key, checked by `check_new_key`."""
    name: str
    role: Role
    agents: tuple[str, ...] = ()
    agent_pattern: str | None = None
    sources: tuple[str, ...] | None = None  # the provenance sources it may claim; None: any


@dataclass(frozen=True)
class ApiKey:
    id: str
    name: str
    role: Role
    agents: tuple[str, ...]
    agent_pattern: str | None
    created_at: datetime
    revoked_at: datetime | None = None
    sources: tuple[str, ...] | None = None
    secret: str | None = field(default=None, repr=False)  # only on the answer to the call that made it

    @property
    def access(self) -> Access:
        return Access(principal=self.id, role=self.role,
                      scope=Scope(frozenset(self.agents), self.agent_pattern),
                      sources=frozenset(self.sources) if self.sources is not None else None)


def check_new_key(key: NewKey) -> NewKey:
    name = key.name.strip()
    if not name or len(name) > MAX_KEY_NAME_CHARS:
        raise InvalidInput("name", f"must hold 1 to {MAX_KEY_NAME_CHARS} characters")
    if not key.agents and key.agent_pattern is None:
        raise InvalidInput("agents", "give the agents the key covers, an agent_pattern, or both")
    if len(key.agents) > MAX_KEY_AGENTS:
        raise InvalidInput("agents", f"holds {len(key.agents)}; the limit is {MAX_KEY_AGENTS}")
    for i, agent in enumerate(key.agents):
        check_agent(agent, f"agents[{i}]")
    if key.agent_pattern is not None and not _AGENT_GLOB.match(key.agent_pattern):
        raise InvalidInput("agent_pattern", "must be 1 to 128 agent-id characters, where * matches any run "
                                            "of characters and ? one character")
    if key.sources is not None:
        if not key.sources:
            raise InvalidInput("sources", "name at least one source the key may claim, or leave it out for any")
        unknown = sorted(set(key.sources) - set(SOURCE_TYPES))
        if unknown:
            raise InvalidInput("sources", f"{', '.join(unknown)} is no source; one of {', '.join(SOURCE_TYPES)}")
    return NewKey(name=name, role=key.role, agents=tuple(dict.fromkeys(key.agents)),
                  agent_pattern=key.agent_pattern,
                  sources=tuple(sorted(set(key.sources))) if key.sources is not None else None)

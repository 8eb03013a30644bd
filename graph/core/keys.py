"""Every tenant-scoped key, built in one place. Cypher never joins a key itself: callers compute
it here and pass it in as a parameter, so a key reads the same in every statement that MERGEs or
matches it (each stands behind a uniqueness constraint, graph/store/schema.py).

Two separators, kept for the graph's existing keys: the unit separator (\\x1f), which no agent id,
subject or predicate holds; and a space, for keys whose first part is an agent id (agent ids hold
no space, graph/core/tenancy.py), so keys of different tenants never meet."""
from __future__ import annotations

SEP = "\x1f"


def scoped(*parts: str) -> str:
    """The parts joined by the unit separator: the form of slot, predicate and lock keys, and the
    seed of ids derived from a tenant's names (graph/transfer/mem0.py)."""
    return SEP.join(parts)


def slot_key(agent: str, subject: str, predicate: str) -> str:
    """A belief slot: one (agent, subject, predicate), locked by every write to it."""
    return scoped(agent, subject, predicate)


def predicate_key(agent: str, predicate: str) -> str:
    """A tenant's predicate schema."""
    return scoped(agent, predicate)


def lock_key(agent: str, name: str) -> str:
    """A tenant-wide lock node, e.g. the CAUSES lock that keeps causal chains acyclic."""
    return scoped(agent, name)


def source_key(agent: str, source_type: str, ref: str) -> str:
    """A provenance source: (agent, type, ref)."""
    return f"{agent} {source_type} {ref}"


def name_key(name: str) -> str:
    """Case and whitespace do not make another entity: "ACME  corp " and "Acme Corp" are one."""
    return " ".join(name.split()).lower()


def entity_key(agent: str, name: str) -> str:
    """An entity, or an alias of one: one per tenant and normalised name."""
    return f"{agent} {name_key(name)}"


def relation_key(rel_type: str, from_key: str, to_key: str) -> str:
    """A typed relation between two entities; entity keys start with the agent, so it is tenant-bound."""
    return scoped(rel_type, from_key, to_key)


def thread_key(agent: str, thread: str) -> str:
    """A conversation thread: one per tenant and thread id (the caller's session or conversation id)."""
    return scoped(agent, thread)


def job_key(agent: str, idempotency_key: str | None, job_id: str) -> str:
    """A job's unique key: the tenant's idempotency key when the request gave one (the same request
    twice is one job), else the job's own id. The two never meet: the second part says which."""
    return f"{agent} key {idempotency_key}" if idempotency_key is not None else f"{agent} id {job_id}"

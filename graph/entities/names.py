"""How an entity's name keys into the graph: one entity per tenant and normalised name."""
from __future__ import annotations

from graph.core.errors import InvalidInput
from graph.core.values import check_unicode

KINDS = ("person", "place", "organisation", "product", "other")
MAX_NAME = 1_000


def name_key(name: str) -> str:
    """Case and whitespace do not make another entity: "ACME  corp " and "Acme Corp" are one."""
    return " ".join(name.split()).lower()


def entity_key(agent: str, name: str) -> str:
    # Agent ids hold no space, so keys of different tenants never meet (as for sources).
    return f"{agent} {name_key(name)}"


def check_name(name: str, field: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise InvalidInput(field, "must be a non-empty name")
    check_unicode(name, field)
    if len(name) > MAX_NAME:
        raise InvalidInput(field, f"is {len(name)} characters; the limit is {MAX_NAME}")
    return " ".join(name.split())


def check_kind(kind: str, field: str) -> str:
    if kind not in KINDS:
        raise InvalidInput(field, f"must be one of {', '.join(KINDS)}")
    return kind

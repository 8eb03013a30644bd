"""How an entity's name keys into the graph: one entity per tenant and normalised name."""
from __future__ import annotations

import re

from graph.core.errors import InvalidInput
from graph.core.values import check_unicode

KINDS = ("person", "place", "organisation", "product", "other")
MAX_NAME = 1_000


_PROPER_NAME = re.compile(r"^[A-Z][^\d$€£¥%]*$")


def value_names_a_thing(value: str) -> bool:
    """A value becomes an Entity when it reads like a proper name ("Seattle", "Notion", "Marcus
    Aurelius"): capitalised, at most five words, no digits or money. "dark mode" and "$750" stay
    values. Deterministic on purpose: no model decides what is a thing."""
    words = value.split()
    return 0 < len(words) <= 5 and all(w[:1].isupper() for w in words) and bool(_PROPER_NAME.match(value.strip()))


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

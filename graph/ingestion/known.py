"""What the decision needs to know about the tenant, as pure functions of what was read: whether a
predicate is multi-valued (the tenant's registry first, then the canonical vocabulary, else single),
and the circle (names of people the known memories are about)."""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from graph.ingestion.model import Known
from graph.ingestion.vocabulary import PREDICATES


def is_multi(predicate: str, registered: Mapping[str, bool]) -> bool:
    """`registered`: the tenant's registered predicates, name -> multi-valued."""
    if predicate in registered:
        return registered[predicate]
    canonical = PREDICATES.get(predicate)
    return bool(canonical and canonical.multi)


def circle_of(known: Iterable[Known]) -> set[str]:
    """The people the known memories name: every claim subject but the user, and every value of a
    relationship predicate."""
    out: set[str] = set()
    for k in known:
        if k.subject and k.subject.lower() != "user" and not k.subject.startswith("user's"):
            out.add(k.subject)
        if k.predicate and k.value and PREDICATES.get(k.predicate) is not None and PREDICATES[k.predicate].person:
            out.add(k.value)
    return out

"""The fixed vocabularies: memory types, statuses, claim scopes, conflict choices, search modes."""
from __future__ import annotations

MEMORY_TYPES = ("fact", "preference", "goal", "event", "decision", "procedure", "action", "other")
STATUSES = ("active", "superseded", "disputed", "quarantined", "archived")
DEFAULT_STATUSES = ("active",)


def visible_statuses(statuses=None, *, include_superseded: bool = False, include_disputed: bool = False,
                     include_quarantined: bool = False, include_all: bool = False) -> tuple[str, ...]:
    """Default visibility: active only. Flags add hidden statuses; include_all opens every one."""
    if include_all:
        return STATUSES
    chosen = list(statuses or DEFAULT_STATUSES)
    for flag, status in ((include_superseded, "superseded"), (include_disputed, "disputed"),
                         (include_quarantined, "quarantined")):
        if flag:
            chosen.append(status)
    return tuple(dict.fromkeys(chosen))


SCOPES = ("global", "session", "temporal")
ON_CONFLICT = ("quarantine", "keep_active")

SEARCH_MODES = ("hybrid", "vector", "keyword")

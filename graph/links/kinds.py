"""The kinds of edge between one tenant's memories, and who may write each (pure, no I/O)."""
from __future__ import annotations

from graph.core.errors import InvalidInput, StateConflict
from graph.core.vocab import EDGE_KINDS, ENGINE_KINDS, USER_KINDS

DIRECTIONS = ("out", "in", "both")
MAX_DEPTH = 3
# Related memories listed per result: the nearest first, cut at expand.limit (a hit whose list was
# cut says so). Beyond a few dozen a list is noise to a reader and cost to every search.
DEFAULT_RELATED, MAX_RELATED = 10, 50

_WHY_ENGINE = {
    "SUPERSEDES": "the belief engine writes SUPERSEDES when a belief replaces another; store or review the "
                  "newer belief, or resolve its conflict, instead",
    "CONTRADICTS": "the belief engine writes CONTRADICTS when it records a conflict; resolve the conflict "
                   "(/v1/conflicts/{id}/resolve) instead",
    "DIGEST_OF": "consolidation writes DIGEST_OF when it digests memories",
    "NEXT": "the write path joins the turns of a conversation thread with NEXT in the order they arrive; "
            "store turns with `thread` instead",
    "DUPLICATE_OF": "consolidation writes DUPLICATE_OF when it merges a near-duplicate into the memory that stays",
}


def check_user_kind(kind: str, action: str) -> str:
    """`kind` as a user may `action` it (link or unlink): unknown kinds are bad input, engine kinds
    a state the caller cannot change (409, saying who owns them)."""
    if kind not in EDGE_KINDS:
        raise InvalidInput("type", f"must be one of {', '.join(EDGE_KINDS)}")
    if kind in ENGINE_KINDS:
        raise StateConflict(f"cannot {action} {kind} edges over the API: {_WHY_ENGINE[kind]}. Users may "
                            f"{action} {', '.join(USER_KINDS)}.")
    return kind

"""Rules for claims that a request schema cannot express. Pure: no I/O."""
from __future__ import annotations

from graph.core.errors import InvalidInput
from graph.core.timeutil import check_instant
from graph.core.values import check_unicode
from graph.core.vocab import SCOPES
from graph.memories.model import Claim

MAX_SUBJECT = MAX_PREDICATE = 100
MAX_VALUE = 1_000
MAX_SESSION_ID = 200


def check_claim(claim: Claim, field: str) -> None:
    """Raises InvalidInput naming the claim field to fix (e.g. memories[2].claim.session_id)."""
    for name in ("subject", "predicate", "value"):
        if not isinstance(getattr(claim, name), str):
            raise InvalidInput(f"{field}.{name}", "must be a string")
        check_unicode(getattr(claim, name), f"{field}.{name}")
    for name, value, limit in (("subject", claim.subject, MAX_SUBJECT), ("predicate", claim.predicate, MAX_PREDICATE)):
        if not value.strip():
            raise InvalidInput(f"{field}.{name}", "must not be empty")
        if len(value) > limit:
            raise InvalidInput(f"{field}.{name}", f"is {len(value)} characters; the limit is {limit}")
    if not claim.value.strip():
        raise InvalidInput(f"{field}.value", "must not be empty")
    if len(claim.value) > MAX_VALUE:
        raise InvalidInput(f"{field}.value", f"is {len(claim.value)} characters; the limit is {MAX_VALUE}")
    if not isinstance(claim.exclusive, bool):
        raise InvalidInput(f"{field}.exclusive", "must be true or false")
    if not isinstance(claim.scope, str) or claim.scope not in SCOPES:
        raise InvalidInput(f"{field}.scope", f"must be one of {', '.join(SCOPES)}")
    if claim.session_id is not None and not isinstance(claim.session_id, str):
        raise InvalidInput(f"{field}.session_id", "must be a string or null")
    if claim.session_id is not None:
        check_unicode(claim.session_id, f"{field}.session_id")
    if claim.session_id is not None and len(claim.session_id) > MAX_SESSION_ID:
        raise InvalidInput(f"{field}.session_id",
                           f"is {len(claim.session_id)} characters; the limit is {MAX_SESSION_ID}")
    if claim.scope == "session" and not (claim.session_id and claim.session_id.strip()):
        raise InvalidInput(f"{field}.session_id", "is required when scope is session")
    valid_from = check_instant(claim.valid_from, f"{field}.valid_from")
    valid_until = check_instant(claim.valid_until, f"{field}.valid_until")
    if valid_from and valid_until and valid_from > valid_until:
        raise InvalidInput(f"{field}.valid_until", "must not be before valid_from")

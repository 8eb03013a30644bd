"""A tenant as one full-text token, so keyword search asks the global full-text index for one
tenant's matches instead of its global best (which a crowd of other tenants' stronger matches
could fill). Pure.

Every Memory carries its agent's token in `tenant_token`, indexed beside `text`. The token is a
digest: an agent name (letters, digits and `._:@/+-`) would be split into several terms by the
analyzers, differently on each backend; 32 hex digits after a letter stay one lower-case term on
both. It only narrows the index page: every query still filters on `agent` itself, so even a
collision could not show one tenant another's memories."""
from __future__ import annotations

import hashlib


def tenant_token(agent: str) -> str:
    return "t" + hashlib.sha256(agent.encode()).hexdigest()[:32]

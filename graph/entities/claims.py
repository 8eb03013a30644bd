"""What a claim adds to the entity graph, inside the belief write path's transaction: its subject
(and a value that names a thing) as entities, resolved through known aliases, and the typed
relation it evidences when its predicate has a rule (rules.py)."""
from __future__ import annotations

import uuid
from typing import Any

from graph.beliefs.claims import value_names_a_thing
from graph.entities.names import entity_key, name_key
from graph.entities.rules import relation_key, rule_for, subject_kind
from graph.memories.model import Claim
from graph.store.gateway import Tx


def _entity(agent: str, name: str, kind: str, resolved: dict[str, str]) -> dict[str, Any]:
    key = entity_key(agent, name)
    return {"key": resolved.get(key, key), "name": " ".join(name.split()), "name_key": name_key(name),
            "id": str(uuid.uuid4()), "kind": kind}


async def claim_entities(tx: Tx, agent: str, claim: Claim) -> tuple[dict[str, Any], dict[str, Any] | None,
                                                                    dict[str, Any] | None]:
    """The subject and value entity rows for beliefs/assert_claim, and the relation row for
    entities/evidence (None when the claim evidences none)."""
    rule = rule_for(claim.predicate)
    names = [claim.subject] + ([claim.value] if value_names_a_thing(claim.value) else [])
    keys = [entity_key(agent, n) for n in names]
    rows = await tx.many("entities/resolve", agent=agent, keys=keys)
    resolved = {r["key"]: r["entity_key"] for r in rows}
    subject = _entity(agent, claim.subject, subject_kind(claim.subject, rule), resolved)
    value = _entity(agent, claim.value, rule.value_kind if rule else "other", resolved) if len(names) > 1 else None
    relation = None
    if rule is not None and value is not None and value["key"] != subject["key"]:
        source, target = (value, subject) if rule.reverse else (subject, value)
        relation = {"key": relation_key(rule.type, source["key"], target["key"]), "id": str(uuid.uuid4()),
                    "type": rule.type, "from_key": source["key"], "to_key": target["key"]}
    return subject, value, relation

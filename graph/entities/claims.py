"""What a claim adds to the entity graph, inside the write path's transaction: its subject (and a
value that names a thing) as entities, resolved through known aliases, and the typed relation it
evidences when its predicate has a rule (rules.py). Pure: the aliases are read with the claim's
slot (graph/beliefs/engine.py) and the rows written with the memory (memories/create)."""
from __future__ import annotations

import uuid
from typing import Any

from graph.core.keys import entity_key, name_key, relation_key
from graph.entities.names import value_names_a_thing
from graph.entities.rules import rule_for, subject_kind
from graph.memories.model import Claim


def _entity(agent: str, name: str, kind: str, resolved: dict[str, str]) -> dict[str, Any]:
    key = entity_key(agent, name)
    return {"key": resolved.get(key, key), "name": " ".join(name.split()), "name_key": name_key(name),
            "id": str(uuid.uuid4()), "kind": kind}


def entity_keys_of(agent: str, claim: Claim) -> list[str]:
    """The keys of the entities the claim names: its subject, and its value when it names a thing."""
    return [entity_key(agent, n) for n in _names(claim)]


def claim_entities(agent: str, claim: Claim, aliases: dict[str, str]) -> tuple[
        dict[str, Any], dict[str, Any] | None, dict[str, Any] | None]:
    """The subject and value entity rows for memories/create, and the relation row (None when the
    claim evidences none). `aliases`: alias key -> the key of its entity (beliefs/slots/open)."""
    rule = rule_for(claim.predicate)
    names = _names(claim)
    subject = _entity(agent, claim.subject, subject_kind(claim.subject, rule), aliases)
    value = _entity(agent, claim.value, rule.value_kind if rule else "other", aliases) if len(names) > 1 else None
    relation = None
    if rule is not None and value is not None and value["key"] != subject["key"]:
        source, target = (value, subject) if rule.reverse else (subject, value)
        relation = {"key": relation_key(rule.type, source["key"], target["key"]), "id": str(uuid.uuid4()),
                    "type": rule.type, "reverse": rule.reverse}
    return subject, value, relation


def _names(claim: Claim) -> list[str]:
    return [claim.subject] + ([claim.value] if value_names_a_thing(claim.value) else [])


def about_rows(agent: str, claim: dict[str, Any], about: list[dict[str, str]]) -> list[dict[str, Any]]:
    """An imported claim's entities ({role, name}, as an export lists them) as rows keyed and
    kinded as the write path makes them, so a later claim naming the same thing meets the same node."""
    rule = rule_for(claim["predicate"])
    return [{"role": a["role"], **_entity(agent, a["name"], subject_kind(a["name"], rule) if a["role"] == "subject"
                                          else (rule.value_kind if rule else "other"), {})} for a in about]

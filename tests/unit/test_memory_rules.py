"""The domain's memory rules (graph/memories/rules.py) and the API models built on them."""
from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from api.schemas.common import Agent
from api.schemas.memories import MemoryCreate, MemoryUpdate
from graph.core.errors import InvalidInput
from graph.memories import rules
from graph.memories.model import MemoryPatch, NewMemory


def test_the_api_patch_model_offers_exactly_the_domains_patchable_fields():
    assert set(MemoryUpdate.model_fields) - {"expected_version", "secrets"} == set(rules.PATCHABLE_FIELDS)
    assert set(rules._PATCH_CHECKS) | {"text"} == set(rules.PATCHABLE_FIELDS)
    assert set(rules.NOT_NULL_ON_PATCH) <= set(rules.PATCHABLE_FIELDS)


def test_the_patchable_fields_are_fields_a_new_memory_has_and_nothing_the_service_owns():
    assert set(rules.PATCHABLE_FIELDS) <= set(NewMemory.__dataclass_fields__) & set(MemoryCreate.model_fields)
    owned = {"agent", "id", "status", "version", "trust", "confidence", "embedding", "source_type", "corroboration",
             "reinforcements", "disputes", "created_at", "updated_at", "claim_key", "session_id",
             "quarantine_reason", "quarantine_details", "access_count"}
    assert not owned & set(rules.PATCHABLE_FIELDS)


def test_the_api_patch_passes_only_what_was_sent():
    body = MemoryUpdate(importance=0.2, event_at=None)
    assert body.changes() == {"importance": 0.2, "event_at": None}
    assert rules.check_patch(MemoryPatch(body.changes()), 100) == {"importance": 0.2, "event_at": None}


@pytest.mark.parametrize("agent, ok", [("agent-1", True), ("team+bot", True), ("a" * 128, True), ("", False),
                                       ("a" * 129, False), (" padded ", False), ("-x", False), (7, False)])
def test_agent_ids_follow_one_rule_in_the_domain_and_the_api(agent, ok):
    try:
        TypeAdapter(Agent).validate_python(agent, strict=True)
        api_ok = True
    except ValidationError:
        api_ok = False
    try:
        rules.check_agent(agent, "agent")
        domain_ok = True
    except InvalidInput:
        domain_ok = False
    assert (api_ok, domain_ok) == (ok, ok)


def test_patch_normalises_tags_and_importance():
    clean = rules.check_patch(MemoryPatch({"tags": [" a", "a ", "b"], "importance": 1}), 100)
    assert clean == {"tags": ["a", "b"], "importance": 1.0} and isinstance(clean["importance"], float)


def test_an_unknown_field_is_named_even_beside_allowed_ones():
    with pytest.raises(InvalidInput) as refused:
        rules.check_patch(MemoryPatch({"text": "ok", "agent": "other"}), 100)
    assert refused.value.field == "agent"


def test_expected_version_is_bounded_by_the_graphs_integers_in_the_domain():
    assert rules.check_patch(MemoryPatch({"text": "ok"}, expected_version=rules.MAX_VERSION), 100) == {"text": "ok"}
    for bad in (0, rules.MAX_VERSION + 1, 2**70, True):
        with pytest.raises(InvalidInput, match="expected_version"):
            rules.check_patch(MemoryPatch({"text": "ok"}, expected_version=bad), 100)

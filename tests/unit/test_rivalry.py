"""The one rule set for rivals (graph/beliefs/rivalry.py): its pure part."""
from __future__ import annotations

import pytest

from graph.beliefs.predicates import PredicateSchema
from graph.beliefs.rivalry import may_have_rivals, review_policy
from graph.core.vocab import CONFLICT_POLICIES
from graph.memories.model import Claim


@pytest.mark.parametrize("exclusive, cardinality, expected", [
    (True, "single", True), (False, "single", False), (True, "multi", False), (False, "multi", False)])
def test_only_an_exclusive_claim_of_a_single_valued_predicate_has_rivals(exclusive, cardinality, expected):
    claim = Claim(subject="user", predicate="likes", value="jazz", exclusive=exclusive)
    assert may_have_rivals(claim, PredicateSchema("likes", cardinality=cardinality)) is expected


@pytest.mark.parametrize("scope, session_id", [("global", None), ("temporal", None), ("session", "s-1")])
def test_scope_does_not_change_whether_a_claim_may_have_rivals(scope, session_id):
    claim = Claim(subject="user", predicate="likes", value="jazz", scope=scope, session_id=session_id)
    assert may_have_rivals(claim, PredicateSchema("likes"))


def test_a_review_activates_under_supersede_unless_the_predicate_keeps_both():
    assert {p: review_policy(PredicateSchema("p", conflict_policy=p)) for p in CONFLICT_POLICIES} == \
        {"supersede": "supersede", "require_review": "supersede", "keep_both": "keep_both"}

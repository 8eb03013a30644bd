"""What a key may do: roles include the ones below, agents by list or pattern (graph/keys/model.py)."""
from __future__ import annotations

import pytest

from graph.core.errors import InvalidInput
from graph.keys.model import EVERY_AGENT, Access, NewKey, Role, Scope, check_new_key
from graph.keys.service import digest, looks_like_a_key, new_secret


def test_a_scope_covers_listed_agents_and_its_pattern():
    scope = Scope(frozenset({"alice"}), "team-a-*")
    assert scope.covers("alice") and scope.covers("team-a-7") and scope.covers("team-a-")
    assert not scope.covers("alicia") and not scope.covers("team-b-7") and not scope.covers("xteam-a-7")
    assert Scope(pattern="bot-?").covers("bot-1") and not Scope(pattern="bot-?").covers("bot-12")
    assert EVERY_AGENT.covers("anyone")


def test_refusal_names_the_role_or_the_agents():
    reader = Access("k", Role.READ, Scope(frozenset({"a"})))
    assert reader.refusal(Role.READ, ["a"]) is None
    assert "role is read" in reader.refusal(Role.WRITE, ["a"])
    assert "b, c" in reader.refusal(Role.READ, ["a", "c", "b"])
    assert Access("k", Role.ADMIN, Scope(frozenset({"a"}))).refusal(Role.WRITE, ["a"]) is None


def test_a_new_key_needs_agents_or_a_pattern_and_valid_ones():
    assert check_new_key(NewKey(" ops ", Role.READ, ("a", "a", "b"))).agents == ("a", "b")
    for bad, field in ((NewKey("x", Role.READ), "agents"), (NewKey("x", Role.READ, ("no spaces",)), "agents[0]"),
                       (NewKey("x", Role.READ, agent_pattern="team[ab]"), "agent_pattern"),
                       (NewKey(" ", Role.READ, ("a",)), "name")):
        with pytest.raises(InvalidInput) as caught:
            check_new_key(bad)
        assert caught.value.field == field
    with pytest.raises(InvalidInput):
        Role.parse("root")


def test_secrets_are_256_random_bits_and_only_their_digest_is_kept():
    one, two = new_secret(), new_secret()
    assert one != two and looks_like_a_key(one) and not looks_like_a_key("crd_short")
    assert len(digest(one)) == 64 and digest(one) != digest(two)


def test_a_key_source_list_is_checked_and_limits_what_its_writes_claim():
    with pytest.raises(InvalidInput, match="at least one source"):
        check_new_key(NewKey(name="k", role=Role.WRITE, agents=("a",), sources=()))
    with pytest.raises(InvalidInput, match="gossip is no source"):
        check_new_key(NewKey(name="k", role=Role.WRITE, agents=("a",), sources=("gossip",)))
    key = check_new_key(NewKey(name="k", role=Role.WRITE, agents=("a",),
                               sources=("tool_output", "inference", "inference")))
    assert key.sources == ("inference", "tool_output")

    limited = Access(principal="k", role=Role.WRITE, scope=Scope(frozenset({"a"})), sources=frozenset(key.sources))
    assert limited.source_refusal(["inference"]) is None
    assert "not system, user_explicit" in limited.source_refusal(["user_explicit", "inference", "system"])
    assert Access(principal="k", role=Role.WRITE, scope=Scope()).source_refusal(["user_explicit"]) is None

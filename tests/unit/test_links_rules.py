"""The pure rules of the memory graph: who may write which edge kind, expand's bounds, and which
path to a memory reached several ways is kept."""
from __future__ import annotations

import pytest

from graph.core.errors import InvalidInput, StateConflict
from graph.core.vocab import EDGE_KINDS, ENGINE_KINDS, USER_KINDS
from graph.links.expansion import Expand, check_expand, nearest
from graph.links.kinds import check_user_kind


def test_users_own_three_kinds_and_the_engine_the_other_three():
    assert set(USER_KINDS) | set(ENGINE_KINDS) == set(EDGE_KINDS) and not set(USER_KINDS) & set(ENGINE_KINDS)
    for kind in USER_KINDS:
        assert check_user_kind(kind, "add") == kind
    for kind in ENGINE_KINDS:
        with pytest.raises(StateConflict, match=f"cannot remove {kind}"):
            check_user_kind(kind, "remove")
    with pytest.raises(InvalidInput) as err:
        check_user_kind("LIKES", "add")
    assert err.value.field == "type"


@pytest.mark.parametrize("expand, field", [
    (Expand(depth=4), "expand.depth"), (Expand(depth=-1), "expand.depth"), (Expand(depth=True), "expand.depth"),
    (Expand(depth=1, kinds=()), "expand.kinds"), (Expand(depth=1, kinds=("CAUSES", "LIKES")), "expand.kinds[1]"),
    (Expand(depth=1, direction="up"), "expand.direction"), (Expand(depth=1, limit=0), "expand.limit"),
    (Expand(depth=1, limit=51), "expand.limit"), (Expand(depth=1, limit=True), "expand.limit")])
def test_expand_is_bounded(expand, field):
    with pytest.raises(InvalidInput) as err:
        check_expand(expand)
    assert err.value.field == field


def row(path, kinds, directions=None):
    """One path of an expand row as the query returns it: each edge's start node, from each hop's
    direction, and the memory reached."""
    directions = directions or ["out"] * len(kinds)
    starts = [path[i] if d == "out" else path[i + 1] for i, d in enumerate(directions)]
    return {"ids": path, "kinds": kinds, "starts": starts,
            "id": path[-1], "text": path[-1], "memory_type": "semantic", "status": "active"}


def per_start(paths):
    """The paths as the query groups them: one row per start."""
    rows: dict[str, list] = {}
    for path in paths:
        rows.setdefault(path["ids"][0], []).append(path)
    return [{"from_id": start, "paths": found} for start, found in rows.items()]


def test_each_memory_reached_keeps_its_nearest_path_then_the_smallest_ids():
    rows = [row(["a", "b", "c"], ["CAUSES", "CAUSES"]), row(["a", "c"], ["SUPPORTS"], ["in"]),
            row(["a", "x", "d"], ["CAUSES", "SUPPORTS"]), row(["a", "b", "d"], ["CAUSES", "CAUSES"]),
            row(["a", "b"], ["CAUSES"]), row(["z", "b"], ["SUPPORTS"])]
    found = nearest(per_start(rows)).related
    assert [(r.id, r.hops, r.path, r.kind, r.direction) for r in found["a"]] == [
        ("b", 1, ("a", "b"), "CAUSES", "out"), ("c", 1, ("a", "c"), "SUPPORTS", "in"),
        ("d", 2, ("a", "b", "d"), "CAUSES", "out")]
    assert [r.id for r in found["z"]] == ["b"]


def test_each_list_is_cut_at_the_limit_nearest_first_and_says_so():
    rows = [row(["a", "b"], ["SUPPORTS"]), row(["a", "c"], ["CAUSES"], ["in"]),
            row(["a", "b", "d"], ["CAUSES", "CAUSES"]), row(["a", "e"], ["CAUSES"]), row(["z", "b"], ["SUPPORTS"])]
    found = nearest(per_start(rows), limit=2)
    assert [(r.id, r.direction) for r in found.of("a")] == [("c", "in"), ("e", "out")]  # 1 hop, then kind, then id
    assert found.cut == {"a"} and [r.id for r in found.of("z")] == ["b"]
    whole = nearest(per_start(rows), limit=3)
    assert [r.id for r in whole.of("a")] == ["c", "e", "b"] and "a" in whole.cut
    assert nearest(per_start(rows), limit=4).cut == frozenset()

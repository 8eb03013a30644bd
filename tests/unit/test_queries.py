from __future__ import annotations

import pytest

from graph.store.registry import CYPHER_DIR, QueryRegistry, _parse


def test_registry_loads_every_file_by_name():
    registry = QueryRegistry()
    assert "memories/create" in registry.names() and "retrieval/vector" in registry.names()
    assert registry["memories/get"].params == frozenset({"agent", "id"})
    assert "tenant" in registry["retrieval/hydrate"].doc
    with pytest.raises(KeyError, match="no Cypher file"):
        registry["memories/nope"]


def test_every_tenant_query_filters_by_agent():
    """Tenant data is only ever read or written with the tenant inside the query."""
    registry = QueryRegistry()
    exempt = {"store/meta/", "store/schema/", "store/migrations/",  # whole-graph DDL and repairs
              "store/startup/",  # the start-up lock several processes take before migrating
              "keys/",  # API keys are the operator's, not a tenant's
              # The queue's own statements serve every tenant (the claim, the reap, the depth, the
              # schedule's lock), and the scheduled fan-outs list tenants that have work: agent ids only.
              # Every statement a job then runs names its tenant (docs/maintenance.md).
              "jobs/queue/", "maintenance/across/"}
    for name in registry.names():
        if any(name.startswith(p) for p in exempt):
            continue
        query = registry[name]
        assert "agent" in query.params and "$agent" in query.text, name


def test_header_declares_params_exactly():
    query = _parse("x/y", "// Doc line.\n// params: a, b\n// returns: many\n"
                           "MATCH (n {a: $a}) RETURN $b AS b, '$notparam' AS s\n")
    assert query.params == frozenset({"a", "b"}) and query.doc == "Doc line." and query.shape == "many"
    with pytest.raises(ValueError, match="declares"):
        _parse("x/y", "// params: a\n// returns: one\nRETURN $a, $b\n")
    with pytest.raises(ValueError, match="no statement"):
        _parse("x/y", "// only a comment\n")


def test_header_must_declare_a_known_result_shape():
    with pytest.raises(ValueError, match="must declare '// returns: <shape>'"):
        _parse("x/y", "// params: a\nRETURN $a AS a\n")
    with pytest.raises(ValueError, match="'rows'"):
        _parse("x/y", "// params: a\n// returns: rows\nRETURN $a AS a\n")


def test_every_file_declares_a_shape_its_statement_can_have():
    """A write declares no rows and ends without RETURN; anything that returns rows says how many."""
    registry = QueryRegistry()
    for name in registry.names():
        query = registry[name]
        returns = "RETURN" in query.text.upper() or "YIELD" in query.text.upper()
        assert (query.shape == "write") != returns, name


def test_bind_refuses_missing_or_extra_params():
    query = _parse("x/y", "// params: a\n// returns: scalar\nRETURN $a AS a\n")
    assert query.bind({"a": 1}) == {"a": 1}
    with pytest.raises(TypeError, match="missing"):
        query.bind({})
    with pytest.raises(TypeError, match="unexpected"):
        query.bind({"a": 1, "b": 2})


def test_group_lists_only_the_folder_itself():
    names = [q.name for q in QueryRegistry().group("store/schema")]
    assert names and all(n.rpartition("/")[0] == "store/schema" for n in names)


def test_search_queries_take_the_visibility_filter_from_one_fragment():
    registry = QueryRegistry()
    fragment = (CYPHER_DIR / "retrieval" / "visibility.fragment").read_text().splitlines()
    first_line = next(line for line in fragment if not line.lstrip().startswith("//"))
    for name in ("retrieval/exact", "retrieval/vector", "retrieval/keyword_postings", "retrieval/keyword_exact",
                 "retrieval/hydrate", "retrieval/neighbours", "retrieval/arcadedb/vector_in_tenant"):
        query = registry[name]
        assert first_line in query.text and "// include:" not in query.text, name
        assert {"statuses", "as_of", "session_id", "tags"} <= query.params, name


def test_an_include_of_a_missing_fragment_fails_at_load(tmp_path):
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "q.cypher").write_text("// returns: many\nMATCH (m)\n// include: g/nothing\nRETURN m\n")
    with pytest.raises(ValueError, match="g/nothing"):
        QueryRegistry(tmp_path)


def test_a_fragment_may_include_another_and_both_are_expanded(tmp_path):
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "outer.fragment").write_text("// doc\nWHERE m.x =\n// include: g/inner\n")
    (tmp_path / "g" / "inner.fragment").write_text("// doc\n  $x\n")
    (tmp_path / "g" / "q.cypher").write_text("// params: x\n// returns: many\nMATCH (m)\n"
                                             "// include: g/outer\nRETURN m\n")
    query = QueryRegistry(tmp_path)["g/q"]
    assert query.text.strip() == "MATCH (m)\nWHERE m.x =\n  $x\nRETURN m"
    assert query.params == {"x"}


def test_a_fragment_that_includes_itself_fails_at_load(tmp_path):
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "loop.fragment").write_text("MATCH (m)\n// include: g/loop\n")
    (tmp_path / "g" / "q.cypher").write_text("// returns: many\n// include: g/loop\nRETURN m\n")
    with pytest.raises(ValueError, match="g/loop includes itself"):
        QueryRegistry(tmp_path)


def test_group_runs_numbered_files_in_number_order_not_text_order(tmp_path):
    # Migrations run in this order; as text, "10_x" would run before "2_x".
    (tmp_path / "m").mkdir()
    for name in ("10_last", "2_second", "1_first", "2_also_second"):
        (tmp_path / "m" / f"{name}.cypher").write_text("// returns: write\nMATCH (n) SET n.x = 1\n")
    assert [q.name for q in QueryRegistry(tmp_path).group("m")] == ["m/1_first", "m/2_also_second", "m/2_second",
                                                                     "m/10_last"]

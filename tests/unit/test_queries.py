from __future__ import annotations

import pytest

from graph.store.registry import QueryRegistry, _parse


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
    exempt = {"store/meta/", "store/schema/", "store/migrations/"}  # whole-graph DDL and repairs
    for name in registry.names():
        if any(name.startswith(p) for p in exempt):
            continue
        query = registry[name]
        assert "agent" in query.params and "$agent" in query.text, name


def test_header_declares_params_exactly():
    query = _parse("x/y", "// Doc line.\n// params: a, b\nMATCH (n {a: $a}) RETURN $b AS b, '$notparam' AS s\n")
    assert query.params == frozenset({"a", "b"}) and query.doc == "Doc line."
    with pytest.raises(ValueError, match="declares"):
        _parse("x/y", "// params: a\nRETURN $a, $b\n")
    with pytest.raises(ValueError, match="no statement"):
        _parse("x/y", "// only a comment\n")


def test_bind_refuses_missing_or_extra_params():
    query = _parse("x/y", "// params: a\nRETURN $a AS a\n")
    assert query.bind({"a": 1}) == {"a": 1}
    with pytest.raises(TypeError, match="missing"):
        query.bind({})
    with pytest.raises(TypeError, match="unexpected"):
        query.bind({"a": 1, "b": 2})


def test_group_lists_only_the_folder_itself():
    names = [q.name for q in QueryRegistry().group("store/schema")]
    assert names and all(n.rpartition("/")[0] == "store/schema" for n in names)


def test_search_queries_share_one_visibility_filter():
    """Cypher has no functions, so the filter search applies lives verbatim in five files; this holds
    them equal, so a change to one is a change to all."""
    registry = QueryRegistry()
    blocks = {}
    for name in ("retrieval/exact", "retrieval/vector", "retrieval/fulltext", "retrieval/keyword_exact", "retrieval/hydrate"):
        text = registry[name].text
        start, end = text.index("// visibility:begin"), text.index("// visibility:end")
        blocks[name] = text[start:end]
    assert len(set(blocks.values())) == 1, blocks
    assert "$statuses" in blocks["retrieval/exact"] and "$as_of" in blocks["retrieval/exact"]

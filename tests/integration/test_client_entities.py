"""The entity graph through the Python client (sync and async) and the `credence` command line, on
the real backend: entities listed page by page, found by name or alias, their relationships now and
at `as_of`, neighbourhood, path, what we know about X, and the operators' update and merge."""
from __future__ import annotations

import json

import httpx
import pytest

from credence_client import AsyncCredence, Conflict, Credence, InvalidInput, NotFound, UnknownEntity
from credence_client.cli import main


@pytest.fixture
def api(client) -> Credence:
    return Credence(http=client, actor="entity-test")


def claim(api: Credence, agent: str, subject: str, predicate: str, value: str, **extra) -> str:
    return api.remember(agent, f"{subject} {predicate} {value}", provenance={"source": "user_explicit"},
                        claim={"subject": subject, "predicate": predicate, "value": value, **extra}).id


def build_graph(api: Credence, agent: str) -> dict[str, str]:
    """user -works_at-> Acme -located_in-> Seattle; user -knows-> Dana -lives_in-> Paris; user once
    worked at Initech (closed when Acme superseded it)."""
    return {"initech": claim(api, agent, "user", "employer", "Initech", valid_from="2020-01-01T00:00:00Z"),
            "acme": claim(api, agent, "user", "employer", "Acme", valid_from="2024-01-01T00:00:00Z"),
            "seattle": claim(api, agent, "Acme", "headquarters", "Seattle", valid_from="2019-01-01T00:00:00Z"),
            "dana": claim(api, agent, "user", "friend", "Dana"),
            "paris": claim(api, agent, "Dana", "lives_in", "Paris")}


def edge(r) -> tuple[str, str, str]:
    return r.source.name, r.type, r.target.name


def test_the_client_lists_and_reads_entities_and_their_relationships(api, agent):
    ids = build_graph(api, agent)
    names = ["Acme", "Dana", "Initech", "Paris", "Seattle", "user"]
    assert [e.name for e in api.entities(agent)] == names
    # A page of one entity at a time: the iterator follows `next_after` to the last page.
    assert [e.name for e in api.entities(agent, limit=1)] == names
    assert [e.name for e in api.entities(agent, kind="place")] == ["Paris", "Seattle"]

    user = api.entity_named(agent, "  USER ")  # case and spaces do not matter
    assert (user.name, user.kind) == ("user", "person")
    with pytest.raises(UnknownEntity) as unknown:
        api.entity_named(agent, "Globex")
    assert isinstance(unknown.value, NotFound) and "Globex" in unknown.value.detail

    detail = api.entity(agent, user.id)
    now = {edge(r): r for r in detail.relationships}
    assert set(now) == {("user", "works_at", "Initech"), ("user", "works_at", "Acme"), ("user", "knows", "Dana")}
    assert now[("user", "works_at", "Acme")].current and now[("user", "works_at", "Acme")].memory_ids == [ids["acme"]]
    old = now[("user", "works_at", "Initech")]
    assert not old.current and old.valid_until is not None, "a changed belief is history, not deleted"
    then = api.entity(agent, user.id, as_of="2022-06-01T00:00:00Z")
    assert [edge(r) for r in then.relationships] == [("user", "works_at", "Initech")]


def test_the_client_walks_the_graph_and_says_what_we_know_about_x(api, agent):
    build_graph(api, agent)
    user, acme = api.entity_named(agent, "user"), api.entity_named(agent, "Acme")
    seattle, paris = api.entity_named(agent, "Seattle"), api.entity_named(agent, "Paris")

    one = api.entity_neighbourhood(agent, user.id)
    assert one.root == user.id
    assert sorted((n.entity.name, n.hops) for n in one.nodes) == [("Acme", 1), ("Dana", 1), ("user", 0)]
    two = api.entity_neighbourhood(agent, user.id, depth=2)
    assert sorted(n.entity.name for n in two.nodes if n.hops == 2) == ["Paris", "Seattle"]
    with pytest.raises(InvalidInput) as deep:
        api.entity_neighbourhood(agent, user.id, depth=9)
    assert deep.value.errors[0]["field"] == "depth"

    path = api.entity_path(agent, seattle.id, paris.id)
    assert [e.name for e in path.entities] == ["Seattle", "Acme", "user", "Dana", "Paris"]
    assert [r.type for r in path.relationships] == ["located_in", "works_at", "knows", "lives_in"]
    with pytest.raises(NotFound):
        api.entity_path(agent, seattle.id, paris.id, max_hops=3)

    about = api.about(agent, acme.id)
    assert about.entity.id == acme.id
    assert {g.type: [edge(r) for r in g.relationships] for g in about.relationships} == {
        "located_in": [("Acme", "located_in", "Seattle")], "works_at": [("user", "works_at", "Acme")]}
    assert {g.predicate: sorted((m.subject, m.role) for m in g.memories) for g in about.memories} == {
        "employer": [("user", "value")], "headquarters": [("Acme", "subject")]}
    # as_of: before Acme was the employer, nothing tied the user to it.
    assert [g.type for g in api.about(agent, acme.id, as_of="2022-06-01T00:00:00Z").relationships] == ["located_in"]


def test_operators_update_and_merge_entities_through_the_client(api, agent):
    claim(api, agent, "user", "employer", "International Business Machines")
    claim(api, agent, "Dana", "employer", "IBM Corp")
    ibm, corp = api.entity_named(agent, "International Business Machines"), api.entity_named(agent, "IBM Corp")

    updated = api.update_entity(agent, ibm.id, kind="organisation", add_aliases=["IBM", "Big Blue"])
    assert (updated.kind, updated.aliases) == ("organisation", ["IBM", "Big Blue"])
    assert api.entity_named(agent, "big blue").id == ibm.id
    with pytest.raises(Conflict):  # a name of another entity: merge them instead
        api.update_entity(agent, ibm.id, add_aliases=["ibm corp"])
    with pytest.raises(InvalidInput):
        api.update_entity(agent, ibm.id, kind="planet")

    merged = api.merge_entities(agent, ibm.id, corp.id)
    assert merged.id == ibm.id and "IBM Corp" in merged.aliases
    assert api.entity_named(agent, "IBM Corp").id == ibm.id
    works = api.about(agent, ibm.id).relationships
    assert sorted(edge(r) for g in works for r in g.relationships) == [
        ("Dana", "works_at", "International Business Machines"),
        ("user", "works_at", "International Business Machines")]
    assert [e.name for e in api.entities(agent, kind="organisation")] == ["International Business Machines"]


def test_the_async_client_makes_the_entity_calls_too(client, run, agent):
    sync = Credence(http=client)
    build_graph(sync, agent)

    async def session():
        http = httpx.AsyncClient(transport=httpx.ASGITransport(app=client.app), base_url="http://testserver")
        try:
            async with AsyncCredence(http=http) as api:
                names = [e.name async for e in api.entities(agent, limit=2)]
                user = await api.entity_named(agent, "user")
                dana = await api.entity_named(agent, "dana")
                detail = await api.entity(agent, user.id, as_of="2022-06-01T00:00:00Z")
                hood = await api.entity_neighbourhood(agent, dana.id, depth=1)
                path = await api.entity_path(agent, dana.id, user.id, max_hops=1)
                about = await api.about(agent, dana.id)
                renamed = await api.update_entity(agent, dana.id, add_aliases=["Dana Scully"])
                with pytest.raises(UnknownEntity):
                    await api.entity_named(agent, "Mulder")
                return names, detail, hood, path, about, renamed
        finally:
            await http.aclose()

    names, detail, hood, path, about, renamed = run(session)
    assert names == ["Acme", "Dana", "Initech", "Paris", "Seattle", "user"]
    assert [edge(r) for r in detail.relationships] == [("user", "works_at", "Initech")]
    assert sorted(n.entity.name for n in hood.nodes) == ["Dana", "Paris", "user"]
    assert [e.name for e in path.entities] == ["Dana", "user"] and path.relationships[0].type == "knows"
    assert sorted(g.type for g in about.relationships) == ["knows", "lives_in"]
    assert renamed.aliases == ["Dana Scully"]


def cli(api: Credence, capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv), api=api)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_line_answers_about_entities_by_name(api, agent, capsys):
    build_graph(api, agent)
    code, out, _ = cli(api, capsys, "entities", agent, "--kind", "place")
    assert code == 0 and [e["name"] for e in json.loads(out)] == ["Paris", "Seattle"]

    code, out, _ = cli(api, capsys, "about", agent, "acme")
    about = json.loads(out)
    assert code == 0 and about["entity"]["name"] == "Acme"
    assert sorted(g["type"] for g in about["relationships"]) == ["located_in", "works_at"]
    code, out, _ = cli(api, capsys, "about", agent, "user", "--as-of", "2022-06-01T00:00:00Z")
    assert [r["target"]["name"] for g in json.loads(out)["relationships"] for r in g["relationships"]] == ["Initech"]

    code, out, _ = cli(api, capsys, "path", agent, "Seattle", "Paris")
    assert code == 0
    assert [e["name"] for e in json.loads(out)["entities"]] == ["Seattle", "Acme", "user", "Dana", "Paris"]
    code, out, _ = cli(api, capsys, "neighbourhood", agent, "Dana", "--depth", "2")
    assert code == 0 and sorted(n["entity"]["name"] for n in json.loads(out)["nodes"]) == [
        "Acme", "Dana", "Paris", "user"]
    code, out, _ = cli(api, capsys, "entity", agent, "user")
    assert code == 0 and len(json.loads(out)["relationships"]) == 3

    code, out, _ = cli(api, capsys, "entity-update", agent, "Dana", "--alias", "D. Scully", "--kind", "person")
    assert code == 0 and json.loads(out)["aliases"] == ["D. Scully"]
    code, out, _ = cli(api, capsys, "merge-entities", agent, "Seattle", "Paris")
    assert code == 0 and json.loads(out)["aliases"] == ["Paris"]

    code, out, err = cli(api, capsys, "about", agent, "Globex")
    assert (code, out) == (1, "") and "no entity named 'Globex'" in err
    code, out, err = cli(api, capsys, "path", agent, "Seattle", "Paris", "--max-hops", "9")
    assert (code, out) == (1, "") and "max_hops" in err

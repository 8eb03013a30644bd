"""The OpenAPI document types what explain, conflicts, links and history answer: their records are
domain records with declared fields, not free-form maps."""
from __future__ import annotations

FREE_FORM_ALLOWED = {"metadata", "before", "after", "options"}  # caller-defined JSON, by design


def _free_form_fields(schemas: dict, name: str, seen: set[str] | None = None) -> list[str]:
    """Every property reachable from one component that is an object with no declared shape."""
    seen = seen if seen is not None else set()
    if name in seen:
        return []
    seen.add(name)
    found = []
    for prop, spec in schemas[name].get("properties", {}).items():
        for branch in spec.get("anyOf", [spec]):
            target = branch.get("items", branch)
            if "$ref" in target:
                found += _free_form_fields(schemas, target["$ref"].rsplit("/", 1)[1], seen)
            elif target.get("type") == "object" and target.get("additionalProperties", True) is True \
                    and "properties" not in target and prop not in FREE_FORM_ALLOWED:
                found.append(f"{name}.{prop}")
    return found


def test_explain_conflicts_links_and_history_are_typed_in_the_openapi_document(client):
    doc = client.get("/openapi.json").json()
    schemas = doc["components"]["schemas"]
    for path, model in [("/v1/memories/{memory_id}/explain", "ExplainOut"),
                        ("/v1/memories/{memory_id}/explain/supersession", "SupersessionOut"),
                        ("/v1/conflicts", "ConflictListOut"),
                        ("/v1/memories/{memory_id}/links", "LinksOut"),
                        ("/v1/memories/{memory_id}/history", "HistoryOut")]:
        ok = doc["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        assert ok["$ref"].endswith(f"/{model}"), path
        assert _free_form_fields(schemas, model) == [], model
    explain = schemas["ExplainOut"]["properties"]
    assert explain["sources"]["items"]["$ref"].endswith("/SourceOut")
    assert explain["conflicts"]["items"]["$ref"].endswith("/ConflictRefOut")
    assert explain["superseded_by"]["items"]["$ref"].endswith("/SupersessionEdgeOut")
    assert schemas["TrustTermsOut"]["properties"]["inputs"]["$ref"].endswith("/TrustInputsOut")


def test_explain_answers_the_typed_records(client, agent):
    first = client.post("/v1/memories", json={"agent": agent, "text": "The user lives in Lisbon.",
                                              "claim": {"subject": "user", "predicate": "lives_in", "value": "Lisbon"},
                                              "provenance": {"source": "user_implicit", "ref": "msg-1"}}).json()
    second = client.post("/v1/memories", json={"agent": agent, "text": "The user lives in Porto.",
                                               "claim": {"subject": "user", "predicate": "lives_in", "value": "Porto"},
                                               "provenance": {"source": "user_explicit", "ref": "msg-2"}}).json()
    old = client.get(f"/v1/memories/{first['id']}/explain", params={"agent": agent}).json()
    assert old["status"] == "superseded"
    assert [(s["type"], s["ref"]) for s in old["sources"]] == [("user_implicit", "msg-1")]
    assert [(e["id"], e["status"], e["reason"]) for e in old["superseded_by"]] == \
        [(second["id"], "active", "higher_trust")]
    assert old["superseded_by"][0]["new_trust"] > old["superseded_by"][0]["old_trust"]
    assert old["trust"]["inputs"]["source"] == "user_implicit" and old["trust"]["inputs"]["corroboration"] == 1
    new = client.get(f"/v1/memories/{second['id']}/explain", params={"agent": agent}).json()
    assert [(e["id"], e["reason"]) for e in new["supersedes"]] == [(first["id"], "higher_trust")]
    assert new["superseded_by"] == []
    links = client.get(f"/v1/memories/{second['id']}/links", params={"agent": agent}).json()["links"]
    # The supersession was a contradiction the engine decided at once: a closed CONTRADICTS beside it.
    assert [(link["type"], link["direction"], link["id"], link["reason"]) for link in links] == \
        [("CONTRADICTS", "out", first["id"], "supersede"), ("SUPERSEDES", "out", first["id"], "higher_trust")]
    assert links[0]["resolution"] == "supersede" and links[0]["resolved_at"] and links[0]["created_by"] == "engine"
    history = client.get(f"/v1/memories/{first['id']}/history", params={"agent": agent}).json()["operations"]
    assert [o["op"] for o in history][:1] == ["store"] and history[0]["after"]["claim"]["value"] == "Lisbon"

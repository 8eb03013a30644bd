"""The light client's typed answers agree with the service they read: each model in
credence_client.models names the component of the live /openapi.json it reads; every field it
declares exists there with a type it accepts (whatever the service may send, the model takes), and
a field the model requires is one the service always sends. The MCP server's vocabularies (sources,
resolution and review actions) and the client's entity kinds are the service's."""
from __future__ import annotations

import inspect
import re
from typing import Any, get_args, get_type_hints

from credence_client import endpoints, mcp_server, models


def branches(schema: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for option in schema.get("anyOf", schema.get("oneOf", [schema])) for b in branches(option)] \
        if ("anyOf" in schema or "oneOf" in schema) else [schema]


def ref_name(schema: dict[str, Any]) -> str | None:
    ref = schema.get("$ref")
    return ref.rsplit("/", 1)[-1] if ref else None


class Comparison:
    def __init__(self, components: dict[str, Any]) -> None:
        self.components = components
        self.openapi_of = {model.__name__: model.openapi for model in models.ALL}

    def accepts(self, mine: dict[str, Any], sent: dict[str, Any]) -> bool:
        """Does the client's schema `mine` take every value the service's `sent` allows?"""
        if not mine or (mine.get("type") is None and "$ref" not in mine):
            return True  # Any
        kind = "object" if "$ref" in sent else sent.get("type")
        if "$ref" in mine:  # a nested client model reads exactly that component
            return ref_name(sent) == self.openapi_of[ref_name(mine)]
        expected = mine["type"]
        if expected == "number":
            return kind in ("number", "integer")
        if expected == "string":
            return kind == "string" and mine.get("format") in (None, sent.get("format"))
        if expected == "array":
            return kind == "array" and all(self.accepts(mine.get("items", {}), item)
                                           for item in branches(sent.get("items", {})))
        if expected == "object":
            if kind != "object":
                return False
            wanted = mine.get("additionalProperties", True)
            if wanted is True or "$ref" in sent:
                return wanted is True
            given = sent.get("additionalProperties", True)
            return given is not True and all(self.accepts(wanted, value) for value in branches(given))
        return kind == expected  # integer, boolean, null

    def mismatches(self, model: type[models.Model]) -> list[str]:
        server = self.components.get(model.openapi)
        if server is None:
            return [f"{model.__name__}: the service has no component {model.openapi}"]
        mine = model.model_json_schema(ref_template="{model}")  # a nested model's $ref is its class name
        problems = []
        for field, schema in mine["properties"].items():
            where = f"{model.__name__}.{field} ({model.openapi})"
            theirs = server["properties"].get(field)
            if theirs is None:
                problems.append(f"{where}: not in the service's schema")
                continue
            for sent in branches(theirs):
                if not any(self.accepts(option, sent) for option in branches(schema)):
                    problems.append(f"{where}: the service may send {sent}, the client takes {schema}")
            if field in mine.get("required", []) and field not in server.get("required", []):
                problems.append(f"{where}: required by the client, optional in the service's schema")
        return problems


def openapi(client) -> dict[str, Any]:
    return client.get("/openapi.json").json()["components"]["schemas"]


def test_every_client_model_reads_its_component_of_the_live_schema(client):
    comparison = Comparison(openapi(client))
    assert [p for model in models.ALL for p in comparison.mismatches(model)] == []


def route(spec: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    """The OpenAPI operation that serves `method path` (templated segments match any one segment)."""
    for template, operations in spec["paths"].items():
        if re.fullmatch(re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)), path) and method.lower() in operations:
            return operations[method.lower()]
    raise AssertionError(f"the service has no route {method} {path}")


def test_each_call_reads_the_schema_its_route_answers_with(client):
    """The model a call reads its answer with is the one the route declares (or a list under the key
    the route's answer holds it in), for every call in credence_client/endpoints.py."""
    spec = client.get("/openapi.json").json()
    placeholders = {"str": "x", "str | None": None, "dict[str, Any]": {}, "list[str]": ["x"],
                    "list[str | dict[str, Any]]": ["x"], "list[dict[str, Any]]": [{}], "int | None": None,
                    "Instant | None": None, "list[str] | None": None, "bool": False, "dict[str, bool] | None": None,
                    "dict[str, float] | None": None}
    checked = []
    for name, fn in inspect.getmembers(endpoints, inspect.isfunction):
        if fn.__module__ != endpoints.__name__ or name.startswith("_") or \
                not str(inspect.signature(fn).return_annotation).startswith("Call["):
            continue
        args = [placeholders[p.annotation] for p in inspect.signature(fn).parameters.values()]
        call = fn("/v1/memories", {"agent": "x"}, None) if name == "page" else fn(*args)
        operation = route(spec, call.method, call.path)
        answers = [r for status, r in operation["responses"].items() if status.startswith("2")]
        model = getattr(call.read, "model", None)
        if model is None:  # a raw answer (ready) or none (unlink)
            checked.append(name)
            continue
        schemas = [b for r in answers for b in branches(r.get("content", {}).get("application/json", {})
                                                        .get("schema", {}))]
        names = {ref_name(schema) for schema in schemas}
        if call.read.key is None:
            assert model.openapi in names, (name, model.openapi, names)
        else:
            [wrapper] = names
            held = spec["components"]["schemas"][wrapper]["properties"][call.read.key]
            assert ref_name(held["items"]) == model.openapi, (name, held)
        checked.append(name)
    assert len(checked) >= 36  # every route the clients call


def test_the_comparison_catches_a_mismatch(client):
    class Wrong(models.Model):
        openapi = "MemoryOut"
        id: int           # a string on the service
        trust: float      # right
        nickname: str     # not on the service
        claim: dict       # optional on the service, required here

    problems = Comparison(openapi(client)).mismatches(Wrong)
    assert {p.split(":")[0] for p in problems} == {
        "Wrong.id (MemoryOut)", "Wrong.nickname (MemoryOut)", "Wrong.claim (MemoryOut)"}
    assert "Wrong.claim (MemoryOut): required by the client, optional in the service's schema" in problems


def test_the_mcp_server_s_vocabularies_are_the_service_s(client):
    components = openapi(client)

    def enum(component: str, field: str) -> list[str]:
        return [v for b in branches(components[component]["properties"][field]) for v in b.get("enum", [])]

    def choices(tool: str, parameter: str) -> list[str]:
        hint = get_type_hints(getattr(mcp_server.Tools, tool))[parameter]  # Annotated stripped: the Literal
        return list(get_args(hint))

    assert list(get_args(mcp_server.SourceType)) == enum("ProvenanceIn", "source")
    assert choices("resolve_conflict", "action") == enum("ResolveIn", "action")
    assert choices("review", "action") == enum("ReviewIn", "action")
    assert list(models.ENTITY_KINDS) == enum("EntityOut", "kind") == enum("EntityPatch", "kind")

"""The audit trail you can query (issue 23 item 4, docs/audit.md): every change to a memory is a
record with its actor, time and reason; an update records the changed fields before and after; a
tenant's records are queried by op, actor, memory and time, newest first, a keyset page at a time,
and a memory's history pages too; a hard delete leaves the fact of the deletion and none of the
content; one tenant never sees another's records; job_id travels with an export."""
from __future__ import annotations

import json
import uuid

from tests.helpers import assert_problem, store


def history(client, agent, memory_id, **params) -> dict:
    response = client.get(f"/v1/memories/{memory_id}/history", params={"agent": agent, **params})
    assert response.status_code == 200, response.text
    return response.json()


def test_an_update_records_the_changed_fields_before_and_after(client, agent):
    memory = store(client, agent, "The user prefers tea", tags=["drinks"], importance=0.4,
                   event_at="2026-01-02T03:04:05Z", metadata={"from": "chat"})
    response = client.patch(f"/v1/memories/{memory['id']}", params={"agent": agent},
                            headers={"X-Credence-Actor": "editor"},
                            json={"text": "The user prefers coffee", "importance": 0.7, "metadata": {"from": "form"},
                                  "event_at": "2026-02-03T04:05:06Z"})
    assert response.status_code == 200, response.text
    [update] = [o for o in history(client, agent, memory["id"])["operations"] if o["op"] == "update"]
    assert update["actor"] == "editor"
    assert update["before"] == {"text": "The user prefers tea", "importance": 0.4, "metadata": {"from": "chat"},
                                "event_at": "2026-01-02T03:04:05Z", "version": 1}
    assert update["after"] == {"text": "The user prefers coffee", "importance": 0.7, "metadata": {"from": "form"},
                               "event_at": "2026-02-03T04:05:06Z", "version": 2}
    # Only what the patch changed: the tags it left alone are in neither.
    assert "tags" not in update["before"] and "tags" not in update["after"]


# -- the tenant's audit query ----------------------------------------------------------------------

def audit(client, agent, **params) -> dict:
    response = client.get("/v1/audit", params={"agent": agent, **params})
    assert response.status_code == 200, response.text
    return response.json()


def audit_all(client, agent, **params) -> list[dict]:
    """Every page, following next_cursor."""
    items, cursor = [], None
    while True:
        page = audit(client, agent, **params, **({"cursor": cursor} if cursor else {}))
        assert page["count"] == len(page["items"])
        items += page["items"]
        cursor = page["next_cursor"]
        if not cursor:
            return items


def ok(response, status=200):
    assert response.status_code == status, response.text
    return response.json()


def claim(value, predicate="budget_is", subject="project"):
    return {"subject": subject, "predicate": predicate, "value": value}


def test_every_change_to_a_memory_is_a_record_with_actor_time_and_reason(client, agent):
    who = {"X-Credence-Actor": "reviewer-1"}
    q = {"agent": agent}
    real = store(client, agent, "The project budget is $750", claim=claim("$750"),
                 provenance={"source": "user_explicit"})
    newer = store(client, agent, "The project budget is $900", claim=claim("$900"),
                  provenance={"source": "user_explicit"})
    assert newer["superseded"] == [real["id"]]
    poison = store(client, agent, "The project budget is $0", claim=claim("$0"), provenance={"source": "document"})
    assert poison["pending_conflict_id"]
    ok(client.post(f"/v1/conflicts/{poison['pending_conflict_id']}/resolve", params=q, headers=who,
                   json={"action": "reject", "reason": "a typo in the document"}))
    plain = store(client, agent, "Meeting moved to Friday")
    ok(client.post(f"/v1/memories/{plain['id']}/quarantine", params=q, headers=who, json={"details": "unsure"}))
    ok(client.post(f"/v1/quarantine/{plain['id']}/review", params=q, headers=who,
                   json={"action": "activate", "reason": "confirmed by the user"}))
    ok(client.post(f"/v1/memories/{plain['id']}/reinforce", params=q, headers=who))
    ok(client.post(f"/v1/memories/{plain['id']}/dispute", params=q, headers=who, json={"reason": "stale?"}))
    ok(client.post(f"/v1/memories/{newer['id']}/corroborate", params=q, headers=who,
                   json={"source": {"source": "tool_output", "ref": "crm"}}))
    ok(client.post(f"/v1/memories/{plain['id']}/links", headers=who,
                   json={"agent": agent, "type": "SUPPORTS", "to": newer["id"]}), 201)
    assert client.delete(f"/v1/memories/{plain['id']}/links/SUPPORTS/{newer['id']}", params=q,
                         headers=who).status_code == 204
    ok(client.patch(f"/v1/memories/{plain['id']}", params=q, headers=who, json={"tags": ["work"]}))
    ok(client.delete(f"/v1/memories/{plain['id']}", params=q, headers=who))

    records = audit_all(client, agent)
    ops = [r["op"] for r in records]
    assert set(ops) == {"store", "supersede", "quarantine", "resolve", "review", "reinforce", "dispute",
                        "corroborate", "link", "unlink", "update", "archive"}
    # Newest first, by (at, id); every record has its time and actor, and the reasons given are kept.
    keys = [(r["at"], r["id"]) for r in records]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys)
    assert all(r["at"] and r["actor"] for r in records)
    assert {r["actor"] for r in records if r["op"] not in ("store", "supersede", "quarantine")} == {"reviewer-1"}
    by_op = {r["op"]: r for r in reversed(records)}  # the newest of each op
    assert by_op["resolve"]["after"]["reason"] == "a typo in the document"
    assert by_op["review"]["after"]["reason"] == "confirmed by the user"
    assert by_op["dispute"]["after"]["reason"] == "stale?"
    assert by_op["quarantine"]["after"]["details"] == "unsure"
    assert by_op["update"]["before"]["tags"] == [] and by_op["update"]["after"]["tags"] == ["work"]
    assert by_op["archive"]["after"] == {"status": "archived"} and by_op["archive"]["memory_ids"] == [plain["id"]]
    assert sorted(by_op["supersede"]["memory_ids"]) == sorted([real["id"], newer["id"]])
    assert all(r["job_id"] is None and r["redacted"] is False for r in records)
    # The same records a memory's history holds, for that memory.
    trail = history(client, agent, plain["id"])["operations"]
    assert [o["id"] for o in trail] == [r["id"] for r in reversed(records) if plain["id"] in r["memory_ids"]]


def test_filters_combine_and_pages_follow_the_cursor(client, agent):
    q = {"agent": agent}
    first = store(client, agent, "The user likes tea")
    middle = audit(client, agent)["items"][0]["at"]
    second = store(client, agent, "The user likes jazz")
    for i in range(3):
        ok(client.post(f"/v1/memories/{second['id']}/reinforce", params=q, headers={"X-Credence-Actor": f"bot-{i}"}))
    ok(client.patch(f"/v1/memories/{first['id']}", params=q, json={"importance": 0.9}))
    everything = audit_all(client, agent)
    assert [r["op"] for r in everything] == ["update", "reinforce", "reinforce", "reinforce", "store", "store"]

    # Pages of two, newest first, add up to the whole without repeats.
    pages, cursor = [], None
    while True:
        page = audit(client, agent, limit=2, **({"cursor": cursor} if cursor else {}))
        pages.append([r["id"] for r in page["items"]])
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert pages == [[r["id"] for r in everything[i:i + 2]] for i in range(0, 6, 2)]

    assert [r["op"] for r in audit_all(client, agent, op=["update", "store"])] == ["update", "store", "store"]
    assert [r["actor"] for r in audit_all(client, agent, op="reinforce", limit=1)] == ["bot-2", "bot-1", "bot-0"]
    assert [r["actor"] for r in audit_all(client, agent, actor="bot-1")] == ["bot-1"]
    assert [r["op"] for r in audit_all(client, agent, memory_id=first["id"])] == ["update", "store"]
    assert [r["op"] for r in audit_all(client, agent, memory_id=first["id"], op="reinforce")] == []
    after = [r["op"] for r in audit_all(client, agent, after=middle)]
    assert after == ["update", "reinforce", "reinforce", "reinforce", "store"]
    assert [r["op"] for r in audit_all(client, agent, before=middle)] == []
    assert [r["op"] for r in audit_all(client, agent, after=middle, op="store")] == ["store"]
    newest = everything[0]["at"]
    assert [r["id"] for r in audit_all(client, agent, before=newest)] == [r["id"] for r in everything[1:]]


def test_a_memory_s_history_pages_oldest_first_and_answers_whole_by_default(client, agent):
    q = {"agent": agent}
    memory = store(client, agent, "The user likes jazz")
    for _ in range(4):
        ok(client.post(f"/v1/memories/{memory['id']}/reinforce", params=q))
    whole = history(client, agent, memory["id"])
    assert whole["count"] == 5 and whole["next_cursor"] is None and whole["id"] == memory["id"]
    assert [o["op"] for o in whole["operations"]] == ["store"] + ["reinforce"] * 4
    ids, cursor = [], None
    while True:
        page = history(client, agent, memory["id"], limit=2, **({"cursor": cursor} if cursor else {}))
        assert page["count"] <= 2
        ids += [o["id"] for o in page["operations"]]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert ids == [o["id"] for o in whole["operations"]]


def test_bad_filters_are_refused_by_name(client, agent):
    def refused(field, **params):
        assert_problem(client.get("/v1/audit", params={"agent": agent, **params}), 422, field)

    refused("op[0]", op="upsert")
    refused("limit", limit=0)
    refused("limit", limit=501)
    refused("cursor", cursor="not+a+cursor")
    refused("cursor", cursor="bm90LWEtY3Vyc29y")  # base64url, but not a cursor this service issued
    refused("memory_id", memory_id="not-a-uuid")
    refused("after", after="1700000000")
    refused("before", after="2026-01-02T00:00:00Z", before="2026-01-01T00:00:00Z")
    assert_problem(client.get(f"/v1/memories/{uuid.uuid4()}/history", params={"agent": agent}), 404)
    memory = store(client, agent, "The user likes tea")
    assert_problem(client.get(f"/v1/memories/{memory['id']}/history", params={"agent": agent, "limit": 0}),
                   422, "limit")


# -- hard delete: the content goes, the fact of the deletion stays -----------------------------------

SECRET = "zebra-4471"


def test_a_hard_delete_scrubs_the_deleted_text_from_the_audit_and_keeps_the_deletion(client, agent):
    q = {"agent": agent}
    doomed = store(client, agent, f"The door code is {SECRET}", claim=claim(SECRET, "door_code", "office"),
                   provenance={"source": "user_explicit"}, metadata={"note": f"code {SECRET}"})
    # Records about it alone (its store, an update quoting old and new text) ...
    ok(client.patch(f"/v1/memories/{doomed['id']}", params=q, json={"text": f"The office door code is {SECRET}"}))
    # ... records it shares with others (a link with a note, a rival's supersession of it) ...
    other = store(client, agent, "The office is on the third floor")
    ok(client.post(f"/v1/memories/{other['id']}/links",
                   json={"agent": agent, "type": "SUPPORTS", "to": doomed["id"], "note": f"see {SECRET}"}), 201)
    rival = store(client, agent, "The door code might be 0000", claim=claim("0000", "door_code", "office"),
                  provenance={"source": "document"})
    assert rival["status"] == "quarantined"  # its quarantine record names the doomed memory's id
    before = json.dumps(audit_all(client, agent))
    assert SECRET in before and doomed["id"] in before

    deleted = client.delete(f"/v1/memories/{doomed['id']}", params={**q, "hard": "true"},
                            headers={"X-Credence-Actor": "dpo"})
    assert deleted.status_code == 200, deleted.text

    records = audit_all(client, agent)
    assert SECRET not in json.dumps(records)
    # The deletion itself is recorded, with who and when, and nothing of the content.
    [deletion] = [r for r in records if r["op"] == "hard_delete"]
    assert deletion["actor"] == "dpo" and deletion["at"] and deletion["after"] == {"id": doomed["id"]}
    assert deletion["memory_ids"] == [] and deletion == records[0]
    assert [r["id"] for r in audit_all(client, agent, op="hard_delete")] == [deletion["id"]]
    # The deleted id survives only there: shared records lost their payload, others name "a deleted memory".
    assert [r["id"] for r in records if doomed["id"] in json.dumps(r)] == [deletion["id"]]
    [link] = [r for r in records if r["op"] == "link"]
    assert link["redacted"] is True and link["before"] is None and link["after"] is None
    assert link["memory_ids"] == [other["id"]]
    assert audit_all(client, agent, memory_id=doomed["id"]) == []
    assert_problem(client.get(f"/v1/memories/{doomed['id']}/history", params=q), 404)


# -- tenants ---------------------------------------------------------------------------------------------

def test_one_tenant_s_audit_query_never_returns_another_s_records(client, agent):
    other = f"{agent}-other"
    mine = store(client, agent, "The user likes tea")
    theirs = store(client, other, "The user likes tea")
    for tenant, memory in ((agent, mine), (other, theirs)):
        ok(client.post(f"/v1/memories/{memory['id']}/reinforce", params={"agent": tenant},
                       headers={"X-Credence-Actor": "shared-bot"}))
    their_ids = {r["id"] for r in audit_all(client, other)}
    assert len(their_ids) == 2
    for params in ({}, {"actor": "shared-bot"}, {"op": ["store", "reinforce"]}, {"memory_id": theirs["id"]},
                   {"after": "2000-01-01T00:00:00Z", "limit": 1}):
        seen = audit_all(client, agent, **params)
        assert not {r["id"] for r in seen} & their_ids, params
        assert all(theirs["id"] not in r["memory_ids"] for r in seen)
    assert len(audit_all(client, agent)) == 2
    assert audit_all(client, agent, memory_id=theirs["id"]) == []
    # A cursor made from the other tenant's page reads this tenant's records only.
    cursor = audit(client, other, limit=1)["next_cursor"]
    assert cursor and not {r["id"] for r in audit_all(client, agent, cursor=cursor)} & their_ids
    assert_problem(client.get(f"/v1/memories/{theirs['id']}/history", params={"agent": agent}), 404)


# -- job_id: null today, and it travels with an export ---------------------------------------------------

def test_job_id_travels_through_export_and_import(client, agent):
    memory = store(client, agent, "The user likes tea")
    lines = [json.loads(line) for line in client.get("/v1/export", params={"agent": agent}).text.splitlines()]
    assert all("job_id" not in line for line in lines if line["kind"] == "operation")  # null: left out
    job = {"kind": "operation", "id": str(uuid.uuid4()), "op": "update", "actor": "maintenance",
           "at": "2026-01-01T00:00:00Z", "before": {"importance": 0.5}, "after": {"importance": 0.4},
           "memory_ids": [memory["id"]], "job_id": "decay-2026-01-01"}
    body = json.dumps(job) + "\n"
    imported = client.post("/v1/import", params={"agent": agent}, content=body,
                           headers={"content-type": "application/x-ndjson"})
    assert imported.status_code == 200, imported.text
    [found] = audit_all(client, agent, actor="maintenance")
    assert (found["job_id"], found["memory_ids"], found["id"]) == ("decay-2026-01-01", [memory["id"]], job["id"])
    exported = [json.loads(line) for line in client.get("/v1/export", params={"agent": agent}).text.splitlines()]
    [line] = [o for o in exported if o["kind"] == "operation" and o["id"] == job["id"]]
    assert line["job_id"] == "decay-2026-01-01"
    bad = client.post("/v1/import", params={"agent": agent}, content=json.dumps({**job, "op": "upsert"}) + "\n",
                      headers={"content-type": "application/x-ndjson"})
    assert_problem(bad, 422)



def export_lines(client, agent) -> list[dict]:
    response = client.get("/v1/export", params={"agent": agent})
    assert response.status_code == 200, response.text
    return [json.loads(line) for line in response.text.splitlines()]


def test_a_tenant_with_its_audit_records_round_trips_through_export_and_import(client, agent):
    q = {"agent": agent}
    tea = store(client, agent, "The user likes tea")
    jazz = store(client, agent, "The user likes jazz", claim=claim("jazz", "likes_music", "user"))
    ok(client.patch(f"/v1/memories/{tea['id']}", params=q, json={"importance": 0.9, "tags": ["drinks"]}))
    ok(client.post(f"/v1/memories/{tea['id']}/links", json={"agent": agent, "type": "SUPPORTS", "to": jazz["id"]}),
       201)
    job = {"kind": "operation", "id": str(uuid.uuid4()), "op": "reinforce", "actor": "maintenance",
           "at": "2026-01-01T00:00:00Z", "before": None, "after": {"reinforcements": 1},
           "memory_ids": [jazz["id"]], "job_id": "nightly-7"}
    ok(client.post("/v1/import", params=q, content=json.dumps(job) + "\n",
                   headers={"content-type": "application/x-ndjson"}))
    first = export_lines(client, agent)
    assert {o["op"] for o in first if o["kind"] == "operation"} == {"store", "update", "link", "reinforce"}
    for memory in (tea, jazz):
        ok(client.delete(f"/v1/memories/{memory['id']}", params={**q, "hard": "true"}))
    assert {r["op"] for r in audit_all(client, agent)} == {"hard_delete"}
    body = "".join(json.dumps(line) + "\n" for line in first)
    ok(client.post("/v1/import", params=q, content=body, headers={"content-type": "application/x-ndjson"}))
    again = [line for line in export_lines(client, agent)
             if not (line["kind"] == "operation" and line["op"] == "hard_delete")]
    assert [{**line, "exported_at": None} for line in again[:-1]] == \
        [{**line, "exported_at": None} for line in first[:-1]]
    [restored] = audit_all(client, agent, actor="maintenance")
    assert restored["job_id"] == "nightly-7" and restored["memory_ids"] == [jazz["id"]]


# -- the client and the command line ---------------------------------------------------------------------

def test_the_client_and_the_cli_read_the_audit(client, agent, capsys):
    from credence_client import Credence
    from credence_client.cli import main

    api = Credence(http=client, actor="client-audit")
    stored = api.remember(agent, "The user likes jazz")
    api.reinforce(agent, stored.id)
    records = list(api.audit(agent))
    assert [r.op for r in records] == ["reinforce", "store"] and records[0].memory_ids == [stored.id]
    assert [r.op for r in api.audit(agent, op=["store"], actor="client-audit")] == ["store"]
    trail = api.history(agent, stored.id, limit=1)
    assert [o.op for o in trail.operations] == ["store"] and trail.next_cursor
    assert [o.op for o in api.history(agent, stored.id, cursor=trail.next_cursor).operations] == ["reinforce"]

    assert main(["audit", agent, "--op", "reinforce", "--limit", "5"], api=api) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [(r["op"], r["actor"]) for r in printed] == [("reinforce", "client-audit")]
    assert main(["audit", agent, "--op", "upsert"], api=api) == 1

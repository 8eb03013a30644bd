"""POST /v1/ingest: raw conversation in, the right beliefs out, through the API on both backends.
Seed 004's edge cases as a list, the Berlin -> Lisbon story, dry runs, secrets, tenant isolation,
the transaction boundary (a request lands whole or not at all) and bad input."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.helpers import search

NOW = datetime.now(UTC)


def at(minutes: int) -> str:
    return (NOW - timedelta(minutes=30 - minutes)).isoformat()


def ingest(client, agent, *texts, dry_run=False, context=(), status=200):
    body = {"agent": agent, "messages": [{"role": "user", "text": t, "at": at(i)} for i, t in enumerate(texts)],
            "context": [{"role": "user", "text": t} for t in context], "dry_run": dry_run}
    response = client.post("/v1/ingest", json=body)
    assert response.status_code == status, response.text
    return response.json()


def ops(answer):
    return [(o["op"], o["mode"], o["claim"]["predicate"] if o["claim"] else None, o["claim"]["value"]
             if o["claim"] else None) for m in answer["messages"] for o in m["operations"]]


def listed(client, agent, **params):
    return client.get("/v1/memories", params={"agent": agent, "limit": 100, **params}).json()["items"]


def test_berlin_then_lisbon_supersedes_and_search_answers_the_current_city_first(client, agent):
    answer = ingest(client, agent, "I live in Berlin.", "We finally relocated to Lisbon!")
    assert ops(answer) == [("ADD", None, "lives_in", "Berlin"), ("UPDATE", "supersede", "lives_in", "Lisbon")]
    lisbon = answer["messages"][1]["operations"][0]
    berlin = answer["messages"][0]["operations"][0]
    assert lisbon["superseded"] == [berlin["memory_id"]] or lisbon["target_id"] == berlin["memory_id"]
    active = {m["text"] for m in listed(client, agent)}
    assert active == {"We finally relocated to Lisbon!"}
    hits = search(client, agent, "where does the user live now?")
    assert hits[0]["id"] == lisbon["memory_id"]
    # Old values only when history is asked for: Berlin is superseded, not gone.
    everything = {m["id"]: m["status"] for m in listed(client, agent, include_superseded=True)}
    assert everything == {lisbon["memory_id"]: "active", berlin["memory_id"]: "superseded"}
    # A repeat is a NOOP that corroborates, not a second memory; the audit trail records it.
    again = ingest(client, agent, "I live in Lisbon")
    assert ops(again)[0][0] == "NOOP"
    assert len(listed(client, agent)) == 1
    trail = client.get("/v1/audit", params={"agent": agent, "op": "ingest"}).json()["items"]
    assert {t["after"]["op"] for t in trail} >= {"ADD", "UPDATE", "NOOP"}


def test_a_dry_run_plans_and_writes_nothing(client, agent):
    answer = ingest(client, agent, "My sister Ana lives in Porto.", dry_run=True)
    assert answer["dry_run"] is True
    assert ("ADD", None, "sister", "Ana") in ops(answer) and ("ADD", None, "lives_in", "Porto") in ops(answer)
    assert listed(client, agent, include_all=True) == []
    assert client.get("/v1/audit", params={"agent": agent}).json()["items"] == []


@pytest.mark.parametrize("known, text, expected", [
    # job change: supersede
    ("I work at Acme.", "I left Acme and joined Globex.", [("UPDATE", "supersede", "works_at", "Globex")]),
    # name correction: replace
    ("My name is Marta Kowalczik.", "The surname is Kowalczyk, you had Kowalczik. Full name Marta Kowalczyk.",
     [("UPDATE", "replace", "name", "Marta Kowalczyk")]),
    # relationship change: the partner becomes history
    ("My girlfriend is Ruth.", "Ruth and I broke up last month.", [("UPDATE", "supersede", None, None)]),
    # I used to: history, the current value stays
    ("I work at Lumen.", "I used to work at Google before the startup.", [("ADD", None, "works_at", "Google")]),
    # every Monday: a recurrence
    (None, "I have therapy every Monday at 5.", [("ADD", None, None, None)]),
    # starting next month: effective_from
    (None, "Starting next month I'll be working four days a week.", [("ADD", None, None, None)]),
])
def test_seed_edge_cases(client, agent, known, text, expected):
    if known:
        ingest(client, agent, known)
    answer = ingest(client, agent, text)
    assert ops(answer) == expected
    op = answer["messages"][0]["operations"][0]
    if "broke up" in text:
        assert op["sensitivity"] == "sensitive"
        assert [m["text"] for m in listed(client, agent)] == [text]
    if "used to" in text:
        assert op["historical"] is True
        assert {m["text"] for m in listed(client, agent)} == {known, text}
    if "every Monday" in text:
        assert op["recurrence"] == "FREQ=WEEKLY;BYDAY=MO;BYHOUR=17;BYMINUTE=0" and op["sensitivity"] == "sensitive"
    if "next month" in text:
        assert op["effective_from"] is not None
        # Out of retrieval until then.
        assert search(client, agent, "working four days a week") == []


def test_death_medical_financial_and_forgetting(client, agent):
    first = ingest(client, agent, "We have a cat called Pistachio.", "Pistachio died this morning.",
                   "My salary is 62k before tax.", "I'm allergic to penicillin.")
    found = ops(first)
    assert found[0] == ("ADD", None, "pet", "Pistachio")
    levels = [o["sensitivity"] for m in first["messages"][1:] for o in m["operations"]]
    assert levels and set(levels) == {"sensitive"}
    # "don't remember this" about the same message: nothing stored at all.
    nothing = ingest(client, agent, "Don't remember this: I'm applying for jobs behind my boss's back.")
    assert ops(nothing) == []
    # "forget what I told you about my salary": a hard delete with the scrub (this client is the admin).
    salary = next(o for o in first["messages"][2]["operations"])["memory_id"]
    forgot = ingest(client, agent, "Please delete what I told you about my salary.")
    assert ops(forgot) == [("DELETE", "hard", None, None)]
    assert client.get(f"/v1/memories/{salary}", params={"agent": agent}).status_code == 404
    assert "62k" not in client.get("/v1/export", params={"agent": agent}).text


def test_secrets_never_reach_a_memory_and_are_reported_by_kind(client, agent):
    answer = ingest(client, agent, "Can you save my card? 5247 7138 5805 1253. I live in Bristol.")
    assert ops(answer) == [("ADD", None, "lives_in", "Bristol")]
    assert [s["kind"] for s in answer["messages"][0]["secrets"]] == ["card_number"]
    exported = client.get("/v1/export", params={"agent": agent}).text
    assert "5247" not in exported and "Bristol" in exported


def test_tenants_do_not_see_each_other(client, agent):
    other = agent + "-other"
    ingest(client, other, "I live in Berlin.")
    answer = ingest(client, agent, "I live in Lisbon.")
    assert ops(answer) == [("ADD", None, "lives_in", "Lisbon")]
    assert [m["text"] for m in listed(client, other)] == ["I live in Berlin."]


def test_a_request_lands_whole_or_not_at_all(client, agent, monkeypatch):
    from graph.ingestion import service as ingestion

    async def broken(tx, agent_, memory_id, actor):
        raise RuntimeError("the disk is full")

    ingest(client, agent, "I drive a Golf.")
    monkeypatch.setattr(ingestion, "archive_in", broken)
    # The second message's archive fails after the first message's memory was written: neither lands.
    failed = client.post("/v1/ingest", json={"agent": agent, "messages": [
        {"text": "I live in Oslo.", "at": at(1)}, {"text": "I sold my car.", "at": at(2)}]})
    assert failed.status_code == 500
    assert [m["text"] for m in listed(client, agent)] == ["I drive a Golf."]


def test_bad_input_is_a_problem_naming_the_field(client, agent):
    bad = client.post("/v1/ingest", json={"agent": agent, "messages": [{"role": "robot", "text": "hi"}]})
    assert bad.status_code == 422 and "role" in bad.text
    both = client.post("/v1/ingest", json={"agent": agent})
    assert both.status_code == 422 and "messages" in both.text
    plain = client.post("/v1/ingest", json={"agent": agent, "text": "My dentist is Dr. Lee."})
    assert plain.status_code == 200
    assert ops(plain.json()) == [("ADD", None, "dentist", "Dr. Lee")]


def test_a_message_stamped_ahead_of_the_server_clock_still_supersedes_at_once(client, agent):
    """A client clock a little ahead of the server's: the change is not left waiting for that
    instant (the old value must not stay active beside the new one)."""
    ingest(client, agent, "I live in Berlin.")
    ahead = (datetime.now(UTC) + timedelta(minutes=2)).isoformat()
    answer = client.post("/v1/ingest", json={"agent": agent, "messages": [
        {"role": "user", "text": "We finally relocated to Lisbon!", "at": ahead}]}).json()
    assert ops(answer) == [("UPDATE", "supersede", "lives_in", "Lisbon")]
    assert [m["text"] for m in listed(client, agent)] == ["We finally relocated to Lisbon!"]
    berlin = [m for m in listed(client, agent, include_superseded=True) if m["text"] == "I live in Berlin."]
    assert [m["status"] for m in berlin] == ["superseded"]


def test_a_plain_store_opts_into_ingestion_by_flag_and_by_the_agents_default(client, services, agent, monkeypatch):
    from graph.ingestion.defaults import FixedDefault

    first = client.post("/v1/memories", json={"agent": agent, "text": "I live in Berlin.", "ingest": True})
    assert first.status_code == 200, first.text
    assert first.json()["ingested"] is True
    assert [(o["op"], o["claim"]["predicate"], o["claim"]["value"]) for o in first.json()["operations"]] == [
        ("ADD", "lives_in", "Berlin")]
    # Without the flag the agent's default decides (here: the deployment's, off): stored as it is.
    plain = client.post("/v1/memories", json={"agent": agent, "text": "We finally relocated to Lisbon!"})
    assert plain.status_code == 201 and plain.json()["superseded"] == []
    client.delete(f"/v1/memories/{plain.json()['id']}", params={"agent": agent, "hard": "true"})
    # An agent whose default is to ingest (the seam memory preferences plug into) needs no flag...
    monkeypatch.setattr(services.ingestion, "default", FixedDefault(True))
    moved = client.post("/v1/memories", json={"agent": agent, "text": "We finally relocated to Lisbon!"})
    assert moved.status_code == 200, moved.text
    assert [(o["op"], o["mode"]) for o in moved.json()["operations"]] == [("UPDATE", "supersede")]
    assert [m["text"] for m in listed(client, agent)] == ["We finally relocated to Lisbon!"]
    # ...and `false`, or a claim, stores as it is.
    kept = client.post("/v1/memories", json={"agent": agent, "text": "Lisbon is lovely in May.", "ingest": False})
    assert kept.status_code == 201 and kept.json()["text"] == "Lisbon is lovely in May."
    claimed = client.post("/v1/memories", json={"agent": agent, "text": "I drive a Golf.", "claim": {
        "subject": "user", "predicate": "car", "value": "Golf"}})
    assert claimed.status_code == 201
    refused = client.post("/v1/memories", json={"agent": agent, "text": "I drive a Golf.", "ingest": True, "claim": {
        "subject": "user", "predicate": "car", "value": "Golf"}})
    assert refused.status_code == 422 and "ingest" in refused.text


def test_a_batch_reads_its_opted_in_items_in_the_same_transaction(client, agent):
    body = {"memories": [
        {"agent": agent, "text": "Team offsite notes: bring laptops."},
        {"agent": agent, "text": "I work at Acme as a data analyst.", "ingest": True},
        {"agent": agent, "text": "My dentist is Dr. Lee.", "claim": {"subject": "user", "predicate": "dentist",
                                                                   "value": "Dr. Lee"}},
    ]}
    answer = client.post("/v1/memories:batch", json=body)
    assert answer.status_code == 201, answer.text
    out = answer.json()
    assert out["count"] == 2 and [m["text"] for m in out["memories"]] == [
        "Team offsite notes: bring laptops.", "My dentist is Dr. Lee."]
    assert [i["index"] for i in out["ingested"]] == [1]
    assert {(o["claim"]["predicate"], o["claim"]["value"]) for o in out["ingested"][0]["operations"]} == {
        ("works_at", "Acme"), ("job_title", "data analyst")}
    # All or nothing: a bad item refuses the batch, the ingested items included.
    bad = {"memories": [{"agent": agent, "text": "I live in Oslo.", "ingest": True},
                        {"agent": agent, "text": "x", "importance": 7}]}
    assert client.post("/v1/memories:batch", json=bad).status_code == 422
    secret = {"memories": [{"agent": agent, "text": "I live in Oslo. My password is hunter2!!", "ingest": True},
                           {"agent": agent, "text": "Another note."}]}
    refused = client.post("/v1/memories:batch", json=secret)
    assert refused.status_code == 422 and "hunter2" not in refused.text
    texts = [m["text"] for m in listed(client, agent)]
    assert not any("Oslo" in t for t in texts) and len(texts) == 4


def test_the_same_person_said_again_is_one_entity_and_corroborated_not_duplicated(client, agent):
    first = ingest(client, agent, "My sister Ana lives in Porto.")
    again = ingest(client, agent, "Ana (my sister) lives in Porto, as I said.")
    assert sorted(ops(first)) == [("ADD", None, "lives_in", "Porto"), ("ADD", None, "sister", "Ana")]
    assert sorted((op, claim) for op, _, claim, _ in ops(again)) == [("NOOP", "lives_in"), ("NOOP", "sister")]
    assert len(listed(client, agent)) == 2
    people = client.get("/v1/entities", params={"agent": agent}).json()["entities"]
    assert [e["name"] for e in people].count("Ana") == 1
    touched = {o["memory_id"] for m in again["messages"] for o in m["operations"]}
    assert touched == {o["memory_id"] for m in first["messages"] for o in m["operations"]}


def test_an_expired_memory_is_no_longer_known(client, agent):
    """A memory past its expires_at is out of the present: saying it again adds it anew, and it is
    neither repeated (NOOP) nor the target of an update."""
    yesterday = (datetime.now(UTC) - timedelta(days=1)).isoformat()
    old = client.post("/v1/memories", json={
        "agent": agent, "text": "We're staying in Madrid until the end of the month.", "expires_at": yesterday,
        "event_at": (datetime.now(UTC) - timedelta(days=40)).isoformat(),
        "claim": {"subject": "user", "predicate": "lives_in", "value": "Madrid"}}).json()
    answer = ingest(client, agent, "I live in Madrid.")
    assert ops(answer) == [("ADD", None, "lives_in", "Madrid")], answer
    op = answer["messages"][0]["operations"][0]
    assert op["target_id"] is None and op["memory_id"] != old["id"]
    hits = search(client, agent, "where does the user live?")
    assert [h["id"] for h in hits][:1] == [op["memory_id"]] and old["id"] not in [h["id"] for h in hits]


def test_forgetting_a_slot_named_by_another_word_erases_that_memory_only(client, agent):
    other = agent + "-other"
    ingest(client, other, "I live at 3 Mill Road.")
    first = ingest(client, agent, "I live at 12 Rose Lane.", "My bank is Monzo.", "I work at Acme.")
    home, bank, work = (m["operations"][0]["memory_id"] for m in first["messages"])
    # "my address" names lives_in; the request shares no word with "I live at 12 Rose Lane".
    forgot = ingest(client, agent, "Forget my address.")
    assert [(o["op"], o["mode"], o["target_id"]) for m in forgot["messages"] for o in m["operations"]] == [
        ("DELETE", "hard", home)]
    assert client.get(f"/v1/memories/{home}", params={"agent": agent}).status_code == 404
    assert "Rose Lane" not in client.get("/v1/export", params={"agent": agent}).text
    # The slot's own key for an open slot; a slot with nothing known or an unrelated topic erases nothing.
    assert [o["target_id"] for m in ingest(client, agent, "Delete what I said about my bank.")["messages"]
            for o in m["operations"]] == [bank]
    assert ops(ingest(client, agent, "Forget my email.")) == []
    assert ops(ingest(client, agent, "Forget what I said about the weather.")) == []
    assert [m["id"] for m in listed(client, agent)] == [work]
    # Another tenant's address is untouched.
    assert [m["text"] for m in listed(client, other)] == ["I live at 3 Mill Road."]


def test_an_open_slot_said_in_other_words_and_a_value_given_up_for_another(client, agent):
    # The slot "broadband" is empty: the service reads the nearest memories, where the slot
    # broadband_provider is known under more words, and the new value supersedes it there.
    first = ingest(client, agent, "Our broadband provider is BT.")
    assert ops(first) == [("ADD", None, "broadband_provider", "BT")]
    answer = ingest(client, agent, "our broadband is Zen now")
    assert ops(answer) == [("UPDATE", "supersede", "broadband_provider", "Zen")]
    # "left X for Y": Y takes the slot X fills, found by the value it gives up.
    ingest(client, agent, "My bank is Monzo.")
    left = ingest(client, agent, "Left Monzo for Starling.")
    assert ops(left) == [("UPDATE", "supersede", "bank", "Starling")]
    assert {m["text"] for m in listed(client, agent)} == {"our broadband is Zen now", "Left Monzo for Starling."}

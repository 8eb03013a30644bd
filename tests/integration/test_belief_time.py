"""Precedence that respects valid time, through the API (issue 11 item 4).

A write that arrives late but describes an older state must become history, not the present;
touching windows ([a, b) and [b, c): valid_until is exclusive) never conflict. The property test
writes one slot's history in random arrival orders at equal trust and checks that the present,
the closed windows and the SUPERSEDES chain do not depend on the order."""
from __future__ import annotations

import uuid
from datetime import UTC, datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graph.store.schema import apply_migrations
from tests.helpers import search

PACIFIC, NEW_ZEALAND, JAPAN, INDIA = ("Pacific Time", "New Zealand Time", "Japan Standard Time",
                                      "India Standard Time")
FAR_FUTURE = "2099-03-01T00:00:00Z"  # a state that starts after any run of this test


def at(day: str) -> str:
    return f"{day}T00:00:00Z"


def state(client, agent, value, valid_from=None, valid_until=None, source="user_explicit", predicate="time_zone",
          **extra) -> dict:
    claim = {"subject": "user", "predicate": predicate, "value": value, "valid_from": valid_from,
             "valid_until": valid_until, **({"scope": "temporal"} if valid_from or valid_until else {})}
    response = client.post("/v1/memories", json={
        "agent": agent, "text": f"The user's {predicate.replace('_', ' ')} is {value}", "claim": claim,
        "provenance": {"source": source}, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def slot(cypher, agent, predicate="time_zone") -> dict[str, dict]:
    """Every state of the slot by value: status and window as stored on the claim and on the memory."""
    rows = cypher("MATCH (m:Memory {agent: $a})-[:ASSERTS]->(c:Claim {predicate: $p}) "
                  "RETURN c.value AS value, m.id AS id, m.status AS status, c.valid_from AS valid_from, "
                  "c.valid_until AS valid_until, m.valid_until AS memory_valid_until", a=agent, p=predicate)
    out = {}
    for r in rows:
        assert r["valid_until"] == r["memory_valid_until"], r  # search filters on the memory's copy
        out[r["value"]] = {"id": r["id"], "status": r["status"], "valid_from": day(r["valid_from"]),
                           "valid_until": day(r["valid_until"])}
    return out


def day(value) -> str | None:
    return None if value is None else value.to_native().astimezone(UTC).date().isoformat()


def chain(cypher, agent) -> set[tuple[str, str, str]]:
    rows = cypher("MATCH (n:Memory {agent: $a})-[s:SUPERSEDES]->(o:Memory) MATCH (n)-[:ASSERTS]->(nc:Claim) "
                  "MATCH (o)-[:ASSERTS]->(oc:Claim) RETURN nc.value AS new, oc.value AS old, s.reason AS reason",
                  a=agent)
    return {(r["new"], r["old"], r["reason"]) for r in rows}


def current(client, agent, query="the user's time zone") -> list[str]:
    """What default search shows now: the texts of the hits (each names its value)."""
    return [hit["text"] for hit in search(client, agent, query)]


# -- the example ----------------------------------------------------------------------------

def test_late_writes_of_older_states_become_history_in_valid_time_order(client, agent, cypher):
    pacific = state(client, agent, PACIFIC, at("2026-06-27"))
    nz = state(client, agent, NEW_ZEALAND, at("2026-05-20"))
    japan = state(client, agent, JAPAN, at("2026-05-13"))
    india = state(client, agent, INDIA, at("2026-02-16"))
    # Each late, older state is history at once: it supersedes nothing and is not quarantined.
    for late in (nz, japan, india):
        assert (late["status"], late["superseded"], late["quarantined"]) == ("superseded", [], False), late
    states = slot(cypher, agent)
    assert states[PACIFIC] == {"id": pacific["id"], "status": "active", "valid_from": "2026-06-27", "valid_until": None}
    # Each window closes where the next later state starts (valid_until exclusive).
    assert (states[NEW_ZEALAND]["valid_until"], states[JAPAN]["valid_until"], states[INDIA]["valid_until"]) == \
        ("2026-06-27", "2026-05-20", "2026-05-13")
    # One SUPERSEDES chain in valid-time order, not arrival order.
    assert chain(cypher, agent) == {(PACIFIC, NEW_ZEALAND, "newer_valid_time"),
                                    (NEW_ZEALAND, JAPAN, "newer_valid_time"), (JAPAN, INDIA, "newer_valid_time")}
    memory = client.get(f"/v1/memories/{nz['id']}", params={"agent": agent}).json()
    assert (memory["status"], memory["claim"]["valid_until"][:10], memory["valid_until"][:10]) == \
        ("superseded", "2026-06-27", "2026-06-27")
    assert [h["id"] for h in search(client, agent, "the user's time zone")] == [pacific["id"]]


def test_a_newer_state_closes_the_current_one_at_its_start(client, agent, cypher):
    india = state(client, agent, INDIA, at("2026-02-16"))
    pacific = state(client, agent, PACIFIC, at("2026-06-27"))
    assert (pacific["status"], pacific["superseded"]) == ("active", [india["id"]])
    assert slot(cypher, agent)[INDIA] == {"id": india["id"], "status": "superseded", "valid_from": "2026-02-16",
                                          "valid_until": "2026-06-27"}
    assert chain(cypher, agent) == {(PACIFIC, INDIA, "newer_valid_time")}


def test_a_state_inserted_between_two_is_spliced_into_the_chain(client, agent, cypher):
    state(client, agent, INDIA, at("2026-02-16"))
    state(client, agent, PACIFIC, at("2026-06-27"))
    japan = state(client, agent, JAPAN, at("2026-05-13"))
    assert japan["status"] == "superseded"
    states = slot(cypher, agent)
    assert (states[INDIA]["valid_until"], states[JAPAN]["valid_until"], states[PACIFIC]["valid_until"]) == \
        ("2026-05-13", "2026-06-27", None)
    assert chain(cypher, agent) == {(PACIFIC, JAPAN, "newer_valid_time"), (JAPAN, INDIA, "newer_valid_time")}


def test_event_at_dates_a_claim_without_a_validity_window(client, agent, cypher):
    pacific = state(client, agent, PACIFIC, event_at=at("2026-06-27"))
    india = state(client, agent, INDIA, event_at=at("2026-02-16"))
    assert (india["status"], india["superseded"]) == ("superseded", [])
    states = slot(cypher, agent)
    assert states[PACIFIC]["status"] == "active" and states[INDIA]["valid_until"] == "2026-06-27"
    assert chain(cypher, agent) == {(PACIFIC, INDIA, "newer_valid_time")}
    assert pacific["status"] == "active"


def test_a_future_state_leaves_the_present_one_current_until_it_starts(client, agent, cypher):
    pacific = state(client, agent, PACIFIC, at("2026-06-27"))
    berlin = state(client, agent, "Central European Time", FAR_FUTURE)
    assert (berlin["status"], berlin["superseded"]) == ("active", [])
    states = slot(cypher, agent)
    assert states[PACIFIC] == {"id": pacific["id"], "status": "active", "valid_from": "2026-06-27",
                               "valid_until": "2099-03-01"}
    assert current(client, agent) == [pacific["text"]]  # the present still has its value
    # A late, older state still lands behind the present one, not behind the future one.
    japan = state(client, agent, JAPAN, at("2026-05-13"))
    assert japan["status"] == "superseded" and slot(cypher, agent)[JAPAN]["valid_until"] == "2026-06-27"


def test_higher_trust_still_wins_and_lower_trust_is_still_quarantined(client, agent, cypher):
    pacific = state(client, agent, PACIFIC, at("2026-06-27"), source="document")
    # A user's own correction wins whatever the dates (trust first, as before).
    india = state(client, agent, INDIA, at("2026-02-16"))
    assert (india["status"], india["superseded"]) == ("active", [pacific["id"]])
    # A less trusted late write of an older state is never silently lost: it waits in quarantine.
    japan = state(client, agent, JAPAN, at("2026-05-13"), source="inference")
    assert (japan["status"], japan["quarantine"]["reason"]) == ("quarantined", "trust_insufficient")
    assert japan["pending_conflict_id"]


# -- touching windows -------------------------------------------------------------------------------

def test_touching_windows_do_not_conflict(client, agent, cypher):
    spring = state(client, agent, "Lisbon", at("2026-04-24"), at("2026-06-01"), predicate="lives_in")
    summer = state(client, agent, "Porto", at("2026-06-01"), at("2026-09-29"), predicate="lives_in")
    assert (summer["status"], summer["superseded"], summer["conflicts"]) == ("active", [], [])
    assert client.get("/v1/conflicts", params={"agent": agent, "include_resolved": True}).json()["count"] == 0
    states = slot(cypher, agent, "lives_in")
    assert {v: (s["status"], s["valid_until"]) for v, s in states.items()} == {
        "Lisbon": ("active", "2026-06-01"), "Porto": ("active", "2026-09-29")}
    assert spring["status"] == "active"


def test_the_slot_keeps_its_current_value_whatever_order_touching_windows_arrive_in(client, agent):
    now = state(client, agent, "Braga", at("2026-09-29"), predicate="lives_in")
    state(client, agent, "Porto", at("2026-06-01"), at("2026-09-29"), predicate="lives_in")
    state(client, agent, "Lisbon", at("2026-04-24"), at("2026-06-01"), predicate="lives_in")
    hits = search(client, agent, "where the user lives")
    assert [h["id"] for h in hits] == [now["id"]]


def test_a_duplicate_in_a_touching_window_is_a_new_state_not_a_corroboration(client, agent):
    first = state(client, agent, "Lisbon", at("2026-04-24"), at("2026-06-01"), predicate="lives_in")
    again = state(client, agent, "Lisbon", at("2026-06-01"), at("2026-09-29"), predicate="lives_in")
    assert again["deduplicated"] is False and again["id"] != first["id"]


# -- arrival order does not matter ------------------------------------------------------------------

HISTORY = [("India Standard Time", "2026-02-16"), ("Japan Standard Time", "2026-05-13"),
           ("New Zealand Time", "2026-05-20"), ("Pacific Time", "2026-06-27"), ("Central European Time", "2099-03-01")]


def expected_history(states: list[tuple[str, str, str | None]]) -> tuple[dict, set]:
    """The model, apart from the code: sorted by start, each state is closed where the next one
    starts (unless its own window ended before); closed by a successor, it is history (superseded)
    once that start has passed, and the successor SUPERSEDES it."""
    ordered = sorted(states, key=lambda s: s[1])
    today = datetime.now(UTC).date().isoformat()
    out, edges = {}, set()
    for i, (value, _start, until) in enumerate(ordered):
        nxt = ordered[i + 1] if i + 1 < len(ordered) else None
        if nxt and (until is None or until > nxt[1]):
            out[value] = ("superseded" if nxt[1] <= today else "active", nxt[1])
            edges.add((nxt[0], value, "newer_valid_time"))
        else:
            out[value] = ("active", until)
    return out, edges


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(order=st.permutations(range(len(HISTORY))), bounded=st.lists(st.booleans(), min_size=len(HISTORY),
                                                                     max_size=len(HISTORY)))
def test_the_history_of_a_slot_does_not_depend_on_arrival_order(client, cypher, order, bounded):
    agent = f"time-{uuid.uuid4().hex[:10]}"
    # Some states say where they end themselves: exactly where the next one starts (touching).
    states = [(value, start, HISTORY[i + 1][1] if bounded[i] and i + 1 < len(HISTORY) else None)
              for i, (value, start) in enumerate(HISTORY)]
    for i in order:
        value, start, until = states[i]
        state(client, agent, value, at(start), at(until) if until else None)
    want, edges = expected_history(states)
    got = slot(cypher, agent)
    assert {v: (s["status"], s["valid_until"]) for v, s in got.items()} == want, order
    assert chain(cypher, agent) == edges, order
    assert current(client, agent) == ["The user's time zone is Pacific Time"]


# -- time travel: as_of (valid time) and known_at (record time) -------------------------------------

def shown(client, agent, query="the user's time zone", **options) -> list[str]:
    return [hit["text"] for hit in search(client, agent, query, **options)]


def in_context(client, agent, **options) -> str:
    response = client.post("/v1/context", json={"agent": agent, "query": "the user's time zone", **options})
    assert response.status_code == 200, response.text
    return response.json()["context"]


def test_as_of_answers_what_was_true_then(client, agent):
    texts = {v: state(client, agent, v, at(start))["text"] for v, start in
             [(PACIFIC, "2026-06-27"), (NEW_ZEALAND, "2026-05-20"), (JAPAN, "2026-05-13"), (INDIA, "2026-02-16")]}
    for when, value in [("2026-03-01", INDIA), ("2026-05-15", JAPAN), ("2026-06-01", NEW_ZEALAND),
                        ("2026-07-01", PACIFIC)]:
        assert shown(client, agent, as_of=at(when)) == [texts[value]], when
        context = in_context(client, agent, as_of=at(when))
        assert texts[value] in context and all(texts[v] not in context for v in texts if v != value), when
    assert shown(client, agent, as_of=at("2026-01-01")) == []
    assert shown(client, agent) == [texts[PACIFIC]]


def test_a_corrected_belief_stays_out_of_as_of(client, agent):
    wrong = state(client, agent, "Hawaii Time", at("2026-02-16"), source="document")
    right = state(client, agent, INDIA, at("2026-02-16"))
    assert right["superseded"] == [wrong["id"]]
    assert shown(client, agent, as_of=at("2026-03-01")) == [right["text"]]


def test_known_at_answers_what_we_believed_then(client, agent):
    pacific = state(client, agent, PACIFIC, at("2026-06-27"))
    berlin = state(client, agent, "Central European Time", at("2026-10-01"))
    assert berlin["superseded"] == [pacific["id"]]
    then, later = pacific["created_at"], berlin["created_at"]
    # Before Berlin was recorded we believed Pacific was current, open-ended.
    assert shown(client, agent, known_at=then) == [pacific["text"]]
    assert shown(client, agent, known_at=then, as_of=at("2026-10-15")) == [pacific["text"]]
    assert pacific["text"] in in_context(client, agent, known_at=then)
    # Once it was recorded, Berlin is the present and Pacific its past.
    assert shown(client, agent, known_at=later) == [berlin["text"]]
    assert shown(client, agent, known_at=later, as_of=at("2026-08-01")) == [pacific["text"]]
    # Nothing was believed before anything was recorded.
    assert shown(client, agent, known_at="2026-01-01T00:00:00Z") == []


def test_record_time_is_kept_on_the_memory(client, agent, cypher):
    pacific = state(client, agent, PACIFIC, at("2026-06-27"))
    berlin = state(client, agent, "Central European Time", at("2026-10-01"))
    india = state(client, agent, INDIA, at("2026-02-16"))
    rows = {r["id"]: r for r in cypher(
        "MATCH (m:Memory {agent: $a}) RETURN m.id AS id, m.superseded_at AS superseded_at, m.created_at AS created_at, "
        "m.superseded_reason AS reason, m.closed_at AS closed_at, m.asserted_valid_until AS asserted", a=agent)}
    closed = rows[pacific["id"]]
    assert closed["reason"] == "newer_valid_time" and closed["asserted"] is None
    assert closed["superseded_at"] == closed["closed_at"]
    assert closed["superseded_at"] >= rows[berlin["id"]]["created_at"]
    born_history = rows[india["id"]]
    assert born_history["superseded_at"] == born_history["created_at"] and born_history["reason"] == "newer_valid_time"
    assert rows[berlin["id"]]["superseded_at"] is None
    # The API shows it beside created_at: when Credence learned the belief, and when it stopped holding it.
    got = client.get(f"/v1/memories/{pacific['id']}", params={"agent": agent}).json()
    instant = lambda v: datetime.fromisoformat(v.replace("Z", "+00:00"))  # noqa: E731
    assert instant(got["superseded_at"]) >= instant(got["created_at"])
    assert client.get(f"/v1/memories/{berlin['id']}", params={"agent": agent}).json()["superseded_at"] is None


def test_a_migration_gives_older_superseded_beliefs_their_record_time(client, services, agent, cypher, run):
    old = state(client, agent, "Hawaii Time", source="document")
    new = state(client, agent, PACIFIC)
    assert new["superseded"] == [old["id"]]
    # What an older version left: a superseded belief without superseded_at.
    cypher("MATCH (m:Memory {agent: $a, id: $id}) REMOVE m.superseded_at, m.superseded_reason", a=agent, id=old["id"])

    run(apply_migrations, services.runner)

    [row] = cypher("MATCH (n:Memory)-[s:SUPERSEDES]->(m:Memory {agent: $a, id: $id}) "
                   "RETURN m.superseded_at = s.at AS same, m.superseded_reason AS reason", a=agent, id=old["id"])
    assert row == {"same": True, "reason": "user_correction"}
    assert shown(client, agent, known_at=old["created_at"]) == [old["text"]]


def test_known_at_walks_a_chain_of_corrections(client, agent):
    # Undated beliefs replaced one by one: each was the belief from its recording to the next one's.
    chain_ = [state(client, agent, value) for value in ("Hawaii Time", INDIA, PACIFIC)]
    for belief in chain_:
        assert shown(client, agent, known_at=belief["created_at"]) == [belief["text"]]
    assert shown(client, agent) == [chain_[-1]["text"]]
    # A correction is not a past state: asked "what was true then" now, only the latest answers.
    assert shown(client, agent, as_of=chain_[0]["created_at"]) == [chain_[-1]["text"]]

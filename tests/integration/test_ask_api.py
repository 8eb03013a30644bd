"""POST /v1/ask: every kind of question, end to end through the HTTP API on both backends, over one
person's realistic memories: what routed where, what the handler answered, and what it left out
(superseded beliefs outside history, private memories, excluded terms, other tenants)."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graph.asking import AskQuery
from graph.core.errors import InvalidInput
from tests.helpers import assert_problem, store

NOW = datetime.now(UTC)


def days_ago(n: float) -> str:
    return (NOW - timedelta(days=n)).isoformat().replace("+00:00", "Z")


def last_week(day: int) -> str:
    """A day of last week (Monday is 0), at noon."""
    monday = (NOW - timedelta(days=NOW.weekday() + 7)).replace(hour=12, minute=0, second=0, microsecond=0)
    return (monday + timedelta(days=day)).isoformat().replace("+00:00", "Z")


def before_last_week(days: int) -> str:
    """`days` before last week's Monday: outside "last week", inside "lately" (the last 30 days)."""
    return (datetime.fromisoformat(last_week(0)) - timedelta(days=days)).isoformat().replace("+00:00", "Z")


def claim(subject: str, predicate: str, value: str, **extra) -> dict:
    return {"subject": subject, "predicate": predicate, "value": value, **extra}


def ask(client, agent: str, question: str, **options) -> dict:
    response = client.post("/v1/ask", json={"agent": agent, "question": question, **options})
    assert response.status_code == 200, response.text
    return response.json()


def texts(answer: dict) -> list[str]:
    return [c["memory"]["text"] for c in answer["memories"]]


def link(client, agent: str, source: dict, kind: str, target: dict) -> None:
    response = client.post(f"/v1/memories/{source['id']}/links", json={"agent": agent, "type": kind,
                                                                       "to": target["id"]})
    assert response.status_code == 201, response.text


def seed(client, agent: str) -> dict[str, dict]:
    """One person's memories: where they lived and worked (with the past superseded), family,
    restaurants, feelings about their job over three months, decisions with outcomes, goals with
    progress, last week's events, and sensitive and private notes."""
    me = {"source": "user_explicit"}
    m: dict[str, dict] = {}
    m["leeds"] = store(client, agent, "I live in Leeds", claim=claim("user", "lives_in", "Leeds",
                       valid_from="2019-01-01T00:00:00Z"), provenance=me)
    m["porto"] = store(client, agent, "I moved to Porto", claim=claim("user", "lives_in", "Porto",
                       valid_from="2022-03-01T00:00:00Z"), provenance=me)
    m["acme"] = store(client, agent, "I work at Acme as an analyst", claim=claim("user", "works_at", "Acme"),
                      provenance=me, event_at="2018-01-01T00:00:00Z")
    m["globex"] = store(client, agent, "I work at Globex now", claim=claim("user", "works_at", "Globex"),
                        provenance=me, event_at="2023-01-01T00:00:00Z")
    m["brother"] = store(client, agent, "Marcus is my brother", claim=claim("user", "knows", "Marcus"),
                         provenance=me, memory_type="entity")
    m["marcus_job"] = store(client, agent, "Marcus works at Kestrel Labs", claim=claim("Marcus", "works_at",
                                                                                       "Kestrel Labs"))
    m["ana"] = store(client, agent, "Ana is Marcus's wife", claim=claim("Marcus", "partner", "Ana"))
    m["window_seat"] = store(client, agent, "I prefer window seats on flights", memory_type="preference")
    m["italian"] = store(client, agent, "Restaurant I liked: Trattoria Roma, an Italian place on Elm Street",
                         memory_type="preference")
    m["thai"] = store(client, agent, "Restaurant I liked: Baan Suan, a Thai place near the office",
                      memory_type="preference")
    m["mexican"] = store(client, agent, "Restaurant I liked: El Camino, a Mexican taqueria", memory_type="preference")
    m["job_1"] = store(client, agent, "I love my job at Globex, the team is great and I feel happy there",
                       event_at=days_ago(90))
    m["job_2"] = store(client, agent, "My job at Globex is good, I enjoy the projects", event_at=days_ago(60))
    m["job_3"] = store(client, agent, "I am exhausted and frustrated with my job, the deadlines are awful",
                       event_at=days_ago(20))
    m["job_4"] = store(client, agent, "I hate my job lately, it is miserable and stressful",
                       event_at=before_last_week(2))
    m["move"] = store(client, agent, "Decided to move to Porto instead of staying in Leeds", memory_type="decision",
                      event_at="2022-01-15T00:00:00Z")
    m["move_outcome"] = store(client, agent, "The move to Porto went well; best call we made", memory_type="event",
                              event_at="2022-09-01T00:00:00Z")
    link(client, agent, m["move_outcome"], "OUTCOME_OF", m["move"])
    m["car"] = store(client, agent, "Decided to postpone buying a car until next year", memory_type="decision",
                     event_at=days_ago(40))
    m["marathon"] = store(client, agent, "Goal: run a marathon in May", memory_type="goal", event_at=days_ago(100))
    m["training"] = store(client, agent, "Ran 15 km today, marathon training is on track",
                       event_at=before_last_week(3))
    link(client, agent, m["training"], "PROGRESS_ON", m["marathon"])
    m["portuguese"] = store(client, agent, "Goal: learn Portuguese", memory_type="goal", event_at=days_ago(200))
    m["guitar"] = store(client, agent, "Goal: learn the guitar", memory_type="goal", historical=True,
                        event_at="2020-01-01T00:00:00Z")
    m["dinner"] = store(client, agent, "Had dinner with Marcus and Ana at Trattoria Roma", memory_type="event",
                        event_at=last_week(2))
    m["review"] = store(client, agent, "Work: quarterly review meeting with my manager", memory_type="event",
                        event_at=last_week(3))
    m["hike"] = store(client, agent, "Went hiking in the Peneda-Gerês park", memory_type="event",
                      event_at=last_week(5))
    m["old_event"] = store(client, agent, "Went to a concert in Lisbon", memory_type="event", event_at=days_ago(45))
    m["diagnosis"] = store(client, agent, "I was diagnosed with anxiety", sensitivity="sensitive")
    m["private"] = store(client, agent, "My therapist Dr. Okafor says I am doing better", sensitivity="private")
    return m


def test_every_kind_of_question_is_routed_and_answered_from_the_graph(client, agent):
    m = seed(client, agent)

    me = ask(client, agent, "what do you know about me?")
    assert me["intent"] == "about_me" and me["explain"]["handler"] == "about_me" and me["found"]
    titles = [s["title"] for s in me["sections"]]
    assert titles[:2] == ["Preferences", "Facts"] and "Goals" in titles and "Relationships" in titles
    about = {c["memory"]["id"] for c in me["memories"]}
    assert {m["porto"]["id"], m["globex"]["id"], m["window_seat"]["id"], m["marathon"]["id"]} <= about
    # Current beliefs only: no superseded home or job, no past goal, nothing private.
    assert not about & {m["leeds"]["id"], m["acme"]["id"], m["guitar"]["id"], m["private"]["id"]}
    assert any("user knows Marcus" in line for s in me["sections"] for line in s["lines"])
    small = ask(client, agent, "what do you know about me?", max_tokens=60)
    assert 0 < len(small["memories"]) < len(me["memories"])

    marcus = ask(client, agent, "tell me about Marcus")
    assert marcus["intent"] == "entity" and marcus["slots"]["entity"] == ["Marcus"]
    assert marcus["entity"]["entity"]["name"] == "Marcus"
    links = {(r["source"]["name"], r["type"], r["target"]["name"]) for r in marcus["relationships"]}
    assert {("Marcus", "works_at", "Kestrel Labs"), ("user", "knows", "Marcus")} <= links
    assert all(0 < r["strength"] <= 1 for r in marcus["relationships"])
    assert m["dinner"]["id"] in {c["memory"]["id"] for c in marcus["memories"]}

    who = ask(client, agent, "who is Marcus to me")
    assert who["intent"] == "relationship" and who["path"] is not None
    assert [e["name"] for e in who["path"]["entities"]] == ["user", "Marcus"]
    pair = ask(client, agent, "how are Ana and Kestrel Labs connected")
    assert pair["intent"] == "relationship"
    assert [e["name"] for e in pair["path"]["entities"]] == ["Ana", "Marcus", "Kestrel Labs"]

    week = ask(client, agent, "What happened last week?")
    assert week["intent"] == "temporal" and week["window"]["resolved"]
    assert texts(week) == ["Had dinner with Marcus and Ana at Trattoria Roma",
                           "Work: quarterly review meeting with my manager", "Went hiking in the Peneda-Gerês park"]

    lived = ask(client, agent, "where did I use to live?")
    assert lived["intent"] == "historical" and lived["slots"]["predicate"] == "lives_in"
    assert [(s["value"], s["current"]) for s in lived["timeline"]] == [("Leeds", False), ("Porto", True)]
    leeds = lived["timeline"][0]
    assert leeds["status"] == "superseded" and leeds["valid_until"].startswith("2022-03-01")

    food = ask(client, agent, "restaurants I liked but not Italian")
    assert food["intent"] == "negation" and food["excluded"] == ["Italian"]
    assert food["explain"]["handler"] == "search"
    assert {m["thai"]["id"], m["mexican"]["id"]} <= {c["memory"]["id"] for c in food["memories"]}
    assert not any("italian" in t.lower() for t in texts(food))

    job = ask(client, agent, "how do I feel about my job lately?")
    assert job["intent"] == "sentiment" and job["feeling"]["trend"] == "declining"
    readings = job["feeling"]["readings"]
    assert [r["at"] for r in readings] == sorted(r["at"] for r in readings) and len(readings) >= 4
    assert job["feeling"]["recent_mean"] < 0 < job["feeling"]["earlier_mean"]

    move = ask(client, agent, "what did I decide about the move?")
    assert move["intent"] == "decision" and [d["memory_id"] for d in move["decisions"]] == [m["move"]["id"]]
    assert move["decisions"][0]["follow_up_ids"] == [m["move_outcome"]["id"]]
    assert move["decisions"][0]["status"] == "has_outcome"

    goals = ask(client, agent, "What are my goals?")
    assert goals["intent"] == "goal"
    by_id = {g["memory_id"]: g for g in goals["goals"]}
    assert set(by_id) == {m["marathon"]["id"], m["portuguese"]["id"]}
    assert by_id[m["marathon"]["id"]]["follow_up_ids"] == [m["training"]["id"]]
    old = ask(client, agent, "what were my old goals")
    assert {g["memory_id"]: g["status"] for g in old["goals"]}[m["guitar"]["id"]] == "closed"
    # No rule knows this phrasing: the classifier over the question's embedding routes it, and says so.
    hoping = ask(client, agent, "what am I hoping to reach?")
    assert hoping["intent"] == "goal" and {g["memory_id"] for g in hoping["goals"]} == set(by_id)
    assert hoping["explain"]["router"] == "rules"
    assert any(r.startswith("classifier: goal at ") for r in hoping["explain"]["reasons"])

    work = ask(client, agent, "where do I work")
    assert work["intent"] == "search" and texts(work)[0] == "I work at Globex now"
    assert m["acme"]["id"] not in {c["memory"]["id"] for c in work["memories"]}
    for answer in (me, marcus, who, week, lived, food, job, move, goals, work):
        assert answer["explain"]["reasons"] and all(c["why"] for c in answer["memories"])


def test_negation_filters_inside_the_query_around_any_handler(client, agent, cypher):
    m = seed(client, agent)
    week = ask(client, agent, "What happened last week, other than the work stuff?")
    assert week["intent"] == "negation" and week["also"][0] == "temporal"
    assert week["explain"]["handler"] == "temporal" and week["excluded"] == ["work stuff"]
    # "work stuff" is two words: the review memory says "Work:" without "stuff", so it stays.
    assert m["review"]["id"] in {c["memory"]["id"] for c in week["memories"]}
    no_work = ask(client, agent, "what happened last week except work")
    assert texts(no_work) == ["Had dinner with Marcus and Ana at Trattoria Roma",
                              "Went hiking in the Peneda-Gerês park"]
    # The search API takes the same filter: the Italian place is not ranked, it is never read.
    found = client.post("/v1/search", json={"agent": agent, "query": "Italian restaurant", "exclude": ["italian"],
                                            "explain": True}).json()
    assert found["results"] and all("italian" not in r["text"].lower() for r in found["results"])
    assert found["meta"]["excluded"]["excluded"] >= 1


def test_asking_honours_the_ceiling_history_and_time_travel(client, agent):
    m = seed(client, agent)
    private = "what do you know about me?"
    assert m["private"]["id"] not in {c["memory"]["id"] for c in ask(client, agent, private)["memories"]}
    shown = ask(client, agent, private, sensitivity_ceiling="private", max_tokens=2_000)
    assert m["private"]["id"] in {c["memory"]["id"] for c in shown["memories"]}
    normal = ask(client, agent, private, sensitivity_ceiling="normal", max_tokens=2_000)
    assert m["diagnosis"]["id"] not in {c["memory"]["id"] for c in normal["memories"]}
    # As of 2020, Leeds was home: the historical handler marks it current then.
    then = ask(client, agent, "where did I use to live?", as_of="2020-06-01T00:00:00Z")
    assert [(s["value"], s["current"]) for s in then["timeline"]] == [("Leeds", True)]
    # The entity graph keeps history: Leeds is still known, its lives_in closed when Porto began.
    leeds = ask(client, agent, "what do you remember about Leeds")
    lived = {(r["type"], r["current"], (r["valid_until"] or "")[:10]) for r in leeds["relationships"]}
    assert ("lives_in", False, "2022-03-01") in lived
    forced = ask(client, agent, "Marcus", intent="entity")
    assert forced["intent"] == "entity" and forced["entity"]["entity"]["name"] == "Marcus"


def test_another_tenant_sees_nothing_of_these_memories(client, agent):
    seed(client, agent)
    other = f"{agent}-other"
    for question in ("what do you know about me?", "tell me about Marcus", "What happened last week?",
                     "where did I use to live?", "how do I feel about my job lately?", "What are my goals?",
                     "what did I decide about the move?", "restaurants I liked but not Italian", "who is Marcus to me"):
        answer = ask(client, other, question)
        assert not answer["found"] and answer["memories"] == [], (question, answer)


def test_bad_questions_are_refused_naming_the_field(client, agent, run, services):
    for body, field in (({"agent": agent}, "question"), ({"agent": agent, "question": "   "}, "question"),
                        ({"agent": agent, "question": "x" * 2_001}, "question"),
                        ({"agent": agent, "question": "hi", "router": "oracle"}, "router"),
                        ({"agent": agent, "question": "hi", "intent": "gossip"}, "intent"),
                        ({"agent": agent, "question": "hi", "limit": 0}, "limit"),
                        ({"agent": agent, "question": "hi", "surprise": 1}, "surprise"),
                        ({"agent": "bad agent", "question": "hi"}, "agent")):
        assert_problem(client.post("/v1/ask", json=body), 422, field)
    # The domain holds the same rules for a caller that skips the API.
    for query, field in ((AskQuery(agent=agent, question=""), "question"),
                         (AskQuery(agent=agent, question="hi", limit=500), "limit"),
                         (AskQuery(agent=agent, question="hi", router="oracle"), "router")):
        with pytest.raises(InvalidInput) as caught:
            run(services.ask.ask, query)
        assert caught.value.field == field


def test_a_mention_matches_its_words_stems_as_keyword_search_does_and_an_exclusion_stays_whole_words(client, agent):
    """The handlers that read the memories mentioning a name (temporal, sentiment, entity) match the
    name's stems in each memory's stored stems, as keyword search does: "Hiking" finds "went on a
    hike". A request's exclusions still match whole words: excluding "hiking" hides no "hike"."""
    hike = store(client, agent, "Went on a long hike above the lake", event_at=last_week(2))
    hiking = store(client, agent, "Went hiking with Ana in the hills", event_at=last_week(3))
    boots = store(client, agent, "Bought new boots for the trail", event_at=last_week(4))
    store(client, agent, "Planned a hike for next spring", event_at=before_last_week(20))

    answer = ask(client, agent, "what happened with Hiking last week")
    assert answer["intent"] == "temporal" and answer["slots"]["entity"] == ["Hiking"]
    assert [c["memory"]["id"] for c in answer["memories"]] == [hike["id"], hiking["id"]]
    # A name of several words: each word's stem, wherever the memory has it.
    lake = ask(client, agent, "what happened with Lake Hikes last week")
    assert [c["memory"]["id"] for c in lake["memories"]] == [hike["id"]]

    unhiked = ask(client, agent, "what happened last week except hiking")
    assert unhiked["intent"] == "negation" and unhiked["excluded"] == ["hiking"]
    assert [c["memory"]["id"] for c in unhiked["memories"]] == [hike["id"], boots["id"]]

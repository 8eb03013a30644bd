"""Consolidation's pure rules, without a database: which memories are near-duplicates and which stays,
which beliefs are rivals or agree, how events cluster into digests, which entity names are one, the
extractive summary, the exact join of embeddings, and the request's checks (InvalidInput naming the field)."""
from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from graph.beliefs.predicates import PredicateSchema
from graph.consolidation import beliefs, digests, duplicates, entity_names
from graph.consolidation.model import Defaults, Request, check_request
from graph.consolidation.records import EntityRow, Item, Source
from graph.consolidation.similar_pairs import similar_pairs
from graph.consolidation.summarise import Event, extractive_text
from graph.core.errors import InvalidInput
from graph.memories.model import Claim

NOW = datetime(2026, 11, 26, tzinfo=UTC)


def item(ident: str, *, trust: float = 0.5, claim: Claim | None = None, source: str = "inference", ref: str = "",
         days_ago: float = 1, **fields) -> Item:
    key = f"a {source} {ref or ident}"
    return Item(id=ident, memory_type=fields.pop("memory_type", "fact"), category=fields.pop("category", None),
                sensitivity=fields.pop("sensitivity", "normal"), historical=False, effective_from=None,
                event_at=fields.pop("event_at", None), expires_at=None, created_at=NOW - timedelta(days=days_ago),
                trust=trust, source_type=source, reinforcements=0, disputes=0, tags=(), importance=0.5,
                embedded=True, digested=False, sources={key: Source(key, source, ref or ident)}, claim=claim)


def c(value: str, subject: str = "user", predicate: str = "city", **fields) -> Claim:
    return Claim(subject, predicate, value, normalized_value=value.lower(), **fields)


def corroborate(_: str) -> str:
    return "corroborate"


def test_near_duplicates_merge_into_the_claimed_then_most_trusted_memory_without_chains():
    items = {i.id: i for i in (item("a", trust=0.6), item("b", trust=0.9), item("c", trust=0.5),
                               item("d", trust=0.5, claim=c("Lisbon")))}
    near = {"a": {"b": 0.97, "c": 0.96}, "b": {"a": 0.97}, "c": {"a": 0.96, "d": 0.99}, "d": {"c": 0.99}}
    found = duplicates.groups(items, near, 0.95, corroborate)
    # d (claimed) goes first and takes c; b (more trusted) takes a; c is not chained on through a.
    assert found == [duplicates.Group("d", (("c", 0.99),)), duplicates.Group("b", (("a", 0.97),))]


@pytest.mark.parametrize("other, why", [
    (item("x", memory_type="event"), "memory_type"),
    (item("x", sensitivity="private"), "sensitivity"),
    (item("x", claim=c("Porto")), "claim"),  # a claim is never archived into a plain memory
    (item("x", category="digest"), "digest"),
])
def test_what_tells_near_identical_texts_apart(other, why):
    assert duplicates.why_apart(item("s"), other, corroborate) == why


def test_claims_decide_and_store_keeps_memories_apart():
    lisbon = item("s", claim=c("Lisbon"))
    assert duplicates.why_apart(lisbon, item("x", claim=c("Lisbon")), corroborate) is None
    assert duplicates.why_apart(lisbon, item("x", claim=c("Porto")), corroborate) == "claim"
    assert duplicates.why_apart(lisbon, item("x", claim=c("Lisbon")), lambda _: "store") == "dedup_policy"
    dated = item("s", memory_type="event", event_at=NOW)
    assert duplicates.why_apart(dated, item("x", memory_type="event", event_at=NOW + timedelta(minutes=30)),
                                corroborate) is None
    assert duplicates.why_apart(dated, item("x", memory_type="event", event_at=NOW + timedelta(days=1)),
                                corroborate) == "event_at"


def test_the_exact_join_finds_every_pair_at_the_threshold_across_blocks_and_each_once():
    rng = np.random.default_rng(3)
    vectors = rng.standard_normal((23, 8)).astype(np.float32)
    vectors[17] = 2.5 * vectors[2] + 0.05 * rng.standard_normal(8)  # another length, same direction, two blocks apart
    vectors[9] = vectors[8]  # identical, in one block
    vectors[5] = 0.0  # no direction: similar to nothing
    ids = [f"m{n:02d}" for n in range(23)]
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-30)
    cosines = unit @ unit.T
    ranked = np.sort(cosines[np.triu_indices(23, 1)])
    threshold = float(ranked[-6] + ranked[-7]) / 2  # between the sixth and the seventh most similar pair
    expected = {(ids[a], ids[b]) for a in range(23) for b in range(a + 1, 23)
                if a != 5 and b != 5 and cosines[a, b] >= threshold}
    for block in (4, 7, 64):  # blocks that split the matrix unevenly, and one block for everything
        found = similar_pairs(ids, vectors, threshold, block=block)
        assert {(a, b) for a, b, _ in found} == expected and len(found) == len(expected) == 6
        assert ("m02", "m17") in expected and ("m08", "m09") in expected
        assert all(abs(c - cosines[ids.index(a), ids.index(b)]) < 1e-5 for a, b, c in found)
    with pytest.raises(ValueError):
        similar_pairs(ids[:3], vectors, 0.9)


def test_rivals_without_a_conflict_are_contradictions_and_agreeing_sources_corroborate():
    schema = beliefs.schemas_by_predicate({"likes": PredicateSchema("likes", cardinality="multi"),
                                           "pet": PredicateSchema("pet", conflict_policy="keep_both")})
    lisbon, porto = item("a", claim=c("Lisbon"), days_ago=3), item("b", claim=c("Porto"), days_ago=2)
    tea, coffee = item("t", claim=c("tea", predicate="likes")), item("k", claim=c("coffee", predicate="likes"))
    cat, dog = item("p1", claim=c("cat", predicate="pet")), item("p2", claim=c("dog", predicate="pet"))
    found = beliefs.contradictions([lisbon, porto, tea, coffee, cat, dog], schema, linked=set())
    assert [(f.new, f.existing, f.values) for f in found] == [("b", "a", ("Porto", "Lisbon"))]
    assert beliefs.contradictions([lisbon, porto], schema, linked={frozenset(("a", "b"))}) == []
    # Touching windows are states one after the other, not rivals.
    june = item("j", claim=c("Porto", valid_from=NOW - timedelta(days=30)))
    may = item("m", claim=c("Lisbon", valid_until=NOW - timedelta(days=30)))
    assert beliefs.contradictions([june, may], schema, linked=set()) == []

    one = item("d1", claim=c("Lisbon"), source="document", ref="doc-1")
    two = item("d2", claim=c("Lisbon"), source="user_implicit", ref="chat-9")
    gains = {g.target: (g.peers, [s.ref for s in g.sources]) for g in beliefs.corroborations([one, two, porto])}
    assert gains == {"d1": (("d2",), ["chat-9"]), "d2": (("d1",), ["doc-1"])}
    assert beliefs.trust_after(one, 1, NOW) == pytest.approx(0.6 + 0.05, abs=1e-3)


def test_events_cluster_by_time_and_similarity_per_sensitivity():
    base = NOW - timedelta(days=60)

    def event(ident: str, hours: float, sensitivity: str = "normal") -> Item:
        return item(ident, memory_type="event", event_at=base + timedelta(hours=hours), sensitivity=sensitivity)

    offsite, other = np.array([1.0, 0.1, 0.0]), np.array([0.0, 0.0, 1.0])
    events = [event("e1", 0), event("e2", 20), event("e3", 40), event("dentist", 30), event("e4", 200),
              event("secret", 10, "private"), event("young", 0)]
    events[-1] = replace(events[-1], event_at=NOW - timedelta(days=1))
    vectors = {e.id: (other if e.id == "dentist" else offsite).tolist() for e in events}
    chosen = digests.candidates(events, NOW, 30)
    assert "young" not in {e.id for e in chosen}
    found = digests.clusters(chosen, vectors, similarity=0.6, window_hours=72, min_members=3)
    assert [[m.id for m in cl.members] for cl in found] == [["e1", "e2", "e3"]]
    assert digests.digest_id("a", ["e3", "e1", "e2"]) == digests.digest_id("a", ["e1", "e2", "e3"])
    assert digests.digest_id("a", ["e1", "e2", "e3"]) != digests.digest_id("b", ["e1", "e2", "e3"])


def test_extractive_digests_keep_first_sentences_in_time_order_within_the_limit():
    t = NOW - timedelta(days=40)
    text = extractive_text([Event("Day two: workshops. Long details follow.", t + timedelta(days=1), 0.9),
                            Event("Day one: planning", t, 0.8)])
    span = f"{t:%Y-%m-%d} to {t + timedelta(days=1):%Y-%m-%d}"
    assert text == f"Digest of 2 events, {span}: Day one: planning; Day two: workshops."
    many = extractive_text([Event(f"Event number {i} " + "x" * 150, t, i / 100) for i in range(40)])
    assert len(many) <= 1_500 and many.endswith("more.")


def test_entity_names_that_are_one_thing_merge_into_the_most_mentioned():
    def e(ident: str, name: str, kind: str = "person", mentions: int = 1) -> EntityRow:
        return EntityRow(ident, name, kind, mentions, NOW)

    found = entity_names.duplicates([e("1", "Jon Smith"), e("2", "John Smith", mentions=3), e("3", "Room 101", "other"),
                                     e("4", "Room 102", "other"), e("5", "Acme", "organisation"),
                                     e("6", "Acme", "place"), e("7", "user"), e("8", "usr")], 0.85)
    assert [(f.keep, f.gone) for f in found] == [("2", "1")]


@pytest.mark.parametrize("request_, field", [
    (Request(agent="a", steps={"prune": True}), "steps.prune"),
    (Request(agent="a", steps={"vacuum": True}), "steps.vacuum"),
    (Request(agent="a", steps={"duplicates": 1}), "steps.duplicates"),  # type: ignore[dict-item]
    (Request(agent="a", thresholds={"duplicate_similarity": 0.5}), "thresholds.duplicate_similarity"),
    (Request(agent="a", thresholds={"digest_min_members": 2.0}), "thresholds.digest_min_members"),
    (Request(agent="a", thresholds={"retention_days": "7"}), "thresholds.retention_days"),  # type: ignore[dict-item]
    (Request(agent="a", dry_run="yes"), "dry_run"),  # type: ignore[arg-type]
    (Request(agent="a b"), "agent"),
])
def test_a_request_is_checked_by_the_domain(request_, field):
    with pytest.raises(InvalidInput) as refused:
        check_request(request_, Defaults())
    assert refused.value.field == field


def test_defaults_fill_what_a_request_leaves_out():
    checked = check_request(Request(agent="a", steps={"digests": False}, thresholds={"retention_days": 0}),
                            Defaults(prune_allowed=True), job_id="job-1")
    assert checked.steps.on() == ("duplicates", "contradictions", "corroboration", "entities", "prune")
    assert checked.thresholds.retention_days == 0 and checked.thresholds.duplicate_similarity == 0.95
    assert checked.job_id == "job-1"

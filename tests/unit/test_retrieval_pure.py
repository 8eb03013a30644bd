"""Pure pieces of retrieval: Lucene escaping, rerank, fusion, formatting and budget packing."""
from __future__ import annotations

import math
import re
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graph.context.format import ContextItem, format_context
from graph.context.packing import pack, top
from graph.context.tokens import chars_per_four
from graph.core.errors import InvalidInput
from graph.core.tenant_token import tenant_token
from graph.language.stems import stored
from graph.retrieval.bm25 import bm25
from graph.retrieval.fusion import (
    BY_MODE,
    LONG_QUERY_TERMS,
    WEIGHTS,
    best_similarity,
    cosine_floor,
    fuse,
    keyword_score,
    keyword_weight,
    relevance,
)
from graph.retrieval.keywords import hits, lucene_query, needles, stemmed, terms
from graph.retrieval.lucene import escape
from graph.retrieval.rerank import Weights, composite, recency, refers_to, signals

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def test_lucene_special_characters_are_escaped():
    raw = '+-&&||!(){}[]^"~*?:\\/'
    assert escape(raw) == '\\+\\-\\&\\&\\|\\|\\!\\(\\)\\{\\}\\[\\]\\^\\"\\~\\*\\?\\:\\\\\\/'
    assert escape("budget AND NOT rent") == "budget and not rent"
    assert escape("  c++ (v2) ") == "c\\+\\+ \\(v2\\)"
    assert escape("a & b | c") == "a & b | c"  # single & and | are not operators


def test_rerank_uses_the_prd_weights_and_recency_curve():
    assert Weights().as_dict() == {"relevance": 0.40, "confidence": 0.25, "recency": 0.20, "importance": 0.15}
    assert recency(NOW, NOW) == 1.0
    assert recency(NOW - timedelta(days=100), NOW) == pytest.approx(math.exp(-1.0))
    s = signals(relevance=0.9, confidence=0.8, updated_at=NOW - timedelta(days=10), importance=0.5, now=NOW)
    assert composite(s, Weights()) == pytest.approx(0.9 * 0.4 + 0.8 * 0.25 + math.exp(-0.1) * 0.2 + 0.5 * 0.15)
    assert signals(-0.3, 0.5, NOW, 0.5, NOW).relevance == 0.0


def test_recency_counts_from_event_at_when_there_is_one():
    written_today = NOW
    assert signals(0.5, 0.5, written_today, 0.5, NOW, event_at=NOW - timedelta(days=100)).recency == \
        pytest.approx(math.exp(-1.0))
    assert signals(0.5, 0.5, written_today, 0.5, NOW, event_at=None).recency == 1.0
    assert signals(0.5, 0.5, NOW - timedelta(days=50), 0.5, NOW, event_at=NOW + timedelta(days=9)).recency == 1.0
    assert refers_to(NOW, None) == NOW and refers_to(NOW, NOW - timedelta(days=1)) == NOW - timedelta(days=1)


def test_high_confidence_outranks_higher_similarity_with_low_confidence():
    trusted = signals(0.70, 1.0, NOW, 0.5, NOW)
    doubtful = signals(0.80, 0.3, NOW, 0.5, NOW)
    assert composite(trusted, Weights()) > composite(doubtful, Weights())
    relevance_only = Weights(relevance=1, confidence=0, recency=0, importance=0)
    assert composite(doubtful, relevance_only) > composite(trusted, relevance_only)


def test_signals_beside_relevance_count_in_full_only_at_even_odds_of_answering():
    on_topic_old = signals(0.20, 0.5, NOW, 0.5, NOW, event_at=NOW - timedelta(days=325))
    off_topic_fresh = signals(0.04, 0.5, NOW, 0.5, NOW)
    assert composite(on_topic_old, Weights()) > composite(off_topic_fresh, Weights())
    answer = signals(0.5, 0.5, NOW, 0.5, NOW)  # at the gate and above: the PRD's weighted sum, unchanged
    assert composite(answer, Weights()) == pytest.approx(0.5 * 0.4 + 0.5 * 0.25 + 1.0 * 0.2 + 0.5 * 0.15)
    half = signals(0.25, 0.5, NOW, 0.5, NOW)
    assert composite(half, Weights()) == pytest.approx(0.25 * 0.4 + 0.5 * (0.5 * 0.25 + 0.2 + 0.5 * 0.15))
    importance_only = Weights(relevance=0, confidence=0, recency=0, importance=1)  # asked to ignore relevance
    assert composite(off_topic_fresh, importance_only) == pytest.approx(0.5)


@pytest.mark.parametrize("weights, field", [
    ({"relevance": -0.1}, "rerank.relevance"),
    ({"relevance": 0, "confidence": 0, "recency": 0, "importance": 0}, "rerank"),
    ({"recency": float("nan")}, "rerank.recency")])
def test_bad_weights_are_invalid_input(weights, field):
    with pytest.raises(InvalidInput) as err:
        Weights(**weights)
    assert err.value.field == field


def test_fused_relevance_is_absolute_not_relative_to_the_query_s_best_candidate():
    # The same signals give the same relevance whatever else was found: a weak best match stays weak
    # (normalised max gave a 0.30 cosine, the best of its set, relevance 1.0).
    weak_best = fuse("hybrid", 0.30, floor=0.0, bm25=None, coverage=0.0, keyword=None)
    assert weak_best.relevance < 0.4 and weak_best.match == pytest.approx(0.30)
    strong = fuse("hybrid", 0.75, floor=0.0, bm25=None, coverage=0.0, keyword=None)
    assert strong.relevance > 0.6 > weak_best.relevance
    every_signal = fuse("hybrid", 0.9, floor=0.0, bm25=15.0, coverage=1.0, keyword=1.0)
    assert every_signal.relevance > 0.9
    assert 0 < relevance(WEIGHTS, 0.30, None, 0.0) == weak_best.relevance < 1


@given(cosine=st.floats(-1, 1), bm25=st.floats(0, 50), coverage=st.floats(0, 1), up=st.floats(0.01, 1))
def test_fused_relevance_grows_with_each_signal(cosine, bm25, coverage, up):
    for w in BY_MODE.values():
        base = relevance(w, cosine, bm25, coverage)
        assert 0 <= base <= 1
        if w.cosine:
            assert relevance(w, cosine + up, bm25, coverage) >= base
        if w.bm25:
            assert relevance(w, cosine, bm25 + up * 10, coverage) >= base
        if w.coverage:
            assert relevance(w, cosine, bm25, min(1.0, coverage + up)) >= base


def test_a_strong_keyword_match_outranks_a_poor_vector_match():
    # Found by full-text only, holding every query term with a high BM25: its cosine is taken to be
    # the vector pool's lowest, and it still beats a memory whose only merit is a middling cosine.
    keyword_only = fuse("hybrid", None, floor=0.25, bm25=12.0, coverage=1.0, keyword=1.0)
    poor_vector = fuse("hybrid", 0.35, floor=0.25, bm25=None, coverage=0.0, keyword=None)
    assert keyword_only.relevance > poor_vector.relevance
    assert keyword_only.match == 1.0  # min_similarity still compares max(cosine, keyword score)
    # The best BM25 hit that holds one of four query terms is worth a quarter of the keyword score.
    assert keyword_score(3.0, 3.0, 0.25) == 0.25 and keyword_score(5.0, 0.0, 1.0) == 0.0


def test_keyword_evidence_counts_less_for_a_long_search_text():
    # A dialogue of 24 content terms shares chatter words with many memories: its keyword matches
    # count half, and an on-topic memory found by its cosine stays ahead of a chatter match.
    assert keyword_weight(0) == keyword_weight(LONG_QUERY_TERMS) == 1.0 and keyword_weight(24) == 0.5
    chatter = dict(similarity=0.25, floor=0.25, bm25=30.0, coverage=0.4, keyword=0.4)
    on_topic = dict(similarity=0.55, floor=0.25, bm25=None, coverage=0.0, keyword=None)
    assert fuse("hybrid", **chatter, terms=5).relevance > fuse("hybrid", **on_topic, terms=5).relevance
    assert fuse("hybrid", **chatter, terms=24).relevance < fuse("hybrid", **on_topic, terms=24).relevance
    # Up to LONG_QUERY_TERMS nothing changes, and the cosine alone is never damped.
    assert fuse("hybrid", **chatter, terms=LONG_QUERY_TERMS) == fuse("hybrid", **chatter)
    assert fuse("hybrid", **on_topic, terms=24) == fuse("hybrid", **on_topic)
    # Keyword mode has no cosine to weigh keyword evidence against: its relevance keeps its scale.
    assert fuse("keyword", **chatter, terms=24) == fuse("keyword", **chatter)


def test_keyword_mode_does_not_rank_by_cosine_and_vector_mode_by_nothing_else():
    a = fuse("keyword", 0.9, floor=0.0, bm25=4.0, coverage=0.5, keyword=0.5)
    b = fuse("keyword", 0.1, floor=0.0, bm25=4.0, coverage=0.5, keyword=0.5)
    assert a.relevance == b.relevance and a.match == 0.9
    assert fuse("vector", 0.6, 0.0, None, 0.0, None).relevance > fuse("vector", 0.5, 0.0, None, 0.0, None).relevance
    assert fuse("keyword", None, 0.0, None, 0.0, None).match == 0.0


def test_a_keyword_only_candidate_takes_the_lowest_cosine_of_a_full_vector_pool():
    assert cosine_floor([0.7, 0.4, None, 0.5], pool=3) == 0.4  # full pool: it ranked below all of them
    assert cosine_floor([0.7, 0.4], pool=3) == 0.0  # the pool held every memory with an embedding
    assert cosine_floor([-0.2, 0.1], pool=2) == 0.0
    assert best_similarity([0.2, None, 0.7, -0.1]) == 0.7 and best_similarity([None]) == 0.0


def test_tenant_bm25_prefers_rarer_terms_and_shorter_memories():
    scores = bm25([("short", [0, 1], 6), ("long", [0, 1], 18), ("rare", [2], 6), ("common", [0], 6)],
                  collection_size=20, average_words=10.0)
    assert scores["short"] > scores["long"]  # the same terms in fewer words
    assert scores["rare"] > scores["common"]  # term 2 is in one memory, term 0 in three
    assert bm25([], 0, 0.0) == {}


def test_a_tenant_token_is_one_lower_case_term_per_agent():
    agents = ["agent-1", "Agent-1", "a", "user@example.com/x+y:z", "x" * 128]
    tokens = [tenant_token(a) for a in agents]
    assert len(set(tokens)) == len(agents) and tokens[0] == tenant_token("agent-1")
    assert all(re.fullmatch(r"t[0-9a-f]{32}", t) for t in tokens)


def test_keyword_needles_match_whole_stems_of_any_form():
    [budget] = needles(["budget"])
    assert budget in stored("the quarterly Budgets,\nagain") and budget not in stored("a budgie")
    [hike] = needles(list(stemmed(["hiking"]).stems))
    assert all(hike in stored(t) for t in ("We hiked", "a long hike", "Hikes!")) and hike not in stored("hiker")
    # A query's words that share a stem are one term, shown as the first of them.
    said = stemmed(["hiking", "hikes", "preferences", "prefers"])
    assert (said.stems, said.words) == (("hike", "prefer"), ("hiking", "preferences"))
    assert said.word("prefer") == "preferences"


def test_keyword_terms_drop_function_words_and_keep_lucene_safe():
    assert terms("What is the user's BUDGET for the trip?") == ["user", "budget", "trip"]
    assert terms("the who") == ["the", "who"]  # nothing but function words: search them anyway
    assert terms("c++ (v2) a:b \\ \"x") == ["c", "v2", "b", "x"]  # 'a' is a function word
    assert lucene_query([], "agent-1") is None
    token = tenant_token("agent-1")
    assert lucene_query(["budget", "trip"], "agent-1") == f"+tenant_token:{token}^0 +stems:(budget trip)"
    said = list(stemmed(["budget", "trip", "paris"]).stems)
    assert hits(said, "Budget: $750 for the Paris-trip") == ["budget", "trip", "pari"]
    assert hits(["budget", "hike"], "budgets for hiking") == ["budget", "hike"]
    assert hits(["budget"], "a budgie") == []


def item(i, text, value, memory_type="fact", **extra):
    return ContextItem(id=f"m{i}", text=text, memory_type=memory_type, value=value, **extra)


def test_context_groups_by_type_in_a_stable_order_and_marks_validity_and_history():
    items = [item(1, "Decided to rent", 0.5, "decision"), item(2, "Likes tea", 0.9, "preference"),
             item(3, "Lived in Oslo", 0.4, valid_from=datetime(2019, 1, 1, tzinfo=UTC),
                  valid_until=datetime(2021, 1, 1, tzinfo=UTC), historical=True),
             item(4, "Runs a marathon\nin May", 0.7, "goal"), item(5, "Ships on Friday", 0.6, "action")]
    assert format_context(items) == (
        "## Relevant Memory Context\n### Preferences\n- Likes tea\n### Goals\n- Runs a marathon in May\n"
        "### Decisions\n- Decided to rent\n### Other\n- Ships on Friday\n"
        "### Historical\n- Lived in Oslo (valid 2019-01-01 to 2021-01-01; historical, superseded)\n")
    assert format_context([]) == ""


def test_packing_prefers_short_valuable_memories_and_reports_what_it_left_out():
    items = [item(1, "Budget is $750", 0.8), item(2, "long " * 200, 0.9),
             item(3, "Prefers aisle seats", 0.6, "preference")]
    packed = pack(items, max_tokens=40)
    assert [i.id for i in packed.included] == ["m1", "m3"]
    assert [(e.id, e.reason, e.value) for e in packed.excluded] == [("m2", "budget", 0.9)]
    assert packed.token_estimate == chars_per_four(packed.context) <= 40
    unlimited = top(items, max_memories=2)
    assert [i.id for i in unlimited.included] == ["m2", "m1"] and unlimited.excluded == []


def test_packing_measures_value_from_the_pool_floor_so_short_filler_does_not_displace_the_answer():
    # By raw composite / tokens the two short off-topic memories (0.50 / 5 tokens = 0.10) would go
    # before the answer (0.90 / 11 tokens = 0.08) and fill the budget; above the floor they are worth 0.
    answer = item(1, "The user's monthly budget is 750 euros", 0.90)
    filler = [item(2, "Bus line 14 rerouted", 0.50), item(3, "Lobby lights replaced", 0.50)]
    packed = pack([*filler, answer], max_tokens=chars_per_four(format_context([answer])))
    assert [i.id for i in packed.included] == ["m1"]
    assert {e.id for e in packed.excluded} == {"m2", "m3"}


@settings(max_examples=300, deadline=None)
@given(lengths=st.lists(st.integers(1, 2_000), max_size=30), values=st.lists(st.floats(0, 1), min_size=30, max_size=30),
       budget=st.integers(0, 5_000),
       types=st.lists(st.sampled_from(["fact", "goal", "preference", "event", "other", "decision", "procedure"]),
                      min_size=30, max_size=30))
def test_the_budget_guarantee_holds_for_any_memories_and_budget(lengths, values, budget, types):
    items = [item(i, "x" * n, values[i], types[i]) for i, n in enumerate(lengths)]
    packed = pack(items, budget)
    assert chars_per_four(packed.context) <= budget
    assert packed.token_estimate == chars_per_four(packed.context)
    ids = [i.id for i in packed.included] + [e.id for e in packed.excluded]
    assert sorted(ids) == sorted(i.id for i in items)

"""The asking router's rules (graph/asking/rules.py), its windows (windows.py), the sentiment trend
(trend.py) and the preferences' pure rules, on the questions of docs/asking.md and the dataset
guide's examples (never on the labelled test half)."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graph.asking import route
from graph.asking.model import Reading
from graph.asking.trend import trend_of
from graph.asking.windows import resolve
from graph.preferences import Preferences, cap_ceiling, never_store_reason, retention_expiry

GUIDE = [
    ("what do you know about me?", "about_me"), ("tell me about myself", "about_me"),
    ("tell me about Marcus", "entity"), ("who is Dr. Okafor?", "entity"), ("what about Paris", "entity"),
    ("who is Marcus to me", "relationship"), ("how do I know Ana", "relationship"),
    ("who's my manager again", "relationship"), ("how are Priya and Tom connected", "relationship"),
    ("what happened last week", "temporal"), ("anything from before the move?", "temporal"),
    ("what's been going on with Marcus since Christmas", "temporal"),
    ("where did I use to live", "historical"), ("what was my old job", "historical"),
    ("what car did I have before the Golf", "historical"), ("where was I living in 2019", "historical"),
    ("restaurants I liked but not Italian", "negation"), ("anything except work", "negation"),
    ("recipes I saved that don't use dairy", "negation"),
    ("how do I feel about my job lately", "sentiment"), ("how did I use to feel about running", "sentiment"),
    ("how do I feel about my running goal", "sentiment"), ("what did I decide about the move", "decision"),
    ("I'm not sure what I decided", "decision"), ("what did I decide last week", "decision"),
    ("what are my goals", "goal"), ("which goals haven't I finished", "goal"), ("what were my old goals", "goal"),
    ("where do I work now?", "search"), ("find the article on decision fatigue", "search"),
    ("find the recipe called 'what I used to cook'", "search"), ("the song Not Afraid", "search"),
    ("what did you say about the movie Not Okay", "search"), ("what's my favourite cuisine", "search"),
]


@pytest.mark.parametrize(("question", "intent"), GUIDE)
def test_the_guides_questions_route_as_the_guide_says(question, intent):
    assert route(question).intent == intent, route(question).reasons


# Phrasing classes the rules name (markers.py), each asked in words no labelled line uses.
CLASSES = [
    ("who's my florist", "relationship"), ("who is our babysitter now", "relationship"),
    ("who's my favourite singer", "search"), ("who is my bank again", "search"),
    ("remind me how Otto and I are related", "relationship"),
    ("give me an overview of who I am", "about_me"), ("what do you remember about my life", "about_me"),
    ("what's in my assistant profile", "about_me"), ("a short summary of Beatrix", "entity"),
    ("what do we know about the Petersons", "entity"),
    ("did they ever work out where the party is", "decision"), ("am I leaning towards selling the flat", "decision"),
    ("what's the goal of this sprint", "search"), ("find that video about goal setting", "search"),
    ("the talk on decision making I saved", "search"), ("have I been loving the new routine", "sentiment"),
    ("what's Ana's take on the wedding plans", "sentiment"), ("where did I study originally", "historical"),
    ("was I ever vegan", "historical"), ("which countries have I lived in", "historical"),
    ("where does my dad work", "search"), ("what's my phone number now", "search"),
    # An opinion of the user, the user explained to someone, how well the user is known, a backstory.
    ("what's your honest impression of me", "about_me"), ("describe me to my new coach", "about_me"),
    ("explain me to my new assistant", "about_me"), ("how well do you know the user", "about_me"),
    ("what's my backstory, as far as you can tell", "about_me"),
    # A role, then where it is held.
    ("who are my friends in Leeds", "relationship"), ("who's my contact from the bank", "relationship"),
    ("whats been going on with the move", "temporal"), ("whats happened since monday", "temporal"),
    ("has my route to the office changed much", "historical"),
    ("what did we land on for the sofa", "decision"), ("what did we plump for in the end", "decision"),
    ("tell me what we went with for the flooring", "decision"), ("what I picked up at the market", "search"),
    ("what were we hoping to achieve this quarter", "goal"), ("how are we doing on the savings plan", "goal"),
    ("what am I trying to get good at", "goal"),
    # What a saved thing holds, said in a clause after it, is its content, not an ask.
    ("open the doc where we listed our goals", "search"), ("the chat where I vented about my mood", "search"),
    # A saved thing asked for, or when something is: a plain search, whatever its topic.
    ("pull up my notes on the life of Napoleon", "search"), ("is there a note about what Lea decided", "search"),
    ("do we have a recipe for flatbread", "search"), ("when did I last see the dentist", "search"),
    ("what time is the school play", "search"), ("whats the plan for tonight", "search"),
    # What follows a saved thing asked for describes it: no ask of its own.
    ("is there a memo about what Lea decided", "search"), ("find my notes on how I felt about the move", "search"),
    ("do we have a recipe for something I used to love", "search"),
    # A thing asked for by its name or kind, or what someone said of it: a plain search, whoever the
    # words that describe it name; another head still comes first.
    ("what's the name of the florist my aunt swears by", "search"), ("which campsite did the Okafors book", "search"),
    ("what did the mechanic say about the brakes", "search"), ("what has Oma recommended for the cough", "search"),
    ("which bakery did Ines pick for the party", "decision"),
    ("what did I say about how I feel toward Oslo", "sentiment"),
    ("what's the name of my old landlord", "historical"),
    # A feeling in the words that describe the thing asked for by its kind describes it; a change done to
    # something asks for no past value. With no thing asked for by kind, or a change of the thing itself, each asks.
    ("which vet did the Moores say was great with puppies", "search"),
    ("which course did Tom say changed his career", "search"),
    ("which of my friends was upset with me", "sentiment"), ("has my commute changed since the move", "historical"),
]


@pytest.mark.parametrize(("question", "intent"), CLASSES)
def test_phrasing_classes_are_decided_by_the_rules(question, intent):
    r = route(question)
    # A plain search is decided by a marker of its own (a current fact) or by no marker of another intent.
    decided = intent != "search" or any(x.startswith("search: asks") for x in r.reasons)
    assert (r.intent, r.unsure) == (intent, not decided), r.reasons


def test_a_current_fact_decides_only_where_nothing_else_asks():
    for question in ("where does my dad work", "what's my phone number now"):
        r = route(question)
        assert (r.intent, r.unsure, r.reasons[0][:33]) == ("search", False, "search: asks for one current fact")
    r = route("how do I feel about my job now")
    assert r.intent == "sentiment" and "search" not in r.also
    r = route("where did my sister work before she moved")
    assert r.intent != "search" or r.unsure  # a past value is not a current fact
    for question in ("find my notes on the history of Rome", "when was my last haircut"):
        r = route(question)
        assert (r.intent, r.unsure, r.reasons[0][:40]) == ("search", False, "search: asks for a saved thing or a date")
    # Another head comes first: a saved thing asked for with an exclusion, a decision asked "when".
    assert route("find the recipes I saved, except the ones with dairy").intent == "negation"
    assert route("when did I decide to sell the car").intent == "decision"
    assert route("what's the plan for the marathon").intent == "goal"  # a plan for a thing, not for a day
    # Only a saved thing's description is no ask: "pull up my goals" asks for the goals themselves.
    assert [route(q).intent for q in ("pull up my goals", "find the decision I made about the car")] == [
        "goal", "decision"]
    r = route("is there a note about what Marcus decided")
    assert (r.intent, r.also) == ("search", ())
    r = route("what did I decide about the talk on Friday")
    assert (r.intent, r.slots.window) == ("decision", "on Friday")  # a time after "on" is no subject


def test_a_feeling_said_in_passing_is_no_ask():
    # Said before its verb, in a question that asks for something else, a feeling describes the thing asked for.
    for question in ("what was the bar called, the one Leo was so excited about",
                     "I was so stressed about the audit, when is the next one",
                     "what's the film that made me feel hopeful"):
        r = route(question)
        assert (r.intent, "sentiment" in r.also) == ("search", False), r.reasons
    # Asked, the subject comes after the verb, or the question asks nothing else.
    for question in ("is Leo still excited about the trip", "has Lena been upset with me",
                     "i've been anxious about money lately, is that new",
                     "what's Leo so excited about, is he upset with me"):
        assert route(question).intent == "sentiment", route(question).reasons


def test_modifiers_go_to_also_and_fill_the_slots():
    r = route("what happened last week except work stuff")
    assert (r.intent, r.also, r.slots.exclude, r.slots.window) == ("negation", ("temporal",), ("work stuff",),
                                                                  "last week")
    r = route("what did I decide last week")
    assert (r.intent, r.also, r.slots.window) == ("decision", ("temporal",), "last week")
    r = route("where was I living in 2019")
    assert (r.intent, r.also, r.slots.predicate, r.slots.window) == ("historical", ("temporal",), "lives_in",
                                                                     "in 2019")
    r = route("how do I feel about my running goal")
    assert (r.intent, r.also, r.slots.topic) == ("sentiment", ("goal",), "my running goal")
    r = route("what did I decide about the move and how do I feel about it now")
    assert r.intent == "decision" and "sentiment" in r.also
    r = route("films from last month minus the sequels")
    assert (r.intent, r.slots.exclude) == ("negation", ("sequels",))
    r = route("dinner ideas, nothing that involves mushrooms")
    assert (r.intent, r.slots.exclude) == ("negation", ("mushrooms",))
    r = route("restaurants I liked but not Italian or Thai")
    assert r.slots.exclude == ("Italian", "Thai") and r.slots.topic == "restaurants I liked" and r.also == ("search",)
    r = route("What do you know about Frank's bakery on Elm Street?")
    assert r.intent == "entity" and r.slots.entity == ("Frank", "Elm Street")
    assert route("who is Marcus to me").wants_history is False and route("where did I use to live").wants_history


def test_windows_resolve_at_the_instant_asked():
    now = datetime(2026, 6, 17, 15, tzinfo=UTC)  # a Wednesday
    day = lambda w: (w.start and w.start.date().isoformat(), w.end and w.end.date().isoformat())  # noqa: E731
    assert day(resolve("last week", now)) == ("2026-06-08", "2026-06-15")
    assert day(resolve("in March", now)) == ("2026-03-01", "2026-04-01")
    assert day(resolve("last summer", now)) == ("2025-06-01", "2025-09-01")
    assert day(resolve("yesterday", now)) == ("2026-06-16", "2026-06-17")
    assert day(resolve("back in 2019", now)) == ("2019-01-01", "2020-01-01")
    assert day(resolve("since Christmas", now)) == ("2025-12-24", None)
    assert day(resolve("last weekend", now)) == ("2026-06-13", "2026-06-15")
    assert day(resolve("over the past two weeks", now)) == ("2026-06-03", None)
    assert day(resolve("lately", now)) == ("2026-05-18", None)
    assert day(resolve("two weeks ago", now)) == ("2026-06-01", "2026-06-08")
    assert day(resolve("on the 20th", now)) == ("2026-05-20", "2026-05-21")  # the last one, not the next
    assert day(resolve("before the 1980s", now)) == (None, "1980-01-01")
    anchored = resolve("before the move", now)
    assert (anchored.anchor, anchored.relation, anchored.start, anchored.end) == ("the move", "before", None, None)
    assert resolve("in a jiffy", now) is None


def test_the_trend_compares_the_recent_mean_with_the_earlier_one():
    at = lambda d: datetime(2026, 1, d, tzinfo=UTC)  # noqa: E731
    falling = [Reading(f"m{d}", at(d), s) for d, s in ((1, 0.8), (5, 0.6), (20, -0.4), (25, -0.7))]
    assert trend_of("job", falling).trend == "declining"
    assert trend_of("job", falling, since=at(2)).change == pytest.approx(-0.9667, abs=1e-3)
    assert trend_of("job", list(reversed(falling))).readings[0].memory_id == "m1"  # time order
    steady = [Reading(f"m{d}", at(d), s) for d, s in ((1, 0.3), (2, 0.35), (3, 0.32), (4, 0.28))]
    assert trend_of("tea", steady).trend == "stable"
    assert trend_of("x", falling[:1]).trend == "unknown" and trend_of("x", []).trend == "unknown"


def test_preferences_rules():
    prefs = Preferences(agent="a", never_store_types=("event",), never_store_topics=("work meeting",),
                        sensitivity_ceiling="sensitive", retention_days={"fact": 10})
    assert never_store_reason(prefs, "event", "anything")[0] == "memory_type"
    assert never_store_reason(prefs, "fact", "Two WORK meetings today")[0] == "text"
    assert never_store_reason(prefs, "fact", "a networking meeting") is None
    assert never_store_reason(prefs, "fact", "notes", tags=("work meeting",))[0] == "text"
    now = datetime(2026, 1, 1, tzinfo=UTC)
    assert retention_expiry(prefs, "fact", now, None) == datetime(2026, 1, 11, tzinfo=UTC)
    assert retention_expiry(prefs, "goal", now, None) is None
    assert cap_ceiling("private", prefs) == "sensitive" and cap_ceiling("normal", prefs) == "normal"


def test_the_classifier_decides_only_where_no_rule_does_and_only_when_confident():
    from graph.asking.blend import combine, for_classifier

    unsure = route("what am I after")
    assert unsure.unsure and unsure.intent == "search"
    confident = {"goal": 0.7, "search": 0.2, "negation": 0.1}
    picked = combine("what am I after", unsure, confident)
    assert (picked.intent, picked.unsure, picked.slots.subject) == ("goal", True, "user")
    assert picked.reasons[-1].startswith("classifier: goal at 0.70")
    # Not confident, or search on top, or negation (an exclusion is the rules' to find): search stays.
    for scores in ({"goal": 0.3, "search": 0.25, "entity": 0.25}, {"search": 0.6, "goal": 0.4},
                   {"negation": 0.9, "search": 0.1}):
        kept = combine("what am I after", unsure, scores)
        assert kept.intent == "search" and kept.reasons[-1].startswith("classifier: not confident")
    # A rule that decided is never overruled, however sure the classifier is.
    ruled = route("what did I decide about the move")
    assert combine("what did I decide about the move", ruled, {"search": 1.0}) is ruled
    # Slots are read for the intent picked: a window and a name survive the switch.
    temporal = combine("anything new with Marcus since Christmas?", route("anything new with Marcus since Christmas?"),
                       {"temporal": 0.9, "search": 0.1})
    assert temporal.intent == "temporal" and temporal.slots.window == "since Christmas"
    # What the classifier reads: the phrasing, with names and the window replaced by stand-ins.
    assert for_classifier("What did I decide about Rome last week?") == "What did I decide about Sam then?"
    assert for_classifier("tell me about Dr. Okafor") == "tell me about Sam"


def test_a_very_sure_classifier_overrules_a_past_value_and_no_other_rule():
    from graph.asking.blend import asks_classifier, combine

    # "used to" describing the thing asked for: the rules read a past value, a sure classifier a search.
    q = "the cake my aunt used to bake, is the recipe saved anywhere"
    ruled = route(q)
    assert ruled.intent == "historical" and not ruled.unsure and asks_classifier(ruled)
    searched = combine(q, ruled, {"search": 0.9, "historical": 0.1})
    assert (searched.intent, searched.also, searched.slots.predicate) == ("search", (), None)
    assert searched.reasons[0].startswith("classifier: search at 0.90 overrules the past value")
    # Overruled for another special intent, whose slots the rules then read.
    q = "did I enjoy living by the sea back then"
    ruled = route(q)
    assert ruled.intent == "historical"
    felt = combine(q, ruled, {"sentiment": 0.85, "historical": 0.1, "search": 0.05})
    assert (felt.intent, felt.slots.subject, felt.slots.predicate) == ("sentiment", "user", None)
    assert "historical" not in felt.also and felt.reasons[-1].startswith("classifier: sentiment at 0.85")
    # Less sure than that, or sure of the past value itself: the rule stands.
    q = "where did I use to work"
    ruled = route(q)
    assert ruled.intent == "historical"
    for scores in ({"search": 0.79, "historical": 0.21}, {"historical": 0.95, "search": 0.05}):
        assert combine(q, ruled, scores) is ruled
    # The other rules are never asked about.
    decided = route("what did I decide about the move")
    assert not asks_classifier(decided) and combine("what did I decide about the move", decided,
                                                    {"search": 1.0}) is decided


def test_a_past_tense_on_someone_elses_slot_asks_for_no_past_value_of_the_users():
    # The slot's owner is a named or related person: what they did then, not the user's past value.
    for q in ("which dentist did my coworker Ahmed switch to after he moved",
              "where did my brother live before he moved to Leeds",
              "what was my sister's job before the baby",
              "which gym was Priya going to back in 2021",
              "what car did Marcus drive before the Tesla"):
        routed = route(q)
        assert routed.intent != "historical" and "historical" not in routed.also, q
        assert routed.slots.predicate is None, q
    # The user's own slot in the past still is, whoever else the question names.
    for q, slot in (("where was I living in 2019", "lives_in"), ("what car did I have before the Golf", "car"),
                    ("where did I work before my sister moved in", "works_at"),
                    ("who was my manager before Dana", "manager"), ("what was my old boss's name", "manager")):
        routed = route(q)
        assert (routed.intent, routed.slots.predicate) == ("historical", slot), q


def test_the_users_slot_as_a_past_progressive_asks_for_a_past_value():
    for q, slot in (("where was I working when I first met Jonas", "works_at"),
                    ("who was I dating when I moved to Leeds", "partner"),
                    ("where were we living when the twins were born", "lives_in")):
        routed = route(q)
        assert (routed.intent, routed.slots.predicate) == ("historical", slot), q
    # A project worked on, or what the user was doing, is no slot.
    assert route("what was I working on with Priya").intent != "historical"
    assert route("what was I doing when I met Lina").intent != "historical"
    # With a window too: what the user did then, not where they worked.
    for q in ("what was I working on last week", "what were we working on in March"):
        routed = route(q)
        assert (routed.intent, routed.slots.predicate) == ("temporal", None), (q, routed)
    assert (route("where was I working last year").intent, route("where was I working last year").slots.predicate) \
        == ("historical", "works_at")


def test_progress_with_a_clause_before_what_it_is_on_asks_about_a_goal():
    for q, topic in (("how much progress have we made on the kitchen reno", "the kitchen reno"),
                     ("any progress recorded towards the half marathon", "the half marathon")):
        routed = route(q)
        assert (routed.intent, routed.slots.topic) == ("goal", topic), q
    assert route("find the progress report I sent on Friday").intent == "search"


def test_whether_the_user_kept_at_something_they_started_asks_about_a_goal():
    for q, topic in (("did I ever finish the scarf I started knitting for Mum", "the scarf I started knitting for Mum"),
                     ("have I kept up the running routine I began in May", "the running routine I began")):
        routed = route(q)
        assert (routed.intent, routed.slots.topic) == ("goal", topic), q
    # Something done with the thing started is a plain search.
    assert route("did I save the podcast I started listening to").intent == "search"


def test_a_feeling_said_before_a_question_of_its_own_is_no_ask():
    assert route("I was so annoyed with the airline, did they ever refund the bag fee").intent == "search"
    assert route("I've been feeling awful about it, have I paid Lars back for the flights").intent == "search"
    # A question about what was said, or the feeling asked, still is one.
    assert route("I am stressed about the wedding, is that normal").intent == "sentiment"
    assert route("has Lena been upset with me, and did she say why").intent == "sentiment"


def test_explain_says_when_the_classifier_overruled_the_past_value():
    from graph.asking.blend import combine

    q = "the cake my aunt used to bake, is the recipe saved anywhere"
    searched = combine(q, route(q), {"search": 0.9, "historical": 0.1})
    assert searched.intent == "search"
    assert searched.reasons[-1] == ("classifier: search at 0.90 overrules the past value, "
                                    "from the question's embedding and words")
    assert not any("no marker of another intent" in r for r in searched.reasons)
    q = "did I enjoy living by the sea back then"
    felt = combine(q, route(q), {"sentiment": 0.85, "historical": 0.1, "search": 0.05})
    assert felt.intent == "sentiment"
    # Said once, last.
    assert [r for r in felt.reasons if r.startswith("classifier:")] == [felt.reasons[-1]]
    assert felt.reasons[-1].startswith("classifier: sentiment at 0.85 overrules the past value")


def test_the_shipped_classifier_matches_the_service_model_only():
    import numpy as np

    from graph.asking import intents
    from graph.core.vocab import ASK_INTENTS

    model = intents.shipped()
    # every intent but negation: an exclusion is learned as the intent it wraps (the rules find exclusions)
    learned = set(ASK_INTENTS) - {"negation"}
    assert model is not None and set(model.labels) == learned and model.dimensions == 384
    assert intents.for_model(model.name, 384) is model
    assert intents.for_model("another-model", 384) is None and intents.for_model(model.name, 768) is None
    scores = model.scores(np.ones(384) / np.sqrt(384), "what did I decide about Sam")
    assert set(scores) == learned and abs(sum(scores.values()) - 1) < 1e-9
    # it reads the masked question's words beside the embedding: a vocabulary fitted on the tuning lines
    assert model.vocabulary and "decide" in model.vocabulary and model.word_scale == intents.WORD_SCALE


def test_a_fit_is_deterministic_and_separates_what_it_was_shown():
    import numpy as np

    from graph.asking import intents

    rng = np.random.default_rng(7)
    centres = rng.normal(size=(3, 16))
    rows = np.vstack([c + 0.05 * rng.normal(size=(10, 16)) for c in centres])
    labels = [name for name in ("goal", "search", "entity") for _ in range(10)]
    texts = [f"question {n} about Sam" for n in range(30)]
    first, second = intents.fit(rows, labels, "m", texts), intents.fit(rows, labels, "m", texts)
    assert first.to_json() == second.to_json()
    assert [max(s := first.scores(r, t), key=s.get) for r, t in zip(rows, texts, strict=True)] == labels


def test_the_words_beside_the_embedding_decide_where_the_embedding_cannot(tmp_path):
    import numpy as np

    from graph.language import classifier

    # one embedding for every line: only the words tell a decision from a summary
    same = np.ones((8, 4)) / 2
    texts = ["what was the final call on the Sam thing", "did we settle on the final call for Sam",
             "the final call about the move", "what final call did I make on Sam",
             "quick summary of the Sam app", "give me a quick summary of Sam",
             "a quick summary of the Sam project please", "quick summary on Sam"]
    labels = ["decision"] * 4 + ["entity"] * 4
    model = classifier.fit(same, labels, "m", texts=texts, word_scale=0.5)
    assert "final call" in model.vocabulary and "quick summary" in model.vocabulary
    assert "move" not in model.vocabulary  # a word of one line alone is not learned
    assert model.dimensions == 4
    for text, wanted in (("so what final call did we reach on Sam", "decision"),
                         ("can I get a quick summary of Sam", "entity")):
        scores = model.scores(same[0], text)
        assert max(scores, key=scores.get) == wanted
    # no known word: the embedding alone, which cannot tell them apart
    assert abs(model.scores(same[0], "hmm")["decision"] - 0.5) < 0.01
    # the shipped file keeps the vocabulary and its scale
    classifier.save(tmp_path / "c.json", {"h": model})
    loaded = classifier.load(tmp_path / "c.json")["h"]
    assert classifier.same({"h": loaded}, {"h": model}) and loaded.word_scale == 0.5
    assert abs(loaded.scores(same[0], "the final call")["decision"]
               - model.scores(same[0], "the final call")["decision"]) < 1e-5
    # without texts, or with no scale, it reads the embedding alone, as before
    plain = classifier.fit(same + np.eye(8, 4), labels, "m")
    assert plain.vocabulary == () and plain.dimensions == 4


def test_feeling_frames_read_vaders_affect_words():
    assert route("is Ana frustrated with the onboarding").intent == "sentiment"
    assert route("am I getting more anxious about the exam").intent == "sentiment"
    # A word VADER does not score as affect, or a frame that asks something else, is no feeling.
    for question in ("am I allergic to anything", "what am I good at",
                     "I feel like I forgot something, what was on my list",
                     # an ability, not a feeling
                     "am I getting better at chess", "is the user good at public speaking"):
        assert route(question).intent != "sentiment", question


def test_the_classifier_learns_an_exclusion_as_the_intent_it_wraps():
    from graph.asking import intents

    assert [intents.label("negation", ("temporal", "search")), intents.label("goal", ())] == ["temporal", "goal"]

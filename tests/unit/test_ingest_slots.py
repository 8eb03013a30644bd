"""The slot classifier (graph/ingestion/slot_classifier.py) and the claims proposed from it
(graph/ingestion/proposed.py): the classifier names the slot of a stating sentence no rule read a
claim from, the parse gives the value and the subject. The sentences are written here, not taken
from the labelled set."""
from __future__ import annotations

from datetime import UTC, datetime

import anyio
import numpy as np
import pytest

from graph.ingestion import slot_classifier
from graph.ingestion.decide import decide_message
from graph.ingestion.extractor import extract
from graph.ingestion.model import Known, Message
from graph.ingestion.steps import RuleExtractor
from graph.language.classifier import Classifier

AT = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)


def proposals(text: str, label: str | None, circle: set[str] | None = None) -> tuple[set[tuple], list[str]]:
    """The claims `extract` finds when the classifier says `label` of every sentence it is asked
    about, and the sentences it was asked about."""
    asked: list[str] = []

    def slot_of(sentence: str) -> str | None:
        asked.append(sentence)
        return label

    found = extract(Message("user", text, AT), circle=circle or set(), slot_of=slot_of)
    return {(c.claim.subject, c.claim.predicate, c.claim.value) for c in found.candidates if c.claim}, asked


@pytest.mark.parametrize("text, label, claim", [
    ("We've called Glasgow home for a year now.", "lives_in", ("user", "lives_in", "Glasgow")),
    ("been on the payroll at Tesco since May", "works_at", ("user", "works_at", "Tesco")),
    ("I can get by in Italian, more or less.", "speaks", ("user", "speaks", "Italian")),
    ("Shellfish makes me come out in hives.", "allergy", ("user", "allergy", "Shellfish")),
    ("our chimney sweep comes from Sootbusters", "open", ("user", "chimney_sweep", "Sootbusters")),
    ("I keep my recipes in Paprika.", "open", ("user", None, "Paprika")),  # what the verb acts on is no slot
    ("I bank with Chase.", "open", ("user", None, "Chase")),
    # A first word the tagger takes for part of a name is a preposition all the same.
    ("Near Bath, in a village.", "lives_in", ("user", "lives_in", "Bath")),
    ("Outside Leeds these days.", "lives_in", ("user", "lives_in", "Leeds")),
])
def test_the_classifiers_slot_takes_its_value_from_the_parse(text, label, claim):
    found, asked = proposals(text, label)
    assert asked == [text]
    assert claim in found


@pytest.mark.parametrize("text, label", [
    ("I don't bank with Chase.", "open"),  # negated
    ("I'd love to bank with Chase one day.", "open"),  # a wish
    ("Home is where the heart is.", "lives_in"),  # no name to be the value
    ("It was a lovely day.", "age"),  # no number
    ("Hamid is in town next week.", "lives_in"),  # a stranger: nobody's claim
])
def test_no_claim_without_a_value_of_its_kind_or_a_person_it_is_said_of(text, label):
    assert proposals(text, label)[0] == set()


@pytest.mark.parametrize("text, label, circle, claim", [
    # The value's own clause says whose it is, not the sentence's main verb.
    ("no, Hana is with Deloitte these days, I checked", "works_at", {"Hana"}, ("Hana", "works_at", "Deloitte")),
    ("I reckon Tom has settled in Leeds for good.", "lives_in", {"Tom"}, ("Tom", "lives_in", "Leeds")),
    # A taste stated of "my favourite X" fills the favourite X's slot.
    ("Ramen is easily my favourite meal.", "likes", None, ("user", "favorite_meal", "Ramen")),
    ("radiohead remain my fave band", "likes", None, ("user", "favorite_band", "radiohead")),
])
def test_the_value_takes_its_clauses_subject_and_a_favourite_its_slot(text, label, circle, claim):
    found, _ = proposals(text, label, circle)
    assert claim in found, found


@pytest.mark.parametrize("text, label, circle, not_value", [
    ("Forget what I said about Omar's new flat.", "lives_in", {"Omar"}, "Omar"),  # a possessor owns, is no value
    ("Don't store Priya's employer anywhere, please.", "works_at", {"Priya"}, "Priya"),
    ("The gate code is [REDACTED:password] for the courier.", "open", None, "REDACTED"),  # a placeholder
    ("no, she's with Deloitte these days, I checked", "works_at", None, "Deloitte"),  # "she": nobody named
])
def test_no_value_from_a_possessor_or_a_redaction(text, label, circle, not_value):
    found, _ = proposals(text, label, circle)
    assert not any(not_value.lower() in (c[2] or "").lower() for c in found), found


@pytest.mark.parametrize("text, label, circle, claim", [
    # A value with a shape of its own is read from the text: a day of the year, an address, a number.
    ("My sister's birthday falls on 2 May, remind me.", "birthday", None, ("user's sister", "birthday", "2 May")),
    ("oh I got it wrong, it's October 7 for my birthday", "birthday", None, ("user", "birthday", "October 7")),
    ("best to ring me on 020 7946 0958 evenings", "phone_number", None, ("user", "phone_number", "020 7946 0958")),
    ("Send the invoice to me at kit.m@example.net please", "email", None, ("user", "email", "kit.m@example.net")),
    # The thing said of is its possessor's when the possessor is someone the user knows.
    ("Pickle's groomer is Fur Fun in Leith.", "open", {"Pickle"}, ("Pickle", "groomer", "Fur Fun")),
])
def test_a_shaped_value_and_a_possessors_thing(text, label, circle, claim):
    found, _ = proposals(text, label, circle)
    assert claim in found, found


@pytest.mark.parametrize("text, label, circle", [
    ("Birthday plans next week, no idea what to do.", "birthday", None),  # no day of the year
    ("Flat 12, second floor.", "phone_number", None),  # too few digits for a phone number
    ("My friend's cousin works at SpaceX.", "works_at", None),  # the cousin is nobody the user knows
    ("Jo's dentist is Dr Patel.", "open", None),  # a stranger's dentist
])
def test_no_shaped_value_or_possessor_where_none_fits(text, label, circle):
    assert proposals(text, label, circle)[0] == set()


@pytest.mark.parametrize("text, label, claim", [
    # A clause of its own beside a negated main verb still states its value.
    ("Dmitri is still my tutor, wouldn't learn from anyone else.", "open", ("user", "tutor", "Dmitri")),
    ("Sophie's still my tutor, I wouldn't learn from anyone else.", "open", ("user", "tutor", "Sophie")),
    # "the X is called Y" keys the slot by X, as "the X is Y" does.
    ("the new plumber is called Mr. Ferris", "open", ("user", "plumber", "Mr. Ferris")),
])
def test_a_clause_beside_a_negated_one_and_a_thing_called_by_name(text, label, claim):
    found, _ = proposals(text, label)
    assert claim in found, found


@pytest.mark.parametrize("text, label", [
    ("I don't think Leeds suits us anymore, honestly.", "lives_in"),  # the value's clause under a negation
    ("We'd move to Bristol if the job at Arup comes through.", "works_at"),  # a condition
])
def test_no_claim_from_a_clause_a_negation_or_condition_governs(text, label):
    assert proposals(text, label)[0] == set()



@pytest.mark.parametrize("text, claim", [
    # A place the sentence is in ("in Munich") is no employer beside one named ("at Siemens").
    ("In Munich these days, on the payroll at Siemens.", ("user", "works_at", "Siemens")),
    ("In Glasgow this year, on the payroll at Skyscanner.", ("user", "works_at", "Skyscanner")),
    # With only a place named, no employer.
    ("been on the payroll in Leeds since May", None),
])
def test_an_employer_is_no_place_the_sentence_is_in(text, claim):
    found, _ = proposals(text, "works_at")
    assert {c for c in found if c[1] == "works_at"} == ({claim} if claim else set()), found

def test_the_classifier_is_asked_only_where_no_rule_read_a_claim():
    # A claim the rules read, a question, an ending: not asked.
    assert proposals("I live in Berlin.", "works_at") == ({("user", "lives_in", "Berlin")}, [])
    assert proposals("Do you know where I bank?", "open")[1] == []
    assert proposals("I've closed my Barclays account.", "open")[1] == []
    # `none` or below the floor: the rules alone.
    assert proposals("We've called Glasgow home for a year now.", None)[0] == set()


def test_a_value_only_proposal_takes_the_slot_of_the_known_memory_it_names():
    found = extract(Message("user", "I bank with Chase these days.", AT), slot_of=lambda s: "open")
    known = [Known("k1", "My bank is Barclays.", "entity", "user", "bank", "Barclays")]
    decisions = decide_message(found.candidates, lambda c: known, lambda p: False)
    assert [(d.op, d.mode, d.target.id if d.target else None, d.claim.predicate if d.claim else None)
            for d in decisions] == [("UPDATE", "supersede", "k1", "bank")]
    # With nothing known of the slot, a value alone is nothing.
    assert decide_message(found.candidates, lambda c: [], lambda p: False) == []


def _always(label: str, p: float) -> Classifier:
    """A two-label head that gives `label` probability `p` whatever the embedding."""
    logit = float(np.log(p / (1 - p)))
    other = "lives_in" if label == slot_classifier.NONE else slot_classifier.NONE
    return Classifier("m", (label, other), np.zeros((2, 4)), np.array([logit, 0.0]))


def _extract(text: str, slots: Classifier | None) -> tuple[set[tuple], list[str]]:
    asked: list[str] = []

    async def embed(sentence: str) -> list[float]:
        asked.append(sentence)
        return [0.5, 0.5, 0.5, 0.5]

    async def run() -> set[tuple]:
        extractor = RuleExtractor(None, embed, slots)
        prepared = await extractor.prepare([Message("user", text, AT)])
        found = await extractor.extract(Message("user", text, AT), [], set(), {}, prepared)
        return {(c.claim.subject, c.claim.predicate, c.claim.value) for c in found.candidates if c.claim}

    return anyio.run(run), asked


def test_the_service_extractor_embeds_only_the_sentences_no_rule_read():
    unsure = "We've called Glasgow home for a year now."
    assert _extract(unsure, None) == (set(), [])
    assert _extract(unsure, _always("lives_in", 0.9)) == ({("user", "lives_in", "Glasgow")}, [unsure])
    assert _extract(unsure, _always("lives_in", slot_classifier.FLOOR - 0.1)) == (set(), [unsure])
    assert _extract(unsure, _always(slot_classifier.NONE, 0.9)) == (set(), [unsure])
    assert _extract("I live in Berlin.", _always("works_at", 0.9)) == ({("user", "lives_in", "Berlin")}, [])


def test_the_shipped_classifier_matches_the_service_model_only():
    model = slot_classifier.shipped()
    assert model is not None and model.dimensions == 384
    assert {slot_classifier.NONE, "open", "lives_in", "works_at"} <= set(model.labels)
    assert slot_classifier.for_model(model.name, 384) is model
    assert slot_classifier.for_model("another-model", 384) is None

"""Claims from a sentence's dependency parse (graph/language/parser.py): verb and copula frames. Pure:
it reads a parsed sentence and returns claims; it loads nothing.

Where the word patterns of claims.py need one pattern per phrasing, a frame names a lemma and the
grammatical slot its value fills, whatever the tense, the adverbs between, or the word order:
"I live in X", "we've been living in X for years", "I currently reside in X", "we relocated to X" are
one frame each of `live`/`reside`/`relocate` with a value under `in`/`to`. The subject is the verb's
own (`nsubj`, or the subject of the verb it is conjoined with), resolved to a person: I/we are the
user, a name is someone in the user's life or nobody (a stranger yields nothing), he/she the last
person named, "my sister" the user's sister or her name. A verb with no subject ("moved to Lisbon
last week") takes the subject the caller's clause reading gives that position.

Copula frames read "X is Y": a job title (the attribute's head is a job noun), an age (a number), a
diet or nationality (lexicon adjectives), "allergic to", "a fan of", "at ORG", "from PLACE", "in
PLACE now"."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from graph.ingestion.claims import Found, thing_predicate
from graph.ingestion.model import Draft
from graph.ingestion.people import People, Person, is_name
from graph.ingestion.text import clean_value, without_s
from graph.ingestion.vocabulary import (
    ANIMALS,
    DEVICE_WORDS,
    DIETS,
    INSTITUTIONS,
    JOB_HEADS,
    LANGUAGES,
    NATIONALITIES,
    NOT_VALUES,
    PHONE_BRANDS,
    ROLES,
    SCHOOLS,
    VEHICLE_MAKES,
)

VALUE_ONLY = "value only"
# lemma -> {the value's slot: a preposition, or "dobj" for the direct object -> predicate}
VERBS: dict[str, dict[str, str]] = {
    "live": {"in": "lives_in", "at": "lives_in"}, "reside": {"in": "lives_in"}, "base": {"in": "lives_in"},
    "settle": {"in": "lives_in"}, "stay": {"in": "lives_in"}, "move": {"to": "lives_in"},
    "relocate": {"to": "lives_in"},
    "work": {"at": "works_at", "for": "works_at", "as": "job_title"}, "join": {"dobj": "works_at"},
    "start": {"at": "works_at"}, "hire": {"by": "works_at", "at": "works_at"},
    "employ": {"by": "works_at", "at": "works_at"}, "teach": {"at": "works_at"},
    "grow": {"in": "hometown"}, "raise": {"in": "hometown"}, "bear": {"in": "hometown", "on": "birthday"},
    "promote": {"to": "job_title"}, "retrain": {"as": "job_title"}, "requalify": {"as": "job_title"},
    "qualify": {"as": "job_title"},
    "go": {"to": "works_at"},  # a child's only, so their school (extractor._claims); a grown-up's is no claim
    "quit": {"dobj": "works_at", "at": "works_at"}, "resign": {"from": "works_at", "at": "works_at"},
    "speak": {"dobj": "speaks"},
    "love": {"dobj": "likes"}, "like": {"dobj": "likes"}, "enjoy": {"dobj": "likes"}, "adore": {"dobj": "likes"},
    "hate": {"dobj": "dislikes"}, "dislike": {"dobj": "dislikes"}, "detest": {"dobj": "dislikes"},
    "loathe": {"dobj": "dislikes"},
    "drive": {"dobj": "car"},
    "study": {"at": "studies_at"}, "attend": {"dobj": "studies_at"},
    "turn": {"dobj": "age"},
    "obsess": {"with": "likes"},
    "stand": {"dobj": "likes"},  # "can't stand X" (negated only)
    # A value whose thing the message does not name: the decision finds the slot it changes.
    "switch": {"to": VALUE_ONLY}, "change": {"to": VALUE_ONLY}, "swap": {"to": VALUE_ONLY},
}
# Their values name a place or an organisation: a proper noun, never "a new team" or "the gym".
PROPER = frozenset({"lives_in", "works_at", "hometown", "studies_at", VALUE_ONLY})
NEGATED_TO = {"likes": "dislikes"}  # "don't like X" says a dislike
_ENDING = frozenset({"quit", "resign"})  # verbs whose value ends ("I quit my job at Acme")
# Said of a thing only negated ("can't stand olives"): a dislike; said plainly ("I stand by it") no taste.
_NEGATED_ONLY = frozenset({"stand"})
# Verbs that link a subject to what it becomes, read as "X is Y" ("I've gone vegan", "she became a nurse").
_LINKING = frozenset({"become", "go", "turn", "stay", "remain", "get"})
# Verbs of a change whose new value may name no thing ("traded the Golf in", "moved my accounts over").
_CHANGE = frozenset({"switch", "change", "swap", "upgrade", "trade", "replace", "move"})
_EXPLETIVE = frozenset({"it", "that", "this"})
# Verbs that put what they govern in a wish or a plan, not a fact: "I want to move to Lisbon", "hoping
# to work at Google", "thinking of getting a dog".
_WISH = frozenset({"want", "hope", "plan", "aim", "wish", "intend", "dream", "consider", "think", "try", "need",
                   "wonder", "debate", "imagine", "mean", "apply", "talk",
                   "hop"})  # the small model's lemma of "hoping"
_CONDITION = frozenset({"before", "until", "till", "once", "if", "unless", "after", "when", "whenever"})
_PAST_OWNED = frozenset({"old", "former", "late", "previous", "ex"})
_HEDGES = frozenset({"maybe", "perhaps", "possibly", "probably", "almost", "nearly", "hopefully"})
# What someone trains or studies to be, they are not yet ("training to be a vet").
_BECOMING = frozenset({"train", "retrain", "study", "learn", "qualify", "prepare", "work"})
_WISH_IF_UNREAL = frozenset({"love", "like", "prefer"})  # "I'd love to live in Japan", not "I love living here"
# A date is never a place or an employer ("from Monday I'm on nights").
TIME_WORDS = frozenset("""monday tuesday wednesday thursday friday saturday sunday january february march april may
june july august september october november december today tomorrow tonight weekend""".split())
# Prepositions that put the sentence somewhere: their object is a place ("in Munich"), no employer.
WHERE = frozenset({"in", "near", "outside", "around", "across", "within", "up", "down", "over"})
# Said negated, these end a known value ("not allergic to penicillin after all", "not vegan anymore").
_RETRACTABLE = frozenset({"allergy", "diet"})
UNREAL = frozenset({"would", "'d", "could", "might", "should", "may"})
_QUANTITY = frozenset({"bit", "lot", "little", "touch", "smattering"})
_ENDED = frozenset({"anymore", "longer"})  # "not ... anymore", "no longer"
_NOW = frozenset({"now", "currently", "still", "nowadays"})
_MODIFIERS = frozenset({"compound", "amod", "nummod", "nmod", "quantmod", "flat"})
_FIRST = frozenset({"i", "we", "me", "us"})
_NOT_PART = frozenset({"only", "new", "current", "former", "old", "first", "main", "other"})  # of no value
_THIRD = frozenset({"he", "she", "they", "him", "her", "them"})

Anchor = Callable[[int], str | None]  # the subject the clause reading gives a character offset


def frame_claims(doc: Any, offset: int, people: People, anchor: Anchor) -> Iterator[Found]:
    """Claims in one parsed sentence; `offset` is the sentence's start in the message (people's
    spans are message offsets); `anchor` answers the subject for a verb that has none."""
    found: list[Found] = list(_named_owned(doc, offset, people))
    found += _frames(doc, offset, people, anchor)
    if not any(f.draft.predicate is not None and f.draft.predicate != VALUE_ONLY for f in found):
        # A value given for another ("switched from EE to Vodafone") carries the one it succeeds.
        for claim in _succession(doc, offset, people, anchor):
            found = [f for f in found if f.draft.predicate is not None or f.draft.value != claim.draft.value]
            found.append(claim)
        said = {f.draft.value.lower() for f in found} | {f.succeeds.lower() for f in found if f.succeeds}
        found += _changed_value(doc, offset, people, anchor, said)
    yield from found


def is_child(subject: str, people: People) -> bool:
    """Whether the claim's subject is a child of the user's ("user's child", or a child named)."""
    return subject.endswith("'s child") or _role(subject, people) == "child"


def _frames(doc: Any, offset: int, people: People, anchor: Anchor) -> Iterator[Found]:
    yield from _as_my(doc, offset, people, anchor)
    yield from _owned_pet(doc, offset, people, anchor)
    yield from _job_at(doc, offset, people, anchor)
    yield from _is_home(doc)
    yield from _owned_product(doc, offset, people, anchor)
    yield from _owned_is_named(doc)
    for tok in doc:
        if tok.pos_ in ("VERB", "AUX") and tok.lemma_.lower() in VERBS:
            yield from _verb(tok, offset, people, anchor)
        if tok.lemma_ == "be" and tok.dep_ not in ("aux", "auxpass"):
            yield from _copula(tok, list(tok.children), subject_of(tok, offset, people, anchor))
        elif tok.pos_ in ("VERB", "AUX") and tok.lemma_.lower() in _LINKING:
            parts = [c for c in tok.children if c.dep_ in ("acomp", "attr", "oprd")
                     or (c.dep_ == "dobj" and c.lower_ in DIETS)]  # "gone vegan": parsed as an object
            if parts:
                yield from _copula(tok, parts, subject_of(tok, offset, people, anchor))
        elif _opener(tok) and not any(t.pos_ in ("VERB", "AUX") for t in doc):
            # "Yep, still in Lisbon": the parser made the opening word the root; what hangs on it
            # after the comma is the fragment.
            for part in (c for c in tok.children if c.dep_ == "prep" and c.i > tok.i + 1):
                yield from _copula(part, [part], anchor(part.idx - doc[0].idx), implicit=True)
        elif tok.dep_ == "ROOT" and tok.pos_ in ("NOUN", "PROPN", "ADJ") and not any(
                t.pos_ in ("VERB", "AUX") for t in doc) and not _labels(tok):
            # A verbless fragment is said of the clause's subject ("not a fan of horror movies tbh"),
            # or of a name whose "'s" the parser read as a possessive ("Lena's vegan now").
            owner = next((c for c in tok.children if c.dep_ == "poss" and c.pos_ == "PROPN" and any(
                k.dep_ == "case" for k in c.children)), None)
            subject = _person(owner, offset, people) if owner is not None else anchor(tok.idx - doc[0].idx)
            yield from _copula(tok, [tok], subject, implicit=True)
        elif tok.dep_ == "ROOT" and tok.pos_ == "ADP":
            # "Still in Berlin, yeah", "now at Wise", "Originally from Galway, now living in Dublin": a
            # verbless place or employer of the clause's subject (a verb under it has its own frame).
            yield from _copula(tok, [tok], anchor(tok.idx - doc[0].idx), implicit=True)
        elif tok.pos_ in ("PROPN", "NOUN") and any(c.dep_ == "case" and c.lower_ in ("'s", "’s") and
                                                   c.i + 1 < len(doc) and doc[c.i + 1].pos_ in ("ADV", "ADP")
                                                   for c in tok.children):
            # "Karolina's still at Wrocław Zoo": the parser read the contracted "is" as a possessive.
            rest = [c for c in tok.rights if c.dep_ in ("prep", "advmod", "neg", "attr", "acomp")]
            yield from _copula(tok, rest, _person(tok, offset, people, contracted=True))


def _opener(tok: Any) -> bool:
    """A one-word opener the parser made the root of a verbless sentence ("Yep, ...", "Honestly, ...",
    "Update: ..." is a label, not this): the first word, a comma after it, nothing before."""
    doc = tok.doc
    return tok.dep_ == "ROOT" and tok.i == 0 and len(doc) > 2 and doc[1].text == "," and tok.pos_ in (
        "INTJ", "PROPN", "NOUN", "ADV", "ADJ")


def wished(tok: Any) -> bool:
    """Whether `tok` stands in a clause a wish or plan governs ("want to live in X", "thinking of
    moving to X"), up through open complements and the prepositions that carry them."""
    for _ in range(6):
        if tok.dep_ not in ("xcomp", "ccomp", "pcomp", "pobj", "prep", "conj") or tok.head is tok:
            return False
        tok = tok.head
        lemma = tok.lemma_.lower()
        if tok.pos_ not in ("VERB", "AUX") and tok.lower_.endswith("ing"):  # "thinking of ...", parsed a noun
            lemma = tok.lower_[:-3].rstrip("n") if tok.lower_.endswith("nning") else tok.lower_[:-3]
        elif tok.pos_ not in ("VERB", "AUX"):
            continue
        if lemma in _WISH or (lemma in _WISH_IF_UNREAL and any(
                c.dep_ == "aux" and c.lower_ in UNREAL for c in tok.children)):
            return True
    return False


def conditional(tok: Any) -> bool:
    """A present-tense clause that only sets a time or a condition ("before I turn 40", "once we move
    to Leeds", "if I get the job at Globex"), or a hedged one ("maybe we'll move to Spain", "I almost
    moved to Berlin"): it says what is not so, or not yet."""
    kids = list(tok.children)
    if any(c.dep_ == "advmod" and c.lower_ in _HEDGES for c in kids):
        return True
    return tok.tag_ in ("VB", "VBP", "VBZ") and any(c.dep_ == "mark" and c.lower_ in _CONDITION for c in kids)


def negated_spans(doc: Any) -> list[tuple[int, int]]:
    """The character spans (in the sentence) of negated clauses ("I didn't get the job at Google")."""
    base = doc[0].idx if len(doc) else 0
    return [(t.left_edge.idx - base, t.right_edge.idx + len(t.right_edge.text) - base)
            for t in doc if t.pos_ in ("VERB", "AUX") and any(c.dep_ == "neg" for c in t.children)]


# Verbs of knowing and deciding: negated with the user as subject, the sentence says what is not
# known yet ("I don't really know what my plans are", "we still haven't decided where to live").
_UNSURE = frozenset({"know", "decide", "remember", "figure", "sure"})


def unsure(doc: Any) -> bool:
    """Whether the sentence's main verb is a negated verb of knowing or deciding said by the user (or
    "not sure"): it states nothing, whatever its object names."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None:
        return False
    kids = list(root.children)
    if any(c.dep_ in ("conj", "parataxis") and c.pos_ in ("VERB", "AUX") for c in kids):
        return False  # "I don't know anyone here, we moved to Leeds": the other clause states
    word = next((c for c in kids if c.dep_ == "acomp"), root) if root.lemma_ == "be" else root
    return word.lemma_.lower() in _UNSURE and any(c.dep_ == "neg" for c in [*kids, *word.children]) and any(
        c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in kids)


def wished_spans(doc: Any) -> list[tuple[int, int]]:
    """The character spans (in the sentence) of the clauses a wish, a plan or a condition governs."""
    base = doc[0].idx if len(doc) else 0
    return [(t.left_edge.idx - base, t.right_edge.idx + len(t.right_edge.text) - base)
            for t in doc if t.pos_ in ("VERB", "AUX") and (wished(t) or conditional(t))]


def _labels(tok: Any) -> bool:
    """A noun that labels what follows ("New dentist: Dr. Okafor"): no statement about its subject."""
    doc = tok.doc
    return tok.i + 1 < len(doc) and doc[tok.i + 1].text in (":", "=", "-", "–", "—")


# When someone works, said as the verb's object: "I work nights at ...".
_WORK_TIMES = frozenset("nights days weekends evenings mornings shifts lates earlies overtime".split())


def _verb(verb: Any, offset: int, people: People, anchor: Anchor) -> Iterator[Found]:
    if any(c.dep_ == "aux" and c.lower_ in UNREAL for c in verb.children) or wished(verb) or conditional(verb):
        return
    frames = VERBS[verb.lemma_.lower()]
    if verb.lemma_.lower() == "grow" and not any(c.dep_ == "prt" and c.lower_ == "up" for c in verb.children):
        return
    subject = subject_of(verb, offset, people, anchor)
    if subject is None or (verb.lemma_.lower() == "go" and not is_child(subject, people)):
        return
    negated = is_negated(verb) or verb.lemma_.lower() in _ENDING
    if verb.lemma_.lower() in _NEGATED_ONLY and not negated:
        return
    if verb.lemma_.lower() in ("move", "relocate") and any(
            c.dep_ == "dobj" and c.pos_ == "NOUN" for c in verb.children):
        return  # "moved my accounts over to Revolut": a thing moved, not where the subject lives
    # Nouns the parse may hang the value's preposition on: when someone works ("works nights at
    # Amazon"), whom someone moved in with ("moved in with my girlfriend in Hackney").
    hosts = [c for c in verb.children if c.dep_ in ("dobj", "npadvmod") and c.lower_ in _WORK_TIMES]
    if verb.lemma_.lower() == "move" and any(c.dep_ in ("prt", "advmod") and c.lower_ == "in" for c in verb.children):
        frames = frames | {"in": "lives_in"}  # "we moved in together in Hackney"
        hosts += [o for c in verb.children if c.dep_ == "prep" and c.lower_ == "with" and (o := _object(c)) is not None]
    for child in [*verb.children, *(p for c in hosts for p in c.children if p.dep_ == "prep")]:
        if child in hosts:
            continue
        if frames.get("to") == "job_title" and (title := _title_read_as_verb(child)) is not None:
            yield Found(Draft(subject, "job_title", title[0]), title[1], title[2], "frame " + verb.lemma_.lower())
            continue
        slot = "dobj" if child.dep_ in ("dobj", "xcomp") else child.lower_ if child.dep_ in ("prep", "dative") else None
        if child.dep_ == "advmod" and child.lower_ == "back":  # "moved back to London"
            preps = [c for c in child.children if c.dep_ == "prep"]
            if preps:
                child, slot = preps[0], preps[0].lower_
        predicate = frames.get(slot or "")
        if predicate == "lives_in" and verb.lemma_.lower() == "move" and any(
                c.dep_ in ("prt", "advmod") and c.lower_ == "over" for c in verb.children):
            predicate = VALUE_ONLY  # "moved over to Wise": a switch, whose slot the decision finds
        if predicate is None and slot == "as" and verb.lemma_.lower() in ("join", "start", "work"):
            predicate = "job_title"  # "joining Stripe as a solutions architect"
        if predicate is None:
            continue
        head = child if slot == "dobj" else _object(child)
        if head is None:
            continue
        if predicate == "works_at" and verb.lemma_.lower() not in ("teach", "work", "employ", "hire") and (
                head.lemma_.lower() in SCHOOLS):
            predicate = "studies_at"  # "I started at Oxford Brookes"; who works at a university works
        if predicate == VALUE_ONLY:
            predicate = _owned_slot(verb) or predicate
        yield from _values(subject, predicate, head, negated, verb, "frame " + verb.lemma_.lower())


def _title_read_as_verb(child: Any) -> tuple[str, int, int] | None:
    """ "promoted to team lead", "to head of design": the tagger reads "to lead", "to head" as an
    infinitive; a job word so read, with its "to", is the title, from the word after "to" to its end.
    (title, start, end) in the sentence, or None."""
    to = next((c for c in child.children if c.dep_ == "aux" and c.lower_ == "to"), None)
    if child.dep_ not in ("xcomp", "advcl") or child.lower_ not in JOB_HEADS or to is None:
        return None
    doc, base = child.doc, child.doc[0].idx
    span = doc[to.i + 1:child.right_edge.i + 1]
    return span.text, span.start_char - base, span.end_char - base


def _copula(be: Any, parts: list[Any], subject: str | None, implicit: bool = False) -> Iterator[Found]:
    """"X is Y" frames over the copula's `parts`; `implicit`: a verbless fragment, the part itself."""
    if subject is None or any(c.dep_ == "aux" and c.lower_ in UNREAL for c in be.children) or wished(be) \
            or conditional(be) or (be.dep_ == "xcomp" and be.head.lemma_.lower() in _BECOMING):
        return
    negated = is_negated(be) or any(c.dep_ in ("neg", "advmod") and c.lower_ in _ENDED | {"not"} for c in parts)
    now = any(c.lower_ in _NOW for c in [*be.children, *parts]) or "these days" in be.doc.text.lower()
    said_negated = negated
    for child in parts:
        low = child.lower_
        # "I'm no longer vegetarian": the negation may hang off the complement, not the verb.
        negated = (said_negated and not _said_instead(child, parts)) or any(
            g.dep_ in ("neg", "advmod") and g.lower_ in _ENDED | {"not"} for g in child.children)
        if (child.dep_ in ("attr", "acomp", "oprd") or implicit) and child.pos_ != "ADP":
            if any(c.dep_ == "poss" and c.pos_ == "PRON" for c in child.children):
                continue  # "Y is my X": an owned thing (claims.py)
            lemma = child.lemma_.lower()
            if lemma in JOB_HEADS and child.pos_ == "NOUN" and not negated and not any(
                    c.dep_ == "acl" and c.lemma_ in ("call", "name") for c in child.children):  # "a student
                # called Noor" says who someone is, not the subject's job
                yield Found(Draft(subject, "job_title", title_of(child)), child.idx - be.doc[0].idx,
                            child.idx + len(child.text) - be.doc[0].idx, "frame be job")
                for prep in child.children:  # "the only dev at Pebble Coffee"
                    if prep.dep_ == "prep" and prep.lower_ in ("at", "for") and (obj := _object(prep)) is not None:
                        yield from _values(subject, "works_at", obj, False, be, "frame job at")
            elif child.pos_ == "NUM" and child.text.isdigit() and 0 < int(child.text) < 120 and not negated:
                yield _found(subject, "age", child.text, child, "frame be age")
            elif low in DIETS:  # negated: the diet ended ("not vegan anymore")
                yield _found(subject, "diet", low, child, "frame be diet", negated=negated)
            elif low in NATIONALITIES and not negated and child.dep_ == "acomp":
                yield _found(subject, "nationality", child.text.capitalize(), child, "frame be nationality")
            elif lemma == "fan":
                for prep in child.children:
                    if prep.dep_ == "prep" and prep.lower_ == "of" and (obj := _object(prep)) is not None:
                        yield from _values(subject, "dislikes" if negated else "likes", obj, False, be, "frame fan of")
            elif lemma == "allergic":
                for prep in child.children:
                    if prep.dep_ == "prep" and prep.lower_ == "to" and (obj := _object(prep)) is not None:
                        yield from _values(subject, "allergy", obj, negated, be, "frame allergic to")
            elif lemma == "fluent":  # "I'm fluent in Spanish"
                for prep in child.children:
                    if prep.dep_ == "prep" and prep.lower_ == "in" and (obj := _object(prep)) is not None:
                        yield from _values(subject, "speaks", obj, negated, be, "frame fluent in")
        elif (child.dep_ == "prep" or (implicit and child.pos_ == "ADP")) and (obj := _object(child)) is not None:
            predicate = {"at": "works_at", "from": "hometown", "into": "likes"}.get(low)
            if low == "in" and (now or negated):
                predicate = "lives_in"
            if low == "on" and (product := _product(obj)) is not None:
                # "on an iPhone 15 now"; "not on an iPhone anymore" ends it
                yield _found(subject, product[0], product[1], obj, "frame be on " + product[0], negated=negated)
                continue
            if low == "on" and now:
                predicate = VALUE_ONLY  # "I'm on Hoka Cliftons now"
            if predicate is not None:
                yield from _values(subject, predicate, obj, negated, be, f"frame be {low}")


def _said_instead(child: Any, parts: list[Any]) -> bool:
    """Whether the complement `child` follows another after a comma ("not vegan, just vegetarian"):
    what is so instead of the negated one, which the verb's "not" does not reach."""
    doc = child.doc
    return any(p.i < child.i and p.dep_ in ("attr", "acomp") and any(t.text == "," for t in doc[p.i:child.i])
               for p in parts if p is not child)


def _owned_slot(verb: Any) -> str | None:
    """The slot a change verb names by its object: "switched my bank to Monzo" -> bank (an open slot
    or a canonical predicate, as "my X is Y" would key it)."""
    for obj in verb.children:
        if obj.dep_ == "dobj" and obj.pos_ == "NOUN" and any(
                c.dep_ == "poss" and c.lower_ in ("my", "our") for c in obj.children):
            words = [c.text for c in obj.lefts if c.dep_ in ("compound", "amod")] + [obj.text]
            found = thing_predicate(" ".join(words), {})
            return found[0] if found is not None else None
    return None


def _values(subject: str, predicate: str, head: Any, negated: bool, verb: Any, rule: str) -> Iterator[Found]:
    if negated and predicate in NEGATED_TO:
        predicate, negated = NEGATED_TO[predicate], False
    elif negated and predicate not in PROPER | _RETRACTABLE:
        return
    for tok in [head, *head.conjuncts]:
        if tok.lower_ in _QUANTITY:  # "a bit of Mandarin"
            tok = next((_object(p) for p in tok.children if p.dep_ == "prep" and p.lower_ == "of"), None) or tok
        value = _value(tok, predicate)
        if value is None:
            continue
        yield _found(subject, predicate, value, tok, rule, negated=negated)
        if predicate == "works_at" and not negated:
            for title in tok.children:  # "I work at Wise, staff engineer"
                if title.dep_ == "appos" and title.lemma_.lower() in JOB_HEADS:
                    yield _found(subject, "job_title", noun_phrase(title), title, rule + " title")


def _value(tok: Any, predicate: str) -> str | None:
    # A common word that ends a name is the name's ("the Royal Free"); alone it is no value.
    named = tok.pos_ == "PROPN" and any(c.dep_ == "compound" and c.pos_ == "PROPN" for c in tok.children)
    if tok.pos_ in ("PRON", "DET", "ADP", "AUX", "SCONJ", "CCONJ", "PUNCT") or (tok.lower_ in NOT_VALUES and not named):
        return None
    if predicate in PROPER and (tok.lower_ in TIME_WORDS or tok.ent_type_ in ("DATE", "TIME")):
        return None
    if predicate in PROPER and tok.pos_ != "PROPN" and not any(ch.isupper() for ch in tok.text) \
            and tok.lemma_.lower() not in INSTITUTIONS:  # "easyJet", "iZettle": a capital inside names too
        return None
    if predicate in ("likes", "dislikes") and any(c.dep_ == "poss" for c in tok.children):
        return None  # "loving my new job": an owned thing, not a taste
    if predicate == "speaks":
        return tok.text.capitalize() if tok.lower_ in LANGUAGES else None
    if predicate == "age":
        return tok.text if tok.text.isdigit() else None
    if tok.pos_ == "VERB" and tok.dep_ == "xcomp" and not tok.text.endswith("ing"):
        return None  # "love to travel": no thing liked as written
    value = noun_phrase(tok)
    return value if value and len(value.split()) <= 5 else None


def title_of(tok: Any) -> str:
    """A job title with what it heads: "head of product", "director of engineering"."""
    of = next((c for c in tok.rights if c.dep_ == "prep" and c.lower_ == "of" and c.i == tok.i + 1), None)
    obj = _object(of) if of is not None else None
    if obj is None or obj.pos_ not in ("NOUN", "PROPN"):
        return noun_phrase(tok)
    return clean_value(tok.doc[_phrase_span(tok)[0]:_phrase_span(obj)[1]].text)


def noun_phrase(tok: Any) -> str:
    """The noun phrase `tok` heads, minimal: its compounds and modifiers (a name's possessive too:
    "st thomas' hospital"), and "of NAME" after a name ("University of Porto"); no article, no clause."""
    start, end = _phrase_span(tok)
    return clean_value(tok.doc[start:end].text)


def _phrase_span(tok: Any) -> tuple[int, int]:
    """The token span of `noun_phrase`."""
    left = tok
    for c in reversed(list(tok.lefts)):
        if c.tag_ == "HYPH" and c.i + 1 == left.i:  # "Rolls-Royce": the parse hangs the hyphen on the last part
            left = c
            continue
        named = c.pos_ == "PROPN" and c.text[:1].isupper() and c.dep_ == "compound"  # "New York", "Old Street"
        if c.i == 0 and c.lower_ in WHERE:
            break  # "Near Bath, in a village": capitalised first, the tagger takes the preposition for a name
        if (c.lower_ in _NOT_PART and not named) or not (
                c.dep_ in _MODIFIERS or (c.dep_ == "poss" and c.pos_ != "PRON")):
            break
        left = c.left_edge if c.left_edge.dep_ in (*_MODIFIERS, "poss") or c.dep_ == "poss" else c
    right = tok
    for c in tok.rights:
        joined = c.dep_ in ("compound", "flat", "nummod") or (c.dep_ == "cc" and c.text == "&") \
            or (c.dep_ == "conj" and right.text == "&")  # "Moore & Partners"
        if c.i == right.i + 1 and joined:
            right = c
        elif c.i == right.i + 1 and c.dep_ == "case" and tok.pos_ == "PROPN" and tok.dep_ != "poss" and (
                c.i + 1 == len(tok.doc) or tok.doc[c.i + 1].pos_ not in ("NOUN", "PROPN", "ADJ", "NUM")) \
                and not _has(c):
            right = c  # "St. Mary's": the name's own ending, no owner of anything after it
        elif c.dep_ == "prep" and c.lower_ == "of" and tok.pos_ == "PROPN" and c.i == right.i + 1 and \
                (obj := _object(c)) is not None and obj.pos_ == "PROPN":
            right = obj.right_edge
    return left.i, right.i + 1


def _role(subject: str, people: People) -> str | None:
    return next((p.role for p in people.persons if p.name == subject), None)


def _object(prep: Any) -> Any:
    return next((c for c in prep.children if c.dep_ in ("pobj", "pcomp")), None)


def _found(subject: str, predicate: str, value: str, tok: Any, rule: str, negated: bool = False) -> Found:
    start = tok.idx - tok.doc[0].idx
    return Found(Draft(subject, None if predicate == VALUE_ONLY else predicate, value), start, start + len(tok.text),
                 rule, negated=negated)


def is_negated(verb: Any) -> bool:
    # "No longer with HSBC, switched to Starling": a "no longer" with a phrase of its own is a clause
    # of its own, which ends that phrase's value, not the verb's.
    kids = [c for c in verb.children if not any(g.dep_ == "prep" for g in c.children) or c.dep_ == "neg"]
    return any(c.dep_ == "neg" for c in kids) or any(c.lower_ in _ENDED for c in kids) \
        or any(t.lower_ in _ENDED for c in kids if c.dep_ == "advmod" for t in c.subtree)


def subject_of(verb: Any, offset: int, people: People, anchor: Anchor) -> str | None:
    """The person the verb is said of, or None (a stranger, or nobody the message names)."""
    tok = verb
    for _ in range(4):
        found = next((c for c in tok.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if found is not None:
            return _person(found, offset, people)
        if tok.dep_ in ("conj", "xcomp") and tok.head is not tok:
            tok = tok.head
            continue
        break
    found_at = anchor(verb.idx - verb.doc[0].idx)
    if found_at is None and _opens_without_subject(tok):
        return "user"
    return found_at


def _opens_without_subject(verb: Any) -> bool:
    """A sentence that opens with its main verb, past or -ing, and names no subject ("Just accepted
    an offer at Canva", "Left Monzo for Starling"): chat drops the "I"."""
    if verb.dep_ != "ROOT" or verb.tag_ not in ("VBD", "VBN", "VBG"):
        return False
    return all(t.pos_ in ("ADV", "PUNCT", "INTJ") for t in verb.doc[:verb.i])


def _person(tok: Any, offset: int, people: People, contracted: bool = False) -> str | None:
    low = tok.lower_
    if low in _FIRST or low == "user":  # "the user lives in Lisbon": an agent's note of what the user said
        return "user"
    at = offset + tok.idx - tok.doc[0].idx
    if low in _THIRD:
        return people.pronoun(at, low)
    if low in ("who", "that") and tok.head.dep_ == "relcl":
        return _person(tok.head.head, offset, people)
    if tok.tag_ == "NNS" and tok.lemma_.lower() in ROLES:
        low = tok.lemma_.lower()  # "my kids", "our sisters": the role, one claim for them all
    if tok.pos_ == "NOUN" and low in ROLES and any(c.dep_ == "poss" and c.lower_ in ("my", "our")
                                                   for c in tok.children):
        named = next((c for c in tok.children if c.dep_ in ("appos", "compound") and c.text[:1].isupper()), None)
        return noun_phrase(named) if named is not None else f"user's {ROLES[low]}"
    if tok.pos_ == "PROPN" or (contracted and tok.text[:1].isupper()):
        name = noun_phrase(tok)
        if is_name(name) and people.known(name):
            people.mention(name)
            return name
    named = next((c for c in tok.children if c.dep_ == "appos" and c.pos_ == "PROPN"), None)
    if named is not None and any(c.dep_ == "poss" for c in tok.children):
        return _person(named, offset, people)  # "my stepdad Colin works at Tesco": Colin
    return None


# Verbs that give up one thing for another: "left Monzo for Starling", "swapped the Golf for a Tesla",
# "switched from EE to Vodafone", "replaced LastPass with Bitwarden".
_SUCCEED = frozenset({"leave", "swap", "trade", "ditch", "dump", "drop", "exchange", "switch", "change", "replace",
                      "quit", "give"})
_FOR_NEW = {"replace": "with"}  # the preposition of the new value when it is not "for"


def _named_value(tok: Any) -> bool:
    """A value that names something: a proper noun, a capitalised word past the sentence's first, or
    one with a digit (the small model tags some brand names as verbs: "dropped Spotify")."""
    return tok is not None and tok.pos_ not in ("PRON", "DET") and (
        tok.pos_ == "PROPN" or (tok.text[:1].isupper() and tok.i > 0) or any(ch.isdigit() for ch in tok.text))


def _succession(doc: Any, offset: int, people: People, anchor: Anchor) -> Iterator[Found]:
    """One named thing given up for another ("left Monzo for Starling", "switched from EE to
    Vodafone"): the new value, with the old one it succeeds; the decision gives it the slot the old
    value fills among the known memories, and supersedes it there."""
    for verb in doc:
        lemma = verb.lemma_.lower()
        if verb.pos_ not in ("VERB", "AUX") or lemma not in _SUCCEED or is_negated(verb) or wished(verb) \
                or conditional(verb) or any(c.dep_ == "aux" and c.lower_ in UNREAL for c in verb.children):
            continue
        preps = {c.lower_: _object(c) for c in verb.children if c.dep_ == "prep"}
        old = next((c for c in verb.children if c.dep_ == "dobj"), None)
        if old is not None:
            preps.update({c.lower_: _object(c) for c in old.children if c.dep_ == "prep" and c.lower_ not in preps})
            new = preps.get(_FOR_NEW.get(lemma, "for"))
        else:
            old, new = preps.get("from"), preps.get("to")
        if not (_named_value(old) and _named_value(new)):
            continue
        subject = subject_of(verb, offset, people, anchor)
        if subject is None:
            continue
        found = _found(subject, VALUE_ONLY, noun_phrase(new), new, "frame succession")
        yield Found(found.draft, found.start, found.end, found.rule, succeeds=noun_phrase(old))


def _changed_value(doc: Any, offset: int, people: People, anchor: Anchor, said: set[str]) -> Iterator[Found]:
    """A new value said with change wording and no thing named ("it's a Tesla Model 3 now", "I'm seeing
    Dr. Nowak now", "moved my accounts over to Revolut"): a value only, of the main clause's subject;
    the decision gives it the slot of the nearest known memory it would change, or drops it."""
    text = doc.text.lower()
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None:
        return
    verbs = [root, *(c for c in root.children if c.dep_ == "conj" and c.pos_ in ("VERB", "AUX"))]
    if root.lemma_.lower() in _END_LEMMAS:  # the clause beside it says what came instead
        verbs += [c for c in root.children if c.dep_ == "ccomp" and c.pos_ in ("VERB", "AUX")]
    # What an ending verb acts on went, never the new value ("I use Proton for email now, dropped Gmail").
    verbs = [v for v in verbs if v.lemma_.lower() not in _END_LEMMAS]
    change = any(v.lemma_.lower() in _CHANGE for v in verbs)
    if not change and not any(t.lower_ in _NOW for t in doc) and "these days" not in text:
        return
    if any(t.dep_ == "aux" and t.lower_ in UNREAL for t in doc):
        return
    for verb in verbs:
        if wished(verb) or conditional(verb):
            continue
        who = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if who is not None and who.lower_ in _EXPLETIVE:
            subject: str | None = "user"  # "it's a Tesla now": said of the user's thing
        else:
            subject = subject_of(verb, offset, people, anchor)
        if subject is None:
            continue
        heads = [c for c in verb.children if c.dep_ in ("dobj", "attr")]
        heads += [_object(c) for c in verb.children if c.dep_ == "prep" and c.lower_ in ("to", "on", "with", "at")]
        heads += [_object(p) for c in verb.children if c.dep_ in ("advmod", "prt")
                  for p in c.children if p.dep_ == "prep" and p.lower_ == "to"]  # "moved ... over to X"
        for head in heads:
            if head is None or not (head.pos_ == "PROPN" or any(ch.isdigit() for ch in head.text)):
                continue
            if head.lower_ in TIME_WORDS or head.ent_type_ in ("DATE", "TIME", "MONEY", "PERCENT", "CARDINAL"):
                continue
            value = noun_phrase(head)
            if value and value.lower() not in said and len(value.split()) <= 5:
                yield _found(subject, VALUE_ONLY, value, head, "frame changed value")


# Verbs that end what their object names, said done: "we sold the flat", "I've cancelled Netflix",
# "ditched the gym", "I closed my Barclays account".
_END_LEMMAS = frozenset({"sell", "cancel", "quit", "stop", "drop", "ditch", "dump", "close", "end", "terminate",
                         "unsubscribe", "scrap", "abandon", "retire", "leave", "lose"})
_GIVE_UP = {"give": ("up", "away"), "get": ("rid",), "shut": ("down",), "move": ("out",)}


def ended(doc: Any) -> bool:
    """Whether the sentence says, in the past or perfect, that its main verb ended something
    ("sold", "have cancelled", "gave up", "got rid of"), not negated, not wished."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None:
        return False
    for verb in [root, *(c for c in root.children if c.dep_ == "conj")]:
        lemma = verb.lemma_.lower()
        kids = list(verb.children)
        if verb.tag_ not in ("VBD", "VBN") or any(c.dep_ == "neg" for c in kids) or any(
                c.dep_ == "aux" and c.lower_ in UNREAL for c in kids):
            continue
        if lemma in _END_LEMMAS or any(c.dep_ in ("prt", "acomp", "dobj", "advmod") and c.lower_ in _GIVE_UP.get(
                lemma, ()) for c in kids):
            return True
    return False


def _owned_noun(tok: Any) -> Any:
    """The noun "my/our X" that `tok`, a name, stands beside ("my niece Ava", "Zoe, my flatmate,"), or None."""
    candidates = [tok.head] if tok.dep_ in ("appos", "compound") or _s_is(tok) else []
    if tok.dep_ in ("nsubj", "nsubjpass") and tok.head.lower_ == "been":  # "Olu's been my barber for years"
        candidates += [c for c in tok.head.children if c.dep_ == "attr"]
    if tok.dep_ == "conj" and tok.head.tag_ == "NNS" and tok.i > 0 and tok.doc[tok.i - 1].text == ",":
        candidates.append(tok.head)  # "three daughters, Ines, Marta and Leonor": the list read as a conjunct
    # "my niece Lena studies ...", parsed as one noun phrase: the noun is a compound under the name.
    candidates += [c for c in tok.children if c.dep_ == "appos" or (c.dep_ == "compound" and c.i < tok.i)]
    for noun in candidates:
        # The small model tags a kin word it does not know as an adjective ("my stepdad Colin").
        if noun.pos_ in ("NOUN", "ADJ") and (any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in noun.children)
                                             or _had_by_user(noun)):
            return noun
    if tok.dep_ == "conj" and tok.head.pos_ == "PROPN" and tok.head.i < tok.i:
        return _owned_noun(tok.head)  # "two kids, Ada and Felix": Felix stands beside the kids too
    return None


def _s_is(tok: Any) -> bool:
    """Whether the "'s" after the name `tok` stands for "is" or "has" ("Nadia's still our cleaner",
    "Tomasz's our new landlord"), which the small model parses as a possessive: the name heads the
    sentence with no verb of its own, "'s" is tagged a verb, or the noun it would possess is "my/our"
    noun already. A brand's or an owner's "'s" ("Sainsbury's is ...", "Nadia's car") is none."""
    after = tok.doc[tok.i + 1] if tok.i + 1 < len(tok.doc) else None
    if after is None or after.lower_.replace("’", "'") != "'s" or after.head.i != tok.i:
        return False
    if tok.dep_ == "ROOT" or (after.tag_ == "VBZ" and tok.dep_ != "nsubj") or _has(after):
        return True
    return tok.dep_ == "poss" and any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in tok.head.children)


def _has(s: Any) -> bool:
    """Whether the "'s" token `s` stands for "has" or "is" before a participle ("Priya's moved to ...",
    "Olu's been my barber"): no name's own ending."""
    doc = s.doc
    return s.lower_.replace("’", "'") == "'s" and s.i + 1 < len(doc) and doc[s.i + 1].tag_ in ("VBN", "VBD")


def _hyphenated(noun: Any) -> str:
    """The noun with the words hyphens join to it, which the tokenizer splits ("brother-in-law" is
    no brother)."""
    doc, end = noun.doc, noun.i
    while end + 2 < len(doc) and doc[end + 1].text == "-" and not doc[end + 1].whitespace_ \
            and not doc[end].whitespace_:
        end += 2
    return doc[noun.i:end + 1].text


def _had_by_user(noun: Any) -> bool:
    """ "we have two kids, Ada and Felix", "I've got a brother, Sam": the object of have or got whose
    subject is the user owns the noun as "my" would."""
    verb = noun.head
    return noun.dep_ == "dobj" and verb.lemma_ in ("have", "get") and not any(
        c.dep_ == "neg" for c in verb.children) and any(
        c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in verb.children)


def _named_owned(doc: Any, offset: int, people: People) -> Iterator[Found]:
    """Who or what a name beside "my X" is ("my niece Ava", "Zoe, my flatmate, ..."): a relationship
    (canonical role) or an open slot keyed by X; the name joins the message's people, so what the
    sentence says next of them is theirs. Things the registry names (car, phone) are the patterns'."""
    base = doc[0].idx
    for tok in doc:
        if tok.pos_ != "PROPN" or (tok.dep_ == "compound" and tok.head.pos_ == "PROPN"):
            continue
        noun = _owned_noun(tok)
        if noun is None:
            continue
        name = noun_phrase(tok)
        if noun.head.i == tok.i and noun.i < tok.i:  # "my niece Lena": the name is what follows the noun
            name = clean_value(doc[noun.i + 1:_phrase_span(tok)[1]].text)
        elif _s_is(tok):
            name = without_s(name)  # "Nadia's still our cleaner": Nadia
        if not is_name(name) or any(ch.isdigit() for ch in name) or len(name.split()) > 3:
            continue
        if any(c.dep_ == "amod" and c.lower_ in _PAST_OWNED for c in noun.children):
            continue  # "Milo (our old greyhound)": what the user had, not has
        words = [c.text for c in noun.lefts if c.dep_ in ("compound", "amod")] + [_hyphenated(noun)]
        thing = thing_predicate(" ".join(words), {})
        if noun.tag_ == "NNS" and (thing is None or thing[1]):  # "kids", "sisters": the role's own word
            thing = thing_predicate(" ".join([*words[:-1], noun.lemma_]), {}) or thing
        if thing is None:
            continue
        predicate, open_slot = thing
        role = predicate if predicate in ROLES.values() else None
        if role is not None or predicate == "pet":  # "my mate Ciarán's from Galway": a person's name ends before
            name = without_s(name)  # the "'s" that says "is"
        if not open_slot and role is None:
            continue  # "my car, a Golf": a canonical thing, read by the owned-thing patterns
        at = offset + tok.idx - base
        if not people.known(name):
            people.persons.append(Person(name, role, at, at + len(tok.text)))
            people.persons.sort(key=lambda p: p.start)
        yield Found(Draft("user", predicate, name), tok.idx - base, tok.idx - base + len(tok.text), "frame named owned")


# Nouns of a time said between a thing and its verb ("our cat sitter these days is ...").
_SPAN_NOUNS = frozenset({"day", "days", "week", "month", "year", "moment", "season", "term", "summer", "winter"}) \
    | TIME_WORDS


def _owned_is_named(doc: Any) -> Iterator[Found]:
    """ "The tailor we go to is Ahmet", "Our dog sitter when we're away is a student called Gwen",
    "Broadband provider these days is Zen": a thing of the user's (my/our, one a clause of the user's
    picks out, or said bare to open the sentence) said to be a name, in the present, fills its slot,
    whatever of the user's or of a time stands between the thing and "is"."""
    if doc[-1].text == "?":
        return
    for verb in doc:
        be = verb if verb.lemma_ == "be" and verb.dep_ not in ("aux", "auxpass") else next(
            (c for c in verb.children if c.dep_ == "auxpass" and c.lemma_ == "be"), None) \
            if verb.lemma_ in ("call", "name") else None  # "the studio we go to is called Breathe"
        if be is None or be.tag_ not in ("VBZ", "VBP") or is_negated(verb) or wished(verb) or conditional(verb):
            continue
        value = _named_attr(verb)
        # The subject, or what the small model hangs the thing on instead ("my cat sitter when I ...").
        spans = (_owned_span(doc, c.left_edge.i, be.i) for c in verb.lefts
                 if c.dep_ in ("nsubj", "nsubjpass", "dep", "npadvmod") and c.pos_ in ("NOUN", "ADJ", "PROPN"))
        span = next((s for s in spans if s is not None), None)
        if value is None or span is None:
            continue
        whose, words = span
        thing = thing_predicate(" ".join(words), {})
        if thing is None or thing[0] in ROLES.values() or (whose and not thing[1]):  # people: the
            continue  # relationship patterns'; "Dad's birthday": his
        if (len(words) > 1 and is_name(words[-1])) or (thing[0] == "pet" and value.like_num):
            continue  # "our cat Luna is 4", "our dog is 3": what is said of one named or of a pet, its age
        predicate = f"{whose}_{thing[0]}" if whose and thing[1] else thing[0]  # "kids' dentist": kids_dentist
        yield _found("user", predicate, noun_phrase(value), value, "frame owned is named")


def _named_attr(verb: Any) -> Any:
    """What `verb` says its subject is, when that names someone or something: a name, or the name of
    "a student called Noor"."""
    attr = next((c for c in verb.rights if c.dep_ in ("attr", "acomp", "oprd")), None)
    if attr is None and verb.lemma_ == "be" and any(c.dep_ == "nsubj" and c.pos_ == "NOUN" for c in verb.lefts):
        # "our broadband's with Hyperoptic": who provides a thing ("Hana is with Deloitte" is Hana's job)
        attr = next((_object(c) for c in verb.rights if c.dep_ == "prep" and c.lower_ == "with"), None)
    if attr is None:
        return None
    called = next((c for c in attr.children if c.dep_ == "acl" and c.lemma_ in ("call", "name")), None)
    if called is not None:
        attr = next((c for c in called.children if c.dep_ in ("oprd", "attr", "dobj", "xcomp")), None)
    if attr is None or (attr.i > 0 and attr.doc[attr.i - 1].text.endswith("[")):  # "[REDACTED:password]"
        return None
    return attr if _named_value(attr) and attr.lower_ not in _FIRST else None


def _owned_span(doc: Any, start: int, end: int) -> tuple[str, list[str]] | None:
    """(a possessor noun or "", the words) of the user's thing that opens doc[start:end] (the subject's
    span before "is"), or None when it is not the user's or anything but the user's clause or a time
    follows it."""
    i, owned, whose = start, start == 0 or doc[start - 1].is_punct, ""
    if doc[i].lower_ in ("my", "our"):
        i, owned = i + 1, True
    elif doc[i].lower_ == "the":
        i, owned = i + 1, False
    if i + 1 < end and doc[i + 1].tag_ == "POS":  # "kids' swim coach"; "my dad's car" is his
        if doc[i].pos_ != "NOUN" or i > start:
            return None
        whose, i = doc[i].lower_, i + 2
    words: list[str] = []
    while i < end and (doc[i].pos_ in ("NOUN", "ADJ", "PROPN") or doc[i].tag_ == "HYPH") \
            and doc[i].lower_ not in TIME_WORDS and doc[i].dep_ != "appos":  # "my sister Hannah": her name
        words.append(doc[i].text)
        i += 1
    if not words or words[-1] == "-":
        return None
    rest = doc[i:end]
    clause = [t for t in rest if t.pos_ in ("VERB", "AUX")]
    by_user = bool(clause) and all(any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in t.children)
                                   for t in clause if t.dep_ in ("relcl", "advcl"))
    for t in rest:
        if t.pos_ in ("PROPN", "NUM") or (t.pos_ == "NOUN" and t.lower_ not in _SPAN_NOUNS
                                           and not by_user):
            return None
    return (whose, words) if owned or by_user else None


def _as_my(doc: Any, offset: int, people: People, anchor: Anchor) -> Iterator[Found]:
    """ "Y as my X" ("I've got Vodafone as my carrier", "we use Zen as our broadband"): Y fills the
    slot "my X" names, an open slot or the registry's predicate."""
    for prep in doc:
        if prep.lower_ != "as" or prep.dep_ != "prep" or (noun := _object(prep)) is None or noun.pos_ != "NOUN":
            continue
        if not any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in noun.children):
            continue
        verb = prep.head
        if verb.dep_ == "dobj" and verb.pos_ in ("NOUN", "PROPN"):  # "as my X" parsed under the object
            value, verb = verb, verb.head
        else:
            value = next((c for c in verb.children if c.dep_ == "dobj"), None) if verb.pos_ in ("VERB", "AUX") \
                else None
        if value is None or not (value.pos_ == "PROPN" or any(ch.isdigit() for ch in value.text)
                                 or (value.text[:1].isupper() and value.i > 0)):  # "Smarty", tagged a noun
            continue
        if wished(verb) or conditional(verb) or any(c.dep_ == "aux" and c.lower_ in UNREAL for c in verb.children):
            continue
        words = [c.text for c in noun.lefts if c.dep_ in ("compound", "amod")] + [_hyphenated(noun)]
        thing = thing_predicate(" ".join(words), {})
        if noun.tag_ == "NNS" and (thing is None or thing[1]):  # "kids", "sisters": the role's own word
            thing = thing_predicate(" ".join([*words[:-1], noun.lemma_]), {}) or thing
        subject = subject_of(verb, offset, people, anchor)
        if thing is None or subject is None:
            continue
        yield _found(subject, thing[0], noun_phrase(value), value, "frame as my")


# Verbs of having or using a vehicle or device; "rocking", "running" are chat's using ("rocking a Pixel 7a").
_OWN = frozenset({"have", "own", "get", "buy", "lease", "ride", "drive", "use", "order", "pick", "rent", "type", "rock",
                  "run"})


def _product(tok: Any) -> tuple[str, str] | None:
    """(predicate, value) when the noun phrase `tok` heads names a vehicle or a device by its make or
    kind ("a 2019 Honda Civic", "a Vespa", "my new MacBook Air", "a Pixel 8"), else None."""
    start, end = _phrase_span(tok)
    if end < len(tok.doc) and _model_number(tok.doc[end], tok):
        end += 1  # "a Pixel 7a": the model number, which the parser hangs beside the make
    span = [t for t in tok.doc[start:end] if not (t.like_num and len(t.text) == 4)]  # "2019": a model year
    words = [t.lower_ for t in span]
    if not words:
        return None
    value = clean_value("".join(t.text_with_ws for t in span).strip())
    if not value or value.lower() in NOT_VALUES:
        return None
    if any(w in VEHICLE_MAKES for w in words):
        return "car", value
    named = any(t.pos_ == "PROPN" or t.text[:1].isupper() for t in span)
    if words[0].startswith(PHONE_BRANDS) and named:
        return "phone", value
    if any(w in DEVICE_WORDS for w in words) and named:
        return "device", value
    return None


def _model_number(after: Any, tok: Any) -> bool:
    """Whether `after`, the word after the noun phrase `tok` heads, is a model number the parser hung on
    the make or its verb ("a Pixel 7a"), not a number of its own ("my iPad 3 times a day")."""
    return after.head.i in (tok.i, tok.head.i) and after.dep_ in ("appos", "npadvmod", "nummod", "advmod") and any(
        ch.isdigit() for ch in after.text) and len(after.text) <= 5


def _owned_product(doc: Any, offset: int, people: People, anchor: Anchor) -> Iterator[Found]:
    """A vehicle or device the user has, uses or got ("I have a 2019 Honda Civic", "I ride a Vespa to
    work", "typing this on my new MacBook Air"): the registry's car, phone or device."""
    for tok in doc:
        if tok.pos_ not in ("PROPN", "NOUN"):
            continue
        head = tok.head
        owned = any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in tok.children)
        if tok.dep_ == "dobj" and head.pos_ in ("VERB", "AUX") and head.lemma_.lower() in _OWN:
            verb = head
        elif owned and tok.dep_ == "pobj" and head.head.pos_ in ("VERB", "AUX"):
            verb = head.head
        else:
            continue
        if is_negated(verb) or wished(verb) or conditional(verb) or any(
                c.dep_ == "aux" and c.lower_ in UNREAL for c in verb.children):
            continue
        found = _product(tok)
        subject = "user" if owned else subject_of(verb, offset, people, anchor)
        if found is not None and subject is not None:
            yield _found(subject, found[0], found[1], tok, "frame owned " + found[0])


_PET_VERBS = frozenset({"have", "get", "adopt", "rescue", "buy", "bring", "foster", "own"})


def _owned_pet(doc: Any, offset: int, people: People, anchor: Anchor) -> Iterator[Found]:
    """An animal the user has, got or adopted, by its name when the sentence gives one ("we adopted a
    greyhound called Pepper", "we also got a kitten, Mochi", "got a second cat too, Juniper"), else
    by the animal ("I have a beagle"): the registry's pet. Animals conjoined to it are pets too ("a cat
    and a dog called Rex"), as are the names after a plural ("two cats, Mo and Lily")."""
    for verb in doc:
        if verb.pos_ not in ("VERB", "AUX") or verb.lemma_.lower() not in _PET_VERBS or is_negated(verb) \
                or wished(verb) or conditional(verb) or any(c.dep_ == "aux" and c.lower_ in UNREAL
                                                            for c in verb.children):
            continue
        subject = subject_of(verb, offset, people, anchor)
        if subject is None:
            continue
        got: list[Found] = []
        conjoined: list[Found] = []
        for obj in (c for c in verb.children if c.dep_ == "dobj"):
            animal = _animal_in(obj)
            if animal is None or any(c.dep_ == "poss" for c in obj.children):
                continue  # "I have my dog's lead": no pet got
            # A name the parser hung on the verb instead ("got a second cat too, Juniper").
            on_verb = next((c for c in verb.children if c.i > animal.i and c.pos_ == "PROPN" and c.dep_ in (
                "advmod", "npadvmod", "appos", "dobj", "oprd")), None)
            got += _pets(subject, obj, animal, on_verb)
            for other in (t for t in obj.subtree if t.dep_ == "conj" and _is_animal(t)):
                conjoined += _pets(subject, other, other, None)
        # Two objects of one verb are one animal said twice ("a new puppy, a beagle called Max"; a
        # second animal is a conjunct, not an object): by its name when one of them gives it.
        named = [f for f in got if f.draft.value.lower() not in ANIMALS]
        yield from named or got
        yield from conjoined


def _is_animal(tok: Any) -> bool:
    return tok.lower_ in ANIMALS or (tok.tag_ == "NNS" and tok.lemma_.lower() in ANIMALS)  # "two cats"


def _animal_in(noun: Any) -> Any:
    """The animal word of the noun phrase `noun` heads ("a cat", "a rescue greyhound", "Mochi" after
    "a kitten"), or None."""
    if _is_animal(noun):
        return noun
    return next((c for c in noun.children if c.dep_ in ("amod", "compound") and _is_animal(c)), None)


def _pets(subject: str, obj: Any, animal: Any, fallback: Any) -> list[Found]:
    """The pets one animal phrase says: each name it is given, else the animal itself."""
    name = obj if animal.i != obj.i and obj.pos_ == "PROPN" else None
    for acl in (c for c in animal.children if c.dep_ == "acl" and c.lemma_.lower() in ("call", "name")):
        name = name or next((c for c in acl.children if c.dep_ in ("oprd", "attr", "dobj")
                             and c.pos_ == "PROPN"), None)
    appos = next((c for c in animal.children if c.dep_ == "appos" and c.pos_ == "PROPN"), None)
    names = [name] if name is not None else []
    if not names and appos is not None:
        # Names after a plural are one pet each ("two cats, Mo and Lily").
        names = [appos, *appos.conjuncts] if animal.tag_ == "NNS" else [appos]
    if not names and fallback is not None:
        names = [fallback]
    if not names:
        return [_found(subject, "pet", animal.lower_, animal, "frame pet")]
    return [_found(subject, "pet", noun_phrase(n), n, "frame pet") for n in names if is_name(noun_phrase(n))]


_JOBS = frozenset({"job", "position", "role", "internship", "post", "placement", "contract", "offer"})


def _job_at(doc: Any, offset: int, people: People, anchor: Anchor) -> Iterator[Found]:
    """A job at a place is work there, whoever got, took or started it ("Nadia got a job at the BBC",
    "I accepted a position with Arup")."""
    for noun in doc:
        if noun.lemma_.lower() not in _JOBS or noun.pos_ != "NOUN" or noun.dep_ not in ("dobj", "attr", "pobj"):
            continue
        verb = noun.head if noun.dep_ != "pobj" else noun.head.head
        if verb.lemma_.lower() in _ENDING | _END_LEMMAS:
            continue  # "I quit my job at Acme": an ending (the verb frames')
        if verb.pos_ not in ("VERB", "AUX") or is_negated(verb) or wished(verb) or conditional(verb) or any(
                c.dep_ == "aux" and c.lower_ in UNREAL for c in verb.children):
            continue
        subject = subject_of(verb, offset, people, anchor)
        # "a job at X", or "got a job at X" with the place on the verb
        preps = [*noun.children, *(verb.children if noun.dep_ == "dobj" else ())]
        for prep in preps:
            if subject is not None and prep.dep_ == "prep" and prep.lower_ in ("at", "with") and (
                    obj := _object(prep)) is not None:
                yield from _values(subject, "works_at", obj, False, verb, "frame job at")


def _is_home(doc: Any) -> Iterator[Found]:
    """ "Lisbon is (still) home": where the user lives."""
    for be in doc:
        if be.lemma_ != "be" or be.dep_ != "ROOT" or is_negated(be):
            continue
        place = next((c for c in be.children if c.dep_ == "nsubj" and c.pos_ == "PROPN"), None)
        home = next((c for c in be.children if c.dep_ in ("attr", "advmod", "acomp") and c.lower_ == "home"
                     and not any(k.dep_ in ("poss", "prep") and k.lower_ not in ("my", "our") for k in c.children)),
                    None)  # not "Berlin is home to many artists"
        if place is not None and home is not None and (value := _value(place, "lives_in")) is not None:
            yield _found("user", "lives_in", value, place, "frame is home")

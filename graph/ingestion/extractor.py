"""The rule extractor: what one message says, as candidate memories. Pure and deterministic: no
model, no I/O. The service passes what it knows of the tenant (the names of people in the user's
life, the registered predicates) and the conversation so far.

Order of work for a message: secrets are found first and every sentence holding one is dropped; an
assistant's message yields nothing; a request to forget yields FORGET candidates (or, when it is
about the message itself, nothing at all); every other sentence that states something (not a
question, hypothetical, joke, hearsay, small talk or an uncertain negation) yields its claims, its
relationship changes, what ended, and at most one memory without a claim, each with the
sentence's temporal fields and sensitivity."""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from graph.ingestion import claims as rules
from graph.ingestion import cues
from graph.ingestion.frames import ended, frame_claims, is_child, negated_spans, unsure, wished_spans
from graph.ingestion.kinds import claimless_kind, has_clock_time, parsed_kind
from graph.ingestion.model import (
    CHANGE_ONLY,
    CUE_CORRECTION,
    CUE_UPDATE,
    END,
    FORGET,
    Candidate,
    Draft,
    Extraction,
    Message,
)
from graph.ingestion.people import NAME, People, find_people, is_name, names_in
from graph.ingestion.proposed import proposed_claim
from graph.ingestion.sensitivity import is_private, sensitivity_of
from graph.ingestion.slot_classifier import SlotOf
from graph.ingestion.temporal import temporal_of
from graph.ingestion.text import (
    PHONE_NUMBER,
    PRONOUNS,
    clean_value,
    content_words,
    is_first_person,
    normal,
    without_s,
)
from graph.ingestion.vocabulary import (
    ANIMALS,
    BARE_KIN,
    COLOURS,
    FAVORITE_PREFIX,
    NOT_THINGS,
    PREDICATES,
    PRODUCT_WORDS,
    ROLES,
    SCHOOL_NAMES,
)
from graph.language import find_times, split_sentences
from graph.language.parser import parse
from graph.memories.secrets import find_secrets, redact

# The user: I, we, or "the user" as an agent writes down what the user said.
_FIRST = re.compile(r"(?<![\w'’])(?:I|i|[Ii]m|[Ww]e|(?:[Tt]he\s+)?[Uu]ser(?!['’]s))(?=['’]|\s|$|[,.!?])")
_PRONOUN = re.compile(r"(?<![\w'’])(?:[Hh]e|[Ss]he|[Tt]hey|who)(?=['’]|\s|$)")
_BARE_KIN = re.compile(r"(?i)(?<![\w'’])(?P<r>" + "|".join(BARE_KIN) + r")(?:'s|’s)?(?=\s)")
_VERB_START = re.compile(r"(?i)^(?:just\s+|also\s+|still\s+|finally\s+|now\s+|currently\s+|recently\s+)*"
                         r"(?:not\s+a|turned|"
                         r"started|moved|joined|work|working|live|living|love|loving|hate|speak|got|picked|used|sold|"
                         r"switched|drive|driving|cancelled|canceled|off|on\s+call|trying|saving|going|planning|moving|"
                         r"have|had|bought|still\s+\w+|been|being)\b")
_KID_AGE = re.compile(r"\b(?P<age>\d{1,2})-year-old(?:\s+(?:son|daughter|boy|girl))?,?\s+(?P<name>[A-Z][\w’'-]*)")
# A name is the subject of what follows only when a verb follows it ("Dev's no longer at ...",
# "Ana lives in ..."); "at Oxford Brookes" or "a Civic" are values.
_SUBJECT_VERB = re.compile(r"(?:'s|’s)\s+(?!(?:\w+\s+)?(?:is|are)\b)|\s+(?:is|are|was|were|has|had|have|lives?|"
                           r"living|works?|working|worked|moved|moving|joined|joining|left|just|still|and\s+I|and\s+me|"
                           r"said|says|got|gets|loves?|hates?|used|can't|cannot|doesn't|isn't|speaks?|studies|started|"
                           r"starts|drives?|died|passed|broke|split|never|also|now)\b")
_FRAGMENT = re.compile(r"(?:^|[,;]\s*)(?=(?:still|also|now|just)\s+(?:hate|hates|love|loves|like|live|work|speak|"
                       r"drive|vegetarian|vegan)\b)")
_NAME_OF = re.compile(r"(?i)\b(?:his|her|their)\s+name(?:'s|’s|\s+is)\s+(?P<v>[A-Z][\w’'-]*|[a-z]+)")
_IT_IS = re.compile(r"(?<![\w'’])(?i:it|that)(?:'s|’s|\s+(?i:is))\s+(?i:a|an|the)\s+"
                    r"(?P<v>[A-Z0-9][\w’'+-]*(?:\s+[A-Z0-9][\w’'+-]*){0,3})")
_NEW_THING = re.compile(r"(?i)\b(?:new|got\s+an?|bought\s+an?|found\s+an?)\s+(?:new\s+)?(?P<x>[a-z]+)\b")
_CONTEXT_THING = re.compile(r"(?i)\b(?:found|got|have|met|new|my|our|a|an)\s+(?:new\s+|great\s+|good\s+)?"
                            r"(?P<x>[a-z]+)(?=\s+(?:i|who|that|we|called|named)\b|\s*[,.!?]|$)")
# Where claims come from: the parse's frames, the word patterns, or both (the frames first; a
# pattern adds a claim for a subject and predicate the frames did not find). The bench compares them.
CLAIMS_PARSED, CLAIMS_LEXICAL, CLAIMS_BOTH = "parsed", "lexical", "both"
_STILL_FRIENDS = re.compile(r"(?i)\bstill\s+(?:good\s+)?friends\b")
# A second opinion on a claimless sentence's kind: (sentence, the wording rules' kind) -> the kind.
KindOf = Callable[[str, str | None], str | None]


def to_parse(messages: Sequence[Message]) -> list[str]:
    """The sentences `extract` will parse for these messages: a caller with many messages parses
    them in one batch (graph/language/parser.py) and passes the result as `docs`."""
    return [s.text for m in messages if m.role == "user" for s in split_sentences(_redacted(m.text)[0])]


def _redacted(text: str) -> tuple[str, tuple[tuple[str, int, int], ...]]:
    findings = find_secrets(text)
    # Every secret is replaced before any rule reads the text: a claim or memory holding a
    # redaction is dropped, so no secret (nor a stand-in for one) becomes a value.
    return (redact(text, findings) if findings else text), tuple((f.kind, f.start, f.end) for f in findings)


def extract(message: Message, context: Sequence[Message] = (), *, circle: set[str] | frozenset[str] = frozenset(),
            registered: dict[str, bool] | None = None, claims: str = CLAIMS_BOTH,
            docs: Mapping[str, Any] | None = None, kind_of: KindOf | None = None,
            slot_of: SlotOf | None = None) -> Extraction:
    """Candidates for `message`; `context` holds the conversation's earlier messages, oldest first;
    `circle` the names of people the tenant's memories know; `registered` the tenant's registered
    predicates (name -> multi-valued); `docs` the parses of `to_parse([message])`, when the caller
    parsed them in a batch (else they are parsed here). `kind_of(sentence, ruled)` has the last word
    on the kind of a memory without a claim, given the kind the wording rules found (None: no memory);
    it is asked about every stating sentence that yields no claim. `slot_of(sentence)` names the slot
    (a predicate, or `open`) of a stating sentence no rule read a claim from, or None; the parse gives
    the value (proposed.py)."""
    registered = registered or {}
    text, secrets = _redacted(message.text)
    if message.role != "user":
        return Extraction((), secrets, ("the assistant's words state nothing about the user",))
    recent, genders = _recent_people(context, circle)
    people = find_people(text, set(circle), recent, genders)
    private = is_private(text)
    sentences = list(split_sentences(text))
    if claims == CLAIMS_LEXICAL:
        docs = {}
    elif docs is None:
        # One parse of every sentence (one batch through the pipeline), read by the frames below.
        docs = dict(zip([s.text for s in sentences], parse([s.text for s in sentences]), strict=True))
    out: list[Candidate] = []
    skipped: list[str] = []
    content_before = False
    for sentence in sentences:
        request = cues.forget_request(sentence.text)
        if request is not None:
            what, itself = request
            if itself and (content_before or cues.SAME_MESSAGE.match(what)):
                return Extraction((), secrets, ("asked not to remember it",))
            out.append(_forget(sentence.text, what, itself, sentence.start, sentence.end, text, private))
            continue
        found = _sentence(sentence.text, sentence.start, message, people, registered, context, private, text,
                          claims, docs, kind_of, slot_of)
        if isinstance(found, str):
            skipped.append(found)
            continue
        if found:
            content_before = True
        out.extend(found)
    if (back := cues.TAKEN_BACK.search(text)) is not None:
        out = [c for c in out if c.start >= back.end()]  # what a joke taken back said is no fact
    deduped = _dedupe(out)
    kept = [c for c in deduped if not _holds_secret(c)]
    if len(kept) < len(deduped) or secrets:
        skipped.append("what held a secret")
    return Extraction(tuple(kept), secrets, tuple(dict.fromkeys(skipped)))


def _holds_secret(c: Candidate) -> bool:
    if c.claim is not None and "[REDACTED" in f"{c.claim.subject} {c.claim.value}":
        return True
    # A memory without a claim keeps its redacted sentence only when it is an event on a schedule
    # ("rent goes out to [REDACTED:iban] on the 25th of every month"); any other is dropped.
    return c.claim is None and "[REDACTED" in c.text and c.recurrence is None


def _recent_people(context: Sequence[Message], circle: set[str] | frozenset[str]
                   ) -> tuple[list[str], dict[str, str]]:
    """The people earlier messages named, latest last, and the genders those messages said of them."""
    lowered = {c.lower() for c in circle}
    names: list[tuple[int, int, str]] = []
    genders: dict[str, str] = {}
    for i, m in enumerate(context):
        people = find_people(m.text, set(circle), [])
        genders |= people.genders
        names += [(i, p.start, p.name) for p in people.persons if not p.name.startswith("user's")]
        names += [(i, t.start(), t.group()) for t in re.finditer(NAME, m.text)
                  if is_name(t.group()) and t.group().lower() in lowered]
    return [n for _, _, n in sorted(names)], genders


def _forget(sentence: str, what: str, itself: bool, start: int, end: int, message: str, private: bool) -> Candidate:
    about = ("<previous>",) if itself else tuple(sorted(content_words(what) - _GENERIC))
    every = bool(re.search(r"(?i)\b(?:everything|all|anything)\b", what))
    return Candidate(sentence, "fact", action=FORGET, about=about, sensitivity="private" if private else "normal",
                     start=start, end=end, rule="forget every" if every else "forget", cue=None)


_GENERIC = {"everything", "anything", "all", "know", "told", "tell", "said", "say", "note", "notes", "thing", "things",
            "stuff", "what", "about", "file", "please", "pls", "record", "memory", "memories", "info", "information",
            "bit", "part", "mention", "mentioned", "keep", "store", "save", "remember", "name", "detail",
            "details", "last", "just"}


def _sentence(sentence: str, start: int, message: Message, people: People, registered: dict[str, bool],
              context: Sequence[Message], private: bool, whole: str, mode: str,
              docs: Mapping[str, Any], kind_of: KindOf | None,
              slot_of: SlotOf | None = None) -> list[Candidate] | str:
    if cues.is_small_talk(sentence):
        return "small talk"
    if cues.is_question(sentence):
        return "a question"
    if cues.is_uncertain(sentence) or (sentence in docs and unsure(docs[sentence])):
        return "an uncertain or negated statement"
    if cues.is_joke(sentence):
        return "a joke"
    if cues.hearsay(sentence):
        return "what someone else said"
    offset = 0
    if cues.is_hypothetical(sentence) and not _instruction(docs.get(sentence)):
        rest, offset = cues.strip_hypothetical(sentence)
        if not offset:
            return "a hypothetical"
        sentence = rest
    start += offset
    when = temporal_of(sentence, message.at)
    sensitivity = sensitivity_of(sentence, whole if private else "")
    cue = cues.cue_of(sentence)
    if cue is None and cues.CORRECTION_WORDS.search(whole):
        cue = CUE_CORRECTION  # "The surname is Kowalczyk, you had Kowalczik. Full name Marta Kowalczyk."
    found = _dead_pets_ended(_claims(sentence, start, people, registered, context, mode, docs, whole[:start]),
                             sentence) + _job_lost(sentence)
    pair = rules.correction_pair(sentence) if cue == CUE_CORRECTION else None
    out: list[Candidate] = []
    changed = _relationship_change(sentence, start, people, sensitivity, when)
    doc = docs.get(sentence)
    if slot_of is not None and not found and changed is None and doc is not None and not when.recurrence \
            and not cues.loss_of_life(sentence) and not cues.ENDED.search(sentence) and not ended(doc):
        # No rule read a claim, and the sentence is no schedule, loss or ending: the slot classifier
        # may name the slot, the parse gives the value.
        label = slot_of(sentence)
        proposal = None if label is None else proposed_claim(
            doc, label, start, people, _anchor(_clauses(sentence, start, people), sentence), registered)
        if proposal is not None:
            found = [proposal]
    for f in found:
        draft = f.draft
        if draft.predicate is not None and draft.predicate in PREDICATES and PREDICATES[draft.predicate].sensitive:
            level = "private" if sensitivity == "private" else "sensitive"
        else:
            level = sensitivity
        previous = pair[1] if pair and normal(pair[0]) == normal(draft.value) else f.correction_of
        if f.negated:
            out.append(Candidate(sentence, _type_of(draft.predicate), claim=draft, action=END, cue=cue,
                                 about=tuple(content_words(draft.value)), sensitivity=level, start=start,
                                 end=start + len(sentence), rule=f.rule))
            continue
        replaces = ("partner",) if draft.predicate == "spouse" and changed is not None else ()
        out.append(Candidate(sentence, _type_of(draft.predicate), claim=draft, cue=cue, historical=when.historical,
                             sensitivity=level, effective_from=when.effective_from, expires_at=when.expires_at,
                             recurrence=None, previous=previous, succeeds=f.succeeds, replaces=replaces,
                             start=start + f.start,
                             end=start + f.end, rule=f.rule))
    if pair and not any(c.claim and normal(c.claim.value) == normal(pair[0]) for c in out) \
            and re.fullmatch(r"[A-Z][\w’'.-]*(?:\s+[A-Z][\w’'.-]*)*", pair[0]) and pair[0] != pair[1] \
            and not is_first_person(pair[0]):
        out.append(Candidate(sentence, "entity", claim=Draft("user", None, pair[0]), cue=CUE_CORRECTION,
                             previous=pair[1], sensitivity=sensitivity, start=start, end=start + len(sentence),
                             rule="X, not Y"))
    if changed is not None and not any(c.replaces for c in out):
        out.append(changed)
        if _STILL_FRIENDS.search(whole) and changed.about:
            out.append(Candidate(sentence, "entity", claim=Draft("user", "friend", changed.about[0]),
                                 start=start, end=start + len(sentence), rule="still friends"))
    worded = cues.ENDED.search(sentence) is not None
    if not any(c.action == END or c.claim for c in out) and not when.historical and (
            worded or (doc is not None and ended(doc))):
        # "ended verb": the parse's main verb ends its object, the whole sentence is the ending.
        out.append(Candidate(sentence, "fact", action=END, cue=CUE_UPDATE,
                             about=tuple(content_words(sentence)), sensitivity=sensitivity, start=start,
                             end=start + len(sentence), rule="ended" if worded else "ended verb"))
    claimless = _claimless(sentence, start, message, when, sensitivity, cue, out, kind_of, docs)
    if claimless is not None:
        out.append(claimless)
    return out


def _dead_pets_ended(found: list[rules.Found], sentence: str) -> list[rules.Found]:
    """A pet the sentence tells died ("our dog Rex died", "Rex, our dog, passed away") is the user's
    pet no longer: its claim ends the known one, beside the loss event."""
    dead = cues.the_dead(sentence, dying=False)
    return [replace(f, negated=True) if f.draft.predicate == "pet" and not f.negated and any(
        who == normal(f.draft.value) or f.start <= at < f.end for who, at in dead) else f for f in found]


def _job_lost(sentence: str) -> list[rules.Found]:
    """ "I've been made redundant", "got laid off": the user's job ended, its employer unsaid (the
    decision ends whichever is current). Said of someone else ("Dad got laid off"), nothing here."""
    lost = cues.JOB_LOST.search(sentence)
    if lost is None:
        return []
    before = [w for w in re.findall(r"[\w'’]+", sentence[:lost.start()]) if w.lower() != "they"]
    if any(w.lower() in PRONOUNS or w.lower() in ROLES or is_name(w) for w in before):
        return []
    return [rules.Found(Draft("user", "works_at", ""), lost.start(), lost.end(), "job lost", negated=True)]


def _instruction(doc: Any) -> bool:
    """ "If the light blinks, reset it and ...": a condition and what to do then (a procedure), not a
    hypothetical; its main verb is a bare imperative, but not one of supposing ("Imagine if I ...")."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None) if doc is not None else None
    return root is not None and root.tag_ == "VB" and not any(c.dep_ in ("nsubj", "aux") for c in root.children) \
        and root.lemma_.lower() not in cues.SUPPOSING


def _type_of(predicate: str | None) -> str:
    if predicate is None:
        return "entity"
    if predicate.startswith(FAVORITE_PREFIX):
        return "preference"
    return PREDICATES[predicate].memory_type if predicate in PREDICATES else "entity"


def _claims(sentence: str, start: int, people: People, registered: dict[str, bool],
            context: Sequence[Message], mode: str, docs: Mapping[str, Any], before: str) -> list[rules.Found]:
    parsed: list[rules.Found] = []
    wishes: list[tuple[int, int]] = []
    denied: list[tuple[int, int]] = []
    if mode != CLAIMS_LEXICAL:
        clauses = _clauses(sentence, start, people)
        doc = docs.get(sentence) or parse([sentence])[0]  # a hypothetical's rest is parsed alone
        parsed = list(frame_claims(doc, start, people, _anchor(clauses, sentence)))
        wishes = wished_spans(doc)
        denied = negated_spans(doc)
    lexical = _lexical_claims(sentence, start, people, registered, context, verbs=mode != CLAIMS_PARSED,
                              before=before)
    parsed, lexical = _uncoloured(parsed), _uncoloured(lexical)
    # What a wish or a plan governs is no fact, whichever rule read it ("we plan to get a dog").
    lexical = [f for f in lexical if not any(a <= sentence.find(f.draft.value) < b for a, b in wishes)]
    # A pattern that read past a negation states the opposite ("I didn't get the job at Google"); what
    # the patterns read as negated themselves (an ending, a dislike, "can't eat shellfish") stays.
    lexical = [f for f in lexical if f.negated or f.draft.predicate in ("dislikes", "allergy", "diet", None)
               or not any(a <= sentence.find(f.draft.value) < b for a, b in denied)]
    if mode != CLAIMS_LEXICAL:
        # A passive participle after "my X is" says what befell X, a common word after "a" what X is like
        # ("my landlord is a nightmare"): neither is its name.
        lexical = [f for f in lexical if f.rule != "my X is Y" or not (
            _participle_at(doc, at := sentence.find(f.draft.value)) or _described_at(doc, at, f.draft.value))]
    # Where a child is, goes or starts is their school ("our son is at Leeds Uni", "my daughter goes
    # to Oakfield Primary"), whichever rule read it, unless the sentence says work ("my daughter
    # works in Dublin now, at Stripe").
    if not _WORK_WORDS.search(sentence):
        parsed, lexical = _schooled(parsed, people), _schooled(lexical, people)
    parsed, lexical = _whole_numbers(parsed, sentence), _whole_numbers(lexical, sentence)
    if not parsed:
        return _named(lexical, people)
    # The parse named the pet got ("a new puppy, a beagle called Max"): the bare animal is that pet.
    named_pets = {f.draft.subject for f in parsed
                  if f.draft.predicate == "pet" and f.draft.value.lower() not in ANIMALS}
    lexical = [f for f in lexical if not (f.draft.predicate == "pet" and f.draft.subject in named_pets
                                          and f.draft.value.lower() in ANIMALS)]
    have = {_merge_key(f) for f in parsed}
    return _named(parsed + [f for f in lexical if _merge_key(f) not in have and not _joins(f, parsed)], people)


_WORK_WORDS = re.compile(r"(?i)\b(?:work|works|working|worked|job|jobs|employed|employer|hired|teach|teaches|teaching|"
                         r"intern|internship|joined|joining|shift|shifts|colleagues?|boss)\b")


def _schooled(found: list[rules.Found], people: People) -> list[rules.Found]:
    """Where someone is, goes or starts: a child's place, or a school someone else is at, is where
    they study; a place no school started at is where they work ("Zara started at Google")."""
    out = []
    for f in found:
        d = f.draft
        school = d.subject != "user" and d.value.split()[-1].lower() in SCHOOL_NAMES
        if d.predicate == "works_at" and (is_child(d.subject, people) or school):
            f = replace(f, draft=replace(d, predicate="studies_at"))
        elif d.predicate == "studies_at" and f.rule == "started at" and not school and not is_child(d.subject, people):
            f = replace(f, draft=replace(d, predicate="works_at"))
        out.append(f)
    return out


def _uncoloured(found: list[rules.Found]) -> list[rules.Found]:
    """A thing's colour describes it, the words after name it: "a red Fiesta" is a Fiesta."""
    out = []
    for f in found:
        words = f.draft.value.split()
        thing = f.draft.predicate in ("car", "device", "phone") or (
            f.draft.predicate is not None and f.draft.predicate not in PREDICATES
            and not f.draft.predicate.startswith(FAVORITE_PREFIX))
        if thing and len(words) > 1 and words[0] in COLOURS:  # lower case: "Golden Dragon" is a name
            f = replace(f, draft=replace(f.draft, value=" ".join(words[1:])))
        out.append(f)
    return out


def _whole_numbers(found: list[rules.Found], sentence: str) -> list[rules.Found]:
    """A phone number is the whole number written where its value starts: the parse splits
    "07700 900123" at the space into two numbers."""
    out = []
    for f in found:
        at = sentence.find(f.draft.value) if f.draft.predicate == "phone_number" else -1
        whole = PHONE_NUMBER.match(sentence, at) if at >= 0 else None
        out.append(replace(f, draft=replace(f.draft, value=whole.group())) if whole else f)
    return out


def _participle_at(doc: Any, at: int) -> bool:
    """Whether the word at character `at` of the parsed sentence heads a passive ("was stolen"): the
    tag alone is not enough, since the tagger calls an unknown lower-case brand a participle too."""
    return any(t.idx == at and t.tag_ == "VBN" and any(c.dep_ in ("auxpass", "nsubjpass") for c in t.children)
               for t in doc)


def _described_at(doc: Any, at: int, value: str) -> bool:
    """Whether `value`, at character `at`, is common words after "a"/"an" ("my landlord is a nightmare",
    "a bit pricey"): what the thing is like, not its name. A proper noun ("a Netgear"), a model number
    ("a fritzbox 7590") or a product word ("a pixel") names it."""
    if any(ch.isdigit() for ch in value) or value.split()[0].lower() in PRODUCT_WORDS:
        return False
    return any(t.idx == at and t.i > 0 and doc[t.i - 1].lower_ in ("a", "an") and t.pos_ in ("NOUN", "ADJ", "ADV")
               and t.text.islower() for t in doc)



def _named(found: list[rules.Found], people: People) -> list[rules.Found]:
    """"user's spouse" is the spouse the message names, when it names one ("my husband Dev works at
    Deloitte"): claims keyed by the name, not by the role; the same claim twice once."""
    names: dict[str, set[str]] = {}
    for p in people.persons:
        if p.role and not p.name.startswith("user's"):
            names.setdefault(f"user's {p.role}", set()).add(p.name)
    out, seen = [], set()
    for f in found:
        named = names.get(f.draft.subject, set())
        if len(named) == 1:
            f = replace(f, draft=replace(f.draft, subject=next(iter(named))))
        if f.draft.predicate in (None, "name") and normal(f.draft.value) == normal(f.draft.subject):
            continue  # "my manager is Ruth now", "my partner's name is Sam": who the role is, not Ruth's value
        key = (f.draft.subject.lower(), f.draft.predicate, normal(f.draft.value))
        if key in seen and f.draft.predicate is not None:
            continue
        seen.add(key)
        out.append(f)
    return [f for f in out if not any(_cut_short(f, g) for g in out)]


def _cut_short(f: rules.Found, g: rules.Found) -> bool:
    """`f` is `g`'s value cut short in the same single-valued slot ("Carmen" beside "Carmen Ruiz"):
    one rule read less of the name than another."""
    predicate = f.draft.predicate
    if predicate is None or g is f or predicate != g.draft.predicate or f.negated != g.negated \
            or f.draft.subject.lower() != g.draft.subject.lower() or (
            predicate in PREDICATES and PREDICATES[predicate].multi):
        return False
    short, long_ = normal(f.draft.value).split(), normal(g.draft.value).split()
    return len(short) < len(long_) and any(long_[i:i + len(short)] == short for i in range(len(long_)))


def _joins(f: rules.Found, parsed: list[rules.Found]) -> bool:
    """A pattern's value that joins values the parse found apart ("cats and penicillin" beside
    "cats" and "penicillin"): the parse's are the claims."""
    value = normal(f.draft.value)
    if not re.search(r",|\s(?:and|or|&)\s", value):
        return False
    return any(p.draft.subject.lower() == f.draft.subject.lower() and p.draft.predicate == f.draft.predicate
               and re.search(r"\b" + re.escape(normal(p.draft.value)) + r"\b", value) for p in parsed)


def _merge_key(f: rules.Found) -> tuple[str, str | None, str]:
    """A claim's slot (and value, for a multi-valued predicate): what the parse found there, said or
    negated, the patterns do not add to ("not allergic to penicillin after all")."""
    multi = f.draft.predicate in PREDICATES and PREDICATES[f.draft.predicate].multi
    return f.draft.subject.lower(), f.draft.predicate, normal(f.draft.value) if multi else ""


def _anchor(clauses: list[tuple[str | None, bool, str, int]], sentence: str) -> Callable[[int], str | None]:
    """The subject the clause reading gives a character of the sentence: the clause it falls in."""
    def subject_at(at: int) -> str | None:
        before = [c for c in clauses if c[3] <= at]
        if before:
            return before[-1][0]
        return "user" if not clauses else None  # chat drops the "I": "moved to Lisbon last week"
    return subject_at


def _lexical_claims(sentence: str, start: int, people: People, registered: dict[str, bool],
                    context: Sequence[Message], verbs: bool = True, before: str = "") -> list[rules.Found]:
    """The word patterns; `verbs` False leaves out those the parse's frames stand for (verb
    patterns, languages, a job title or diet said alone); `before`: the message before the sentence."""
    found: list[rules.Found] = []
    for p in people.persons:
        if start <= p.start < start + len(sentence) and p.role and not p.name.startswith("user's"):
            found.append(rules.Found(Draft("user", p.role, p.name), p.start - start, p.end - start, "relationship"))
    for m in _KID_AGE.finditer(sentence):
        found.append(rules.Found(Draft(m["name"], "age", m["age"]), m.start(), m.end(), "age"))
    for f, _open in rules.possessive_claims(sentence, people, start, registered):
        found.append(f)
    found += list(rules.sentence_claims(sentence))
    found += list(rules.spelled(sentence))
    clauses = _clauses(sentence, start, people) if verbs else []
    for subject, first, clause, at in clauses:
        if subject is None:
            continue
        for f in rules.verb_claims(clause, subject, first):
            found.append(replace(f, start=f.start + at, end=f.end + at))
        if first or subject:
            for lang, s, e in rules.languages(clause):
                found.append(rules.Found(Draft(subject, "speaks", lang), s + at, e + at, "speaks"))
    # "Ana has a cat called Tom" is Ana's cat: a pet got or had is the clause subject's, and a stranger's
    # is nobody's; "my dog Rex" is the user's by its words.
    owner = _anchor(clauses, sentence)
    for f in rules.pets(sentence):
        subject = owner(f.start) if f.rule == rules.PET_HAD else "user"
        if subject is not None:
            found.append(replace(f, draft=replace(f.draft, subject=subject)))
    found += list(rules.devices(sentence))
    found += list(rules.ended_devices(sentence))
    if verbs and any(f.draft.predicate == "works_at" and not f.negated for f in found):
        found += list(rules.job_fragments(sentence))
    if verbs:
        found += list(rules.diet_fragments(sentence))
    if (named := _NAME_OF.search(sentence)) is not None:
        thing = _context_thing(context)
        if thing:  # "we got a puppy" ... "his name is Otis": the pet's name
            slot = rules.thing_predicate(thing, registered)
            found.append(rules.Found(Draft("user", slot[0] if slot else thing, named["v"]), named.start(),
                                     named.end(), "name of"))
    if (it := _IT_IS.search(sentence)) is not None and not any(f.draft.subject == "user" for f in found):
        # "I got a new phone, it's a Pixel 9": the thing named just before, in this sentence or earlier.
        said = [m.text for m in context if m.role == "user"] + [before + sentence[:it.start()]]
        things = [t["x"] for t in _NEW_THING.finditer(" ".join(said[-2:]))]
        slot = rules.thing_predicate(things[-1], registered) if things else None
        value = clean_value(it["v"])
        if slot is not None and value:
            found.append(rules.Found(Draft("user", slot[0], value), it.start(), it.end(), "it is Y"))
    return found


def _context_thing(context: Sequence[Message]) -> str | None:
    for m in reversed(context):
        if m.role != "user":
            continue
        for t in reversed(list(_CONTEXT_THING.finditer(m.text))):
            x = t["x"].lower()
            if x not in NOT_THINGS and len(x) > 2 and x not in ("lot", "bit", "few", "one", "way", "time"):
                return x
    return None


def _clauses(sentence: str, start: int, people: People) -> list[tuple[str | None, bool, str, int]]:
    """(subject, first person?, clause, its offset in the sentence) for each subject mention."""
    anchors: list[tuple[int, int, str | None, bool]] = []
    for m in _FIRST.finditer(sentence):
        anchors.append((m.start(), m.end(), "user", True))
    for p in people.persons:
        s, e = p.start - start, p.end - start
        if 0 <= s < len(sentence):
            anchors.append((s, e, p.name, False))
    for m in re.finditer(NAME, sentence):
        name = without_s(m.group())
        if not is_name(name) or any(a[0] <= m.start() < a[1] for a in anchors):
            continue
        if not _SUBJECT_VERB.match(sentence, m.start() + len(name)):
            continue
        known = people.known(name)
        if known:
            people.mention(name)
        anchors.append((m.start(), m.start() + len(name), name if known else None, False))
    for m in _FRAGMENT.finditer(sentence):
        if not any(a[0] <= m.end() < a[1] for a in anchors):
            anchors.append((m.end(), m.end(), "user", True))
    for m in _BARE_KIN.finditer(sentence):
        if not any(a[0] <= m.start() < a[1] for a in anchors):
            # The kin word alone: its "'s" ("Mum's 58", "Dad's at Tesco now") is the clause's verb, as
            # a name's is.
            anchors.append((m.start(), m.end("r"), f"user's {ROLES[m['r'].lower()]}", False))
    for m in _PRONOUN.finditer(sentence):
        if not any(a[0] <= m.start() < a[1] for a in anchors):
            earlier = [a for a in anchors if a[1] <= m.start() and a[2] and a[2] != "user" and not a[3]
                       and people.fits(a[2], m.group())]
            who = earlier[-1][2] if earlier and m.group().lower() != "they" else people.pronoun(
                start + m.start(), m.group())
            anchors.append((m.start(), m.end(), who, False))
    anchors.sort()
    out: list[tuple[str | None, bool, str, int]] = []
    first_at = anchors[0][0] if anchors else len(sentence)
    if _VERB_START.match(sentence[:first_at] + " ") and first_at > 0:
        out.append(("user", True, " " + sentence[:first_at], -1))
    for i, (_, e, subject, first) in enumerate(anchors):
        stop = anchors[i + 1][0] if i + 1 < len(anchors) else len(sentence)
        # A name inside a value ("at Oxford Brookes") is no new subject: the clause runs on past it.
        while i + 1 < len(anchors) and anchors[i + 1][2] is None and not anchors[i + 1][3] and \
                re.search(r"(?i)\b(?:at|in|to|for|with|from|of|called|named|and|a|an|the)\s*$", sentence[e:stop]):
            i += 1
            stop = anchors[i + 1][0] if i + 1 < len(anchors) else len(sentence)
        out.append((subject, first, sentence[e:stop], e))
    return out


def _relationship_change(sentence: str, start: int, people: People, sensitivity: str, when) -> Candidate | None:
    ended = cues.RELATIONSHIP_END.search(sentence)
    engaged = cues.ENGAGED.search(sentence)
    married = cues.MARRIED.search(sentence)
    if not (ended or engaged or married):
        return None
    m = re.search(r"(?P<n>" + NAME + r")\s+and\s+(?:I|me)\b|\b(?:with|and)\s+(?P<n2>" + NAME + r")", sentence)
    name = (m["n"] or m["n2"]) if m else None
    about = (name,) if name and is_name(name) else ()
    return Candidate(sentence, "entity", cue=CUE_UPDATE, about=about, replaces=("partner", "spouse"),
                     sensitivity=sensitivity if ended else ("private" if sensitivity == "private" else "normal"),
                     start=start, end=start + len(sentence), rule="relationship change")


def _claimless(sentence: str, start: int, message: Message, when, sensitivity: str, cue: str | None,
               out: list[Candidate], kind_of: KindOf | None, docs: Mapping[str, Any]) -> Candidate | None:
    has_claim = any(c.claim is not None or c.action == FORGET or c.replaces for c in out)
    # What ends ("the Friday meeting got cancelled") is no new memory; another clause may be one
    # ("no landlord anymore, we bought a place").
    ends = [c for c in out if c.action == END]
    said = "" if any(c.rule == "ended verb" for c in ends) else _outside_ends(sentence, ends)
    if when.recurrence or (cues.loss_of_life(sentence) and not when.historical):
        kind = "event"  # a loss is an event of its own, whatever else the sentence restates
    elif has_claim or not said:
        return None
    else:
        times = find_times(said, message.at)
        found = claimless_kind(said, has_time=bool(times))
        doc = docs.get(sentence) if said == sentence else None
        if found is None and doc is not None:
            ahead = any(t.kind == "day" and t.window.start > message.at.date() for t in times)
            found = parsed_kind(doc, moment=ahead or has_clock_time(said))
        if found is None and (when.effective_from or when.expires_at):
            found = "event"
        if kind_of is not None:
            found = kind_of(sentence, found)
        if found is None and cue in (CUE_UPDATE, CUE_CORRECTION) and len(content_words(said)) >= 2:
            # No kind, but change wording ("the offsite is postponed to May"): what it changes decides,
            # when a near known memory is there; alone it is dropped (decide.py).
            return Candidate(sentence, "fact", cue=cue, historical=when.historical, sensitivity=sensitivity,
                             effective_from=when.effective_from, expires_at=when.expires_at, recurrence=None,
                             about=tuple(content_words(sentence)), start=start, end=start + len(sentence),
                             rule=CHANGE_ONLY)
        if found is None:
            return None
        kind = found
    return Candidate(sentence, kind, cue=cue, historical=when.historical, sensitivity=sensitivity,
                     effective_from=when.effective_from, expires_at=when.expires_at, recurrence=when.recurrence,
                     about=tuple(content_words(sentence)), start=start, end=start + len(sentence),
                     rule=f"{kind} wording")


def _outside_ends(sentence: str, ends: list[Candidate]) -> str:
    """The sentence's clauses that say nothing ended."""
    if not ends:
        return sentence
    values = [normal(c.claim.value) for c in ends if c.claim is not None]
    kept = [part for part in re.split(r"[,;]\s*|\s+(?:but|and|so)\s+", sentence)
            if part.strip() and not cues.ENDED.search(part) and not any(v and v in normal(part) for v in values)]
    return ", ".join(kept)


def _dedupe(candidates: list[Candidate]) -> list[Candidate]:
    seen: set[tuple[str, str | None, str]] = set()
    out = []
    for c in candidates:
        if c.claim is not None and c.action == "remember":
            key = (c.claim.subject.lower(), c.claim.predicate, normal(c.claim.value))
            if key in seen:
                continue
            seen.add(key)
        out.append(c)
    return out


def mentioned_names(text: str) -> list[str]:
    """Capitalised names in a message, for the caller to look up in the tenant's entity graph."""
    return names_in(text)

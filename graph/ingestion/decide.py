"""The decision: for each candidate, ADD, UPDATE (supersede, replace, append), DELETE (soft, hard)
or NOOP, against the memories the tenant already holds that can matter (its claim's slot, the
memories about the same people and things, the nearest by embedding) and those earlier messages of
the same request planned. Pure.

This decides what to ask for; the belief engine, through the write path, still decides what
happens (trust gating, valid-time precedence, quarantine, conflicts) when it is applied
(service.py), and the answer reports what it did.

- A claim meets its slot (subject, predicate). The same value, current: NOOP (corroborate). A
  single-valued predicate with another current value: UPDATE, `replace` when the wording corrects
  ("actually", "I meant", "X, not Y"), else `supersede` (a change over time). A multi-valued one
  with values known: UPDATE `append`. Otherwise ADD. "I used to ..." is history: ADD, never a
  supersession. A predicate that succeeds another (spouse after partner) supersedes it. Values
  said with or without their make or title are the same ("the Golf", "VW Golf"). "user's brother"
  is the brother a known relationship names. A correction of one word of a known value ("Schmidt,
  not Schmitt") replaces that value with the word changed.
- A value whose thing the message does not name ("I'm on Hoka Cliftons now") takes the slot of
  the nearest known claim of the same subject it would change (a shared word, a close embedding,
  or one clearly nearer than any other slot), or of the value a correction names ("she's called
  Inge, not Ingeborg") or a change gives up ("left Monzo for Starling": Starling supersedes Monzo,
  in a multi-valued slot too); with none, it is nothing.
- A memory without a claim: a near-identical known one, or one on the same schedule that shares a
  word, is NOOP; with update, correction or append wording, the nearest known one of the same kind
  that shares a word with it (or is close by embedding) is UPDATE of it ("X, not Y" replaces the one
  that says Y); a relationship change supersedes the known partner; else ADD. Change wording with
  no kind of its own updates a near known memory of any kind, or is nothing.
- END (something the user had has ended): DELETE soft of the known memory it names; FORGET (a
  request): DELETE hard of each memory it names ("everything about Marco": all of them), or of what
  the previous message stored ("forget that")."""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from difflib import SequenceMatcher

from graph.core.vocab import SENSITIVITIES
from graph.ingestion.model import (
    ADD,
    APPEND,
    CHANGE_ONLY,
    CUE_APPEND,
    CUE_CORRECTION,
    DELETE,
    END,
    FORGET,
    HARD,
    NOOP,
    REPLACE,
    SOFT,
    SUPERSEDE,
    UPDATE,
    Candidate,
    Decision,
    Draft,
    Known,
)
from graph.ingestion.sensitivity import sensitivity_of
from graph.ingestion.text import content_words, normal
from graph.ingestion.vocabulary import (
    FAVORITE_PREFIX,
    PHONE_BRANDS,
    PREDICATES,
    ROLES,
    SLOT_WORDS,
    SUCCESSORS,
    THING_PREDICATES,
    VEHICLE_MAKES,
)

NEAR_DUPLICATE = 0.92  # cosine at which a memory without a claim says the same as a known one
NEAR = 0.55  # cosine at which a known memory is about the same thing, for claimless updates
NEAR_CLEAR, CLEAR_MARGIN = 0.4, 0.15  # a slot nearer than this and this far ahead of the next takes a value
RESPELLED = 0.7  # how alike two spellings are for a correction to respell the known value ("Micheal", "Michael")
# A request to forget that names no known memory's words or slot erases the nearest known memory by
# embedding only when it is this near and this far ahead of the next: else nothing (an unrelated
# memory is never erased on a guess).
FORGET_NEAR, FORGET_MARGIN = 0.3, 0.08
_GENERIC = frozenset({"now", "anymore", "sold", "got", "left", "over", "still", "just", "day", "week", "month",
                      "today", "morning", "cancelled", "canceled", "company", "place", "thing", "everywhere",
                      "right", "for", "me", "user"})


_QUALIFIERS = VEHICLE_MAKES | frozenset(PHONE_BRANDS) | {"dr", "mr", "mrs", "ms", "mx", "prof", "apple", "google"}
# Schedule words two events share without being the same thing.
_SCHEDULE = frozenset({"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "every", "each",
                       "daily", "weekly", "monthly", "am", "pm", "morning", "evening", "night", "week", "weekend"})


def same_value(a: str | None, b: str | None) -> bool:
    if a is None or b is None:
        return False
    x, y = normal(a), normal(b)
    if x == y or x.rstrip("s") == y.rstrip("s"):
        return True
    # One said with its make or title, the other without ("the Golf" and "VW Golf", "Lee" and "Dr. Lee").
    short, long_ = sorted((x.split(), y.split()), key=len)
    extra = long_[: len(long_) - len(short)]
    return bool(short) and long_[len(extra):] == short and all(w.rstrip(".") in _QUALIFIERS for w in extra)


# A word of a request -> the predicates whose slot it names ("address" -> lives_in, "wife" -> spouse).
_SLOT_NAMES: dict[str, set[str]] = {}
for _noun, _predicates in [*((n, (p,)) for n, p in {**THING_PREDICATES, **ROLES}.items()), *SLOT_WORDS.items()]:
    if " " not in _noun:
        for _w in content_words(_noun):
            _SLOT_NAMES.setdefault(_w, set()).update(_predicates)


def _words(k: Known) -> set[str]:
    words = content_words(k.text) | content_words(k.value or "") | content_words(k.subject or "")
    if k.predicate:
        words |= set(k.predicate.split("_"))
    return words - _GENERIC


def decide(candidate: Candidate, known: Sequence[Known], multi: Callable[[str], bool],
           previous_text: str | None = None) -> list[Decision]:
    """The decisions for one candidate ([] when it asks for nothing that can be done: a forget or
    an end that names nothing known, a value with no slot to fill)."""
    if candidate.action == FORGET:
        return _forget(candidate, known, previous_text)
    if candidate.action == END:
        return _end(candidate, known)
    if candidate.claim is not None:
        return _claimed(candidate, known, multi)
    decision = _claimless(candidate, known)
    if candidate.rule == CHANGE_ONLY:
        # Change wording with no kind of its own: an update of the near known memory, or nothing.
        if decision.op != UPDATE or decision.target is None:
            return []
        return [replace(decision, candidate=replace(candidate, memory_type=decision.target.memory_type))]
    return [decision]


def _slot(known: Sequence[Known], subject: str, predicate: str) -> list[Known]:
    """What is known of one subject's predicate, history included, oldest first."""
    return sorted((k for k in known if k.subject is not None and k.subject.lower() == subject.lower()
                   and k.predicate == predicate), key=lambda k: k.order)


def _current(known: Sequence[Known], subject: str, predicates: Sequence[str]) -> list[Known]:
    return sorted((k for k in known if k.subject is not None and k.subject.lower() == subject.lower()
                   and k.predicate in predicates and not k.historical), key=lambda k: k.order)


def _claimed(c: Candidate, known: Sequence[Known], multi: Callable[[str], bool]) -> list[Decision]:
    draft = c.claim
    assert draft is not None
    if draft.subject.startswith("user's "):
        # "my brother moved to Canada" with "My brother is Omar" known: Omar's claim.
        named = _current(known, "user", (draft.subject.removeprefix("user's "),))
        if len({normal(k.value or "") for k in named}) == 1 and named[-1].value:
            draft = Draft(named[-1].value, draft.predicate, draft.value)
            c = replace(c, claim=draft)
    if draft.predicate is None:
        resolved = _resolve_slot(c, known)
        if resolved is None:
            return _corrected_claimless(c, known)
        draft = resolved
        if draft.predicate in PREDICATES:  # "it's spelled Michael" corrects a name: a fact
            c = replace(c, memory_type=PREDICATES[draft.predicate].memory_type)
    predicate = draft.predicate
    assert predicate is not None
    slot = _slot(known, draft.subject, predicate)
    if not slot and (alias := open_alias(draft, known)) is not None:
        # "our broadband is Zen now" with broadband_provider known
        predicate, draft = alias, replace(draft, predicate=alias)
        c = replace(c, claim=draft)
        slot = _slot(known, draft.subject, predicate)
    many = multi(predicate)
    if c.historical:
        past = next((k for k in slot if k.historical and same_value(k.value, draft.value)), None)
        if past is not None:
            return [Decision(NOOP, None, c, past, "said before, as history", draft, not many)]
        return [Decision(ADD, None, c, None, "how things were: history, it supersedes nothing", draft, not many)]
    current = [k for k in slot if not k.historical]
    same = next((k for k in reversed(current) if same_value(k.value, draft.value)), None)
    if same is not None and not c.replaces:
        return [Decision(NOOP, None, c, same, "already known and current: corroborated", draft, not many)]
    if c.replaces or predicate in SUCCESSORS:
        earlier = _current(known, draft.subject, c.replaces or SUCCESSORS.get(predicate, ()))
        if earlier:
            return [Decision(UPDATE, SUPERSEDE, c, earlier[-1], f"{predicate} succeeds {earlier[-1].predicate}",
                             draft, not many)]
    given_up = next((k for k in reversed(current) if c.succeeds and same_value(k.value, c.succeeds)), None)
    if given_up is not None:  # "left Monzo for Starling", "traded my Kindle for a Kobo"
        return [Decision(UPDATE, SUPERSEDE, c, given_up, f"{draft.value} takes over from {given_up.value}", draft,
                         not many)]
    wrong = next((k for k in current if c.previous and same_value(k.value, c.previous)), None)
    if wrong is not None:
        return [Decision(UPDATE, REPLACE, c, wrong, "a correction of the value said before", draft, not many)]
    part = _part_corrected(c, known, draft.subject)
    if part is not None:
        return [part]
    if current and not many:
        target = current[-1]
        if c.cue == CUE_CORRECTION:
            return [Decision(UPDATE, REPLACE, c, target, "a correction: the known value was wrong", draft, True)]
        return [Decision(UPDATE, SUPERSEDE, c, target, "a new value over time: the old one becomes history", draft,
                         True)]
    if current:
        return [Decision(UPDATE, APPEND, c, current[-1], "another value of a multi-valued predicate", draft, False)]
    return [Decision(ADD, None, c, None, "nothing known for this subject and predicate", draft, not many)]


def is_open(predicate: str | None) -> bool:
    """An open slot: keyed by the thing's own words, no canonical predicate ("bank", "broadband_provider")."""
    return predicate is not None and predicate not in PREDICATES and not predicate.startswith(FAVORITE_PREFIX)


def open_alias(draft: Draft, known: Sequence[Known]) -> str | None:
    """The known open slot of the same subject that a new open slot names in fewer or more words
    ("broadband" and "broadband_provider", "carrier" and "mobile_carrier"): one's words all among
    the other's. None when there is none, or more than one."""
    if not is_open(draft.predicate):
        return None
    words = set((draft.predicate or "").split("_"))
    found = {k.predicate for k in known if k.predicate and is_open(k.predicate) and not k.historical
             and k.subject is not None and k.subject.lower() == draft.subject.lower()
             and ((mine := set(k.predicate.split("_"))) <= words or words <= mine)}
    return found.pop() if len(found) == 1 else None


def _part_corrected(c: Candidate, known: Sequence[Known], subject: str) -> Decision | None:
    """A correction of one word of a known value ("my surname is Kowalski, not Kowalsky" after "Anna
    Kowalsky"): that value, the word replaced."""
    if not c.previous or c.cue != CUE_CORRECTION:
        return None
    wrong = re.compile(r"(?i)(?<!\w)" + re.escape(c.previous) + r"(?!\w)")
    for k in reversed(known):
        if k.predicate and k.value and k.subject and k.subject.lower() == subject.lower() and not k.historical \
                and wrong.search(k.value) and not same_value(k.value, c.previous):
            value = wrong.sub(c.claim.value if c.claim else c.previous, k.value)
            draft = Draft(k.subject, k.predicate, value)
            return Decision(UPDATE, REPLACE, replace(c, claim=draft, memory_type=k.memory_type), k,
                            "a correction of part of the known value",
                            draft, k.exclusive)
    return None


def _corrected_claimless(c: Candidate, known: Sequence[Known]) -> list[Decision]:
    """A correction of what a memory without a claim says ("sorry, I meant Thursday not Tuesday" after
    "Yoga every Tuesday at 6"): UPDATE replace of the known memory that names the wrong word."""
    if not c.previous or c.cue != CUE_CORRECTION:
        return []
    wrong = re.compile(r"(?i)(?<!\w)" + re.escape(c.previous) + r"s?(?!\w)")
    named = [k for k in known if k.predicate is None and wrong.search(k.text)]
    if not named:
        return []
    target = max(named, key=lambda k: (k.similarity or 0.0, k.order))
    return [Decision(UPDATE, REPLACE, replace(c, claim=None, memory_type=target.memory_type), target,
                     "a correction of what the known memory says")]


def _spelling(a: str, b: str) -> float:
    return SequenceMatcher(None, normal(a), normal(b)).ratio()


def _resolve_slot(c: Candidate, known: Sequence[Known]) -> Draft | None:
    draft = c.claim
    assert draft is not None
    if c.previous or c.succeeds:
        was = c.previous or c.succeeds
        k = next((k for k in reversed(known) if k.predicate and same_value(k.value, was)), None)
        if k is not None and k.subject is not None:
            return Draft(k.subject, k.predicate, draft.value)
        return None
    words = content_words(c.text)
    rivals = [k for k in known if k.predicate and k.subject and k.subject.lower() == draft.subject.lower()
              and k.exclusive and not k.historical and not same_value(k.value, draft.value)]
    if c.cue == CUE_CORRECTION:
        # "actually it's spelled Michael": the known value it respells.
        spelt = [k for k in rivals if _spelling(k.value or "", draft.value) >= RESPELLED]
        if spelt:
            respelt = max(spelt, key=lambda k: (_spelling(k.value or "", draft.value), k.order))
            return Draft(respelt.subject or draft.subject, respelt.predicate, draft.value)
    best = max(rivals, key=lambda k: (bool(_words(k) & words), k.similarity or 0.0, k.order), default=None)
    if best is None or not (_words(best) & words or (best.similarity or 0.0) >= NEAR or _clearly_nearest(best, rivals)):
        return None
    return Draft(draft.subject, best.predicate, draft.value)


def _clearly_nearest(best: Known, rivals: Sequence[Known]) -> bool:
    """Nearer than NEAR_CLEAR and well ahead of every other slot the value could change ("I go to Theo
    for haircuts now" beside "My barber is Sam" and "I live in Bath")."""
    sim = best.similarity or 0.0
    second = max(((k.similarity or 0.0) for k in rivals if k is not best and k.predicate != best.predicate),
                 default=0.0)
    return sim >= NEAR_CLEAR and sim - second >= CLEAR_MARGIN


def _claimless(c: Candidate, known: Sequence[Known]) -> Decision:
    if c.replaces:
        name = c.about[0].lower() if c.about else None
        partners = [k for k in _current(known, "user", c.replaces) if name is None or normal(k.value or "") == name]
        if partners:
            return Decision(UPDATE, SUPERSEDE, c, partners[-1], "the relationship changed: the old one is history")
        return Decision(ADD, None, c, None, "a relationship change with no relationship known")
    words = content_words(c.text)
    for k in known:
        if k.predicate is None and (normal(k.text) == normal(c.text) or (k.similarity or 0.0) >= NEAR_DUPLICATE):
            return Decision(NOOP, None, c, k, "the same memory is known")
    if c.cue is None and c.recurrence:
        # The same schedule of the same thing, worded anew ("choir on Wednesdays at 7pm" after
        # "Choir every Wednesday at 7pm"): already known.
        same = [k for k in known if k.predicate is None and k.recurrence and set(k.recurrence.split(";")) == set(
            c.recurrence.split(";")) and _words(k) & words - _SCHEDULE]
        if same:
            return Decision(NOOP, None, c, same[-1], "the same schedule is known")
    if c.cue is not None:
        near = [k for k in known if k.predicate is None and (k.memory_type == c.memory_type or c.rule == CHANGE_ONLY)
                and (_words(k) & words or (k.similarity or 0.0) >= NEAR)]
        if near:
            target = max(near, key=lambda k: (len(_words(k) & words), k.similarity or 0.0, k.order))
            mode = REPLACE if c.cue == CUE_CORRECTION else APPEND if c.cue == CUE_APPEND else SUPERSEDE
            return Decision(UPDATE, mode, c, target, f"{mode} of the nearest known memory of its kind")
    return Decision(ADD, None, c, None, "no known memory says this")


def _end(c: Candidate, known: Sequence[Known]) -> list[Decision]:
    target = None
    if c.claim is not None and c.claim.predicate is not None:
        slot = _current(known, c.claim.subject, (c.claim.predicate,))
        if not c.claim.value:  # "I've been made redundant": the current one, whatever it is
            target = slot[-1] if slot else None
        else:
            target = next((k for k in reversed(slot) if k.value and (same_value(k.value, c.claim.value) or normal(
                k.value).startswith(normal(c.claim.value)))), None)
    if target is None:
        target = _best_match(set(c.about) - _GENERIC, known, prefer_events="cancel" in c.text.lower()
                             or "over" in c.text.lower())
    if target is None:
        return []
    return [Decision(DELETE, SOFT, replace(c, sensitivity=_level(c, target), memory_type=target.memory_type), target,
                     "what it names has ended: archived")]


def _forget(c: Candidate, known: Sequence[Known], previous_text: str | None) -> list[Decision]:
    if c.about == ("<previous>",):
        if not previous_text:
            return []
        about = content_words(previous_text) - _GENERIC
        target = _best_match(about, known, prefer_events=False, planned_first=True)
        targets = [target] if target else []
    else:
        about = set(c.about) - _GENERIC
        slots = {p for w in about for p in _SLOT_NAMES.get(w, ())}
        named = {k.id for k in known if _names_slot(k, about, slots)}
        if c.rule == "forget every":
            targets = [k for k in known if _words(k) & about or k.id in named]
        else:
            best = _best_match(about, known, prefer_events=False, named=named)
            targets = [best] if best else [k for k in [_nearest_alone(known)] if k is not None and about]
    return [Decision(DELETE, HARD, replace(c, sensitivity=_level(c, k), memory_type=k.memory_type), k,
                     "asked to forget it: erased")
            for k in targets]


def forget_slots(c: Candidate) -> set[str]:
    """The predicates of the user's slots a request to forget names, to read them beside the nearest
    memories: the words' own ("my bank": bank) and those they name ("my address": lives_in)."""
    if c.action != FORGET or c.about == ("<previous>",):
        return set()
    about = set(c.about) - _GENERIC
    return about | {p for w in about for p in _SLOT_NAMES.get(w, ())}


def _names_slot(k: Known, about: set[str], slots: set[str]) -> bool:
    """Whether the request's words name the known claim's slot: its predicate ("my bank" and the
    open slot bank) or a word for it ("my address" and lives_in)."""
    return k.predicate is not None and (k.predicate in slots or bool(
        content_words(k.predicate.replace("_", " ")) & about))


def _nearest_alone(known: Sequence[Known]) -> Known | None:
    """The nearest known memory by embedding when it is near (FORGET_NEAR) and clearly nearer than
    any other (FORGET_MARGIN); else None."""
    ranked = sorted((k for k in known if k.similarity is not None), key=lambda k: -(k.similarity or 0.0))
    if not ranked or (ranked[0].similarity or 0.0) < FORGET_NEAR:
        return None
    second = (ranked[1].similarity or 0.0) if len(ranked) > 1 else 0.0
    return ranked[0] if (ranked[0].similarity or 0.0) - second >= FORGET_MARGIN else None


def _best_match(about: set[str], known: Sequence[Known], *, prefer_events: bool,
                planned_first: bool = False, named: set[str] | frozenset[str] = frozenset()) -> Known | None:
    """The known memory sharing most words with `about` (a memory whose slot it names, `named`, counts
    one more)."""
    scored = [(len(_words(k) & about) + (k.id in named), k) for k in known]
    scored = [(s, k) for s, k in scored if s > 0]
    if not scored:
        return None
    return max(scored, key=lambda sk: (sk[1].planned if planned_first else False, sk[0],
                                       prefer_events and sk[1].memory_type == "event",
                                       sk[1].similarity or 0.0, sk[1].order))[1]


def _level(c: Candidate, target: Known) -> str:
    levels = (c.sensitivity, target.sensitivity, sensitivity_of(target.text))
    return max(levels, key=SENSITIVITIES.index)


def settle_message(decisions: list[Decision]) -> list[Decision]:
    """One message's decisions made consistent: an end or forget of what another decision of the
    same message updates is dropped ("I left Acme and joined Globex" supersedes; it does not also
    archive), and a memory is touched once."""
    updated = {d.target.id for d in decisions if d.op in (UPDATE, NOOP) and d.target is not None}
    out, touched = [], set()
    for d in decisions:
        if d.op == DELETE and d.target is not None and (d.target.id in updated or d.target.id in touched):
            continue
        if d.op == DELETE and d.target is not None:
            touched.add(d.target.id)
        out.append(d)
    return out


def decide_message(candidates: Sequence[Candidate], known_for: Callable[[Candidate], Sequence[Known]],
                   multi: Callable[[str], bool], previous_text: str | None = None) -> list[Decision]:
    """Every candidate of one message decided against what is known for it, made consistent."""
    decisions: list[Decision] = []
    for c in candidates:
        decisions += decide(c, known_for(c), multi, previous_text)
    return settle_message(decisions)

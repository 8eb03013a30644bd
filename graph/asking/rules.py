"""The deterministic router: a question's intent, the other intents it carries and its slots, by the
rules of docs/asking.md ("Routing"), from the markers (markers.py) and slots (slots.py) it finds.

- An exclusion ("but not", "except", "other than", ...) makes the question `negation`; the intent it
  wraps comes first in `also`, `search` when it wraps none.
- Otherwise the head with the earliest place in the precedence wins: negation > decision > goal >
  sentiment > historical > relationship > temporal > entity > about_me > search.
- A window narrows, it does not route: only "what happened / what did I do / anything from" heads
  make `temporal`; a window on another head puts `temporal` in `also`.
- A goal or decision named as the object of a feeling ("how do I feel about my running goal") stays
  the object: it goes to `also`.
- A past tense on one of the user's slots with a window or "before" makes `historical` ("where was I
  living in 2019"); a past tense alone does not.
- A present-tense ask of one fact ("where does my sister work", "what's my job now") decides
  `search` when nothing else is asked, so the classifier is not asked; it is never a second ask. So
  does a saved thing asked for ("find my notes on ...") or when something is ("when did I last ...");
  what follows a saved thing describes it, and no ask is taken from it.
Pure: no I/O, deterministic."""
from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from graph.asking.markers import FEELING_FRAMES, MARKERS, PEOPLE, SAVED_THING, THING_BY_KIND, Marker
from graph.asking.question import Question, prepare
from graph.asking.route import Route, Slots
from graph.asking.slots import NEVER_NAMES, exclusions, names, owned_by_another, predicate, window
from graph.core.vocab import ASK_INTENTS

_BEFORE_CHANGE = "asks whether something changed"
_PAST_TENSE_ON_SLOT = "asks a slot's value in the past"
_PAST_MARKERS = ("asks for a past value ('used to')", "asks for an old or former value",
                 "asks whether something changed", "asks about something that stopped")
_DETERMINER = re.compile(r"^(?:the|a|an|my|our|your|his|her|their|this|that|these|those|some|any|every|all|me|"
                         r"myself|us|you|yourself|it|them|him|her|anything|something|everything|what|how|why|when|"
                         r"where|whether|if|to|i|we|he|she|they|there|here)\b", re.I)
_PLACE_KINDS = re.compile(r"\b(?:cafe|café|restaurant|bar|pub|bakery|gym|school|company|shop|store|hotel|daycare|"
                          r"clinic|hospital|street|road|park|museum|band|team|club|app|firm|studio|church|library|"
                          r"university|college|agency|brand|group|labs?|inc|ltd|corp)\b", re.I)
_FILLER = re.compile(r"\s+(?:again|anyway|anyways|now|exactly|though|please|pls|plz|lol|then|yet|already|"
                     r"so far|right now|at all|to me|by the way|btw)$", re.I)
_FIRST_PERSON = re.compile(r"\b(?:i|me|my|mine|myself|i'm|im|i've|ive|i'd|we|us|our|the user|user's|the user's)\b")
_CLAUSE = re.compile(r"(?:,|;|\?|\band\b)\s*(?:and\s+)?(?=(?:what|where|who|whos|who's|when|which|how|whats|"
                     r"what's|wheres|where's)\b(?:'s)?\s*(?:do|does|did|is|are|was|were|am|can|should|have|has|s|i|"
                     r"my|the)\b)")
_WH_QUESTION = re.compile(r"^(?:what|where|who|whos|who's|when|which|how|whats|what's|wheres|where's)\b")
# A feeling said in passing, not asked: its subject comes before the frame's verb ("the one she was so
# upset about", "I was really upset about the fine", "the song that makes me feel calm"), unless an
# auxiliary or "how", "whether", "if" puts it there ("have I been frustrated", "whether I was upset
# about it"), in a question that asks for something (what, which, where, when, who).
_SUBJECTS = frozenset(("i", "i've", "ive", "i'd", "she", "he", "they", "we", "you", "it", "me", "him", "her", "them",
                       "us", "she's", "he's", "they've", "we've", "you've"))
_ASKING = frozenset(("am", "is", "are", "was", "were", "do", "does", "did", "have", "has", "had", "how", "whether",
                     "if", "why", "can", "could", "will", "would", "should"))
_ASKS_FOR_A_THING = re.compile(r"\b(?:what|which|where|when|who|whats|what's|wheres|where's|who's|whos)\b")
# Or a question of its own after the feeling is said ("I was so upset with the contractor, did he ever
# send the invoice"); not one about what was said ("I've been down about running, is that right").
_ASKS_ANOTHER_QUESTION = re.compile(r",\s*(?:(?:and|so|but)\s+)?(?:did|do|does|has|have|had|can|could|will|would|is|"
                                    r"are|was|were)\s+(?!(?:that|it|this|so)\b)[\w']+")


@dataclass(frozen=True)
class _Hit:
    marker: Marker
    start: int
    end: int
    obj: tuple[int, int] | None  # the span of what it asks about, when the marker names it

    @property
    def intent(self) -> str:
        return self.marker.intent


def _object(match: re.Match[str], marker: Marker) -> tuple[int, int] | None:
    for group in marker.pattern.groupindex:
        if group.startswith("obj") and match.group(group) is not None:
            return match.span(group)
    return None


def _inside(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(s <= span[0] and span[1] <= e for s, e in spans)


def _trim(text: str) -> str:
    text = text.strip()
    for quote in ("'", '"'):
        # A quote that closes a title stays; one left over from a cut goes.
        if text.count(quote) % 2 and not re.search(r"\w'\w", text):
            text = text.strip(quote)
    while True:
        cut = _FILLER.sub("", text)
        if cut == text:
            return text
        text = cut


def _names_a_thing(phrase: str) -> bool:
    """The object of an entity head names one thing: a proper name ("Marcus", "Dr. Okafor", "the
    Blue Door cafe"), or one or two words without a determiner in chat style ("tell me about rose")."""
    phrase = _trim(phrase)
    if re.match(r"^(?:on|in|at|since|before|after|from|with|during|for|about)\b", phrase, re.I) \
            or phrase.lower() in NEVER_NAMES or re.match(r"^[a-z]+ing\b", phrase):
        return False  # a preposition, a stock phrase, or a verb ("who's hosting thanksgiving") names nobody
    if re.match(r"^(?:my|our|the user'?s) (?:" + PEOPLE + r")$", phrase, re.I):
        return True  # a person described uniquely: "tell me about my sister"
    if not phrase or _DETERMINER.match(phrase):
        # "the Blue Door cafe": a determiner, then a name and the kind of place it is; "the
        # Hendersons": a family by its name.
        return bool((re.match(r"^the (?:[A-Z][\w']*\s?)+", phrase) and _PLACE_KINDS.search(phrase))
                    or re.fullmatch(r"the [A-Z][\w']+s", phrase))
    words = phrase.split()
    if phrase[0].isupper() or re.match(r"^(?:dr|mr|mrs|ms|prof)\.? ", phrase, re.I):
        return True
    return len(words) <= 2 and not re.search(r"\b(?:me|my|myself|you|this|that|it)\b", phrase, re.I)


def _hits(q: Question, excluded: list[tuple[int, int]], window_span: tuple[int, int] | None) -> list[_Hit]:
    hits: list[_Hit] = []
    for marker in MARKERS:
        for m in marker.pattern.finditer(q.masked):
            if _inside(m.span(), excluded):
                continue
            obj = _object(m, marker)
            if marker.word_test is not None:
                word = next((m.group(g) for g in marker.pattern.groupindex if g.startswith("word") and m.group(g)), "")
                if not marker.word_test(word):
                    continue
            if marker.proper and (obj is None or not q.text[obj[0]:obj[0] + 1].isupper()):
                continue
            if marker.intent == "entity" and (obj is None or not _names_a_thing(q.text[obj[0]:obj[1]])
                                              or (window_span and _inside(obj, [window_span]))):
                continue
            hits.append(_Hit(marker, m.start(), m.end(), obj))
    # A name inside another ask ("who was Dana to me", "decided anything about Christmas") is that
    # ask's object, not a summary asked for.
    others = [(h.start, h.end) for h in hits if h.intent != "entity"]
    return [h for h in hits if h.intent != "entity" or not any(h.start < e and s < h.end for s, e in others)]


def _in_passing(q: Question, start: int) -> bool:
    """The feeling frame at `start` is said, not asked (above)."""
    words = list(re.finditer(r"[\w']+", q.masked[:start]))
    if not words or not (_ASKS_FOR_A_THING.search(q.masked) or _ASKS_ANOTHER_QUESTION.search(q.masked, start)):
        return False
    last = words[-1]
    # the subject: a pronoun, or a name written with a capital inside the sentence ("the one Ana was so upset about")
    subject = last.group() in _SUBJECTS or (last.start() > 0 and q.text[last.start()].isupper())
    return subject and (len(words) < 2 or words[-2].group() not in _ASKING)


def _past_slot(q: Question, has_window: bool, heads: set[str]) -> bool:
    """A past tense on one of the user's slots: "what was my title at Globex", "where was I living
    in 2019", "what car did I have before the Golf", "which teams have I been on over the years".
    Not when the head is what happened ("what did I do at work last week")."""
    if "temporal" in heads or predicate(q, []) is None or owned_by_another(q):
        return False
    m = q.masked
    if re.search(r"\b(?:was|were) (?:my|the user'?s) ", m) or re.search(r"\bmy [\w ]{1,20} (?:was|were)\b", m):
        return True
    if not (has_window or " before " in m):
        return False
    return bool(re.search(r"\b(?:was|were|did|had)\b|\b(?:have|has) (?:i|we|the user) (?:been|had|lived|worked|"
                          r"owned|driven)\b", m) and _FIRST_PERSON.search(m))


def _clauses(q: Question) -> list[tuple[int, int]]:
    cuts = [0, *(m.end() for m in _CLAUSE.finditer(q.masked)), len(q.masked)]
    return [(a, b) for a, b in pairwise(cuts) if q.masked[a:b].strip(" ,.?!;")]


def route(question: str, fallback: tuple[str, str] | None = None, vetoed: tuple[str, str] | None = None) -> Route:
    """The route of one question: its intent, `also`, slots and reasons. `fallback` is the intent (and
    the reason) to take when no rule picks one, instead of search (graph/asking/blend.py). `vetoed` is
    an intent the rules must not ask for (and the reason): its markers count for nothing."""
    q = prepare(question)
    excluded = exclusions(q)
    excluded_spans = [span for _, span in excluded]
    found_window = window(q, excluded_spans)
    hits = _hits(q, excluded_spans, found_window[1] if found_window else None)

    # A goal or decision inside what a feeling is about (a goal inside what a decision is about) is that
    # ask's object, not an ask of its own.
    holders = {"goal": ("sentiment", "decision"), "decision": ("sentiment",)}
    demoted = {id(h) for h in hits if h.intent in holders and _inside(
        (h.start, h.end), [o.obj for o in hits if o.obj and o.intent in holders[h.intent]])}
    # "before I moved" is a window on what happened ("what did I do before I moved"), not a past value,
    # unless the question names a slot ("where did I live before I moved").
    if any(h.intent == "temporal" for h in hits) and predicate(q, []) is None:
        demoted |= {id(h) for h in hits if h.intent == "historical" and h.marker.name == _BEFORE_CHANGE
                    and re.fullmatch(r"before (?:i|we|the user) \w+", q.masked[h.start:h.end])}
    # A past tense on a slot a named or related person owns asks what they did, not a past value of the
    # user's ("which dentist did my coworker Ahmed switch to after he moved").
    if owned_by_another(q):
        demoted |= {id(h) for h in hits if h.marker.name == _PAST_TENSE_ON_SLOT}
    # What follows a saved thing asked for describes it ("is there a note about what Marcus decided"):
    # no ask of its own.
    saved_end = min((h.end for h in hits if h.marker.name == SAVED_THING), default=None)
    described = {id(h) for h in hits if saved_end is not None and h.intent != "search" and h.start >= saved_end}
    # A feeling said in passing is no ask either ("what was the name of Ana's dog, the one she was so upset
    # about losing").
    described |= {id(h) for h in hits if h.marker.name in FEELING_FRAMES and _in_passing(q, h.start)}
    # So is one in the words that describe a thing asked for by its kind ("which vet did the neighbours say
    # was good with anxious cats").
    kind_end = min((h.end for h in hits if h.marker.name == THING_BY_KIND), default=None)
    described |= {id(h) for h in hits if kind_end is not None and h.marker.name in FEELING_FRAMES
                  and h.start >= kind_end}
    demoted |= described
    if vetoed:
        described |= {id(h) for h in hits if h.intent == vetoed[0]}
        demoted |= described
    heads = [h for h in hits if id(h) not in demoted]
    head_intents = {h.intent for h in heads}
    reasons = [f"{h.intent}: {h.marker.name} ({q.text[h.start:h.end]!r})" for h in heads]
    if "historical" not in head_intents and (not vetoed or vetoed[0] != "historical") \
            and _past_slot(q, found_window is not None, head_intents):
        head_intents.add("historical")
        reasons.append("historical: a past tense on one of the user's slots, narrowed to a time")

    first_at: dict[str, int] = {}
    for h in sorted(hits, key=lambda h: h.start):
        if h.intent == "search" or id(h) in described:
            continue  # a plain fact decides when nothing else asks; it is no second ask
        if h.intent != "historical" or h.marker.name in _PAST_MARKERS or h.intent in head_intents:
            first_at.setdefault(h.intent, h.start)
    if "historical" in head_intents:
        first_at.setdefault("historical", 0)
    if found_window:
        first_at.setdefault("temporal", found_window[1][0])
    # A second question with no marker of its own is a plain search ("..., and where do I work").
    clauses = _clauses(q)
    for start, end in clauses if len(clauses) > 1 else ():
        clause = q.masked[start:end].strip(" ,.?!;")
        if _WH_QUESTION.match(clause) and not any(start <= h.start < end for h in hits) \
                and not _inside((start, end), excluded_spans):
            first_at.setdefault("search", start)
            reasons.append(f"search: a second question with no marker ({q.text[start:end].strip(' ,.?!;')!r})")

    candidates = [i for i in ASK_INTENTS if i in head_intents]
    if excluded:
        intent = "negation"
        wrapped = candidates[0] if candidates else "search"
        reasons.insert(0, "negation: excludes " + ", ".join(repr(x) for x, _ in excluded))
    elif candidates:
        intent, wrapped = candidates[0], None
    elif fallback:
        intent, wrapped = fallback[0], None
    else:
        intent, wrapped = "search", None
        if not vetoed:
            reasons.append("search: no marker of another intent")
    # The classifier's word comes last, once: it overruled a rule, or it picked where no rule did.
    closing = [vetoed[1]] if vetoed else []
    if fallback and not excluded and not candidates:
        closing.append(fallback[1])
    reasons.extend(dict.fromkeys(closing))
    also_order = sorted((at, i) for i, at in first_at.items() if i not in (intent, wrapped))
    also = ([wrapped] if wrapped else []) + [i for _, i in also_order]
    # `historical` goes in `also` only for a marker that asks for a past value, not a past tense alone.
    if intent != "historical" and "historical" in also and not any(
            h.intent == "historical" and h.marker.name in _PAST_MARKERS for h in heads):
        also.remove("historical")
    if found_window and intent != "temporal" and "temporal" not in also:
        also.append("temporal")
    also = list(dict.fromkeys(a for a in also if a != intent))
    slots = _slots(q, intent, also, heads, excluded, found_window)
    return Route(intent=intent, also=tuple(also), slots=slots, reasons=tuple(reasons), router="rules",
                 unsure=not excluded and not candidates)


# -- slots ---------------------------------------------------------------------------------------------------
_PREPOSITION = r"(?:about|on|with|for|towards?|toward|regarding|of|to|in|at|over)"
_AFTER_HEAD = re.compile(r"\s+(?:" + _PREPOSITION + r"\s+)?(?P<np>[^,.?!;]+)")
_STARTS_NP = re.compile(r"^(?:the|a|an|my|our|his|her|their|your|this|that|these|those|[A-Z])")
_ANY_PREPOSITIONAL = re.compile(r"\b(?:about|on|with|for|towards?|regarding)\s+(?P<np>[^,.?!;]+)")
_TOPIC_END = re.compile(
    r"[,.?!;]|\b(?:and (?:what|how|who|where|is|are|do|did|i|we)|lately|these days|anymore|any more|no longer|"
    r"anyway|again|yet|right now|or less|or more|or not|than|judging|because|since|can you|could you|is|are|was|"
    r"were|has|have|had|does|did|do|gotten|getting (?:better|worse)|been|am|will|would|should|can|could|who|"
    r"that i|i think)\b")
_FRAMES = tuple(re.compile(p) for p in (
    r"^(?:hey|hi|ok|okay|so|um|please|pls|quick question)\b[,:]?\s+",
    r"^(?:could|can|would) you (?:please )?",
    r"^(?:do|did) you (?:happen to )?(?:know|remember|recall|have)\s+",
    (r"^(?:please )?(?:tell me|remind me|show me|find(?: me)?|search(?: for)?:?|pull up|look up|give me|i want|"
     r"i need)(?: about| of| what)?\s+"),
    r"^is there\s+",
    r"^(?:what|how) (?:did|do|does) (?:you|the \w+|\w+) (?:say|know|spell|think|mention|tell you)(?: about)?\s+",
    r"^did i (?:tell you about|mention|save|write down)\s+",
    r"^was it .+? (?:who|that) \w+ (?:me |us )?",
    r"^(?:do|does|did|am|have|has|is|was) (?=i\b|we\b|the user\b)",
    (r"^(?:what|which|where|how much|how many|whats|what's|wheres|where's|how)\b(?: (?:is|are|was|were|'s|s|do|"
     r"does|did|am))?\s+"),
    r"^(?:the )?(?:name|title) of\s+",
    r"^(?:everything|anything|all|stuff|things|memories|notes) (?:about|on)\s+",
))
_FIRST_PERSON_OBJECT = re.compile(
    r"^(?:i|we|the user)\s+(?:\w+\s+)?(?:have|had|liked?|loved?|saved|rated|own|owned|keep|pay for|paid for|"
    r"bought|booked|save|get|got)\s+(?P<np>[^,.?!;]+)")


def _np(text: str) -> str | None:
    stop = _TOPIC_END.search(text.lower())
    phrase = _trim(text[:stop.start()] if stop else text)
    return phrase or None


def _search_topic(text: str) -> str | None:
    rest = text.strip()
    while True:
        before = rest
        for frame in _FRAMES:
            m = frame.match(rest.lower())
            if m:
                rest = rest[m.end():]
        if rest == before:
            break
    if re.match(r"^(?:i|we|the user)\b", rest, re.I):
        owned = _FIRST_PERSON_OBJECT.match(rest.lower())
        return _np(rest[owned.start("np"):]) if owned else None
    if re.match(r"^\w+ (?:am|is|are) (?:i|we|the user)\b", rest.lower()):
        return None  # "how tall am I": a property, no thing
    return _np(rest)


def _topic(q: Question, intent: str, also: list[str], heads: list[_Hit],
           excluded: list[tuple[str, tuple[int, int]]], found_window: tuple[str, tuple[int, int]] | None
           ) -> str | None:
    head_intent = also[0] if intent == "negation" and also else intent
    if head_intent in ("about_me", "entity", "relationship", "historical"):
        return None
    cut = min([len(q.text), *(start for _, (start, _end) in excluded)])
    if found_window and found_window[1][0] > 0:
        cut = min(cut, found_window[1][0])
    text = q.text[:cut]
    if head_intent == "search":
        return _search_topic(text)
    own = sorted((h for h in heads if h.intent == head_intent), key=lambda h: -h.start)
    for h in own:
        if h.obj and h.obj[0] < cut:
            return _np(q.text[h.obj[0]:min(h.obj[1], cut)])
    if head_intent == "decision" and own and (about := re.search(r"\b(?:about|regarding)\s+(?P<np>[^,.?!;]+)",
                                                                 text)):
        return _np(about.group("np"))
    for h in own:
        after = _AFTER_HEAD.match(text, h.end)
        if after is None:
            continue
        np = after.group("np")
        head_text = q.masked[h.start:h.end]
        direct = re.search(r"\b" + _PREPOSITION + r"$", head_text) or after.group().strip() != np.strip()
        found = _np(np) if direct or _STARTS_NP.match(np) else None
        if found and found.lower() not in ("it", "them", "that", "this", "him", "her", "those", "these"):
            return found
    if head_intent == "goal":
        word = re.search(r"\b(?!(?:my|any|the|your|old|new|of|our|what|are|set)\b)(\w+) goals?\b", q.lower[:cut])
        return q.text[word.start(1):word.end(1)] if word else None
    if head_intent in ("sentiment", "decision") and own:
        about = _ANY_PREPOSITIONAL.search(text, 0 if head_intent == "decision" else own[-1].start)
        return _np(about.group("np")) if about else None
    return None


_FRAME_ME = re.compile(r"\b(?:tell|remind|show|give|let|help) me\b")
_POSSESSIVE = re.compile(r"\b(?!(?:What|Who|Where|When|How|It|That|There|Here|He|She|Let|Whats|Everyone|Everybody|"
                         r"Someone|Somebody)'s)(?:[A-Z][\w]*'s|my \w+'s)(?=\s)")


def _slots(q: Question, intent: str, also: list[str], heads: list[_Hit],
           excluded: list[tuple[str, tuple[int, int]]], found_window: tuple[str, tuple[int, int]] | None) -> Slots:
    avoid = [span for _, span in excluded] + ([found_window[1]] if found_window else [])
    found = [n for n, _ in names(q, avoid)]
    wrapped = also[0] if intent == "negation" and also else intent
    if wrapped in ("entity", "relationship") and not found:
        # Chat style writes names in lower case: the entity head's object is the name then.
        for h in heads:
            if h.intent in ("entity", "relationship") and h.obj:
                phrase = _trim(q.text[h.obj[0]:h.obj[1]])
                if phrase and not _DETERMINER.match(phrase):
                    found = [phrase]
                    break
    past = intent == "historical" or "historical" in also
    slot = predicate(q, avoid) if past else None
    if slot is not None and intent != "historical" and re.search(r"\b(?:living|working)\b", q.masked):
        slot = None  # a gerund after a feeling ("do I like living in Leeds") names no slot
    topic = _topic(q, intent, also, heads, excluded, found_window)
    main_end = min([len(q.masked), *(s for _, (s, _e) in excluded)])
    main = _FRAME_ME.sub(" ", q.masked[:main_end])
    possessive = _POSSESSIVE.search(q.text[:main_end])
    subject: str | None
    if wrapped == "entity" or (wrapped == "relationship" and len(found) >= 2 and not _FIRST_PERSON.search(main)):
        subject = "entity"
    elif wrapped in ("about_me", "goal", "decision", "temporal", "historical", "relationship"):
        subject = "user"
    elif possessive:
        subject = "entity"
    elif _FIRST_PERSON.search(main):
        subject = "user"
    elif found and re.search(r"\b(?:does|did|is|was|has)\s+" + re.escape(found[0].lower()) + r"\b", q.lower):
        subject = "entity"
    else:
        subject = None
    return Slots(subject=subject, predicate=slot, entity=tuple(found), topic=topic,
                 exclude=tuple(x for x, _ in excluded) if intent == "negation" else (),
                 window=found_window[0] if found_window else None)

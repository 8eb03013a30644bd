"""The phrases that say what a question asks for, per intent, as regular expressions over the masked,
lower-cased question (graph/asking/question.py). Each one names itself for `explain`. A marker is a
head (it asks for the thing: "what did I decide", "how do I feel about") or, for `historical`, a
past-value marker ("used to", "my old job"). Windows and exclusions are slots (slots.py). Pure."""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from graph.memories.sentiment import valence

# Who asks about the user: first person, or an agent asking about "the user".
ME = r"(?:i|we|the user|user|you and i|\w+ and i)"
MY = r"(?:my|our|the user'?s|user'?s)"

# Slot words (canonical predicate names of docs/asking.md) as people say them.
PREDICATE_WORDS: dict[str, tuple[str, ...]] = {
    "lives_in": ("live", "lived", "living", "place i've lived", "places i've lived", "home", "city", "flat",
                 "apartment"),
    "works_at": ("work", "worked", "working", "employer", "company"),
    "job_title": ("job title", "job", "title", "role", "position", "career"),
    "car": ("car", "cars", "drive", "drove"),
    "partner": ("partner", "boyfriend", "girlfriend", "wife", "husband", "dating"),
    "school": ("school", "university", "uni"),
    "phone": ("phone", "phone number", "number"),
    "email": ("email", "email address", "e-mail"),
    "diet": ("diet", "vegetarian", "vegan", "pescatarian"),
    "hobby": ("hobby", "hobbies"),
    "pet": ("pet", "pets", "dog", "cat"),
    "manager": ("manager", "boss"),
    "gym": ("gym",),
    "doctor": ("doctor", "gp", "dentist"),
    "hair": ("hair",),
    "team": ("team", "teams"),
    "bank": ("bank",),
    "name": ("name", "surname", "last name"),
    "favourite_food": ("favourite food", "favorite food"),
    "address": ("address",),
}
SAVED_THING = "names a saved thing asked for"
THING_BY_KIND = "asks for a thing by its name or kind"
# The feeling frames: a copula or a verb of feeling, then a feeling word. Asked, they put the subject
# after the verb ("am I still upset", "has Lena been upset"); said in passing, before it (rules.py).
FEELING_FRAMES = ("asks whether someone is (still) feeling a certain way",
                  "asks whether someone feels a certain way about something (VADER's affect words)")
# Things a user saves and later asks for.
_SAVED = (r"note|doc|document|file|article|recipe|email|message|memo|list|link|photo|pic|screenshot|receipt|"
          r"spreadsheet|page|podcast|playlist|video|slides|draft|letter")
_SLOT_WORD = "|".join(sorted({re.escape(w) for ws in PREDICATE_WORDS.values() for w in ws}, key=len, reverse=True))

# People a user has in a role: "who's my dentist", "who is my manager again".
ROLES = ("manager", "boss", "dentist", "doctor", "gp", "therapist", "landlord", "landlady", "lawyer", "accountant",
         "partner", "wife", "husband", "girlfriend", "boyfriend", "best friend", "mentor", "coach", "trainer",
         "neighbour", "neighbor", "physio", "vet", "plumber", "electrician", "babysitter", "nanny", "tutor",
         "teacher", "advisor", "adviser", "agent", "contact", "sponsor", "godfather", "godmother", "team lead",
         "supervisor", "hairdresser", "barber", "mechanic", "roommate", "flatmate", "housemate", "ex")
_ROLE = "|".join(sorted((re.escape(r) for r in ROLES), key=len, reverse=True))
# People described by who they are to the user: "tell me about my sister" asks about one person.
_PEOPLE_ONLY = "|".join((
    "sister", "brother", "mom", "mum", "mother", "dad", "father", "son", "daughter", "aunt", "uncle", "cousin",
    "niece", "nephew", "grandma", "grandmother", "grandpa", "grandfather", "fiance", "fiancee", "fiancé", "fiancée",
    "stepmom", "stepdad", "in-laws", "mother-in-law", "father-in-law", "sister-in-law", "brother-in-law",
    "kids?", "children", "family", "colleague", "coworker", "co_worker", "friend", "best mate", "mate",
    "friends", "colleagues", "coworkers", "co_workers", "siblings", "parents", "relatives", "cousins"))
PEOPLE = _ROLE + "|" + _PEOPLE_ONLY

FEELINGS = (r"happ(?:y|ier|iest)|unhappy|sad(?:der)?|stressed|anxious|annoyed|angry|upset|frustrated|excited|"
            r"worried|nervous|mad|grumpy|bitter|salty|bummed|fed up|disappointed|hopeful|content|satisfied|"
            r"unsatisfied|dissatisfied|resentful|jealous|proud|ashamed|scared|afraid|bored|tired|sick|burnt out|"
            r"burned out|positive|negative|optimistic|pessimistic|thrilled|pleased|irritated|lonely|hurt|calm|"
            r"relaxed|overwhelmed|excited")


@dataclass(frozen=True)
class Marker:
    intent: str
    name: str  # what it recognised, for explain
    pattern: re.Pattern[str]
    object_group: str | None = None  # a named group holding what it asks about (its object)
    proper: bool = False  # its object must be written with a capital (a proper name)
    # The word in the group named `word` must pass this test (a lexicon look-up), else no match.
    word_test: Callable[[str], bool] | None = None


def _m(intent: str, name: str, pattern: str, object_group: str | None = None, proper: bool = False,
       word_test: Callable[[str], bool] | None = None) -> Marker:
    return Marker(intent, name, re.compile(pattern), object_group, proper, word_test)


def _affect(word: str) -> bool:
    """A word that carries a feeling, by VADER's lexicon (the one memories are scored with at write
    time), not by a hand-made list: "stressed", "frustrated", "happier", "hate", "trust"."""
    return abs(valence(word)) >= 1.0


# Who is asked about in a feeling frame: a pronoun, the user, or one word (a name).
_WHO = r"(?:i|we|you|he|she|they|the user|user|[a-z]+)"
_DEGREE = (r"(?: (?:still|even|any|more|less|really|so|very|too|kind of|sort of|a bit|a little|at all|actually|"
           r"honestly|ever|generally|mostly|pretty|quite|that|as|getting|becoming|growing))*")


_END = r"(?=[,.?!;]| and (?:what|how|who|where|when|which|is|are|do|did)\b|$)"
_OBJ = r"(?P<obj>[^,.?!;]+?)" + _END

MARKERS: tuple[Marker, ...] = (
    # -- about me: a summary of the user as a whole ------------------------------------------------------
    _m("about_me", "asks what is known about the user as a whole",
       r"\b(?:know|remember|learn(?:ed|t)|picked up|gathered|figured out|have|got|understand|think)"
       r"(?: so far)? (?:about|abt|bout|of|on) me\b(?! (?:being|having|doing|liking|living|working|and my|\w+ing\b))"),
    _m("about_me", "asks about the user's self",
       r"\b(?:about|abt|describe|summari[sz]e) (?:myself|me|the user)\b(?! \w+ing\b)"
       # The user explained to someone, or how well the user is known: "if you had to explain me to a
       # stranger", "how well do you know me".
       r"|\b(?:explain|describe) (?:me|myself|the user) to\b"
       r"|\bhow (?:well|much) do (?:you|u|ya) (?:really |actually )?(?:know|get|understand) (?:me|the user)\b"),
    _m("about_me", "asks for the user's profile",
       r"\b(?:my|the user'?s?|user) (?:\w+ )?(?:profile|persona|bio|personality|interests|preferences|values|likes and "
       r"dislikes|character|background|backstory|life story)\b(?! check\b| in (?!brief\b|short\b))"
       r"|\bsummary of (?:me|myself|the user)\b"),
    # A summary asked of the user as a whole, whatever it is called: "a rundown of who I am", "the big
    # picture on me", "a quick profile of myself", "what you know about my life in general".
    _m("about_me", "asks for a summary of the user",
       # An opinion of the user as a whole is one too: "your read on me", "your impression of me".
       r"\b(?:profile|picture|rundown|overview|summary|sketch|portrait|snapshot|recap|highlights|gist|read|take|"
       r"impression|opinion|sense|understanding|assessment) (?:of|on) "
       r"(?:me|myself|the user|who (?:i|the user) (?:am|is))\b(?! \w+ing\b)"
       r"|\b(?:know|remember|learned|learnt) about (?:my|the user'?s) life\b"
       r"|\bwhat (?:sorts?|kinds?|types?) of (?:things|stuff) (?:do (?:i|we)|does the user) (?:care about|value|like|"
       r"enjoy)\b"),
    _m("about_me", "asks what kind of person the user is",
       r"\bwhat (?:kind|sort|type) of (?:a )?(?:person|guy|girl|man|woman|human) (?:am i|i am|do you think i am|"
       r"is the user)\b|\bwho am i\b|\bwhat'?s my (?:deal|story|vibe)\b"),
    _m("about_me", "asks to summarise what was learned",
       r"\b(?:summari[sz]e|recap|sum up) (?:everything|all|what) (?:you(?:'ve| have)? )?(?:know|learned|learnt|"
       r"remember|picked up)\b(?! (?:about|abt|on) (?!me\b|myself\b))"),
    # -- decisions ---------------------------------------------------------------------------------------
    _m("decision", "asks what was decided",
       r"\b(?:decide|decided|deciding)\b(?:(?: anything)? (?:about|on|for|regarding) " + _OBJ + r")?", "obj"),
    _m("decision", "asks about decisions",
       r"\b(?:which|what|any|my|our|the|recent|open|pending|big|latest|last|past|those|these) decisions?\b"
       r"(?! fatigue| making| maker| tree| matrix| theory| journal| science| deadline| date| letter| framework"
       r"| process| log| paper| model)"),
    _m("decision", "asks what choice was made",
       r"\b(?:my|our|the) (?:call|choice|verdict|pick) (?:on|about|for|regarding) " + _OBJ +
       r"|\bchoices? (?:did|have) " + ME + r" (?:make|made)(?: (?:about|on|for) " + _OBJ.replace("obj", "obj2") +
       r")?|\bchoices " + ME + r" made\b", "obj"),
    _m("decision", "asks how a choice went",
       r"\b(?:settle[ds]? on|end(?:ed)? up (?:choosing|going with|picking|deciding)|made (?:a|the|my|our) "
       r"(?:call|choice|decision)|which way i went|yes or no to|(?:pick|choose|chose|opt for|go with) (?:for|on)"
       r"|what did " + ME + r" (?:pick|choose|go with|go for|opt for|settle on|end up with|plump for|pick out)"
       # the choice in a clause: "remind me what I chose for the venue", "what we went with in the end"
       r"|what (?:i|we|the user) (?:chose|picked(?! up)|went with|opted for|settled on|landed on|decided on|agreed on)"
       r"|(?:did|have) " + ME + r" (?:choose|chose|pick|picked|go with|went with|go for|opt(?:ed)? for|settle|settled"
       r"|commit(?:ted)? to|agree(?:d)? (?:on|to)|end up|ended up|land on|landed on|make up (?:my|our) minds?"
       r"|made up (?:my|our) minds?|say yes|say no|said yes|said no|conclude|concluded)|make up (?:my|our) mind"
       r"|made up (?:my|our) mind"
       r"|final (?:call|decision|verdict|answer) (?:on|about|for)|(?:agree|agreed) on|concluded? about"
       r"|\bundecided\b|up in the air|in the end)\b"
       # Resolving an open question ("did we ever figure out who's hosting"), leaning one way on it.
       r"|\b(?:figure|figured|work|worked|sort|sorted) out (?:who|what|whether|which|where|when|if)\b"
       r"|\b(?:leaning|leant|leaned) (?:on|towards?|toward)\b|\bwhich way (?:am|are|is|was|were|did|do) " + ME +
       r" (?:lean|leaning|going|go)\b"),
    # -- goals -------------------------------------------------------------------------------------------
    _m("goal", "asks about goals",
       r"\b(?:goals?|resolutions?|milestones?|ambitions?|aspirations?)\b(?! setting| keeper| post| line| kick| scorer"
       r"| difference| scored| of (?:the|this|that|a|an)\b)"),
    _m("goal", "asks about progress toward something",
       r"\b(?:working toward|working towards|aiming for|progress (?:on|with|toward|towards|in)|on track|"
       # progress with a clause between: "how much progress I've made on", "any progress logged on"
       r"progress (?!(?:reports?|photos?|pics?|bars?|updates?|notes?|meetings?)\b)(?:[\w']+ ){1,3}?(?:on|towards?)|"
       # A plan for a day or a meal is an agenda, not a goal ("what's the plan for saturday").
       r"any closer to|closer to (?:the|my)|the plan for(?! (?:today|tonight|tomorrow|the weekend|this weekend|"
       r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|dinner|lunch|breakfast)\b)|sticking to|"
       r"keeping up with|still doing|how close am i to"
       r"|on pace|trying to (?:achieve|accomplish|build|reach|hit|get to|become|learn|lose|save|gain|improve|quit|"
       r"get better|get good|master)"
       r"|(?:want|wanted|hope|hoped|hoping|meant|plan|planned|planning|aim|aimed|intend|intended) to "
       r"(?:accomplish|achieve)"
       # progress asked as how the user is doing on something: "how am I doing on saving for the house"
       r"|how (?:am|are|is) (?:i|we|the user) doing (?:on|with)"
       r"|long_term plans?|hit my|striving for|set out to|training going|aiming at|working to)\b"
       r"|\b(?:targets?|objectives?|okrs?|challenge)\b"),
    # Whether the user kept at something they started: "did I ever finish the quilt I started", "did I
    # stick with the no-sugar thing I started in january"; not a thing done with it ("did I send the
    # email I started on Monday", "did I save the podcast I started listening to").
    _m("goal", "asks whether the user kept at something they started",
       r"\b(?:did|have|has) (?:i|we|the user) (?:ever |actually |really |still )?(?!(?:send|sent|save|saved|share|"
       r"shared|forward|print|post|delete|find|found|lose|lost|email|text|tell|mention|book|buy|order|pay|"
       r"bookmark|like|rate)\b)(?:\w+ ){1,2}?(?P<obj>(?:the|that|my|this|our) [^,.?!;]{1,30}? (?:i|we|the user) "
       r"(?:started|began|took up)\b[^,.?!;]*)", "obj"),
    # -- sentiment ---------------------------------------------------------------------------------------
    _m("sentiment", "asks how someone feels about something",
       r"\b(?:feel|feels|felt|feeling|feelings)(?: (?:better|worse|good|bad|now|these days|lately))? "
       r"(?:about|towards|toward|for|on|regarding) " + _OBJ, "obj"),
    _m("sentiment", "asks how someone feels",
       r"\bhow (?:do|did|does|have|has|am|are|is|was) (?:i|we|the user|user|\w+)(?: really| honestly)? "
       r"(?:feel|felt|feeling|been feeling|doing emotionally)\b"),
    _m("sentiment", "asks about a mood or sentiment",
       r"\b(?:mood|sentiment|emotions?)\b(?! board| ring| lighting| light| tracker app| analysis tool)"),
    _m("sentiment", FEELING_FRAMES[0],
       r"\b(?:am i|is the user|are we|is \w+|was i|have i been|has the user been|getting)(?: still| even| any| more"
       r"| less| really| so)*(?: more| less)? (?:" + FEELINGS + r")\b(?: (?:about|with|at|over|by|than) " + _OBJ +
       r")?", "obj"),
    _m("sentiment", "asks how someone took something",
       # "how did Ana take the news", not "how do I take my coffee" (a habit, asked in the present).
       r"\bhow (?:did|has|have) [\w' ]{1,20}? (?:react|respond|take|taken)\b|\bhow (?:do|does) [\w' ]{1,20}? "
       r"(?:react|respond)\b"
       r"|\b(?:am|is|are|have|has) (?:i|we|the user)(?: been)? (?:still |really )?(?:enjoying|loving|hating|liking)\b"),
    _m("sentiment", "asks whether something is liked or not",
       r"\b(?:hate|love|like|dislike|enjoy)d? or (?:hate|love|like|dislike|enjoy)d?\b"
       r"|\bdo (?:i|we) (?:even |still |really |actually )?(?:like|love|hate|enjoy|mind|regret) (?=(?:my|our|the|"
       r"living|working|being|it|him|her|them|[a-z]+ing)\b)" + _OBJ, "obj"),
    _m("sentiment", "asks for an opinion or attitude",
       r"\b(?:attitude|opinion|outlook|thoughts) (?:of|on|about|towards?|regarding) " + _OBJ +
       r"|\bwhat do (?:i|we) (?:really |actually )?think (?:of|about) (?P<obj2>(?:my|our|the|him|her|them)[^,.?!;]*?)"
       + _END.replace("(?=", "(?=") + r"|\b(?:seem|seemed|sound|sounded|look|looked) (?:" + FEELINGS + r")\b"
       # A stance held by someone: "my general vibe about my manager", "Ana's take on the move".
       r"|\b(?:my|our|the user'?s|[a-z]+'s)(?: \w+)? (?:vibe|take|stance|view|views|feelings) (?:on|about|towards?|"
       r"regarding) (?P<obj3>[^,.?!;]+?)" + _END, "obj"),
    # A feeling frame: a copula or a verb of feeling, then a word VADER scores as affect, then what it
    # is about ("am I getting more stressed about the wedding", "is the user frustrated with X",
    # "feeling hopeful"), or a verb of liking asked in the present ("do I still trust Ana").
    _m("sentiment", FEELING_FRAMES[1],
       r"(?<!what )(?<!who )(?<!where )(?<!which )\b(?:am|are|is|was|were|been|being|get|gets|getting|got|grown|"
       r"growing|seem|seems|seemed|sound|sounds|"
       r"sounded|stay|stayed)(?: " + _WHO + r")?" + _DEGREE +
       # "better at", "good at": an ability, no feeling ("what am I trying to get better at").
       r" (?!(?:good|better|best|great|bad|worse|worst|terrible|awful|decent) at\b)(?P<word>[a-z]+) "
       r"(?:about|with|at|over|towards?|"
       r"regarding|of|by|than|in)\b(?: (?P<obj>[^,.?!;]+?)" + _END + r")?"
       # "I feel like ..." says what one thinks, not how one feels.
       r"|\b(?:feel|feels|feeling|felt)" + _DEGREE + r" (?!like\b)(?P<word2>[a-z]+)\b", "obj", word_test=_affect),
    _m("sentiment", "asks whether someone likes or dislikes something (VADER's affect verbs)",
       r"\b(?:do|does) " + _WHO + r"(?: (?:still|even|really|actually|secretly|honestly|truly|kind of|sort of))* "
       r"(?P<word>[a-z]+) (?P<obj>(?:my|our|the|his|her|their|it|him|them|this|that|[a-z]+ing)\b[^,.?!;]*?)" + _END,
       "obj", word_test=_affect),
    _m("sentiment", "asks whether a feeling got better or worse",
       r"\b(?:gotten|getting|got|grown|growing) (?:better|worse|happier|sadder)\b(?! at\b)"),
    # -- historical: a past value of a slot, or how it changed -------------------------------------------
    _m("historical", "asks for a past value ('used to')", r"\b(?:used to|use to)\b"),
    _m("historical", "asks for an old or former value",
       r"\b(?:my|our|the user'?s|his|her|their) (?:old|former|previous|ex|earlier|first) (?!\w+ing\b)\w+"
       r"|\bthe old one\b|\bprevious(?:ly)?\b|\bformerly\b|\boriginally\b"),
    _m("historical", "asks whether something changed",
       # not a change done to something ("which book did my mom say changed her life")
       r"\b(?:did|has|have) (?:[\w']+ ){1,5}changed?\b(?! (?:my|our|her|his|their|your|the|a|an)\b)"
       r"|\bchanged? over\b|\bhow (?:has|have|did) (?:(?!react|respond|"
       r"take|feel)[^,.?!;]){1,40}\bchange[ds]?\b|\bbefore (?:i|we|the user) (?:changed|switched|moved|left|quit)\b"),
    _m("historical", "asks about something that stopped", r"\b(?:anymore|any more|no longer)\b"),
    _m("historical", "asks for the history of a slot",
       r"\bhistory of (?:my|our|the user'?s)\b|\b(?:did|have) (?:i|we|the user) ever (?:live|lived|work|worked|"
       r"have|had|own|owned|drive|driven|date|dated|go|gone)\b|\bback then\b|\bin the past\b"
       r"|\b(?:was|were) (?:i|we|the user) ever (?:a |an )?(?:" + _SLOT_WORD + r")\b"
       r"|\bhow many (?:jobs|cars|addresses|homes|houses|flats|apartments|partners|employers|phones|schools|teams|"
       r"places) (?:have|has|did) (?:i|we|the user)\b|\bwhere (?:have|has) (?:i|we|the user) (?:lived|worked)\b"
       r"|\bwho did (?:i|we|the user) (?:date|see|work for) before\b"),
    _m("historical", "asks for every past value",
       r"\b(?:every|all the|each) (?:place|job|car|address|city|home|house|flat|school|team)s? (?:i've|i have|"
       r"i|we've|the user has) (?:ever )?(?:lived|worked|had|owned|been)"
       r"|\b(?:what|which|how many) (?:jobs|cars|pets|dogs|cats|addresses|homes|houses|flats|apartments|partners|"
       r"employers|companies|cities|towns|countries|places|neighbourhoods|neighborhoods|phones|schools|teams|gyms|banks|"
       r"doctors|managers|bosses|hobbies) (?:have|has|did) (?:i|we|the user) (?:ever )?"
       r"(?:had|have|owned|own|driven|drive|lived in|live in|worked (?:at|for)|work (?:at|for)|been (?:to|on|with|at)"
       r"|be (?:on|with|at))\b"),
    _m("historical", "asks a slot's value in the past",
       r"\b(?:what|where|who|which|how)\b[^,.?!;]{0,20}\b(?:was|were|did|had)\b[^,.?!;]{0,12}\b(?:i|my|the user|"
       r"the user'?s)\b[^,.?!;]{0,12}\b(?:" + _SLOT_WORD + r")\b"
       r"(?=[^,.?!;]*\b(?:before|back in|in \d{4}|in (?:college|school|university|high school)|at (?:uni|college)|"
       r"over the years|when i was|as a kid|growing up)\b)"),
    # The user's slot as a past progressive is a past value with or without a window: "where was I
    # working when I met Lina", "who was I dating at uni" (not "what was I working on": a project).
    _m("historical", "asks what the user was doing for a slot",
       r"\b(?:where|who|what|which \w+)\b[^,.?!;]{0,12}\b(?:was|were) (?:i|we|the user) (?:living|working|dating|"
       r"driving|renting|studying)\b(?! on\b)"),
    _m("historical", "asks who someone was to the user before",
       r"\bwho (?:was|were) [^,.?!;]+ to (?:me|us|the user)\b(?=[^,.?!;]*\bbefore\b)"),
    # -- relationship ------------------------------------------------------------------------------------
    _m("relationship", "asks who someone is to the user",
       r"\b(?:who|what)(?:'s| is| are|'re| was| were) (?P<obj>[^,.?!;]+?) to (?:me|us|the user|you)\b"),
    _m("relationship", "asks how the user knows someone",
       r"\bhow(?:'d| do| did| does| come)? " + ME + r" (?:know|knows|meet|met|got to know|get to know) "
       r"(?P<obj>[^,.?!;]+?)" + _END),
    _m("relationship", "asks how two are connected",
       r"\bhow(?: is| are|'s| was| were| s) (?P<obj>[^,.?!;]+?) (?:connected|related|linked|acquainted)\b"
       r"|\b(?:connection|relationship|relation) (?:between|to|with)\b|\blink between\b|\bconnected to (?:me|us)\b"
       r"|\b(?:are|were) \w+ and \w+ (?:related|connected|friends|married|siblings|together|close)\b"
       r"|\bdoes \w+ know \w+|\bis \w+ (?:a|my) (?:friend|colleague|coworker|relative|cousin)\b"),
    _m("relationship", "asks who introduced or links people",
       r"\bwho introduced\b|\bwho (?:do|does|did) " + ME + r" (?:know|meet|met) (?:at|from|in|through|via)\b"
       r"|\bwho knows\b|\bfriends? of a friend\b|\b(?:know|met) each other\b|\bhave to do with (?:me|us|the user)\b"
       r"|\bwho put (?:me|us) in touch\b|\b(?:do|did) (?:i|we|the user) know (?:anyone|anybody|someone|somebody|people)"
       r"|\b(?:anyone|anybody|someone|people) (?:i|we|the user) know\b|\bwho is \w+ (?:married|engaged|related|dating)"
       r"\b|\bwhich (?:friend|colleague|coworker|cousin|relative|neighbou?r)s? of (?:mine|ours)\b"
       r"|\bwho (?:are|were) the people (?:i|we)\b|\bwho in (?:my|our) \w+\b"
       r"|\bwhich of (?:my|our|the user'?s) (?:friends|colleagues|coworkers|co_workers|contacts|family|relatives|"
       r"neighbou?rs|exes|cousins)\b"),
    _m("relationship", "asks who fills a role for the user",
       r"\bwho(?: is|'s|s| are|'re| was)? (?:(?:my|our|the user'?s) )(?:(?:closest|best|new|current|main|usual|"
       r"go_to|favourite|favorite) )*(?:" + _ROLE + r"|" + _PEOPLE_ONLY + r"|emergency contact|person for \w+|"
       r"people i work with)s?\b(?! \w+'s)(?=\W*(?:again|now|there|these days|at|for \w+|is|are|\?|$|,|\.| and|"
       # where the role is held: "who are my coworkers on the design team", "my friends in Leeds"
       r"(?:on|in|from) ))"),
    # Any role, not only the ones listed: "who's my plumber", "who is our accountant now". A
    # preference ("who's my favourite author") or a slot ("who's my bank") is no role.
    _m("relationship", "asks who fills a role for the user (any role word)",
       r"\bwho(?: is|'s|s| are|'re)? (?:my|our|the user'?s) (?!favou?rite\b|fave\b|(?:" + _SLOT_WORD + r")\b)"
       r"(?:[a-z]+ )?[a-z]+(?<!ing)(?=\W*(?:again|now|these days|at the moment|currently|right now|\?|$))"),
    _m("relationship", "asks how two are connected, in a clause",
       r"\bhow (?P<obj>[^,.?!;]+?) (?:is|are|was|were) (?:connected|related|linked|acquainted)\b"),
    _m("relationship", "asks who someone's relative or partner is",
       r"\bwho(?: is|'s|s| was| are|'re| were) (?:[a-z]+'s|my \w+'s|the user'?s) (?:" + _ROLE + r"|" + _PEOPLE_ONLY +
       r")\b"),
    _m("relationship", "asks whom the user turns to for something",
       r"\bwho (?:do|should|can|did|would) " + ME + r" (?:usually |normally )?(?:go to|turn to|call|ask|see|use|"
       r"talk to) (?:for|about|when)\b"),
    # -- temporal: what happened in a period -------------------------------------------------------------
    _m("temporal", "asks what happened in a period",
       r"\bwhat(?: all| else)?(?:'s|s| is| has| had| was)?(?: been)? (?:happened|happens|happening|went on|"
       r"going on|happen)\b"),
    _m("temporal", "asks what the user did or talked about",
       r"\bwhat (?:did|have|had) " + ME + r" (?:do|done|get up to|gotten up to|talk about|talked about|discuss|"
       r"discussed|miss|missed|been up to|been doing|work on|worked on|get done|got done|accomplish|have on)\b"
       r"|\bwhat (?:was|were) (?:i|we|the user) (?:doing|up to|working on)\b|\bwhat events\b|\bwhat(?:'s| is) new\b"
       r"|\bcatch (?:me|us) up\b"
       r"|\btimeline (?:of|for)\b|\brecap (?:of |the |my |on )|\bwhat went (?:on|down)\b"
       r"|\bhow (?:was|were|did) (?:my|our|the user'?s) (?:day|week|weekend|month|year|holiday|trip|vacation)\b"
       r"|\bwhat did (?:my|our) (?:day|week|weekend|month|year) look like\b|\bwalk (?:me|us) through (?:my |our )?"
       r"(?:last|this|the|yesterday|today)\b|\bwhat (?:did|have) " + ME + r" (?:cover|covered|go over|went over)\b"
       r"|\bwhat was (?:i|we) busy with\b|\bwhat (?:i|we) (?:covered|discussed|talked about|did) (?:yesterday|today|"
       r"last|this|on|in)\b|\b(?:everything|anything)(?: i should remember)? from (?:last|this|the "
       r"past|yesterday|today|earlier)\b"
       r"|\bwhat (?:have|has) (?:i|we|the user) been (?:doing|up to)\b"),
    _m("temporal", "asks for anything from a period",
       r"\banything (?:from|happen|happened|new|interesting|important|noteworthy|notable|going on|else happen)\b"
       r"|\b(?:summary|recap|rundown|overview|digest|roundup) (?:of|for) (?:the |my )?(?:this|last|the past|"
       r"yesterday|today|the week|the month|the weekend)\b"),
    # -- search: one current fact, asked as such -------------------------------------------------------
    # A present-tense ask of one fact ("where does my sister work", "what's my job now") is a plain
    # search: it decides, so the classifier is not asked (it reads "my sister" as a relationship and
    # a slot word as a past value). Any other head comes first.
    _m("search", "asks for one current fact",
       r"\bwhere (?:do|does) (?!(?:i|we|the user) (?:know|meet)\b)[\w' ]{1,25}? (?:live|work|stay|study)\b"
       r"(?![^,.?!;]*\b(?:before|back then|used to)\b)"
       r"|^(?=[^,.?!;]*\b(?:" + _SLOT_WORD + r")\b)[^,.?!;]*\b(?:now|currently|at present|right now)\b"),
    # A saved thing asked for ("find my notes on ...", "is there a note about ...") or when something is
    # ("when did I last get a haircut", "what time is my flight") is a plain search too: the classifier
    # read the topic ("the history of the Ottoman empire", "haircut") as a summary or a past value.
    _m("search", "asks for a saved thing or a date",
       r"^(?:(?:please |pls |can you |could you )?(?:find|pull up|look up|dig up|search for|open) (?:me )?"
       r"(?:the|my|our|that|those|a|an|any)\b"
       r"|(?:is there|do (?:i|we) have|did (?:i|we) save|have (?:i|we) saved) (?:a|an|any|the|that|my|our) "
       r"(?:[\w']+ )?(?:" + _SAVED + r")s?\b"
       r"|(?:when|what time|what date) (?:is|was|did|does|do|are|were|'s|s)\b)"),
    # A thing asked for by its name or its kind ("what's the name of the dentist Jana raved about", "which
    # hotel did my parents stay at"): a plain search, whoever the words that describe it name and whatever
    # feeling they tell. Any other head comes first.
    _m("search", THING_BY_KIND,
       r"\b(?:the )?name of (?:the|that|this|a|an|my|our|his|her|their|[a-z]+'s)\b"
       r"|\bwhich (?!(?:of|way|one|ones|" + _SLOT_WORD + r")\b)[a-z]+ (?:did|do|does|was|were|is|are)\b"),
    # What someone said, advised or recommended ("what did Marcus say I should pack", "what did the vet say
    # about the cat"): a plain search too, unless another head asks ("what did I say about how I feel").
    _m("search", "asks what someone said or advised",
       r"\bwhat (?:did|has|have) [\w.' ]{1,25}? (?:say|said|recommend|suggest|prescribe|advise|tell|told)(?:ed|d)?\b"),
    # The saved thing named first: what follows describes it ("find my notes on how I felt about the move"),
    # so the rules take no ask from it (rules.py).
    _m("search", SAVED_THING,
       r"^(?:(?:please |pls |can you |could you )?(?:find|pull up|look up|dig up|search for|open) (?:me )?"
       r"|(?:is there|do (?:i|we) have|did (?:i|we) save|have (?:i|we) saved) )"
       r"(?:the|my|our|that|those|a|an|any) (?:[\w']+ )?(?:" + _SAVED + r")s?\b"),
    # -- entity: a summary of one named thing ------------------------------------------------------------
    _m("entity", "asks for a summary of someone or something named",
       r"\b(?:tell me|fill me in|remind me|talk to me)(?: everything| anything| a bit| more| something| all)? "
       r"(?:about|abt|on) "
       r"(?P<obj>[^,.?!;]+?)" + _END),
    _m("entity", "asks who someone is",
       r"\bwho(?: exactly)?(?: is|'s|s| was)(?: exactly| again| this)? (?P<obj>[^,.?!;]+?)"
       r"(?: guy| person| girl| woman| man)?" + _END
       + r"|\bremind me who (?P<obj2>[^,.?!;]+?) (?:is|was)\b"),
    _m("entity", "asks what something named is",
       r"^(?:so |ok |and )?what(?:'s| is) (?![^,.?!;]*'s\b)(?P<obj>[^,.?!;]*?)" + _END, proper=True),
    _m("entity", "asks for the story of someone or something named",
       r"\b(?:the )?(?:lowdown|scoop|story|background|rundown|deal) (?:on|with|about) (?P<obj>[^,.?!;]+?)" + _END
       + r"|\bwhat(?:'s| is) up with (?P<obj2>[^,.?!;]+?)" + _END + r"|\bwho even is (?P<obj3>[^,.?!;]+?)" + _END
       + r"|\bwho(?:'s| is) that (?P<obj4>[^,.?!;]+?) (?:you|i|we) (?:mentioned|talked about)\b"
       + r"|\bwhat do (?:i|we) know about (?P<obj5>(?!my |me\b|myself)[^,.?!;]+?)" + _END
       + r"|\b(?:on file|stored|saved|noted) (?:for|about|on) (?P<obj6>[^,.?!;]+?)" + _END
       + r"|\b(?:summary|overview|profile|recap|background) (?:of|on) (?P<obj7>[^,.?!;]+?)" + _END),
    _m("entity", "asks what is known about someone or something named",
       r"\b(?:what|anything|everything|something|info|information|whatever|all) (?:do |did |have )?(?:you |u |we )?"
       r"(?:know |remember |have |got |recall )?(?:about|abt|on|re) (?P<obj>[^,.?!;]+?)" + _END),
    _m("entity", "asks what about something named", r"^what about (?P<obj>[^,.?!;]+?)" + _END),
)

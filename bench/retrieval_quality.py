"""Retrieval quality of the service layer on the embedded backend (no HTTP): recall, contradiction
exposure and context token efficiency, on a generated corpus with known answers.

    .venv/bin/python bench/retrieval_quality.py              # 24 agents x 100 memories, 240 queries
    .venv/bin/python bench/retrieval_quality.py --record     # and write the tables into docs/benchmarks.md

What it measures
----------------
1. recall@5, recall@10 and MRR of `RetrievalService.search` (limit 10) in four modes: vector only
   (mode "vector", no rerank), full-text only ("keyword", no rerank), hybrid ("hybrid", no rerank)
   and hybrid with the PRD's four-signal rerank (`Weights()`, the default). recall@k is
   |relevant ∩ top k| / |relevant|, averaged over queries; MRR is the mean of 1 / rank of the first
   relevant hit (0 when none is in the top 10). Recall@10 is also broken down by query kind.
2. Contradiction exposure: for every query, the default context (`ContextQuery(max_memories=15)`,
   no budget). A context is exposed when its included memories hold a superseded or quarantined
   memory, or two active memories asserting different values for the same exclusive
   (subject, predicate) claim. Target 0%.
3. Context token efficiency at a budget B (150, 300 and 600 tokens; estimator
   `graph.context.tokens.chars_per_four`, the service default):
   - plain top-K (the baseline, what a caller does without budget packing): the default search
     (hybrid + rerank) with limit 30, the same pool a context uses, taken in rank order and
     formatted with `graph.context.format.format_context`, for the largest K whose formatted text
     fits B;
   - budget-aware: `ContextService.context(ContextQuery(..., max_tokens=B))`.
   Tokens of a memory = chars_per_four of its formatted line ("- text"). R = the tokens of all the
   query's relevant memories; r = those of the relevant memories a context includes.
   - waste (the PRD measure, as defined here) = (min(R, B) - r) / min(R, B): the share of the
     answer that would have fit in the budget but was displaced by other memories or headers.
     Budget spent on other memories while the whole answer is in is not waste: it had no better use.
   - unused for the answer = (B - r) / B: the share of the budget not carrying a relevant memory.
     It is also reported, because it is the first thing one might call waste; it is dominated by
     B (an answer of two short lines leaves 90% of a 300-token budget to other memories), so it
     hardly tells the two methods apart.
   The table gives both means and the relative reduction 1 - budget-aware / top-K (PRD target:
   at least 30% less waste).

The corpus (seeded, deterministic)
----------------------------------
Each agent is a persona with facts from templates over many topics (monthly budget, home city,
employer, diet and allergies, exercise schedule, code editor, hobbies, children, a sister, a pet,
travel and flights, invoices, orders, IT tickets, a wifi network, a project deadline), in varied
wording, plus:
- look-alikes: lexical (same rare code digits permuted, the same name or keyword answering
  another question) and semantic (someone else's budget, city, diet, trip, ...);
- superseded look-alikes: an older claim (budget, home city, and for half the agents diet and the
  next trip) stored first, then a newer conflicting claim from a source of equal or higher trust
  that supersedes it; only the newer one is relevant;
- quarantined look-alikes: a conflicting claim from a lower-trust source (employer from
  `inference`, for half the agents the budget from `document` and the editor from
  `user_implicit`), which lands quarantined and is never relevant;
- long, low-importance paragraphs (meeting notes, newsletters) that touch many topics without
  answering anything, and short unrelated filler.
Ten queries per agent: four paraphrases (few words shared with the answer: vector search's
ground), three keyword-heavy ones (invoice and ticket codes, flight numbers, product, pet, drug,
vet and project names: full-text's ground) and three with several relevant memories (hobbies,
children, the sister, the pet). Relevance labels come from the generator, never from a ranking.
Rerank signals are meaningful but not decisive: memories that answer a question get importance
0.4-0.9 and somewhat more often a user or tool source; look-alikes 0.2-0.8 and more often
document or inference; long paragraphs 0.1-0.3. Every memory is written within a minute, so the
recency signal is flat here.
"""
from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import platform
import random
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.record import record
from graph.context.format import ContextItem, format_context
from graph.context.service import ContextQuery
from graph.context.tokens import chars_per_four
from graph.memories.model import Claim, NewMemory, Provenance
from graph.retrieval.model import SearchHit, SearchQuery
from graph.retrieval.rerank import Weights, composite
from graph.services import Services
from graph.settings import Settings

MODES = (("vector only", "vector", None), ("full-text only", "keyword", None), ("hybrid", "hybrid", None),
         ("hybrid + rerank", "hybrid", Weights()))
KINDS = ("paraphrase", "keyword", "multi")
QUERY_SPLIT = {"paraphrase": 4, "keyword": 3, "multi": 3}
BUDGETS = (150, 300, 600)
CONTEXT_MAX_MEMORIES = 15
BATCH = 200

# -- vocabulary ----------------------------------------------------------------------------------
CITIES = ["Lisbon", "Porto", "Seattle", "Denver", "Austin", "Toronto", "Dublin", "Munich", "Kyoto", "Melbourne",
          "Oslo", "Valencia", "Portland", "Edinburgh", "Montreal", "Prague", "Copenhagen", "Tucson", "Halifax",
          "Ghent"]
EMPLOYERS = ["Northwind Analytics", "Globex", "Initech", "Umbrella Health", "Stark Logistics", "Acme Robotics",
             "Hooli", "Vandelay Imports", "Wayne Biotech", "Tyrell Systems", "Cyberdyne Labs", "Soylent Foods",
             "Pied Piper", "Massive Dynamic", "Oscorp Energy", "Gringotts Finance"]
ROLES = ["data engineer", "product manager", "UX researcher", "site reliability engineer", "accountant", "nurse",
         "architect", "sales lead", "backend developer", "QA analyst"]
DIETS = ["vegetarian", "vegan", "pescatarian", "gluten-free", "keto", "lactose-free", "halal", "low-sodium"]
ALLERGENS = ["peanuts", "shellfish", "sesame", "tree nuts", "eggs", "soy", "kiwi"]
SPECIES = ["dog", "cat", "parrot", "rabbit", "tortoise", "ferret"]
PET_NAMES = ["Biscuit", "Mochi", "Pepper", "Ziggy", "Noodle", "Clementine", "Waffles", "Pixel", "Tofu", "Marzipan",
             "Gizmo", "Saffron", "Pickles", "Dumpling"]
MEDS = ["Apoquel", "Rimadyl", "Galliprant", "Cerenia", "Vetmedin", "Metacam", "Onsior", "Librela"]
VETS = ["Okafor", "Lindqvist", "Haddad", "Moreau", "Takahashi", "Brennan", "Castellanos", "Ivanova"]
CLINICS = ["Riverside Animal Clinic", "Maple Street Vets", "Harborview Pet Hospital", "Greenfield Veterinary"]
HOBBIES = ["bouldering", "sourdough baking", "watercolor painting", "trail running", "chess", "woodworking",
           "birdwatching", "salsa dancing", "astrophotography", "beekeeping", "pottery", "kayaking", "crochet",
           "fly fishing", "gardening", "calligraphy"]
EDITORS = ["Neovim", "Emacs", "Sublime Text", "IntelliJ IDEA", "Helix", "Zed", "PyCharm", "Kate"]
SIBLINGS = ["Ingrid", "Priya", "Marisol", "Yuki", "Fatima", "Greta", "Anouk", "Leilani", "Svetlana", "Imogen"]
SIBLING_JOBS = ["a pediatric surgeon", "a high-school chemistry teacher", "a commercial pilot", "a patent lawyer",
                "a marine biologist", "a firefighter", "a pastry chef", "a structural engineer"]
KIDS = ["Mateo", "Aria", "Felix", "Nora", "Theo", "Luna", "Oskar", "Maya", "Ezra", "Ines", "Jonah", "Elif"]
GRADES = ["first grade", "kindergarten", "secondary school", "nursery", "third grade"]
PRODUCTS = ["Zephyrus G14 laptop", "Kindle Scribe", "Aeron chair", "Sonos Era 100 speaker", "Framework 13 laptop",
            "Moccamaster KBG coffee maker", "Bosch Serie 6 dishwasher", "Brompton C Line bike",
            "Vitamix E310 blender", "Roborock S8 vacuum", "Garmin Forerunner 265 watch", "Fujifilm X100VI camera"]
STORES = ["Bol.com", "Currys", "Best Buy", "MediaMarkt", "John Lewis", "Fnac", "Coolblue", "B&H Photo"]
VENDORS = ["Brightline Printing", "Kestrel Catering", "Harbor IT Services", "Oakmoss Cleaning", "Luma Translation",
           "Pinecrest Plumbing", "Redwood Legal", "Tandem Couriers"]
INVOICE_ITEMS = ["300 brochure prints", "the launch party catering", "laptop repairs", "office deep cleaning",
                 "contract translation", "the boiler replacement", "a trademark filing", "same-day courier runs"]
ISSUES = ["the login page times out", "the nightly backup job fails", "the VPN drops every hour",
          "the printer queue is stuck", "a disk alert on db-02", "the SSO certificate is expiring",
          "the build cache is corrupted", "emails to partners bounce"]
TICKET_STATUS = ["waiting on the vendor", "fixed and verified", "in progress", "blocked on a firewall change",
                 "escalated to tier 2"]
AIRLINES = [("TP", "TAP"), ("LH", "Lufthansa"), ("KL", "KLM"), ("AC", "Air Canada"), ("IB", "Iberia"),
            ("SK", "SAS"), ("EI", "Aer Lingus"), ("AS", "Alaska Airlines")]
CODENAMES = ["Bluefin", "Halcyon", "Marigold", "Quokka", "Tamarind", "Obsidian", "Zephyr", "Sundial", "Lodestar",
             "Wayfarer"]
SSID_WORDS = ["Falcon", "Otter", "Nebula", "Cedar", "Comet", "Lynx", "Basil", "Orchid"]
TEACHERS = ["Mrs. Albrecht", "Mr. Osei", "Ms. Varga", "Mr. Delgado"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
REASONS = ["a friend's wedding", "a client workshop", "a conference", "a family reunion", "a hiking week"]

LONG_OPENERS = ["Notes from the all-hands meeting:", "Excerpt from the company newsletter:",
                "Summary of a long group chat:", "Minutes of the team retrospective:",
                "Highlights from the community forum this week:", "Transcript summary of the town-hall Q&A:"]
LONG_SENTENCES = [
    ("Finance reminded everyone that monthly budget requests for next quarter go through the new approval form, "
     "and that spending above the limit needs a second signature."),
    ("HR walked through the relocation package for staff who move to another city, including temporary housing "
     "and help with finding a place to live."),
    ("The wellness committee wants more people to exercise during the week and is negotiating a discount with "
     "two gyms near the office."),
    ("The canteen will label vegetarian, vegan and gluten-free dishes more clearly, and asked people with food "
     "allergies to tell the kitchen in advance."),
    ("Engineering is consolidating editor and IDE settings so that everyone who writes software gets the same "
     "formatting rules."),
    ("A long thread debated which hobbies make good team activities in our free time; pottery, chess and kayaking "
     "all had fans, and nothing was decided."),
    ("The parental leave policy now covers parents of children up to twelve, and the school holiday calendar is "
     "on the intranet."),
    ("Travel policy: book flights at least three weeks ahead, prefer direct routes, and keep boarding passes "
     "for the expense report."),
    ("Accounts payable is chasing several overdue invoices and asks that every vendor invoice quote a purchase "
     "order number."),
    ("IT support says most open tickets are about VPN drops and printer queues, and that ticket status updates "
     "now go out by email."),
    ("Pet-friendly office days are back on Fridays; dogs must be on a lead and vets recommend leaving anxious "
     "animals at home."),
    ("The newsletter profiled a colleague who left a salaried job to run a bakery, and what that did to her "
     "monthly spending."),
    "Someone asked where everyone is based these days, and the answers ranged across four time zones.",
    ("The shipping team reminded us that online orders delivered to the office are held at reception for three "
     "days."),
    "Wifi passwords for the guest network rotate every month and are posted next to the coffee machine.",
    "Project deadlines for the spring release were reviewed; most are on track and two need more people.",
    "Family members are welcome at the summer picnic; the sign-up sheet asks for the names and ages of kids.",
    ("Several people asked how to keep weekends free for the things they enjoy, and a manager shared her rules "
     "for switching off."),
    ("Payroll confirmed that salaries will be paid two days early in December, and that the company pays travel "
     "costs for interviews."),
    "A debate about medication reminders for pets and people ended with three different app recommendations.",
    ("The facilities team is surveying which days people come in, when they work out, and when they would use a "
     "quiet room."),
]
# Long session summaries: on a topic of the user's questions, touching its words, answering none.
SUMMARY_OPENERS = ["Summary of a long conversation.", "Session recap.", "Notes from a long chat with the user.",
                   "Conversation summary, auto-generated."]
SUMMARIES = {
    "money": [
        "We went through rent, groceries, utilities and the car loan line by line.",
        "The user asked how other people track small subscriptions that add up over a month.",
        "We compared envelope budgeting with a simple spreadsheet and with two popular budgeting apps.",
        "Saving for a holiday came up, as did whether to pay off a credit card first.",
        "The user wondered whether their spending on takeaway food is normal.",
        "Side discussion about how much money friends spend on weddings and birthday gifts.",
        "We talked about how inflation changed grocery prices over the last year.",
        "No figures were settled; the user wants to revisit the numbers after payday.",
    ],
    "home": [
        "Long conversation about neighbourhoods: commute times, noise, parks and schools.",
        "The user compared renting with buying and asked what a mortgage broker does.",
        "We listed what to check when viewing a flat: water pressure, mould, heating, phone signal.",
        "Talked about how hard it is to find a place to live near a city centre.",
        "The user asked about moving companies and how to pack fragile things.",
        "Whether to live closer to family or closer to work came up several times.",
        "Nothing was decided about any future move.",
    ],
    "work": [
        "Career chat: the user talked about how salaries compare across companies in their field.",
        "We discussed how to ask for a raise, and what a good performance review looks like.",
        "Recruiters, notice periods and non-compete clauses came up.",
        "The user asked how organisations decide on payroll dates and bonuses.",
        "We went through tips for writing a CV and preparing for interviews.",
        "Office politics and a difficult meeting with another team took a while.",
    ],
    "food": [
        "Long chat about cooking: batch cooking on Sundays, favourite cookbooks and spice blends.",
        "The user asked which restaurants nearby are good for groups.",
        "We compared meal-kit subscriptions and grocery delivery services.",
        "Talked about what to eat before a long run and about coffee habits.",
        "The user wondered whether to learn to bake bread or to make pasta from scratch.",
        "Food trends came up: fermented food, plant-based burgers, oat milk.",
    ],
    "fitness": [
        "Conversation about how to stay motivated to exercise when the week gets busy.",
        "We compared training plans from two apps and talked about stretching.",
        "The user asked how much sleep they need and how to stop snoozing the alarm.",
        "Calendar hygiene: blocking focus time, fewer meetings, and keeping evenings free.",
        "We discussed whether mornings or evenings are better for training.",
        "Sore knees and good running shoes came up.",
    ],
    "software": [
        "Long chat about programming tools: terminals, fonts, themes and keyboard shortcuts.",
        "The user asked how other developers set up linters and formatters for writing software.",
        "We compared plugin ecosystems and the pain of migrating settings between tools.",
        "Talked about version control habits, code review and pair programming.",
        "AI code assistants came up, and whether they help or distract.",
        "Nothing changed in the user's own setup.",
    ],
    "free time": [
        "We brainstormed new things the user could do in their free time this winter.",
        "Ideas ranged from joining a choir to learning a language or volunteering.",
        "The user asked how people find time for hobbies with a full-time job.",
        "We talked about screen time and a plan to read more books.",
        "Weekend trips, board-game nights and museum visits were all on the list.",
        "None of the ideas was picked yet.",
    ],
    "family": [
        "Long conversation about parenting in general: screen time rules, bedtime routines and pocket money.",
        "We talked about how families choose after-school clubs and share school runs.",
        "The user asked for birthday party ideas, for children and for adults.",
        "Grandparents visiting for the holidays came up, with the usual logistics.",
        "We discussed how siblings keep in touch when they live in different countries.",
        "Family photo albums, a shared calendar and a group chat were suggested.",
    ],
    "travel": [
        "Long travel chat: packing lists, carry-on rules and how to beat jet lag.",
        "We compared airlines' seat selection fees and loyalty programmes.",
        "The user asked about travel insurance and what happens when a flight is cancelled.",
        "Dream destinations came up: Patagonia, Japan in cherry blossom season, Iceland.",
        "We talked about trains versus flights for shorter routes.",
        "Nothing was booked during this conversation.",
    ],
    "admin": [
        "Admin session: the user sorted through a pile of invoices, receipts and payment reminders.",
        "We talked about which vendors to pay first and how late fees work.",
        "IT issues came up: a slow laptop, flaky wifi and a password manager migration.",
        "The user asked how to track online orders and returns from several stores.",
        "Project planning: how to estimate deadlines and what to do when a deadline slips.",
        "Support tickets, status updates and escalation paths were discussed at length.",
    ],
    "pets": [
        "Long conversation about pets in general: pet insurance, vet costs and adopting a second animal.",
        "We compared pet food brands and talked about apps for medication reminders.",
        "The user asked how to find a reliable pet sitter for the holidays.",
        "Training tips, chew toys and scratching posts came up.",
        "Nothing was decided about a second pet.",
    ],
}
FILLER_SUBJECTS = ["The landlord", "The building manager", "The coffee machine on the third floor", "The city council",
                   "A neighbour across the street", "The local library", "The parking garage", "The newsletter editor",
                   "The weather service", "The bakery on the corner", "The cleaning crew", "The bus company"]
FILLER_EVENTS = ["repainted the stairwell", "announced new opening hours", "broke down again",
                 "closed the east entrance for repairs", "changed the recycling rules", "posted a lost-key notice",
                 "raised prices by a few cents", "put up holiday decorations", "issued a storm warning",
                 "started a book swap shelf", "replaced the lobby lights", "rerouted line 14"]
FILLER_WHEN = ["on Monday", "last week", "yesterday", "this morning", "in March", "before the holidays",
               "after lunch", "over the weekend"]

FACT_SOURCES = (["user_explicit", "user_implicit", "tool_output", "document", "inference"], [35, 20, 20, 10, 15])
OTHER_SOURCES = (["user_explicit", "user_implicit", "tool_output", "document", "inference"], [15, 20, 15, 25, 25])


# -- corpus --------------------------------------------------------------------------------------
@dataclass
class Item:
    key: str  # unique within the agent
    text: str
    role: str  # fact | lookalike | long | filler
    phase: int = 1  # 2: written after phase 1, so it meets the claims it conflicts with
    expect: str = "active"  # active | superseded | quarantined: what the generator intends
    claim: tuple[str, str, str] | None = None  # subject, predicate, value
    source: str | None = None  # None: drawn by role
    memory_type: str = "fact"


@dataclass
class Query:
    agent: str
    text: str
    kind: str
    relevant: tuple[str, ...]  # item keys


@dataclass
class Corpus:
    items: dict[str, list[Item]] = field(default_factory=dict)  # agent -> items
    queries: list[Query] = field(default_factory=list)
    new_memories: dict[tuple[str, str], NewMemory] = field(default_factory=dict)  # (agent, key) -> memory


def _perms(rng: random.Random, digits: int, n: int) -> list[str]:
    """n distinct codes made of the same digits in different orders: look-alikes for a model,
    different tokens for full-text search."""
    base = rng.sample("123456789", digits)
    return ["".join(p) for p in rng.sample(list(itertools.permutations(base)), n)]


def agent_corpus(agent: str, rng: random.Random, per_agent: int) -> tuple[list[Item], dict[str, list[Query]]]:
    items: list[Item] = []
    queries: dict[str, list[Query]] = defaultdict(list)
    pick = rng.choice

    def add(key: str, text: str, role: str = "fact", **kw) -> None:
        items.append(Item(key, text, role, **kw))

    def ask(kind: str, texts: list[str], *relevant: str) -> None:
        queries[kind].append(Query(agent, pick(texts), kind, relevant))

    cities = rng.sample(CITIES, 6)
    employers = rng.sample(EMPLOYERS, 5)
    diets = rng.sample(DIETS, 3)
    allergens = rng.sample(ALLERGENS, 2)
    hobbies = rng.sample(HOBBIES, 5)
    editors = rng.sample(EDITORS, 4)
    sister = pick(SIBLINGS)
    kids = rng.sample(KIDS, 4)
    species = rng.sample(SPECIES, 2)
    pets = rng.sample(PET_NAMES, 2)
    meds = rng.sample(MEDS, 2)
    products = rng.sample(PRODUCTS, 5)
    codenames = rng.sample(CODENAMES, 2)
    ssids = [f"{w}-{rng.randint(10, 99)}" for w in rng.sample(SSID_WORDS, 2)]
    (al, airline), = rng.sample(AIRLINES, 1)
    flights = _perms(rng, 4, 3)
    invoices = [f"INV-{c}" for c in _perms(rng, 4, 6)]
    tickets = [f"OPS-{c}" for c in _perms(rng, 4, 4)]

    # Monthly budget: an old value, superseded by a newer one; for half the agents a document
    # claims a third value and lands quarantined.
    old, new, doc = rng.sample(["$400", "$500", "$600", "$750", "$900", "$1,200", "$2,000"], 3)
    add("budget.old", pick(["My monthly budget is {v}.", "I keep my monthly spending under {v}.",
                            "Budget-wise I can do {v} a month."]).format(v=old),
        expect="superseded", claim=("user", "monthly_budget", old),
        source=pick(["user_explicit", "user_implicit", "document"]))
    add("budget.new", pick(["Update: my monthly budget is now {v}.", "I raised my monthly budget to {v}.",
                            "New monthly budget: {v}, effective immediately."]).format(v=new),
        phase=2, claim=("user", "monthly_budget", new), source="user_explicit")
    if rng.random() < 0.5:
        add("budget.quarantined", f"Per the shared spreadsheet, the user's monthly budget is {doc}.", phase=2,
            expect="quarantined", claim=("user", "monthly_budget", doc), source="document")
    add("budget.x1", f"{sister}'s wedding budget is ${rng.randint(12, 40)},000.", "lookalike")
    add("budget.x2", f"Budget airline {pick(['Ryanair', 'EasyJet', 'Wizz Air'])} now charges for carry-on bags.",
        "lookalike")
    add("budget.x3", f"The team's offsite budget was cut to ${rng.randint(3, 9)},000 this quarter.", "lookalike")
    ask("paraphrase", ["How much am I allowed to spend every month?", "What is my spending limit per month?",
                       "How much money can I spend each month?"], "budget.new")

    # Home city: moved, so the old city is superseded.
    add("city.old", pick(["I live in {c}.", "My apartment is in {c}.", "I'm based in {c} for now."]).format(
        c=cities[0]), expect="superseded", claim=("user", "lives_in", cities[0]),
        source=pick(["user_explicit", "user_implicit"]))
    add("city.new", pick(["We finished the move: I live in {c} now.", "Moved to {c}; loving the new neighbourhood.",
                          "My new address is in {c}."]).format(c=cities[1]),
        phase=2, claim=("user", "lives_in", cities[1]), source="user_explicit")
    add("city.x1", f"I spent a long weekend in {cities[3]} last spring.", "lookalike")
    add("city.x2", f"{employers[0]} is opening a second office in {cities[4]}.", "lookalike")
    add("city.x3", "The city council approved new bike lanes downtown.", "lookalike")
    ask("paraphrase", ["Which town do I reside in now?", "Where is my place of residence these days?",
                       "What city am I based in at the moment?"], "city.new")

    # Employer: an inference disagrees and lands quarantined.
    role = pick(ROLES)
    a_role = f"{'an' if role[0] in 'aeio' else 'a'} {role}"
    add("employer", pick(["I work at {e} as {r}.", "I'm {r} at {e}.", "My job: {r} at {e}, since {y}."]).format(
        e=employers[0], r=a_role, y=rng.randint(2015, 2024)), claim=("user", "works_at", employers[0]),
        source="user_explicit")
    add("employer.quarantined", pick(["The user probably works for {e}, judging by the email signature.",
                                      "Inferred from calendar invites: the user's employer is {e}."]).format(
        e=employers[1]), phase=2, expect="quarantined", claim=("user", "works_at", employers[1]), source="inference")
    add("employer.x1", f"My partner works at {employers[2]}.", "lookalike")
    add("employer.x2", f"A recruiter from {employers[3]} reached out about a role as {pick(ROLES)}.", "lookalike")
    add("employer.x3", f"{employers[4]} announced record profits this quarter.", "lookalike")
    ask("paraphrase", ["Which company pays my salary?", "Who is my employer?",
                       "Which organisation am I on the payroll of?"], "employer")

    # Diet (superseded for half the agents) and an allergy: one question, two answers.
    if rng.random() < 0.5:
        add("diet.old", "I eat pretty much everything, no restrictions.", expect="superseded",
            claim=("user", "diet", "omnivore"),
            source="user_implicit", memory_type="preference")
        add("diet", f"I went {diets[0]} in {pick(MONTHS)} and I'm sticking with it.", phase=2,
            claim=("user", "diet", diets[0]), source="user_explicit", memory_type="preference")
    else:
        add("diet", pick(["I'm strictly {d}.", "I follow a {d} diet.", "I've been {d} for years."]).format(d=diets[0]),
            claim=("user", "diet", diets[0]), memory_type="preference")
    add("allergy", f"I'm allergic to {allergens[0]}; even traces give me hives.")
    add("diet.x1", f"My partner is trying {diets[1]} for a month.", "lookalike")
    add("diet.x2", f"The office canteen serves {diets[2]} dishes on Fridays.", "lookalike")
    add("diet.x3", f"The {allergens[1]} harvest was poor this year, the news says.", "lookalike")
    ask("paraphrase", ["Is there anything I can't or won't eat?", "Any foods I need to stay away from?",
                       "What should a restaurant know before cooking for me?"], "diet", "allergy")

    # Schedule: one paraphrase with one answer, one question with three.
    days = " and ".join(sorted(rng.sample(DAYS[:5], 2), key=DAYS.index))
    add("gym", pick(["I lift weights every {d} at {t}.", "Gym sessions are {d}, {t} sharp.",
                     "My workout slot is {d} at {t}."]).format(d=days, t=pick(["6:30", "7 am", "12:15", "6 pm"])))
    add("standup", f"Team standup is at {pick(['9:15', '9:30', '10:00'])} every weekday.")
    add("piano", f"Piano lessons with {pick(TEACHERS)} on {pick(DAYS)} evenings.")
    add("gym.x1", f"The gym membership renews in {pick(MONTHS)}.", "lookalike")
    add("gym.x2", "My partner runs every morning before work.", "lookalike")
    add("gym.x3", f"{sister} is training for a half marathon.", "lookalike")
    ask("paraphrase", ["When do I usually exercise?", "On which days do I train during the week?"], "gym")
    ask("multi", ["What does my week look like?", "What recurring commitments do I have?"],
        "gym", "standup", "piano")

    # Code editor: for half the agents a weaker source disagrees and lands quarantined.
    add("editor", pick(["{e} is my editor for everything.", "I do all my programming in {e}.",
                        "I switched to {e} and won't go back."]).format(e=editors[0]),
        claim=("user", "preferred_editor", editors[0]), source="user_explicit", memory_type="preference")
    if rng.random() < 0.5:
        add("editor.quarantined", f"Seems to prefer {editors[1]} lately.", phase=2, expect="quarantined",
            claim=("user", "preferred_editor", editors[1]), source="user_implicit", memory_type="preference")
    add("editor.x1", f"The team standardised on {editors[2]} for pair sessions.", "lookalike")
    add("editor.x2", f"{editors[3]} released a new version with AI features.", "lookalike")
    ask("paraphrase", ["Which program do I write software in?", "What's my go-to tool for writing software?"],
        "editor")

    # Hobbies: three answers.
    add("hobby.1", f"Weekends are for {hobbies[0]}.", memory_type="preference")
    add("hobby.2", f"I've been getting really into {hobbies[1]} lately.", memory_type="preference")
    add("hobby.3", f"Nothing relaxes me like {hobbies[2]} after a long week.", memory_type="preference")
    add("hobby.x1", f"My colleague's hobbies include {hobbies[3]}.", "lookalike")
    add("hobby.x2", f"Tried {hobbies[4]} once and hated it.", "lookalike")
    ask("multi", ["What do I enjoy doing in my free time?", "What are my hobbies?"], "hobby.1", "hobby.2", "hobby.3")

    # Children: two answers.
    add("kid.1", f"My son {kids[0]} just turned {rng.randint(3, 12)}.")
    add("kid.2", f"My daughter {kids[1]} started {pick(GRADES)} this year.")
    add("kid.x1", f"My nephew {kids[2]} is {rng.randint(2, 15)}.", "lookalike")
    add("kid.x2", f"The neighbours' daughter {kids[3]} babysits on Fridays.", "lookalike")
    ask("multi", ["Who are my children?", "How many kids do I have, and what are their names?"], "kid.1", "kid.2")

    # The sister: a keyword question with one answer, a general one with three.
    add("sister.job", f"My sister {sister} works as {pick(SIBLING_JOBS)}.")
    add("sister.city", f"{sister} lives in {cities[2]}.", claim=(sister, "lives_in", cities[2]))
    add("sister.birthday", f"{sister}'s birthday is on {rng.randint(1, 28)} {pick(MONTHS)}.")
    ask("keyword", [f"What does {sister} do for a living?", f"What is {sister}'s job?"], "sister.job")
    ask("multi", [f"What do I know about {sister}?", f"Tell me about my sister {sister}."],
        "sister.job", "sister.city", "sister.birthday")

    # The pet.
    pet, kind = pets[0], species[0]
    vet, clinic = pick(VETS), pick(CLINICS)
    add("pet.age", f"My {kind} {pet} is {rng.randint(2, 14)} years old.")
    add("pet.meds", f"{pet} gets {pick([5, 10, 25, 50])} mg of {meds[0]} every evening.")
    add("pet.vet", f"{pet}'s vet is Dr. {vet} at {clinic}.")
    add("pet.x1", f"The neighbour's {species[1]} {pets[1]} keeps digging under the fence.", "lookalike")
    add("pet.x2", f"{meds[1]} prices went up at the pharmacy.", "lookalike")
    ask("keyword", [f"How much {meds[0]} does {pet} take?", f"{meds[0]} dose for {pet}?"], "pet.meds")
    ask("keyword", [f"Where does Dr. {vet} work?", f"Which clinic is Dr. {vet} at?"], "pet.vet")
    ask("multi", [f"Tell me everything about {pet}.", f"What do I know about my {kind} {pet}?"],
        "pet.age", "pet.meds", "pet.vet")

    # Travel: the next trip (superseded for half the agents) and its flight, with past flights.
    dest, old_dest = cities[5], cities[4]
    when = f"{rng.randint(1, 28)} {pick(MONTHS)}"
    if rng.random() < 0.5:
        add("trip.old", f"I'm flying to {old_dest} in {pick(MONTHS)} for {pick(REASONS)}.",
            expect="superseded", claim=("user", "next_trip_to", old_dest), memory_type="event")
        add("trip", f"Change of plans: I'm flying to {dest} on {when} instead.", phase=2,
            claim=("user", "next_trip_to", dest), source="user_explicit", memory_type="event")
    else:
        add("trip", f"I'm flying to {dest} on {when} for {pick(REASONS)}.",
            claim=("user", "next_trip_to", dest), memory_type="event")
    add("flight", f"Booked {al} {flights[0]} with {airline}, departing {rng.randint(6, 21)}:{pick(['05', '20', '40'])} "
                  f"from gate {pick('ABCD')}{rng.randint(1, 40)}.", memory_type="event")
    add("flight.x1", f"Back in {rng.randint(2015, 2022)} I flew {al} {flights[1]} to {cities[3]}.", "lookalike")
    add("flight.x2", f"{al} {flights[2]} was cancelled last winter and I had to rebook.", "lookalike")
    add("trip.x1", f"{sister} is flying to {cities[0] if cities[0] != dest else cities[1]} in {pick(MONTHS)}.",
        "lookalike")
    add("trip.x2", f"Last year's trip to {cities[3]} was ruined by lost luggage.", "lookalike")
    ask("paraphrase", ["Where am I headed next?", "Where is my upcoming journey taking me?"], "trip")
    ask("keyword", [f"What time does {al} {flights[0]} depart?", f"Departure gate for {al} {flights[0]}?"], "flight")

    # Invoices and tickets: look-alike codes, one asked about.
    vendors, things = rng.sample(VENDORS, 6), rng.sample(INVOICE_ITEMS, 6)
    for i, (code, vendor, thing) in enumerate(zip(invoices, vendors, things, strict=True)):
        add(f"invoice.{i}", pick(["Invoice {c} from {v}: {t}, {a}, due {d}.",
                                  "{v} sent invoice {c} for {t} ({a}), payable by {d}."]).format(
            c=code, v=vendor, t=thing, a=f"€{rng.randint(80, 4000)}", d=f"{rng.randint(1, 28)} {pick(MONTHS)}"),
            memory_type="event")
    i = rng.randrange(6)
    ask("keyword", [f"What was invoice {invoices[i]} for?", f"Which vendor sent {invoices[i]}?",
                    f"When is {invoices[i]} due?"], f"invoice.{i}")
    ask("multi", ["Which invoices do I have to pay?", "List the bills I received from suppliers."],
        *(f"invoice.{i}" for i in range(6)))
    issues = rng.sample(ISSUES, 4)
    for i, (code, issue) in enumerate(zip(tickets, issues, strict=True)):
        add(f"ticket.{i}", f"Ticket {code}: {issue}; {pick(TICKET_STATUS)}.", memory_type="event")
    i = rng.randrange(4)
    ask("keyword", [f"What's the status of {tickets[i]}?", f"What is ticket {tickets[i]} about?"], f"ticket.{i}")
    ask("multi", ["Which IT support tickets have I filed?", "What problems did I report to IT?"],
        *(f"ticket.{i}" for i in range(4)))

    # Orders: product names are rare words.
    stores = rng.sample(STORES, 5)
    for i in range(4):
        add(f"order.{i}", f"Ordered the {products[i]} from {stores[i]}; it should arrive {pick(DAYS)}.",
            memory_type="event")
    add("order.x1", f"Wishlist for next year: the {products[4]} from {stores[4]}.", "lookalike")
    i = rng.randrange(4)
    ask("keyword", [f"Has my {products[i]} shipped yet?", f"Where did I order the {products[i]} from?"], f"order.{i}")
    ask("multi", ["What have I bought online recently?", "Which deliveries am I waiting for?"],
        *(f"order.{i}" for i in range(4)))

    # Wifi and project.
    password = "".join(rng.choice("abcdefghjkmnpqrstuvwxyz23456789") for _ in range(10))
    add("wifi", f"Home wifi {ssids[0]} password is {password}.")
    add("wifi.x1", f"The office network {ssids[1]} password rotates monthly.", "lookalike")
    ask("keyword", [f"Password for {ssids[0]}?", f"What's the {ssids[0]} wifi key?"], "wifi")
    add("project.deadline", f"Project {codenames[0]} is due on {rng.randint(1, 28)} {pick(MONTHS)}.")
    add("project.x1", f"Project {codenames[0]} kickoff notes are in the shared drive.", "lookalike")
    add("project.x2", f"Project {codenames[1]} deadline slipped by two weeks.", "lookalike")
    ask("keyword", [f"When is the {codenames[0]} deadline?", f"When is Project {codenames[0]} due?"],
        "project.deadline")

    # Long paragraphs that answer nothing: a session summary per topic, and a few documents that
    # touch every topic.
    for topic, sentences in SUMMARIES.items():
        chosen = rng.sample(sentences, min(len(sentences), rng.randint(5, 7)))
        add(f"long.{topic}", " ".join([pick(SUMMARY_OPENERS), *chosen]), "long", memory_type="other")
    for i in range(3):
        sentences = rng.sample(LONG_SENTENCES, rng.randint(4, 7))
        add(f"long.doc.{i}", " ".join([pick(LONG_OPENERS), *sentences]), "long", memory_type="other",
            source="document")

    # Unrelated filler up to the agent's size.
    for i in range(max(0, per_agent - len(items))):
        add(f"filler.{i}", f"{pick(FILLER_SUBJECTS)} {pick(FILLER_EVENTS)} {pick(FILLER_WHEN)}.", "filler",
            memory_type=pick(["event", "other", "fact"]))
    return items, queries


def build_corpus(agents: int, per_agent: int, seed: int) -> Corpus:
    corpus = Corpus()
    for a in range(agents):
        agent = f"rq-{a:02d}"
        rng = random.Random(f"{seed}:{agent}")
        items, by_kind = agent_corpus(agent, rng, per_agent)
        keys = [i.key for i in items]
        assert len(keys) == len(set(keys)), agent
        corpus.items[agent] = items
        for kind, n in QUERY_SPLIT.items():
            corpus.queries.extend(rng.sample(by_kind[kind], min(n, len(by_kind[kind]))))
        for item in items:
            corpus.new_memories[(agent, item.key)] = _new_memory(agent, item, rng)
    return corpus


def _new_memory(agent: str, item: Item, rng: random.Random) -> NewMemory:
    if item.source:
        source = item.source
    else:
        names, weights = FACT_SOURCES if item.role == "fact" else OTHER_SOURCES
        source = rng.choices(names, weights)[0]
    low, high = {"fact": (0.4, 0.9), "lookalike": (0.2, 0.8), "long": (0.2, 0.6), "filler": (0.1, 0.5)}[item.role]
    claim = Claim(subject=item.claim[0], predicate=item.claim[1], value=item.claim[2]) if item.claim else None
    return NewMemory(agent=agent, text=item.text, memory_type=item.memory_type,
                     importance=round(rng.uniform(low, high), 2), claim=claim, provenance=Provenance(source=source))


# -- measures ------------------------------------------------------------------------------------
def recall_at(ranked: list[str], relevant: set[str], k: int) -> float:
    return len(relevant & set(ranked[:k])) / len(relevant)


def reciprocal_rank(ranked: list[str], relevant: set[str]) -> float:
    return next((1 / r for r, i in enumerate(ranked, 1) if i in relevant), 0.0)


def line_of(item: ContextItem) -> str:
    """The memory's line as the context shows it (format_context of one item, headers dropped)."""
    return format_context([item]).rstrip("\n").splitlines()[-1]


def relevant_tokens(included: list[ContextItem], relevant: set[str]) -> int:
    lines = [line_of(i) for i in included if i.id in relevant]
    return chars_per_four("\n".join(lines)) if lines else 0


def answer_tokens(items: list[Item], relevant: tuple[str, ...]) -> int:
    """R: the tokens of all of a query's relevant memories' lines, whether retrieved or not."""
    by_key = {i.key: i for i in items}
    lines = [ContextItem(id=k, text=by_key[k].text, memory_type=by_key[k].memory_type, value=0.0) for k in relevant]
    return relevant_tokens(lines, set(relevant))


def plain_top_k(hits: list[SearchHit], budget: int) -> list[ContextItem]:
    """The largest prefix of the ranked hits whose formatted context fits the budget."""
    items = [ContextItem(id=h.memory.id, text=h.memory.text, memory_type=h.memory.memory_type, value=h.composite,
                         valid_from=h.memory.valid_from, valid_until=h.memory.valid_until) for h in hits]
    k = 0
    while k < len(items) and chars_per_four(format_context(items[:k + 1])) <= budget:
        k += 1
    return items[:k]


def exposed(ids: list[str], status_of: dict[str, str], claims: dict[str, tuple[str, str, str]]) -> str | None:
    """Why a set of shown memories exposes a contradiction, or None."""
    if any(status_of[i] in ("superseded", "quarantined") for i in ids):
        return "hidden status"
    values: dict[tuple[str, str], set[str]] = defaultdict(set)
    for i in ids:
        if i in claims and status_of[i] == "active":
            subject, predicate, value = claims[i]
            values[(subject, predicate)].add(value)
    return "conflicting claims" if any(len(v) > 1 for v in values.values()) else None


def _rrf(hits: list[SearchHit], k: int = 60) -> dict[str, float]:
    by_cosine = sorted(hits, key=lambda h: (-(h.similarity or 0.0), h.memory.id))
    by_keyword = sorted((h for h in hits if h.keyword_score is not None), key=lambda h: (-h.keyword_score, h.memory.id))
    scores = {h.memory.id: 1 / (k + rank) for rank, h in enumerate(by_cosine, 1)}
    for rank, h in enumerate(by_keyword, 1):
        scores[h.memory.id] += 1 / (k + rank)
    best = max(scores.values(), default=1.0)
    return {i: v / best for i, v in scores.items()}  # to [0, 1], so the rerank can weigh it


FUSIONS = {
    # name -> relevance of every candidate, from its cosine and (coverage-weighted) keyword score
    "calibrated relevance (shipped, issue 12)": lambda hits, best: {h.memory.id: h.score for h in hits},
    "normalised max, both retrievers (before issue 12)": lambda hits, best: {
        h.memory.id: max(min(1.0, max(0.0, h.similarity or 0.0) / best) if best > 0 else 0.0, h.keyword_score or 0.0)
        for h in hits},
    "normalised max, BM25 only (cosine as is)": lambda hits, best: {
        h.memory.id: min(1.0, max(max(0.0, h.similarity or 0.0), h.keyword_score or 0.0)) for h in hits},
    "reciprocal rank fusion, k = 60": lambda hits, best: _rrf(hits),
}


def _ablation_key(h: SearchHit, relevance: dict[str, float], reranked: bool) -> tuple:
    r = relevance[h.memory.id]
    if reranked:
        r = composite(replace(h.signals, relevance=r), Weights())
    return -r, h.memory.id


def fusion_ablation(hits: list[SearchHit], best: float, relevant: set[str], out: dict) -> None:
    """Ranks one query's candidates under each fusion, with and without the PRD rerank."""
    for name, relevance_of in FUSIONS.items():
        relevance = relevance_of(hits, best)
        for reranked in (False, True):
            ranked = [h.memory.id for h in sorted(hits, key=lambda h: _ablation_key(h, relevance, reranked))][:10]
            m = out[(name, reranked)]
            m["r10"].append(recall_at(ranked, relevant, 10))
            m["mrr"].append(reciprocal_rank(ranked, relevant))


def mean(values) -> float:
    values = list(values)
    return sum(values) / len(values) if values else float("nan")


async def store(services: Services, corpus: Corpus) -> tuple[dict[tuple[str, str], str], dict[str, str], list[str]]:
    """Writes phase 1, then phase 2; returns (agent, key) -> id, id -> final status, and anomalies."""
    ids: dict[tuple[str, str], str] = {}
    status: dict[str, str] = {}
    anomalies: list[str] = []
    for phase in (1, 2):
        todo = [(agent, item) for agent, items in corpus.items.items() for item in items if item.phase == phase]
        for start in range(0, len(todo), BATCH):
            chunk = todo[start:start + BATCH]
            results = await services.writes.store_many([corpus.new_memories[(a, i.key)] for a, i in chunk])
            for (agent, item), result in zip(chunk, results, strict=True):
                if result.deduplicated:
                    anomalies.append(f"{agent}/{item.key} was deduplicated into {result.memory.id}")
                ids[(agent, item.key)] = result.memory.id
                status[result.memory.id] = result.memory.status
                for old in result.superseded:
                    status[old] = "superseded"
    for agent, items in corpus.items.items():
        for item in items:
            got = status[ids[(agent, item.key)]]
            if got != item.expect:
                anomalies.append(f"{agent}/{item.key}: expected {item.expect}, stored {got}")
    return ids, status, anomalies


async def run(args: argparse.Namespace) -> tuple[str, str]:
    started = time.perf_counter()
    corpus = build_corpus(args.agents, args.per_agent, args.seed)
    own_dir = args.data_dir is None
    data_dir = Path(args.data_dir or tempfile.mkdtemp(prefix="credence-quality-"))
    if not own_dir and data_dir.exists() and any(data_dir.iterdir()):
        raise SystemExit(f"--data-dir {data_dir} is not empty; the benchmark needs a new graph")
    services = await Services.start(Settings(data_dir=data_dir, embedded_heap=args.heap))
    try:
        t0 = time.perf_counter()
        ids, status_of, anomalies = await store(services, corpus)
        ingest_seconds = time.perf_counter() - t0
        print(f"stored {len(ids):,} memories in {ingest_seconds:.1f} s", file=sys.stderr)
        claims = {ids[(a, i.key)]: i.claim for a, items in corpus.items.items() for i in items if i.claim}
        relevant_of = [{ids[(q.agent, k)] for k in q.relevant} for q in corpus.queries]
        for q, rel in zip(corpus.queries, relevant_of, strict=True):
            for i in rel:
                if status_of[i] != "active":
                    anomalies.append(f"relevant memory {i} of {q.agent!r} query {q.text!r} is {status_of[i]}")

        # 1. Recall and MRR per mode; one embedding per query text, shared by the four searches.
        t0 = time.perf_counter()
        embeddings = await services.encoder.encode([q.text for q in corpus.queries])
        per_mode: dict[str, dict[str, list[float]]] = {name: defaultdict(list) for name, _, _ in MODES}
        search_exposed = 0
        for q, rel, emb in zip(corpus.queries, relevant_of, embeddings, strict=True):
            for name, mode, rerank in MODES:
                result = await services.retrieval.search(
                    SearchQuery(agent=q.agent, text=q.text, limit=10, mode=mode, rerank=rerank), emb.tolist())
                ranked = [h.memory.id for h in result.hits]
                search_exposed += exposed(ranked, {h.memory.id: h.memory.status for h in result.hits},
                                          claims) is not None
                m = per_mode[name]
                m["r5"].append(recall_at(ranked, rel, 5))
                m["r10"].append(recall_at(ranked, rel, 10))
                m["mrr"].append(reciprocal_rank(ranked, rel))
                m[f"r10:{q.kind}"].append(recall_at(ranked, rel, 10))
        search_seconds = time.perf_counter() - t0
        print(f"searched {len(corpus.queries)} queries x {len(MODES)} modes in {search_seconds:.1f} s",
              file=sys.stderr)

        # 1b. Fusion ablation: every candidate of the pool (limit 100: pools of 300), fused three ways.
        ablation: dict[tuple[str, bool], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
        for q, rel, emb in zip(corpus.queries, relevant_of, embeddings, strict=True):
            result = await services.retrieval.search(
                SearchQuery(agent=q.agent, text=q.text, limit=100, rerank=None, track_access=False), emb.tolist())
            fusion_ablation(result.hits, result.best_similarity, rel, ablation)

        # 2. Contradiction exposure in default contexts.
        t0 = time.perf_counter()
        reasons: Counter[str] = Counter()
        context_sizes = []
        for q in corpus.queries:
            result = await services.context.context(
                ContextQuery(search=SearchQuery(agent=q.agent, text=q.text), max_memories=CONTEXT_MAX_MEMORIES))
            shown = [i.id for i in result.packed.included]
            context_sizes.append(len(shown))
            why = exposed(shown, {i: result.candidates[i].memory.status for i in shown}, claims)
            if why:
                reasons[why] += 1

        # 3. Token efficiency: plain top-K vs budget-aware packing at the same budget.
        efficiency: dict[int, dict[str, list[float]]] = {b: defaultdict(list) for b in BUDGETS}
        budget_exposed = 0
        for q, rel in zip(corpus.queries, relevant_of, strict=True):
            answer = answer_tokens(corpus.items[q.agent], q.relevant)
            ranked = await services.retrieval.search(
                SearchQuery(agent=q.agent, text=q.text, limit=2 * CONTEXT_MAX_MEMORIES, track_access=False))
            for budget in BUDGETS:
                e = efficiency[budget]
                top = plain_top_k(ranked.hits, budget)
                packed = (await services.context.context(ContextQuery(
                    search=SearchQuery(agent=q.agent, text=q.text), max_memories=CONTEXT_MAX_MEMORIES,
                    max_tokens=budget)))
                included = packed.packed.included
                budget_exposed += exposed([i.id for i in included],
                                          {i.id: packed.candidates[i.id].memory.status for i in included},
                                          claims) is not None
                for label, chosen in (("top", top), ("pack", included)):
                    used = chars_per_four(format_context(chosen))
                    assert used <= budget, (label, used, budget)
                    carried = relevant_tokens(chosen, rel)
                    e[f"{label}:waste"].append((min(answer, budget) - carried) / min(answer, budget))
                    e[f"{label}:unused"].append((budget - carried) / budget)
                    e[f"{label}:n"].append(len(chosen))
                    e[f"{label}:relevant"].append(sum(1 for i in chosen if i.id in rel))
                    e[f"{label}:used"].append(used)
        context_seconds = time.perf_counter() - t0
        print(f"built {len(corpus.queries) * (1 + len(BUDGETS))} contexts in {context_seconds:.1f} s",
              file=sys.stderr)
    finally:
        await services.close()
        if own_dir:
            shutil.rmtree(data_dir, ignore_errors=True)
    elapsed = time.perf_counter() - started

    n_queries = len(corpus.queries)
    statuses = Counter(status_of[i] for i in ids.values())
    kinds = Counter(q.kind for q in corpus.queries)
    rel_sizes = Counter(len(q.relevant) for q in corpus.queries)
    lines = []
    lines.append("| corpus | |")
    lines.append("| --- | --- |")
    lines.append(f"| memories | {len(ids):,} across {args.agents} agents ({statuses['active']:,} active, "
                 f"{statuses['superseded']} superseded, {statuses['quarantined']} quarantined; "
                 f"{sum(1 for i in corpus.items.values() for x in i if x.role == 'long')} long paragraphs) |")
    lines.append(f"| queries | {n_queries} ({', '.join(f'{kinds[k]} {k}' for k in KINDS)}); relevant memories "
                 f"per query: {', '.join(f'{n}: {c}' for n, c in sorted(rel_sizes.items()))} |")
    lines.append(f"| seed | {args.seed} |")
    lines.append(f"| status check | {'all stored as generated' if not anomalies else f'{len(anomalies)} anomalies'} |")
    lines.append(f"| elapsed | {elapsed:.0f} s (ingest {ingest_seconds:.0f} s, {len(MODES) * n_queries} searches "
                 f"{search_seconds:.0f} s, {n_queries * (1 + len(BUDGETS))} contexts and {n_queries} top-K searches "
                 f"{context_seconds:.0f} s) |")
    lines.append("")
    lines.append("| mode (search limit 10) | recall@5 | recall@10 | MRR | "
                 + " | ".join(f"recall@10, {k}" for k in KINDS) + " |")
    lines.append("| --- | --- | --- | --- | " + " | ".join("---" for _ in KINDS) + " |")
    for name, _, _ in MODES:
        m = per_mode[name]
        lines.append(f"| {name} | {mean(m['r5']):.3f} | {mean(m['r10']):.3f} | {mean(m['mrr']):.3f} | "
                     + " | ".join(f"{mean(m[f'r10:{k}']):.3f}" for k in KINDS) + " |")
    lines.append("")
    exposed_share = sum(reasons.values()) / n_queries * 100
    lines.append("| fusion (ablation over pools of 300) | recall@10 | MRR | recall@10 with rerank | MRR with rerank |")
    lines.append("| --- | --- | --- | --- | --- |")
    for name in FUSIONS:
        plain, reranked = ablation[(name, False)], ablation[(name, True)]
        lines.append(f"| {name} | {mean(plain['r10']):.3f} | {mean(plain['mrr']):.3f} | "
                     f"{mean(reranked['r10']):.3f} | {mean(reranked['mrr']):.3f} |")
    lines.append("")
    lines.append("| contradiction exposure | value |")
    lines.append("| --- | --- |")
    lines.append(f"| default contexts (max_memories {CONTEXT_MAX_MEMORIES}) with a superseded or quarantined memory "
                 f"or two active values of one exclusive claim | {exposed_share:.1f}% of {n_queries} contexts "
                 f"checked ({', '.join(f'{k}: {v}' for k, v in reasons.items()) or 'none'}); "
                 f"mean {mean(context_sizes):.1f} memories each |")
    lines.append(f"| the same check on every search result list above (4 modes) and every budgeted context | "
                 f"{search_exposed} of {len(MODES) * n_queries} result lists, {budget_exposed} of "
                 f"{len(BUDGETS) * n_queries} contexts |")
    lines.append("")
    lines.append("| budget B | waste: top-K / budget-aware | waste reduction | unused for the answer: top-K / "
                 "budget-aware | unused reduction | relevant included (top-K / packed) | "
                 "memories included (top-K / packed) | tokens used (top-K / packed) |")
    lines.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for budget in BUDGETS:
        e = efficiency[budget]
        top_w, pack_w = mean(e["top:waste"]), mean(e["pack:waste"])
        top_u, pack_u = mean(e["top:unused"]), mean(e["pack:unused"])
        lines.append(f"| {budget} | {top_w:.1%} / {pack_w:.1%} | {_reduction(top_w, pack_w)} | "
                     f"{top_u:.1%} / {pack_u:.1%} | {_reduction(top_u, pack_u)} | "
                     f"{mean(e['top:relevant']):.2f} / {mean(e['pack:relevant']):.2f} | "
                     f"{mean(e['top:n']):.1f} / {mean(e['pack:n']):.1f} | "
                     f"{mean(e['top:used']):.0f} / {mean(e['pack:used']):.0f} |")
    lines.append("")
    lines.append("R = tokens of all the query's relevant memories' lines, r = those a context includes "
                 "(chars_per_four); waste = (min(R, B) - r) / min(R, B), the share of the answer that would have fit"
                 " but was displaced; unused for the answer = (B - r) / B. Plain top-K = the largest prefix of the "
                 "default search (hybrid + rerank, limit 30) whose format_context fits B; budget-aware = "
                 "ContextQuery(max_tokens=B). Reduction = 1 - budget-aware / top-K (PRD target: at least 30% less "
                 "waste).")
    if anomalies:
        lines.append("")
        lines.append("Anomalies: " + "; ".join(anomalies[:10]) + (" ..." if len(anomalies) > 10 else ""))
    title = f"retrieval_quality, {len(ids):,} memories, {n_queries} queries"
    return title, "\n".join(lines)


def _reduction(baseline: float, ours: float) -> str:
    return f"{1 - ours / baseline:.1%}" if baseline > 0 else "n/a (no waste)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", type=int, default=24)
    parser.add_argument("--per-agent", type=int, default=100, help="memories per agent, filler included")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--heap", default="2g")
    parser.add_argument("--data-dir", help="an empty or new directory; default: a temporary one, removed after")
    parser.add_argument("--record", action="store_true", help="write the tables into docs/benchmarks.md")
    args = parser.parse_args()
    title, tables = asyncio.run(run(args))
    machine = (f"{date.today()}, {platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
               f"Python {platform.python_version()}")
    print(f"{title}\n{machine}\n\n{tables}")
    if args.record:
        record("retrieval-quality", f"### {title}\n\n{machine}\n\n{tables}\n")


if __name__ == "__main__":
    main()

"""Deterministic synthetic memories and queries for benchmarks: varied enough that vector search
has real work to do, generated from a seed so every run sees the same data."""
from __future__ import annotations

import random

SUBJECTS = ["The user", "The user's manager", "The customer", "The team lead", "The user's sister",
            "The landlord", "The project sponsor", "The on-call engineer", "The user's doctor", "The accountant"]
VERBS = ["prefers", "asked about", "decided on", "is worried about", "wants to change", "mentioned",
         "recommended", "complained about", "scheduled", "cancelled", "approved", "forgot about"]
OBJECTS = ["the quarterly budget", "a vegetarian menu", "the Berlin office move", "dark mode in the editor",
           "the database migration", "a trip to Lisbon", "the insurance renewal", "weekly status meetings",
           "the marathon training plan", "the new laptop order", "Portuguese lessons", "the kitchen renovation",
           "the incident postmortem", "the school enrolment", "a standing desk", "the API rate limits",
           "the tax return", "the wedding venue", "the cloud bill", "the hiring plan", "a cat-sitter",
           "the release checklist", "the dentist appointment", "the mortgage offer", "the conference talk"]
WHEN = ["on Monday", "last week", "yesterday", "this morning", "in March", "before the holidays",
        "after the review", "during the call", "in the team chat", "by email"]
DETAILS = ["with some urgency", "for the second time", "after comparing three options", "without much detail",
           "and wants a follow-up", "citing cost", "citing the deadline", "and shared a document",
           "to keep things simple", "as a top priority"]


def memory_texts(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return [f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} {rng.choice(WHEN)} "
            f"{rng.choice(DETAILS)} (note {i})" for i in range(n)]


def queries(n: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    forms = ["What did {s} say about {o}?", "Who {v} {o}?", "Anything about {o}?", "{s} and {o}"]
    return [rng.choice(forms).format(s=rng.choice(SUBJECTS).lower(), v=rng.choice(VERBS), o=rng.choice(OBJECTS))
            for _ in range(n)]

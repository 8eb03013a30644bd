"""Decisions and goals: typed memories with what followed them.

- decision: decision memories (the newest 200, in the window when there is one; about the topic
  when the question names one: the closest to it by cosine, and those near the closest), each with its outcomes: the
  memories linked to it by OUTCOME_OF (POST /v1/memories/{outcome}/links {type: OUTCOME_OF, to:
  decision}), oldest first.
- goal: open goals (active, not stored as how things were) and, when the question asks about the
  past ("my old goals", "goals I dropped"), closed ones too, each with the progress recorded on it
  (PROGRESS_ON edges) and when that was last."""
from __future__ import annotations

import asyncio
import re

from graph.asking.answers import cite, day, one_line, when
from graph.asking.model import Answer, Cited, FollowedUp
from graph.asking.past import describe, resolve_window
from graph.asking.reads import Reads
from graph.asking.route import Route
from graph.core.vocab import ACTIVE, ARCHIVED, SUPERSEDED
from graph.memories.model import Memory

MAX_TYPED = 200  # decisions or goals read for one question
MIN_COSINE, COSINE_SPREAD = 0.3, 0.15  # about the topic: at least this close, and near the closest

_CLOSED = re.compile(r"\b(?:dropped|abandoned|gave up|given up|finished|completed|done|achieved|old|former|past|"
                     r"previous|used to)\b")


async def _typed(reads: Reads, memory_type: str, route: Route, limit: int, statuses: tuple[str, ...],
                 explain: list[str]) -> list[Memory]:
    topic = route.slots.topic
    window = await resolve_window(reads, route.slots.window, None)
    shown = reads.shown(memory_types=(memory_type,), statuses=statuses)
    start, end = (window.start, window.end) if window and window.resolved else (None, None)
    if topic:
        # Among this tenant's memories of the type (a graph read, ids only), those about the topic: their
        # cosine to it (retrieval's hydrate, calibrated), the best one and any within COSINE_SPREAD of it.
        ids, vector = await asyncio.gather(reads.recent_ids(start=start, end=end, limit=MAX_TYPED, visibility=shown),
                                           reads.retrieval.embed(topic))
        near = await reads.retrieval.hydrate(ids, vector, shown) if ids else {}
        scored = sorted(((h.similarity or 0.0, h.memory) for h in near.values()), key=lambda p: (-p[0], p[1].id))
        best = scored[0][0] if scored else 0.0
        found = [m for i, (cosine, m) in enumerate(scored) if i == 0 or cosine >= max(MIN_COSINE, best - COSINE_SPREAD)]
        explain.append(f"the {memory_type} memories closest to {topic!r} (cosine {best:.2f} at best; kept within "
                       f"{COSINE_SPREAD} of it and at least {MIN_COSINE}): {len(found)} of {len(ids)}")
    else:
        found = [f.memory for f in await reads.recent(start=start, end=end, limit=limit, visibility=shown)]
        explain.append(f"the newest {memory_type} memories" + (f" in {describe(window)}" if window else ""))
    return sorted(found, key=lambda m: (when(m), m.id))[-limit:]


async def decision(reads: Reads, route: Route, limit: int) -> Answer:
    explain: list[str] = ["decision: decision memories, each with its outcomes (OUTCOME_OF edges)"]
    decisions = await _typed(reads, "decision", route, limit, (ACTIVE,), explain)
    outcomes = await reads.followups([m.id for m in decisions], "OUTCOME_OF")
    cited: dict[str, Cited] = {}
    items, lines = [], []
    for m in decisions:
        cite(cited, m, f"a decision of {day(when(m))}")
        later = outcomes.get(m.id, [])
        for o in later:
            cite(cited, o, f"an outcome of the decision {m.id} ({day(when(o))})")
        items.append(FollowedUp(m.id, "has_outcome" if later else "decided", tuple(o.id for o in later),
                                when(later[-1]) if later else None))
        lines.append(f"{day(when(m))}: {one_line(m)}" + "".join(f" → {day(when(o))}: {one_line(o)}" for o in later))
    return Answer(route=route, handler="decision", found=bool(decisions),
                  summary="\n".join(lines) or "No decision is remembered" + (
                      f" about {route.slots.topic}." if route.slots.topic else "."),
                  memories=tuple(cited.values()), decisions=tuple(items), explain=tuple(explain))


async def goal(reads: Reads, route: Route, question: str, limit: int) -> Answer:
    closed_too = route.wants_history or bool(_CLOSED.search(question.lower()))
    statuses = (ACTIVE, SUPERSEDED, ARCHIVED) if closed_too else (ACTIVE,)
    explain: list[str] = ["goal: goal memories" + (", closed ones too" if closed_too else ", open ones") +
                          ", each with the progress recorded on it (PROGRESS_ON edges)"]
    goals = await _typed(reads, "goal", route, limit, statuses, explain)
    if not closed_too:
        goals = [g for g in goals if not g.historical]
    progress = await reads.followups([g.id for g in goals], "PROGRESS_ON")
    cited: dict[str, Cited] = {}
    items, lines = [], []
    for g in goals:
        open_ = g.status == ACTIVE and not g.historical
        cite(cited, g, f"{'an open' if open_ else 'a closed'} goal, set {day(when(g))}")
        notes = progress.get(g.id, [])
        for n in notes:
            cite(cited, n, f"progress on the goal {g.id} ({day(when(n))})")
        items.append(FollowedUp(g.id, "open" if open_ else "closed", tuple(n.id for n in notes),
                                when(notes[-1]) if notes else None))
        lines.append(f"{'open' if open_ else 'closed'}: {one_line(g)}"
                     + (f" (last progress {day(when(notes[-1]))}: {one_line(notes[-1])})" if notes else
                        " (no progress recorded)"))
    return Answer(route=route, handler="goal", found=bool(goals), summary="\n".join(lines) or "No goal is known.",
                  memories=tuple(cited.values()), goals=tuple(items), explain=tuple(explain))

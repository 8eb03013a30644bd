"""Temporal and historical: answers in time order.

- temporal: the memories whose time (event_at, else valid_from, else when it was told) falls in
  the window the question names, oldest first; an event window ("before the move", "while I was on
  holiday") is dated by the memory that best matches the event first. A named entity keeps those
  that mention it; a topic, those a search for it finds inside the window.
- historical: every state of the slot asked about (claims of its predicate, and the names it is
  stored under), in order, each with its validity window, the one that holds now last and marked
  current; a window picks among them ("in 2019", "before the Golf"). Without claims for the slot,
  a search that shows superseded memories too, the historical and superseded ones first."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from graph.asking import windows
from graph.asking.answers import cite, day, one_line, when
from graph.asking.model import Answer, Cited, State, Window
from graph.asking.reads import Reads
from graph.asking.route import Route
from graph.core.vocab import ACTIVE, SUPERSEDED

DEFAULT_DAYS = 30  # a temporal question without a window ("what happened?") reads the last 30 days

# A slot as the router names it (canonical) and the predicates it may be stored under.
PREDICATES: dict[str, tuple[str, ...]] = {
    "lives_in": ("lives_in", "city", "home_city", "location", "home", "lives", "residence", "lives_at"),
    "works_at": ("works_at", "employer", "works_for", "company", "workplace"),
    "job_title": ("job_title", "title", "role", "position", "job", "occupation", "works_as"),
    "car": ("car", "drives", "vehicle"),
    "partner": ("partner", "spouse", "boyfriend", "girlfriend", "wife", "husband", "dating"),
    "school": ("school", "university", "college", "studies_at"),
    "phone": ("phone", "phone_number", "mobile"),
    "email": ("email", "email_address"),
    "diet": ("diet",),
    "hobby": ("hobby", "hobbies"),
    "pet": ("pet", "pets", "has_pet"),
    "manager": ("manager", "reports_to", "boss"),
    "gym": ("gym",),
    "doctor": ("doctor", "gp", "dentist"),
    "hair": ("hair", "hair_colour", "hair_color"),
    "team": ("team", "member_of"),
    "bank": ("bank",),
    "name": ("name", "full_name"),
    "favourite_food": ("favourite_food", "favorite_food"),
    "address": ("address", "home_address"),
}


async def resolve_window(reads: Reads, phrase: str | None, default_days: int | None) -> Window | None:
    """The route's window at the request's instant; an event window dated by the memory that best
    matches the event; with no phrase, the last `default_days` (None: no window)."""
    if not phrase:
        if default_days is None:
            return None
        return Window("the last 30 days", reads.now - timedelta(days=default_days), None, resolved=True)
    read = windows.resolve(phrase, reads.now)
    if read is None:
        return Window(phrase, None, None, resolved=False)
    if read.anchor is None:
        return Window(phrase, read.start, read.end, resolved=True)
    hits = await reads.search(read.anchor, limit=1, statuses=(ACTIVE, SUPERSEDED))
    if not hits:
        return Window(phrase, None, None, resolved=False, anchor=read.anchor)
    memory = hits[0].memory
    dated = windows.around_anchor(read, when(memory))
    return Window(phrase, dated.start, dated.end, resolved=True, anchor=read.anchor, anchor_memory_id=memory.id)


def _inside(at: datetime, window: Window) -> bool:
    return (window.start is None or at >= window.start) and (window.end is None or at < window.end)


def describe(window: Window) -> str:
    if not window.resolved:
        return f"{window.phrase!r} (not read as a time: no window)"
    anchor = f", dated by memory {window.anchor_memory_id}" if window.anchor_memory_id else ""
    return f"{window.phrase!r} = [{day(window.start)}, {day(window.end)}){anchor}"


async def temporal(reads: Reads, route: Route, limit: int) -> Answer:
    window = await resolve_window(reads, route.slots.window, DEFAULT_DAYS)
    assert window is not None
    start, end = (window.start, window.end) if window.resolved else (None, None)
    explain = [f"temporal: memories whose time falls in {describe(window)}, in time order"]
    if route.slots.topic and not route.slots.entity:
        hits = await reads.search(route.slots.topic, limit=50)
        found = sorted(((when(h.memory), h.memory) for h in hits if _inside(when(h.memory), window)),
                       key=lambda p: (p[0], p[1].id))[-limit:]
        explain.append(f"those a search for {route.slots.topic!r} finds ({len(hits)} searched)")
    else:
        rows = await reads.recent(start=start, end=end, mentions=list(route.slots.entity), limit=limit)
        found = [(f.at, f.memory) for f in rows]
        if route.slots.entity:
            explain.append(f"those that mention {', '.join(map(repr, route.slots.entity))}")
    cited: dict[str, Cited] = {}
    for at, m in found:
        cite(cited, m, f"its time {day(at)} is inside {window.phrase!r}")
    summary = "\n".join(f"{day(at)}: {one_line(m)}" for at, m in found) or \
        f"Nothing is remembered from {window.phrase}."
    return Answer(route=route, handler="temporal", found=bool(found), summary=summary,
                  memories=tuple(cited.values()), window=window, explain=tuple(explain))


def _states(rows: list[dict], now: datetime) -> list[State]:
    states = []
    for row in rows:
        m = row["memory"]
        # A past state (closed by a newer one) held in its own window; a belief replaced as wrong never did.
        believed = m.status == ACTIVE or (m.status == SUPERSEDED and m.valid_until is not None)
        holds = (believed and not m.historical and (m.valid_from is None or m.valid_from <= now)
                 and (m.valid_until is None or m.valid_until > now))
        value = m.claim.value if m.claim else one_line(m)
        states.append(State(memory_id=m.id, value=value, status=m.status, valid_from=m.valid_from or m.created_at,
                            valid_until=m.valid_until or m.superseded_at, current=holds, historical=m.historical,
                            superseded_by=row["superseded_by"]))
    # One current value, the newest that holds; it goes last.
    current = [s for s in states if s.current]
    for s in current[:-1]:
        states[states.index(s)] = replace(s, current=False)
    return sorted(states, key=lambda s: (s.current, s.valid_from or now))


async def historical(reads: Reads, route: Route, question: str, limit: int) -> Answer:
    slot = route.slots.predicate
    subjects = ["user", *route.slots.entity]
    rows = await reads.slot_history(subjects, list(PREDICATES.get(slot, (slot,)))) if slot else []
    window = await resolve_window(reads, route.slots.window, None)
    explain = [f"historical: every state of {slot!r} " + ("(its claims, oldest first, current last)" if rows else
                                                         "has no claim; a search that shows superseded memories")]
    cited: dict[str, Cited] = {}
    if rows:
        states = _states(rows, reads.now)
        memories = {r["memory"].id: r["memory"] for r in rows}
    else:
        hits = await reads.search(question, limit=limit, statuses=(ACTIVE, SUPERSEDED))
        memories = {h.memory.id: h.memory for h in hits}
        states = _states([{"memory": h.memory, "superseded_by": h.superseded_by} for h in hits
                          if h.memory.historical or h.memory.status == SUPERSEDED or (h.memory.claim is not None
                          and h.memory.claim.predicate in PREDICATES.get(slot or "", ()))], reads.now)
    picked = states
    if window is not None and window.resolved:
        picked = [s for s in states if (window.end is None or (s.valid_from or reads.now) < window.end)
                  and (window.start is None or s.valid_until is None or s.valid_until > window.start)]
        explain.append(f"the states that held in {describe(window)}: {len(picked)} of {len(states)}")
    elif window is not None and window.anchor:
        before = next((i for i, s in enumerate(states) if window.anchor.lower().removeprefix("the ") in
                       s.value.lower()), None)
        if before is not None:
            picked = states[:before]
            explain.append(f"the states before the one naming {window.anchor!r}")
    for s in states:
        mark = "current" if s.current else ("historical" if s.historical else s.status)
        cite(cited, memories[s.memory_id], f"a state of {slot or 'the slot'}: {s.value!r} valid "
                                           f"{day(s.valid_from)} to {'now' if s.current else day(s.valid_until)} "
                                           f"({mark})")
    lines = [f"{s.value} ({day(s.valid_from)} to {'now' if s.current else day(s.valid_until)}"
             f"{', current' if s.current else ''})" for s in picked]
    return Answer(route=route, handler="historical", found=bool(states),
                  summary=(f"{slot}: " if slot else "") + "; ".join(lines) if lines else "No past value is known.",
                  memories=tuple(cited.values()), timeline=tuple(states), window=window, explain=tuple(explain))

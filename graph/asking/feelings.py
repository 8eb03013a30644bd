"""Sentiment: how the user feels about one thing, over time, from the sentiment stored on each
memory at write time (graph/memories/sentiment.py), and where it is heading (trend.py).

A named entity is read from the graph: the memories that mention it or one of its aliases. A
topic ("my job", "running") is what a search for it finds with a relevance of at least
MIN_RELEVANCE. A window ("lately") splits the readings into before and inside it; with the
historical marker ("how did I use to feel") the readings before the window come first."""
from __future__ import annotations

from graph.asking.answers import cite, day, when
from graph.asking.model import Answer, Cited, Reading
from graph.asking.past import describe, resolve_window
from graph.asking.reads import Reads
from graph.asking.route import Route
from graph.asking.trend import trend_of

MIN_RELEVANCE = 0.3  # calibrated relevance (docs/retrieval.md): below it a memory is not about the topic


async def sentiment(reads: Reads, route: Route, question: str, limit: int) -> Answer:
    names = list(route.slots.entity)
    explain = []
    if names:
        aliases = []
        for name in names:
            found = await reads.entity_named(name)
            aliases += [found.name, *found.aliases] if found else []
        about = names[0]
        rows = await reads.recent(mentions=list(dict.fromkeys([*names, *aliases])), limit=200)
        memories = [(f.at, f.memory) for f in rows]
        explain.append(f"sentiment: the memories that mention {', '.join(map(repr, names))} (by their words' stems)")
    else:
        about = route.slots.topic or question
        hits = await reads.search(about, limit=50)
        memories = [(when(h.memory), h.memory) for h in hits if h.score >= MIN_RELEVANCE]
        explain.append(f"sentiment: the memories a search for {about!r} finds with relevance >= {MIN_RELEVANCE} "
                       f"({len(memories)} of {len(hits)})")
    window = await resolve_window(reads, route.slots.window, None)
    readings = [Reading(m.id, at, m.sentiment) for at, m in memories if m.sentiment is not None]
    feeling = trend_of(about, readings, since=window.start if window and window.resolved else None)
    explain.append(f"trend: mean before vs {'inside ' + describe(window) if window else 'the later half'}, "
                   f"±0.15 on VADER's compound score")
    cited: dict[str, Cited] = {}
    by_id = {m.id: m for _, m in memories}
    for r in feeling.readings[-limit:]:
        cite(cited, by_id[r.memory_id], f"{day(r.at)}: sentiment {r.score:+.2f}")
    if not readings:
        summary = f"Nothing remembered says how the user feels about {about}."
    else:
        summary = (f"About {about}: {len(readings)} readings, mean {feeling.recent_mean:+.2f} recently"
                   + (f" against {feeling.earlier_mean:+.2f} before" if feeling.earlier_mean is not None else "")
                   + f"; trend {feeling.trend}.")
    return Answer(route=route, handler="sentiment", found=bool(readings), summary=summary,
                  memories=tuple(cited.values()), feeling=feeling, window=window, explain=tuple(explain))

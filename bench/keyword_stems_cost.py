"""What matching stems costs: a small tenant's keyword scan with stems (this tree's
retrieval/keyword_exact: CONTAINS over each memory's stored stems) against the scan it replaced
(whole-word regular expressions over each memory's text, main's statement, registered here under
another name), interleaved query by query on one graph; and the Python side (stemming a memory's
text on write, a search's terms on search, naming a search's keyword hits' matched terms by
re-stemming their texts against reading the statement's lists) and the stored stems' size. The stems
arm no longer returns its hits' texts (their matched terms come listed), the whole-word arm still does.

    .venv/bin/python bench/keyword_stems_cost.py [--data-dir /tmp/stems-cost] [--memories 450] [--queries 300]

The full-text index a large tenant goes through is not compared: the old index over whole words is
dropped at start-up, so both cannot be asked on one graph. Timings on a shared machine are noisy:
compare the two arms within one run."""
from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.corpus import memory_texts, queries
from graph.embedding import encoder as embedder
from graph.language import stems
from graph.memories.model import NewMemory
from graph.retrieval import SearchQuery, Visibility, keywords
from graph.services import Services
from graph.settings import Settings
from graph.store.registry import _parse

AGENT = "stems-cost"
# The small tenant's scan before keyword search matched stems (main at 6cac2d1), verbatim but its name.
WHOLE_WORDS = "bench/keyword_exact_whole_words"
WHOLE_WORDS_TEXT = """// params: scan_cap, patterns, needles, agent, statuses, sensitivities, session_id, as_of, \
known_at, history, memory_types, tags, created_after, created_before, event_after, event_before, exclude_needles, \
exclude_patterns, explain
// returns: one
MATCH (m:Memory {agent: $agent})
WHERE m.status IN $statuses
WITH m LIMIT $scan_cap
WITH collect(m) AS pool, avg(size(split(m.text, ' '))) AS average_words
UNWIND CASE WHEN 0 < size(pool) < $scan_cap THEN pool ELSE [null] END AS m
WITH size(pool) AS candidates, average_words, m,
     CASE WHEN m IS NULL THEN [] ELSE
       [i IN range(0, size($patterns) - 1)
          WHERE toLower(m.text) CONTAINS $needles[i] AND toLower(m.text) =~ $patterns[i]] END AS matched
WITH candidates, average_words, m, matched, CASE
  WHEN m IS NULL THEN 'not_scored'
  // include: retrieval/visibility
END AS reason
WITH candidates, average_words,
     collect(CASE WHEN size(matched) > 0 AND (reason IS NULL OR $explain)
                  THEN {id: m.id, matched: matched, words: size(split(m.text, ' ')), reason: reason,
                        confidence: coalesce(m.confidence, m.trust, 0.5), importance: coalesce(m.importance, 0.5),
                        updated_ms: coalesce(m.updated_at, m.created_at).epochMillis,
                        event_ms: CASE WHEN m.event_at IS NOT NULL THEN m.event_at.epochMillis END,
                        threaded: m.thread IS NOT NULL,
                        text: CASE WHEN reason IS NULL THEN m.text END} END) AS hits
RETURN candidates, average_words, hits
"""


def whole_word_patterns(terms: list[str]) -> list[str]:
    return [f"(?s).*\\b{re.escape(t)}\\b.*" for t in terms]


def per_call_us(fn, items: list, rounds: int = 5) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for x in items:
            fn(x)
        best = min(best, (time.perf_counter() - started) / len(items) * 1e6)
    return best


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=Path, default=Path(tempfile.gettempdir()) / "credence-stems-cost")
    parser.add_argument("--memories", type=int, default=450)
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    texts, asked = memory_texts(args.memories), queries(args.queries)

    print(f"stemming a memory's text on write: {per_call_us(stems.stored, texts):.1f} µs per memory "
          f"({statistics.mean(len(t) for t in texts):.0f} characters on average)")
    print(f"a search's terms stemmed: {per_call_us(lambda q: keywords.stemmed(keywords.terms(q)), asked):.1f} µs "
          f"per search (terms alone: {per_call_us(keywords.terms, asked):.1f} µs)")
    stored = [stems.stored(t) for t in texts]
    print(f"stored stems: {statistics.mean(len(s) for s in stored):.0f} characters per memory on average, "
          f"{sum(map(len, stored)) / sum(map(len, texts)):.2f} of the text's")
    # Naming a search's keyword hits' matched terms: re-stemming each hit's text (keywords.hits, what the
    # search did before) against reading the indices the statement lists (what it does unless capped).
    hits_of = [(list(keywords.stemmed(keywords.terms(q)).stems), texts[n % 4::4][:100])
               for n, q in enumerate(asked[:50])]
    listed = [(terms, [[i for i, t in enumerate(terms) if stems.needle(t) in stems.stored(x)] for x in hit_texts])
              for terms, hit_texts in hits_of]
    restemmed = per_call_us(lambda h: [keywords.hits(h[0], x) for x in h[1]], hits_of) / 1000
    from_indices = per_call_us(lambda h: [tuple(h[0][i] for i in sorted(m)) for m in h[1]], listed) / 1000
    print(f"naming the matched terms of 100 keyword hits a search: re-stemming their texts {restemmed:.2f} ms, "
          f"from the statement's indices {from_indices:.3f} ms (over {len(hits_of)} corpus queries)")

    model = embedder.load_embedder(None, args.data_dir / "models")
    settings = Settings(data_dir=args.data_dir / "embedded", backend="embedded", neo4j_uri=None)
    services = await Services.start(settings, model)
    try:
        registry = services.runner.registry
        registry._queries[WHOLE_WORDS] = _parse(WHOLE_WORDS, registry._expand(WHOLE_WORDS, WHOLE_WORDS_TEXT))
        marker = args.data_dir / "loaded"
        if not marker.exists():
            for start in range(0, len(texts), 256):
                await services.writes.store_many([NewMemory(agent=AGENT, text=t) for t in texts[start:start + 256]])
            marker.write_text(str(len(texts)))
        times: dict[str, list[float]] = {"stems": [], "whole words": []}
        same = 0
        for n, q in enumerate(asked * 2):
            params = Visibility.of(SearchQuery(agent=AGENT, text=q), explain=False).params()
            terms = keywords.stemmed(keywords.terms(q))
            words = keywords.terms(q)
            arms = [("stems", "retrieval/keyword_exact", {"needles": keywords.needles(list(terms.stems))}),
                    ("whole words", WHOLE_WORDS, {"patterns": whole_word_patterns(words), "needles": words})]
            found = {}
            for name, statement, matching in (arms if n % 2 else arms[::-1]):
                started = time.perf_counter()
                row = await services.runner.read_one(statement, scan_cap=settings.exact_scan_max + 1, **matching,
                                                     **params)
                times[name].append((time.perf_counter() - started) * 1000)
                found[name] = {h["id"] for h in row["hits"]}
            same += found["stems"] >= found["whole words"]
        for name, ms in times.items():
            ms = ms[len(asked):]  # the second pass: warm
            ms.sort()
            print(f"{name}: median {statistics.median(ms):.2f} ms, p95 {ms[int(0.95 * len(ms))]:.2f} ms "
                  f"over {len(ms)} scans of {len(texts)} memories")
        print(f"the stems' hits held the whole words' hits in {same} of {2 * len(asked)} scans")
    finally:
        await services.close()


if __name__ == "__main__":
    asyncio.run(main())

"""RealMem loader: every dialogue turn is a turn ("User: ..." or "Assistant: ..."); a question is
a user query turn, asked after everything before its session (the service's `event_before`
filter keeps later turns out); its evidence is the turns the answer's `memory_used` entries were
extracted from (matched through the session's `extracted_memory`: same content, then the source
turn by its text). Queries whose evidence cannot be traced to an earlier turn are dropped.

Turns carry only a date per session; a session's turns are placed at date + (its order among
that date's sessions) hours + (turn index) seconds, so the order is kept."""
from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.datasets.common import Dataset, Question, Turn, data_dir
from bench.datasets.fetch_realmem import COMMIT, FILES, PERSONAS, REPO


def _norm(text: str) -> str:
    return " ".join(text.split())


def _source_turn(session: dict, memory: dict) -> int | None:
    snapshot = _norm(memory.get("source_content_snapshot") or "")[:80]
    if not snapshot:
        return None
    for i, turn in enumerate(session["dialogue_turns"]):
        if _norm(turn["content"]).startswith(snapshot):
            return i
    return None


def load(root: Path | None = None, personas: int = 4) -> Dataset | None:
    """personas: how many of the ten (in the fetch script's order) to load, to bound the run."""
    root = root or data_dir("realmem")
    files = [root / f for f in FILES]
    if not all(f.exists() for f in files):
        return None
    conversations, questions, dropped = {}, [], 0
    for person, path in list(zip(PERSONAS, files, strict=True))[:personas]:
        sessions = json.loads(path.read_text())["dialogues"]
        turns, at, per_day = [], {}, {}
        for s in sessions:
            day = datetime.strptime(s["current_time"].split(" ")[0], "%Y-%m-%d").replace(tzinfo=UTC)
            order = per_day[day] = per_day.get(day, -1) + 1
            start = day + timedelta(hours=order)
            at[s["session_uuid"]] = start
            for i, t in enumerate(s["dialogue_turns"]):
                turns.append(Turn(key=f"{person}:{s['session_uuid']}:{i}",
                                  text=f"{t['speaker']}: {t['content'].strip()}",
                                  event_at=start + timedelta(seconds=i), thread=f"{person}:{s['session_uuid']}"))
        conversations[person] = turns
        by_uuid = {s["session_uuid"]: s for s in sessions}
        for s in sessions:
            dialogue = s["dialogue_turns"]
            for i, t in enumerate(dialogue):
                if not t.get("is_query"):
                    continue
                answer = dialogue[i + 1] if i + 1 < len(dialogue) else {}
                evidence = set()
                for used in answer.get("memory_used") or []:
                    source = by_uuid.get(used.get("session_uuid"))
                    if source is None or at[source["session_uuid"]] >= at[s["session_uuid"]]:
                        continue
                    content = _norm(used.get("content") or "")
                    for memory in source.get("extracted_memory") or []:
                        mine = _norm(memory.get("content") or "")
                        if mine and (mine == content or mine in content or content in mine):
                            j = _source_turn(source, memory)
                            if j is not None:
                                evidence.add(f"{person}:{source['session_uuid']}:{j}")
                if not evidence:
                    dropped += 1
                    continue
                questions.append(Question(conversation=person, text=t["content"].strip(), evidence=frozenset(evidence),
                                          kind=t.get("category_name") or "query", before=at[s["session_uuid"]],
                                          own_turn=f"{person}:{s['session_uuid']}:{i}"))
    return Dataset(name="RealMem", licence="Apache-2.0", source=f"github.com/{REPO}@{COMMIT[:10]}",
                   conversations=conversations, questions=questions,
                   notes=[f"first {personas} of 10 personas (deterministic, to fit the run in minutes)",
                          f"{dropped} queries whose evidence could not be traced to an earlier turn dropped"])

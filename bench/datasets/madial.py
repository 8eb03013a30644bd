"""MADial-Bench loader (English). A "conversation" is a user: the memories of their archive are
the turns (the event text, dated by its day), and the split is by user, so one of the two users'
archive and dialogues is the tuning half and the other's the test half.

A question is a test dialogue up to the turn where the assistant should recall (its first test
turn): the lines before it, "Name: what was said", joined, as an agent would search its memory with
the conversation so far (with user_lines_only, only the user's lines: a sensitivity check of that
choice, not the default). Its evidence is the dialogue's `relevant-id` memories (all in the same
user's archive). Its kind is the scene of the evidence memories (Activity, Preferences, Emotional,
Others), or "mixed" when they differ. The dialogues carry no date, so every memory may answer."""
from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

from bench.datasets.common import Dataset, Question, Turn, data_dir
from bench.datasets.fetch_madial import COMMIT, DIALOGUES, MEMORIES, REPO

USERS = {1: "Bart", 2: "Lisa"}  # user-id in the dialogues -> the name the memories of their archive carry
_LINE = re.compile(r'^<([^>]+)>:\s*"?(.*?)"?\s*$', re.S)


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _said(line: str) -> str | None:
    """'<Bart>: "Hi!"' -> 'Bart: Hi!'; None for the <BOD>/<EOD> markers."""
    m = _LINE.match(line.strip())
    return f"{m.group(1)}: {m.group(2).strip()}" if m else None


def _owner(event: str) -> str:
    owners = [name for name in USERS.values() if re.search(rf"\b{name}\b", event)]
    if len(owners) != 1:
        raise ValueError(f"a MADial memory names {owners or 'no user'}, not exactly one: {event[:80]!r}")
    return owners[0]


def load(root: Path | None = None, user_lines_only: bool = False) -> Dataset | None:
    root = root or data_dir("madial")
    if not all((root / f).exists() for f in (MEMORIES, DIALOGUES)):
        return None
    memories = {int(k): v for entry in _lines(root / MEMORIES) for k, v in entry.items()}
    conversations: dict[str, list[Turn]] = {name: [] for name in USERS.values()}
    for mid, m in sorted(memories.items(), key=lambda kv: (kv[1]["time"], kv[0])):
        day = datetime.strptime(m["time"], "%Y-%m-%d").replace(tzinfo=UTC)
        conversations[_owner(m["event"])].append(Turn(key=f"memory{mid}", text=m["event"].strip(), event_at=day))
    questions = []
    for d in _lines(root / DIALOGUES):
        user = USERS[d["user-id"]]
        context = [s for s in (_said(line) for line in d["dialogue"][:min(d["test-turn"])])
                   if s and not (user_lines_only and s.startswith("Assistant:"))]
        scenes = {memories[r]["scene"] for r in d["relevant-id"]}
        questions.append(Question(conversation=user, text="\n".join(context),
                                  evidence=frozenset(f"memory{r}" for r in d["relevant-id"]),
                                  kind=scenes.pop() if len(scenes) == 1 else "mixed"))
    return Dataset(name="MADial", licence="MIT", source=f"github.com/{REPO}@{COMMIT[:10]}",
                   conversations=conversations, questions=questions,
                   notes=["English data; one memory archive per user, split by user (one user per half)",
                          "a question is " + ("the user's lines" if user_lines_only else "the dialogue")
                          + " before its first test turn"])

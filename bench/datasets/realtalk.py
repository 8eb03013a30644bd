"""REALTALK loader: every message is a turn (its sender's name before its text, as a memory
system storing a chat would), said at the message's own time; every question with at least one
evidence id found among the turns is kept (bench/datasets/fetch_realtalk.py)."""
from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

from bench.datasets.common import Dataset, Question, Turn, data_dir
from bench.datasets.fetch_realtalk import COMMIT, FILES, REPO

KINDS = {1: "fact", 2: "date", 3: "inference"}


def _when(text: str) -> datetime:
    return datetime.strptime(text.strip(), "%d.%m.%Y, %H:%M:%S").replace(tzinfo=UTC)


def load(root: Path | None = None, chats: int | None = None) -> Dataset | None:
    """chats: how many of the ten (in FILES' order) to load, to bound a run; default all."""
    root = root or data_dir("realtalk")
    files = [root / f for f in FILES]
    if not all(f.exists() for f in files):
        return None
    conversations, questions, dropped = {}, [], 0
    for path in files[:chats]:
        chat = re.sub(r"^Chat_(\d+)_.*$", r"chat\1", path.stem)
        raw = json.loads(path.read_text())
        turns = []
        sessions = sorted(int(k.split("_")[1]) for k in raw if re.fullmatch(r"session_\d+", k))
        for n in sessions:
            for message in raw[f"session_{n}"]:
                text = (message.get("clean_text") or "").strip()
                if not text:
                    continue
                when = _when(message.get("date_time") or raw[f"session_{n}_date_time"])
                turns.append(Turn(key=f"{chat}:{message['dia_id']}", text=f"{message['speaker']}: {text}",
                                  event_at=when, thread=f"{chat}:session_{n}"))
        conversations[chat] = turns
        keys = {t.key for t in turns}
        for qa in raw["qa"]:
            evidence = frozenset(f"{chat}:{e.strip()}" for e in qa.get("evidence", [])) & keys
            if not evidence:
                dropped += 1
                continue
            questions.append(Question(conversation=chat, text=qa["question"], evidence=evidence,
                                      kind=KINDS.get(qa.get("category"), str(qa.get("category")))))
    notes = [f"first {chats} of {len(FILES)} chats (deterministic, to bound the run)"] if chats else []
    return Dataset(name="REALTALK", licence="none stated (used locally, not redistributed)",
                   source=f"github.com/{REPO}@{COMMIT[:10]}", conversations=conversations, questions=questions,
                   notes=notes + ([f"{dropped} questions without a resolvable evidence turn dropped"]
                                  if dropped else []))

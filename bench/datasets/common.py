"""What every dataset loader yields: conversations of turns (one memory each) and questions whose
evidence is a set of turn keys. Pure."""
from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

DATA_ROOT = Path(__file__).resolve().parents[1] / "data"


@dataclass(frozen=True)
class Turn:
    key: str  # unique within the dataset
    text: str  # "Speaker: what was said", stored as the memory's text
    event_at: datetime  # when it was said
    thread: str | None = None  # the session it was said in, when the dataset has sessions


@dataclass(frozen=True)
class Question:
    conversation: str
    text: str
    evidence: frozenset[str]  # turn keys
    kind: str
    before: datetime | None = None  # only turns said before this may answer (the question is asked then)
    own_turn: str | None = None  # the question is itself a stored turn: never counted


@dataclass
class Dataset:
    name: str
    licence: str
    source: str  # repository and commit
    conversations: dict[str, list[Turn]]  # conversation id -> turns in order
    questions: list[Question]
    notes: list[str] = field(default_factory=list)


def data_dir(name: str) -> Path:
    """Where a dataset's files are: $CREDENCE_BENCH_DATA/<name>, else bench/data/<name>."""
    root = os.environ.get("CREDENCE_BENCH_DATA")
    return (Path(root) if root else DATA_ROOT) / name


def split(conversation_ids: list[str], seed: int) -> tuple[list[str], list[str]]:
    """Tuning and test halves by conversation (never by question: a conversation's questions share
    its turns), seeded and independent of file order."""
    ids = sorted(conversation_ids)
    random.Random(seed).shuffle(ids)
    half = len(ids) // 2
    return sorted(ids[:half]), sorted(ids[half:])

"""The MADial-Bench loader (bench/datasets/madial.py) on a small archive in its file format: who owns
a memory, what a question is, and what its evidence is."""
import json
from datetime import UTC, datetime

import pytest

from bench.datasets import madial
from bench.datasets.common import split
from bench.datasets.fetch_madial import DIALOGUES, MEMORIES


def write(root, memories: dict, dialogues: list[dict]) -> None:
    (root / MEMORIES).parent.mkdir(parents=True)
    (root / MEMORIES).write_text("".join(json.dumps({k: v}) + "\n" for k, v in memories.items()))
    (root / DIALOGUES).write_text("".join(json.dumps(d) + "\n" for d in dialogues))


def memory(day: str, scene: str, event: str) -> dict:
    return {"time": day, "scene": scene, "emotion": "Happy", "event": event}


MEMORIES_OF_BOTH = {
    "1": memory("2023-12-25", "Activity", "Bart danced at the Christmas party and felt very happy."),
    "2": memory("2023-03-07", "Activity", "Bart won the 100 meters at the sports festival."),
    "3": memory("2024-04-03", "Others", "Lisa planted flowers with her neighbour Old Li."),
}
DIALOGUE = {"dialogue": ["<BOD>\n", '<Bart>: "I will dance tonight!"\n', '<Assistant>: "Great! What music?"\n',
                         '<Bart>: "Pop music."\n', '<Assistant>: "Remember the Christmas party?"\n', "<EOD>\n"],
            "test-turn": [4], "relevant-id": [1, 2], "user-id": 1}


def test_absent_files_load_nothing(tmp_path):
    assert madial.load(tmp_path) is None


def test_each_users_archive_holds_their_memories_in_date_order(tmp_path):
    write(tmp_path, MEMORIES_OF_BOTH, [DIALOGUE])
    ds = madial.load(tmp_path)
    assert [t.key for t in ds.conversations["Bart"]] == ["memory2", "memory1"]
    assert [t.key for t in ds.conversations["Lisa"]] == ["memory3"]
    assert ds.conversations["Lisa"][0].event_at == datetime(2024, 4, 3, tzinfo=UTC)
    assert ds.conversations["Lisa"][0].text == "Lisa planted flowers with her neighbour Old Li."


def test_a_question_is_the_dialogue_before_its_test_turn(tmp_path):
    write(tmp_path, MEMORIES_OF_BOTH, [DIALOGUE])
    [q] = madial.load(tmp_path).questions
    assert q.conversation == "Bart"
    assert q.text == "Bart: I will dance tonight!\nAssistant: Great! What music?\nBart: Pop music."
    assert q.evidence == frozenset({"memory1", "memory2"})
    assert q.kind == "Activity" and q.before is None and q.own_turn is None
    [user_only] = madial.load(tmp_path, user_lines_only=True).questions
    assert user_only.text == "Bart: I will dance tonight!\nBart: Pop music."


def test_evidence_of_different_scenes_is_a_mixed_question(tmp_path):
    write(tmp_path, MEMORIES_OF_BOTH, [dict(DIALOGUE, **{"relevant-id": [1], "user-id": 1}),
                                       {"dialogue": ["<BOD>\n", '<Lisa>: "Flowers!"\n', '<Assistant>: "Yes"\n'],
                                        "test-turn": [2], "relevant-id": [3], "user-id": 2}])
    ds = madial.load(tmp_path)
    assert [q.kind for q in ds.questions] == ["Activity", "Others"]
    mixed = dict(MEMORIES_OF_BOTH, **{"2": memory("2023-03-07", "Preferences", "Bart likes mango ice cream.")})
    write(tmp_path / "mixed", mixed, [DIALOGUE])
    assert [q.kind for q in madial.load(tmp_path / "mixed").questions] == ["mixed"]


def test_a_memory_naming_neither_or_both_users_is_refused(tmp_path):
    write(tmp_path, {"1": memory("2023-01-01", "Others", "Bart and Lisa met.")}, [])
    with pytest.raises(ValueError, match="not exactly one"):
        madial.load(tmp_path)


def test_the_split_puts_one_user_in_each_half():
    tune, test = split(["Bart", "Lisa"], 12)
    assert sorted(tune + test) == ["Bart", "Lisa"] and len(tune) == len(test) == 1

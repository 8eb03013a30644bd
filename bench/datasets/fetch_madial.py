"""MADial-Bench (He et al., NAACL 2025; MIT): memory-augmented dialogues. Each of two users has a
memory archive of dated personal events (what happened and how they felt), and each test dialogue
is labelled with the turn where the assistant should recall memories and the archive ids of the
memories that turn relies on.

    .venv/bin/python -m bench.datasets.fetch_madial [--git-dir PATH]

Copies the English memory archive and dialogues (data/en/) into bench/data/madial/."""
from bench.datasets.fetch import fetch

REPO, COMMIT = "hejunqing/MADial-Bench", "572e3a10d6d01852a65e4508e0b3ab2a00d0710c"
MEMORIES, DIALOGUES = "data/en/MADial-Bench-en-memory.json", "data/en/MADial-Bench-en-dialogue.json"
FILES = [MEMORIES, DIALOGUES]

if __name__ == "__main__":
    fetch("madial", REPO, COMMIT, FILES, __doc__)

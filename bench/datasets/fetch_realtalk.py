"""REALTALK (Lee et al., 2025): 21 days of real messaging-app conversations between ten pairs of
people, with memory-probing questions whose evidence is labelled turn by turn.

    .venv/bin/python -m bench.datasets.fetch_realtalk [--git-dir PATH]

Copies data/Chat_*.json (only those: the repository's data/locomo/ is LoCoMo, reserved as an
external holdout, and is never fetched) into bench/data/realtalk/. The repository states no
licence: the files are used here for local evaluation only and never redistributed."""
from bench.datasets.fetch import fetch

REPO, COMMIT = "danny911kr/REALTALK", "b903e06a9770bf4e5fe9018c3e132889666d3b4a"
FILES = [f"data/Chat_{i}_{names}.json" for i, names in (
    (1, "Emi_Elise"), (2, "Kevin_Elise"), (3, "Kevin_Paola"), (4, "Emi_Paola"), (5, "Nicolas_Nebraas"),
    (6, "Vanessa_Nicolas"), (7, "Nebraas_Vanessa"), (8, "Akib_Muhhamed"), (9, "Fahim_Akib"), (10, "Fahim_Muhhamed"))]

if __name__ == "__main__":
    fetch("realtalk", REPO, COMMIT, FILES, __doc__)

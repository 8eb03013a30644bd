"""RealMem (RealMemBench, 2026; Apache-2.0): simulated multi-session user-assistant dialogues of
ten personas, where later user queries rely on memories extracted from earlier turns, each
memory labelled with the session and turn it came from.

    .venv/bin/python -m bench.datasets.fetch_realmem [--git-dir PATH]

Copies dataset/*_dialogues_256k.json into bench/data/realmem/."""
from bench.datasets.fetch import fetch

REPO, COMMIT = "zhiyuan5986/RealMemBench", "067c486a525b0811ef9cb8cb5ad258e286d0ce7e"
PERSONAS = ["Adeleke_Okonjo", "Ethan_Hunt", "Kenta_Tanaka", "Kim_Ji_young", "Liam_O_Connor", "Lin_Wanyu",
            "Oliver_Smith", "Pak_Budi", "Sarah_Miller", "Sophie_Dubois"]
FILES = [f"dataset/{p}_dialogues_256k.json" for p in PERSONAS]

if __name__ == "__main__":
    fetch("realmem", REPO, COMMIT, FILES, __doc__)

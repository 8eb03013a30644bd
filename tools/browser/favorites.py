"""Packs the operators' saved queries (cypher/operators/*.cypher) into one zip that Neo4j Browser
imports as favorites: drop the zip anywhere on the Browser window and every .cypher file in it
becomes a favorite, in a folder named after the zip's folder ("Credence operators").

Browser 5.24 does this in its FileDrop component (src/browser/components/FileDrop): a dropped
`.zip` goes through `readZipFiles`, which keeps the `.cypher` entries, takes each entry's
folder as the favorite's folder, and its content verbatim; a favorite's name is its first line
without the leading `//`. The files are copied byte for byte, so a favorite is the file.

    .venv/bin/python tools/browser/favorites.py [OUT.zip]     # default: ./credence-operators.zip
"""
from __future__ import annotations

import sys
import zipfile
from pathlib import Path

OPERATORS = Path(__file__).resolve().parents[2] / "cypher" / "operators"
FOLDER = "Credence operators"


def write_favorites(out: Path) -> list[str]:
    """Write the zip; return its entry names."""
    names = []
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(OPERATORS.glob("*.cypher")):
            name = f"{FOLDER}/{path.name}"
            zf.writestr(name, path.read_text())
            names.append(name)
    return names


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "credence-operators.zip")
    names = write_favorites(out)
    print(f"{out}: {len(names)} favorites in folder '{FOLDER}'; drop it on Neo4j Browser's window")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
